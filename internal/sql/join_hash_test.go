package sql

import "testing"

// TestHashJoinFallback: a table larger than the hash join's memory bound is
// scanned per outer row instead, with the same answer.
func TestHashJoinFallback(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s,
		"CREATE DATABASE d", "USE d",
		"CREATE TABLE a (id INT PRIMARY KEY, k INT)",
		"CREATE TABLE b (id INT PRIMARY KEY, k INT, pad VARCHAR(100))",
		"INSERT INTO a VALUES (1, 1), (2, 2), (3, 3), (4, NULL)",
		"INSERT INTO b VALUES (10, 1, REPEAT('x', 100)), (11, 2, REPEAT('y', 100)), (12, 2, ''), (13, NULL, ''), (14, 9, '')",
	)
	const q = "SELECT a.id, b.id FROM a JOIN b ON b.k = a.k ORDER BY a.id, b.id"
	run := func() (rows string, rndNext int) {
		t.Helper()
		rows, reads := handlerReads(t, s, q)
		return rows, reads["Handler_read_rnd_next"]
	}
	const want = "1 10 2 11 2 12 "
	rows, hashed := run()
	if rows != want || hashed != 11 { // a: 4 rows + end, b: 5 rows + end, once
		t.Fatalf("hash join: rows %q, Handler_read_rnd_next %d", rows, hashed)
	}
	defer func(n int) { hashJoinMaxBytes = n }(hashJoinMaxBytes)
	hashJoinMaxBytes = 200 // b does not fit
	rows, looped := run()
	// a read once (5), the abandoned build, then b scanned per row of a
	// (4 × 6)
	if rows != want || looped < 5+4*6 {
		t.Fatalf("fallback: rows %q, Handler_read_rnd_next %d", rows, looped)
	}
}

package sql

import "testing"

// TestDecorrelateSwitch: a subquery correlated by an equality starts
// correlated and, once it has read as many rows as its tables hold, runs
// its uncorrelated form once and looks rows up in a hash: the reads stop
// growing with the outer rows, and the answers are those of the correlated
// form.
func TestDecorrelateSwitch(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s,
		"CREATE DATABASE d", "USE d",
		"CREATE TABLE dig (n INT PRIMARY KEY)",
		"INSERT INTO dig VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)",
		"CREATE TABLE big (id INT PRIMARY KEY, k INT)",
		"INSERT INTO big SELECT a.n*100 + b.n*10 + c.n, (a.n*100 + b.n*10 + c.n) % 13 FROM dig a, dig b, dig c",
		"CREATE TABLE small (id INT PRIMARY KEY, k INT, w INT)",
		"INSERT INTO small SELECT a.n*10 + b.n, (a.n*10 + b.n) % 17, b.n FROM dig a, dig b",
		"ANALYZE TABLE big, small",
	)
	for _, tc := range []struct{ q, want string }{
		// Answers checked against MariaDB 10.11.
		{"SELECT COUNT(*), SUM(id) FROM big WHERE EXISTS (SELECT 1 FROM small WHERE small.k = big.k AND small.w = 3)", "538 268731 "},
		{"SELECT COUNT(*) FROM big WHERE NOT EXISTS (SELECT 1 FROM small WHERE small.k = big.k AND small.w = big.id % 10)", "416 "},
		{"SELECT SUM((SELECT COUNT(*) FROM small WHERE small.k = big.k)) FROM big", "6000 "},
		{"SELECT COUNT(*) FROM big WHERE big.id % 10 IN (SELECT w FROM small WHERE small.k = big.k)", "584 "},
	} {
		rows, counts := handlerReads(t, s, tc.q)
		reads := 0
		for _, n := range counts {
			reads += n
		}
		if rows != tc.want {
			t.Errorf("%s: got %q, want %q", tc.q, rows, tc.want)
		}
		// Correlated throughout: 1000 outer rows × a 100-row scan. After
		// the switch: the budget (one scan's worth), the uncorrelated
		// form once, and the outer scan.
		if reads > 5000 {
			t.Errorf("%s: %d rows read; the subquery did not switch to its decorrelated form", tc.q, reads)
		}
	}
}

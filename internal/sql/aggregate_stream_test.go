package sql

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"
)

// TestStreamAggregateDifferential: GROUP BY read through an index whose
// columns lead the grouping (stream aggregation) answers what hashing every
// group answers (the same query with the index ignored), with NULLs, a
// case- and trailing-space-insensitive collation, equality-fixed leading
// columns, IN lists, HAVING, reverse scans, LIMIT and a join.
func TestStreamAggregateDifferential(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(10), c INT, KEY kab (a, b), KEY kb (b))",
		"CREATE TABLE u (x INT PRIMARY KEY, y INT)")
	rnd := rand.New(rand.NewSource(3))
	strs := []string{"'x'", "'X'", "'x '", "'y'", "'Y'", "'z'", "NULL", "''"}
	num := func(n int) string {
		if rnd.Intn(7) == 0 {
			return "NULL"
		}
		return fmt.Sprint(rnd.Intn(n))
	}
	for id := 1; id <= 400; id++ {
		checkExec(t, s, fmt.Sprintf("INSERT INTO t VALUES (%d, %s, %s, %s)", id, num(6), strs[rnd.Intn(len(strs))], num(20)))
	}
	for x := 0; x < 20; x += 2 {
		checkExec(t, s, fmt.Sprintf("INSERT INTO u VALUES (%d, %d)", x, x*10))
	}
	ctx := context.Background()
	rows := func(q string) string {
		t.Helper()
		res, err := s.Query(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		out := make([]string, len(res.Rows))
		for i, r := range res.Rows {
			var b strings.Builder
			for _, v := range r {
				b.WriteString(strings.ToLower(strings.TrimRight(v.ToString(), " ")))
				b.WriteByte('|')
			}
			out[i] = b.String()
		}
		sort.Strings(out)
		return strings.Join(out, "\n")
	}
	for _, c := range []struct{ hint, rest string }{
		{"FORCE INDEX (kab)", "GROUP BY a"},
		{"FORCE INDEX (kab)", "GROUP BY a, b"},
		{"FORCE INDEX (kab)", "GROUP BY b, a"},
		{"FORCE INDEX (kb)", "GROUP BY b"},
		{"FORCE INDEX (kb)", "GROUP BY b, id"},
		{"FORCE INDEX (kab)", "WHERE a = 3 GROUP BY b"},
		{"FORCE INDEX (kab)", "WHERE a IN (1, 2) GROUP BY a, b"},
		{"FORCE INDEX (kab)", "WHERE a > 1 GROUP BY a HAVING COUNT(*) > 20"},
		{"FORCE INDEX (kab)", "GROUP BY a ORDER BY a DESC"},
		{"FORCE INDEX (kab)", "GROUP BY a ORDER BY a LIMIT 3"},
		{"", "GROUP BY id HAVING SUM(c) > 10"},
	} {
		for _, sel := range []string{"COUNT(*), SUM(c), MIN(id), MAX(b), COUNT(DISTINCT c), GROUP_CONCAT(id ORDER BY id)"} {
			cols := "a, b, "
			if strings.Contains(c.rest, "GROUP BY a") && !strings.Contains(c.rest, "b") {
				cols = "a, "
			} else if strings.HasPrefix(c.rest, "GROUP BY b") || strings.Contains(c.rest, "WHERE a = 3") {
				cols = "b, "
			} else if strings.Contains(c.rest, "GROUP BY id") {
				cols = "id, "
			}
			stream := fmt.Sprintf("SELECT %s%s FROM t %s %s", cols, sel, c.hint, c.rest)
			hashed := fmt.Sprintf("SELECT %s%s FROM t IGNORE INDEX (kab, kb) %s", cols, sel, strings.Replace(c.rest, "GROUP BY id", "GROUP BY id + 0", 1))
			ex, err := s.Query(ctx, "EXPLAIN FORMAT=TREE "+stream)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(ex.Rows[0][0].ToString(), "Group aggregate") {
				t.Errorf("%s does not stream:\n%s", stream, ex.Rows[0][0].ToString())
			}
			if got, want := rows(stream), rows(hashed); got != want {
				t.Errorf("%s\n%s\nhashed (%s):\n%s", stream, got, hashed, want)
			}
		}
	}
	// Leading columns with several values interleave the groups: these
	// must not stream, and answer as hashing does.
	for _, q := range []string{
		"SELECT b, COUNT(*), SUM(c) FROM t FORCE INDEX (kab) WHERE a IN (1, 2) GROUP BY b",
		"SELECT b, COUNT(*), SUM(c) FROM t FORCE INDEX (kab) WHERE a > 2 GROUP BY b",
	} {
		ex, err := s.Query(ctx, "EXPLAIN FORMAT=TREE "+q)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(ex.Rows[0][0].ToString(), "Group aggregate") {
			t.Errorf("%s streams:\n%s", q, ex.Rows[0][0].ToString())
		}
		hashed := strings.Replace(q, "FORCE INDEX (kab)", "IGNORE INDEX (kab, kb)", 1)
		if got, want := rows(q), rows(hashed); got != want {
			t.Errorf("%s\n%s\nhashed:\n%s", q, got, want)
		}
	}
	// A join whose first table is grouped.
	j := "SELECT t.a, COUNT(*), SUM(u.y) FROM t %s JOIN u ON u.x = t.c GROUP BY t.a"
	if got, want := rows(fmt.Sprintf(j, "FORCE INDEX (kab)")), rows(fmt.Sprintf(j, "IGNORE INDEX (kab, kb)")); got != want {
		t.Errorf("join: %s\nhashed:\n%s", got, want)
	}
}

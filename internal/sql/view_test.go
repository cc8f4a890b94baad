package sql

import (
	"context"
	"errors"
	"sort"
	"strconv"
	"strings"
	"testing"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"
)

// errNum returns the MySQL error number of err (0 for nil or a non-SQL
// error).
func errNum(err error) int {
	var se *sqlerror.SQLError
	if errors.As(err, &se) {
		return int(se.Num)
	}
	return 0
}

// TestViewPrivileges: SQL SECURITY DEFINER reads the base table with the
// definer's rights, INVOKER with the session's; a plan of an INVOKER view
// is never shared (one root planned must not let another account skip the
// base-table check); SHOW CREATE VIEW needs SHOW VIEW; a missing definer
// is 1449.
func TestViewPrivileges(t *testing.T) {
	ctx := context.Background()
	eng, root := newTestEngine(t)
	checkExec(t, root, "CREATE DATABASE d", "USE d",
		"CREATE TABLE secret (id INT PRIMARY KEY, v INT)", "INSERT INTO secret VALUES (1, 42)",
		"CREATE VIEW v_def AS SELECT v FROM secret",
		"CREATE SQL SECURITY INVOKER VIEW v_inv AS SELECT v FROM secret",
		"CREATE DEFINER = 'nobody'@'%' VIEW v_gone AS SELECT v FROM secret",
		"CREATE USER 'ro'@'localhost'",
		"GRANT SELECT ON d.v_def TO 'ro'@'localhost'", "GRANT SELECT ON d.v_inv TO 'ro'@'localhost'",
		"GRANT SELECT ON d.v_gone TO 'ro'@'localhost'")
	// root plans the INVOKER view first.
	if res, err := root.Query(ctx, "SELECT v FROM v_inv"); err != nil || resText(res) != "42" {
		t.Fatalf("root SELECT v_inv: %v", err)
	}
	ro := eng.NewSession("ro", "localhost")
	t.Cleanup(ro.Close)
	checkExec(t, ro, "USE d")
	for _, c := range []struct {
		sql  string
		want int // error number; 0: the row 42
	}{
		{"SELECT v FROM v_def", 0},
		{"SELECT v FROM v_def WHERE v = 42", 0},
		{"SELECT v FROM secret", 1142},
		{"SELECT v FROM v_inv", 1356},
		{"SELECT v FROM v_gone", 1449},
		{"SHOW CREATE VIEW v_def", 1142},
		{"SHOW CREATE TABLE v_def", 1142},
		{"SELECT v FROM v_def", 0},
	} {
		res, err := ro.Query(ctx, c.sql)
		if got := errNum(err); got != c.want {
			t.Errorf("%s: error %v, want %d", c.sql, err, c.want)
		} else if c.want == 0 && resText(res) != "42" {
			t.Errorf("%s = %s, want 42", c.sql, resText(res))
		}
	}
	// Writing through an INVOKER view needs the privilege on the table.
	checkExec(t, root, "GRANT UPDATE ON d.v_inv TO 'ro'@'localhost'", "GRANT UPDATE ON d.v_def TO 'ro'@'localhost'")
	if _, err := ro.Query(ctx, "UPDATE v_inv SET v = 1"); errNum(err) != 1142 {
		t.Errorf("UPDATE through an INVOKER view without UPDATE on its table: %v, want 1142", err)
	}
	if res, err := ro.Query(ctx, "UPDATE v_def SET v = 43"); err != nil || res.RowsAffected != 1 {
		t.Errorf("UPDATE through a DEFINER view: %v %v", res, err)
	}
	checkExec(t, root, "GRANT SHOW VIEW ON d.v_def TO 'ro'@'localhost'", "GRANT SELECT ON d.secret TO 'ro'@'localhost'")
	for _, q := range []string{"SHOW CREATE VIEW v_def", "SHOW CREATE TABLE v_def", "SELECT v FROM v_inv"} {
		if _, err := ro.Query(ctx, q); err != nil {
			t.Errorf("%s after GRANT: %v", q, err)
		}
	}
}

// TestViewPlanInvalidation: a cached plan that expanded a view is planned
// again after CREATE OR REPLACE, DROP of its table, and a restored table.
func TestViewPlanInvalidation(t *testing.T) {
	ctx := context.Background()
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT)", "INSERT INTO t VALUES (1, 10), (2, 20)",
		"CREATE VIEW v AS SELECT id, a FROM t WHERE a > 10")
	q := "SELECT id, a FROM v WHERE id > 0"
	step := func(want string, wantErr int) {
		t.Helper()
		for i := 0; i < 2; i++ { // the second run uses the cached plan
			res, err := s.Query(ctx, q)
			if errNum(err) != wantErr || (wantErr == 0 && resText(res) != want) {
				t.Fatalf("run %d: %v %v, want %q / error %d", i, res, err, want, wantErr)
			}
		}
	}
	step("2,20", 0)
	checkExec(t, s, "CREATE OR REPLACE VIEW v AS SELECT id, a * 2 AS a FROM t")
	step("1,20;2,40", 0)
	checkExec(t, s, "DROP TABLE t")
	step("", 1356)
	checkExec(t, s, "CREATE TABLE t (id INT PRIMARY KEY, a INT)", "INSERT INTO t VALUES (3, 1)")
	step("3,2", 0)
	checkExec(t, s, "ALTER TABLE t DROP COLUMN a")
	step("", 1356)
}

// TestViewRecursion: a view that comes to reference itself through
// CREATE OR REPLACE answers 1462 instead of expanding forever.
func TestViewRecursion(t *testing.T) {
	ctx := context.Background()
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d",
		"CREATE VIEW v1 AS SELECT 1 AS x", "CREATE VIEW v2 AS SELECT x FROM v1",
		"CREATE OR REPLACE VIEW v1 AS SELECT x FROM v2")
	for _, q := range []string{"SELECT * FROM v1", "SELECT * FROM v2", "SELECT * FROM v1 JOIN v2 USING (x)", "DELETE FROM v1", "INSERT INTO v2 VALUES (1)"} {
		if _, err := s.Query(ctx, q); errNum(err) != 1462 {
			t.Errorf("%s: %v, want 1462", q, err)
		}
	}
}

// TestViewMergeExplain: a query on a mergeable view plans on the base
// table and its indexes; a view that is not mergeable is a derived table.
func TestViewMergeExplain(t *testing.T) {
	ctx := context.Background()
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT, KEY ka (a))", "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)",
		"CREATE VIEW vm AS SELECT id, a + 1 AS a1, a FROM t WHERE a > 10",
		"CREATE VIEW vmm AS SELECT id AS k, a1 FROM vm",
		"CREATE ALGORITHM=TEMPTABLE VIEW vt AS SELECT id, a FROM t",
		"CREATE VIEW vg AS SELECT a, COUNT(*) AS n FROM t GROUP BY a")
	for _, c := range []struct{ sql, table, key string }{
		{"EXPLAIN SELECT a1 FROM vm WHERE id = 2", "t", "PRIMARY"},
		{"EXPLAIN SELECT * FROM vm WHERE a = 20", "t", "ka"},
		{"EXPLAIN SELECT a1 FROM vmm WHERE k = 3", "t", "PRIMARY"},
		{"EXPLAIN SELECT * FROM vt WHERE id = 2", "vt", "<auto_key0>"},
		{"EXPLAIN SELECT * FROM vg WHERE a = 20", "vg", "<auto_key0>"},
	} {
		res, err := s.Query(ctx, c.sql)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		if got, key := res.Rows[0][2].ToString(), res.Rows[0][6].ToString(); got != c.table || key != c.key {
			t.Errorf("%s: table %s key %s, want %s %s", c.sql, got, key, c.table, c.key)
		}
	}
	for _, c := range []struct{ sql, want string }{
		{"SELECT a1 FROM vm WHERE id = 2", "21"},
		{"SELECT k, a1 FROM vmm ORDER BY k", "2,21;3,31"},
		{"SELECT * FROM vm ORDER BY id DESC LIMIT 1", "3,31,30"},
		{"SELECT COUNT(*), SUM(a1) FROM vm", "2,52"},
	} {
		res, err := s.Query(ctx, c.sql)
		if err != nil || resText(res) != c.want {
			t.Errorf("%s = %v %v, want %s", c.sql, res, err, c.want)
		}
	}
}

// TestViewText pins the canonical text a view's query is stored and shown
// in.
func TestViewText(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d", "CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(5))",
		"CREATE TABLE u (id INT PRIMARY KEY, c INT)")
	for _, c := range []struct{ create, stored, shown string }{
		{"CREATE VIEW v1 AS SELECT * FROM t", "select `t`.`id` AS `id`,`t`.`a` AS `a`,`t`.`b` AS `b` from `d`.`t`",
			"select `t`.`id` AS `id`,`t`.`a` AS `a`,`t`.`b` AS `b` from `t`"},
		{"CREATE VIEW v2 AS SELECT a + 1, b x FROM t WHERE a > 1 AND b = 'q' ORDER BY x",
			"select (`t`.`a` + 1) AS `a + 1`,`t`.`b` AS `x` from `d`.`t` where ((`t`.`a` > 1) and (`t`.`b` = 'q')) order by `x` asc",
			"select (`t`.`a` + 1) AS `a + 1`,`t`.`b` AS `x` from `t` where ((`t`.`a` > 1) and (`t`.`b` = 'q')) order by `x` asc"},
		{"CREATE VIEW v3 AS SELECT t.id, c FROM t JOIN d.u AS uu ON uu.id = t.id",
			"select `t`.`id` AS `id`,`uu`.`c` AS `c` from `d`.`t` join `d`.`u` `uu` on (`uu`.`id` = `t`.`id`)",
			"select `t`.`id` AS `id`,`uu`.`c` AS `c` from `t` join `u` `uu` on (`uu`.`id` = `t`.`id`)"},
		{"CREATE VIEW v5 AS SELECT b, CONCAT(b, 'x'), COUNT(*) AS n FROM t GROUP BY b, a ORDER BY b, n DESC",
			"select `t`.`b` AS `b`,concat(`t`.`b`,'x') AS `CONCAT(b, 'x')`,count(0) AS `n` from `d`.`t` group by `t`.`b`,`t`.`a` order by `t`.`b` asc,`n` desc",
			"select `t`.`b` AS `b`,concat(`t`.`b`,'x') AS `CONCAT(b, 'x')`,count(0) AS `n` from `t` group by `t`.`b`,`t`.`a` order by `t`.`b` asc,`n` desc"},
		{"CREATE VIEW v4 (k, d) AS SELECT id, a * 2 FROM t",
			"select `t`.`id` AS `id`,(`t`.`a` * 2) AS `a * 2` from `d`.`t`",
			"select `t`.`id` AS `id`,(`t`.`a` * 2) AS `a * 2` from `t`"},
	} {
		checkExec(t, s, c.create)
		stmt, err := s.eng.Parser.Parse(c.create)
		if err != nil {
			t.Fatal(err)
		}
		v := s.eng.Cat.View("d", stmt.(*sqlparser.CreateView).ViewName.Name.String())
		if v == nil {
			t.Fatalf("%s: no view", c.create)
		}
		if v.Select != c.stored {
			t.Errorf("%s: stored\n %s\nwant\n %s", c.create, v.Select, c.stored)
		}
		if got := s.viewDefinition(v); got != c.shown {
			t.Errorf("%s: shown\n %s\nwant\n %s", c.create, got, c.shown)
		}
	}
}

// TestViewDeepNesting: a chain of 40 mergeable views plans on the base
// table, and once the table is gone answers 1356 without planning
// exponentially often.
func TestViewDeepNesting(t *testing.T) {
	ctx := context.Background()
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d", "CREATE TABLE t (id INT PRIMARY KEY, a INT)", "INSERT INTO t VALUES (1, 5)",
		"CREATE VIEW n0 AS SELECT id, a FROM t WHERE a > 0")
	for i := 1; i < 40; i++ {
		checkExec(t, s, "CREATE VIEW n"+strconv.Itoa(i)+" AS SELECT id, a + 1 AS a FROM n"+strconv.Itoa(i-1)+" WHERE id > 0")
	}
	res, err := s.Query(ctx, "SELECT a FROM n39 WHERE id = 1")
	if err != nil || resText(res) != "44" {
		t.Fatalf("n39: %v %v", res, err)
	}
	res, err = s.Query(ctx, "EXPLAIN SELECT a FROM n39 WHERE id = 1")
	if err != nil || res.Rows[0][2].ToString() != "t" || res.Rows[0][4].ToString() != "const" {
		t.Fatalf("EXPLAIN n39: %v %v", res, err)
	}
	checkExec(t, s, "DROP TABLE t")
	if _, err := s.Query(ctx, "SELECT a FROM n39"); errNum(err) != 1356 {
		t.Fatalf("n39 without its table: %v, want 1356", err)
	}
}

// TestViewMergeDifferential runs queries over views merged and unmerged
// (every view a derived table) and compares the rows, column names and
// errors: the merge must never change an answer.
func TestViewMergeDifferential(t *testing.T) {
	ctx := context.Background()
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(10), KEY ka (a))",
		"INSERT INTO t VALUES (1, 10, 'x'), (2, 20, 'y'), (3, 30, 'z'), (4, NULL, NULL), (5, 20, 'y')",
		"CREATE TABLE u (id INT PRIMARY KEY, c INT, a INT)",
		"INSERT INTO u VALUES (1, 100, 1), (3, 300, 3), (5, 500, 5), (6, 600, 6)",
		"CREATE VIEW v AS SELECT id, a + 1 AS a1, b, 7 AS k FROM t WHERE a > 10",
		"CREATE VIEW vu AS SELECT id AS uid, c FROM u WHERE c < 550",
		"CREATE VIEW vv AS SELECT id, a1 * 2 AS a2, b FROM v WHERE id > 1",
		"CREATE VIEW vt AS SELECT t.id, t.a FROM t",
		"CREATE VIEW vagg AS SELECT a, COUNT(*) AS n FROM t GROUP BY a")
	queries := []string{
		"SELECT * FROM v",
		"SELECT id, a1 FROM v WHERE id = 2",
		"SELECT a1 + 1, b FROM v ORDER BY a1 DESC, id",
		"SELECT b, COUNT(*), SUM(a1) FROM v GROUP BY b ORDER BY b",
		"SELECT b, COUNT(*) FROM v GROUP BY b HAVING COUNT(*) > 1",
		"SELECT DISTINCT b FROM v ORDER BY b",
		"SELECT * FROM v LIMIT 1 OFFSET 1",
		"SELECT k, id FROM v WHERE k = 7 AND a1 > 21",
		"SELECT v.*, u.c FROM v JOIN u ON u.id = v.id",
		"SELECT v.id, c FROM v, u WHERE u.id = v.id AND c > 100",
		"SELECT * FROM v JOIN vu ON vu.uid = v.id",
		"SELECT * FROM vu JOIN v ON v.id = vu.uid ORDER BY v.id",
		"SELECT * FROM v JOIN t ON t.id = v.id",
		"SELECT v.id, t.a FROM v JOIN t ON t.id = v.id WHERE t.a = 20",
		"SELECT * FROM vv",
		"SELECT a2 FROM vv JOIN u ON u.id = vv.id",
		"SELECT x.id, y.id FROM v AS x JOIN v AS y ON x.a1 = y.a1 AND x.id < y.id",
		"SELECT * FROM v JOIN vagg ON vagg.a + 1 = v.a1",
		"SELECT id, a FROM vt WHERE a = 20",
		"SELECT a FROM v",
		"SELECT t.a FROM v",
		"SELECT id FROM v JOIN u ON u.id = v.id",
		"SELECT c FROM v JOIN u ON u.id = v.id WHERE a = 1",
		"SELECT a1 AS b, b FROM v ORDER BY b",
		"SELECT * FROM v LEFT JOIN u ON u.id = v.id",
		"SELECT * FROM u LEFT JOIN v ON u.id = v.id",
		"SELECT * FROM v RIGHT JOIN u ON u.id = v.id",
		"SELECT * FROM u RIGHT JOIN v ON u.id = v.id AND v.a1 > 21",
		"SELECT v.id, k, c FROM v LEFT JOIN u ON u.id = v.id AND u.c > 100 WHERE v.a1 < 40 ORDER BY v.id",
		"SELECT vu.uid, v.k FROM vu LEFT JOIN v ON v.id = vu.uid",
		"SELECT v.id, vu.c FROM v LEFT JOIN vu ON vu.uid = v.id",
		"SELECT * FROM v STRAIGHT_JOIN u ON u.id = v.id",
		"SELECT COUNT(*) FROM v, vu",
		"SELECT id, ROW_NUMBER() OVER (ORDER BY a1 DESC) FROM v",
		"SELECT b, COUNT(*), SUM(a1) FROM v GROUP BY b WITH ROLLUP",
		"SELECT * FROM vagg",
		// u.a only: t (under v) has an a too.
		"SELECT a, a + 1, c FROM v JOIN u ON u.id = v.id ORDER BY a",
		"SELECT a FROM vu JOIN u ON u.id = vu.uid WHERE a > 1 GROUP BY a",
	}
	run := func(q string, noMerge bool) string {
		s.noMerge = noMerge
		defer func() { s.noMerge = false }()
		res, err := s.Query(ctx, q)
		if err != nil {
			return "error " + strconv.Itoa(errNum(err))
		}
		var names []string
		for _, f := range res.Fields {
			names = append(names, f.Name)
		}
		rows := strings.Split(resText(res), ";")
		sort.Strings(rows)
		return strings.Join(names, ",") + " | " + strings.Join(rows, ";")
	}
	for _, q := range queries {
		// Different texts: the plan cache keeps a plan per text.
		merged := run(q, false)
		plain := run(q+" ", true)
		if merged != plain {
			t.Errorf("%s\n merged: %s\nderived: %s", q, merged, plain)
		}
	}
	// The joins with mergeable views read the base tables.
	for _, q := range []string{
		"EXPLAIN SELECT v.*, u.c FROM v JOIN u ON u.id = v.id",
		"EXPLAIN SELECT * FROM v JOIN t ON t.id = v.id",
		"EXPLAIN SELECT * FROM v JOIN vu ON vu.uid = v.id",
		"EXPLAIN SELECT a, c FROM v JOIN u ON u.id = v.id",
		"EXPLAIN SELECT * FROM v LEFT JOIN u ON u.id = v.id",
	} {
		res, err := s.Query(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for _, r := range res.Rows {
			if strings.HasPrefix(r[6].ToString(), "<auto_key") {
				t.Errorf("%s: a derived table is read: %v", q, res.Rows)
			}
		}
	}
}

package parse

import (
	"testing"

	"vitess.io/vitess/go/vt/sqlparser"
)

func TestRepair(t *testing.T) {
	p := sqlparser.NewTestParser()
	for _, c := range []struct{ in, want string }{
		{"SELECT SUM(ALL x) FROM t", "SELECT SUM(  x) FROM t"},
		{"SELECT sum( all - 8 ), count(ALL *), MIN( ALL 1), max(all(2))", "SELECT sum(   - 8 ), count(  *), MIN(   1), max( (2))"},
		{"SELECT ALL COUNT( ALL 54 ) col2", "SELECT ALL COUNT(   54 ) col2"},
		{"SELECT x FROM t WHERE a = ALL (SELECT 1)", ""},
		{"SELECT 'sum(ALL x)'", ""},
		{"SELECT GROUP_CONCAT(ALL x)", ""},
		{"SET @a := 1, @b := 'x:=y'", "SET @a = 1, @b = 'x:=y'"},
		{"SELECT 1", ""},
		{"SELECT RANK() OVER w FROM t WINDOW w AS (ORDER BY a), v AS (w), u AS (PARTITION BY (b))", "SELECT RANK() OVER w FROM t WINDOW w AS (ORDER BY a), WINDOW v AS (w), WINDOW u AS (PARTITION BY (b))"},
		{"SELECT (SELECT SUM(a) OVER w FROM t WINDOW w AS (), x AS ()), 'window w as (), '", "SELECT (SELECT SUM(a) OVER w FROM t WINDOW w AS (), WINDOW x AS ()), 'window w as (), '"},
		{"SELECT 'window a as (), b'", ""},
	} {
		got, ok := Repair(p, c.in)
		if c.want == "" {
			if ok {
				t.Errorf("Repair(%q) = %q, want no repair", c.in, got)
			}
			continue
		}
		if !ok || got != c.want {
			t.Errorf("Repair(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
		if _, err := p.Parse(got); err != nil {
			t.Errorf("repaired %q does not parse: %v", got, err)
		}
	}
}

// setTree renders a parsed statement's set operations with the operators
// UnwrapSetOperand recovers, and each SELECT as its first selected column.
func setTree(st sqlparser.TableStatement) string {
	switch n := st.(type) {
	case *sqlparser.Union:
		op, right := UnwrapSetOperand(n.Right)
		q := ""
		if !n.Distinct {
			q = " ALL"
		}
		return "(" + setTree(n.Left) + " " + op.String() + q + " " + setTree(right) + ")"
	case *sqlparser.Select:
		return sqlparser.String(n.SelectExprs.Exprs[0])
	}
	return "?"
}

func TestRepairSetOperations(t *testing.T) {
	p := sqlparser.NewTestParser()
	for _, c := range []struct{ in, want string }{
		{"SELECT 1 EXCEPT SELECT 2", "(1 EXCEPT 2)"},
		{"SELECT 1 INTERSECT ALL SELECT 2", "(1 INTERSECT ALL 2)"},
		{"SELECT 1 EXCEPT DISTINCT SELECT 2 EXCEPT ALL SELECT 3", "((1 EXCEPT 2) EXCEPT ALL 3)"},
		{"SELECT 1 UNION SELECT 2 INTERSECT SELECT 3", "(1 UNION (2 INTERSECT 3))"},
		{"SELECT 1 INTERSECT SELECT 2 UNION SELECT 3", "((1 INTERSECT 2) UNION 3)"},
		{"SELECT 1 EXCEPT SELECT 2 INTERSECT SELECT 3", "(1 EXCEPT (2 INTERSECT 3))"},
		{"SELECT 1 UNION ALL SELECT 2 EXCEPT SELECT 3 ORDER BY 1 LIMIT 5", "((1 UNION ALL 2) EXCEPT 3)"},
		{"(SELECT 1) EXCEPT (SELECT 2)", "(1 EXCEPT 2)"},
		{"SELECT a FROM t EXCEPT SELECT b FROM u INTERSECT SELECT c FROM v INTERSECT SELECT d FROM w", "(a EXCEPT ((b INTERSECT c) INTERSECT d))"},
	} {
		got, ok := Repair(p, c.in)
		if !ok {
			t.Errorf("Repair(%q): no repair", c.in)
			continue
		}
		st, err := p.Parse(got)
		if err != nil {
			t.Errorf("Repair(%q) = %q: %v", c.in, got, err)
			continue
		}
		ts, ok := st.(sqlparser.TableStatement)
		if !ok {
			t.Errorf("Repair(%q) = %q parses to %T", c.in, got, st)
			continue
		}
		if tree := setTree(ts); tree != c.want {
			t.Errorf("Repair(%q) = %q\n  tree %s, want %s", c.in, got, tree, c.want)
		}
	}
	// Nested: in a subquery, a derived table and a CTE.
	for _, in := range []string{
		"SELECT * FROM t WHERE a IN (SELECT b FROM u EXCEPT SELECT c FROM v)",
		"SELECT * FROM (SELECT 1 AS x INTERSECT SELECT 1) AS d",
		"WITH c AS (SELECT 1 AS x EXCEPT SELECT 2) SELECT * FROM c",
		"WITH c AS (SELECT 1 AS x) SELECT x FROM c EXCEPT SELECT 3",
		"INSERT INTO t (a, b) SELECT 1, 2 INTERSECT SELECT 1, 2",
	} {
		got, ok := Repair(p, in)
		if !ok {
			t.Errorf("Repair(%q): no repair", in)
			continue
		}
		if _, err := p.Parse(got); err != nil {
			t.Errorf("Repair(%q) = %q: %v", in, got, err)
		}
	}
}

func TestExprTexts(t *testing.T) {
	p := sqlparser.NewTestParser()
	const sql = "SELECT  COUNT( * ), 1+1 AS two, a, t.b, 'x''y', (SELECT MAX(c)  FROM u), -  5, CAST(a AS CHAR) c FROM t " +
		"WHERE a IN (SELECT 2*3 FROM v) UNION SELECT DISTINCT NOW( ), LOWER('Q'), 7, 8, 9, 10, 11, 12"
	x := NewExprTexts(p, sql)
	for _, c := range []struct{ expr, want string }{
		{"count(*)", "COUNT( * )"},
		{"(select MAX(c) from u)", "(SELECT MAX(c)  FROM u)"},
		{"-5", "-  5"},
		{"2 * 3", "2*3"},
		{"NOW()", "NOW( )"},
		{"LOWER('Q')", "LOWER('Q')"},
		{"'x\\'y'", "'x''y'"},
	} {
		e, err := p.ParseExpr(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := x.Name(e)
		if !ok || got != c.want {
			t.Errorf("Name(%s) = %q, %v; want %q", c.expr, got, ok, c.want)
		}
	}
	e, _ := p.ParseExpr("1 + 1")
	if got, ok := x.Name(e); ok {
		t.Errorf("aliased expression named %q", got)
	}
}

func TestDefinerHost(t *testing.T) {
	p := sqlparser.NewTestParser()
	for _, c := range []struct{ in, want string }{
		{"CREATE DEFINER = 'u'@'%' VIEW v AS SELECT 1", "CREATE DEFINER = 'u'@`%` VIEW v AS SELECT 1"},
		{"create definer=root@\"local'host\" view v as select 1", "create definer=root@`local'host` view v as select 1"},
		{"ALTER DEFINER = 'a'@'h''x' VIEW v AS SELECT 1", "ALTER DEFINER = 'a'@`h'x` VIEW v AS SELECT 1"},
	} {
		got, ok := definerHost(p, c.in)
		if !ok || got != c.want {
			t.Errorf("definerHost(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
		if _, err := p.Parse(got); err != nil {
			t.Errorf("%q does not parse: %v", got, err)
		}
	}
	if _, ok := definerHost(p, "CREATE DEFINER = `u`@`h` VIEW v AS SELECT 1"); ok {
		t.Error("rewrote a definer that parses")
	}
}

func TestInsertPriority(t *testing.T) {
	for in, want := range map[string]string{
		"INSERT LOW_PRIORITY IGNORE INTO t SELECT 1": "INSERT IGNORE INTO t SELECT 1",
		"  replace delayed into t values (1)":        "  replace into t values (1)",
		"INSERT HIGH_PRIORITY INTO t VALUES (1)":     "INSERT INTO t VALUES (1)",
	} {
		got, ok := InsertPriority(in)
		if !ok || got != want {
			t.Errorf("InsertPriority(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := InsertPriority("INSERT INTO low_priority VALUES (1)"); ok {
		t.Error("a table named low_priority was rewritten")
	}
}

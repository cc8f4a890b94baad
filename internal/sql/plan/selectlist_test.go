package plan_test

import (
	"fmt"
	"testing"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
)

func TestResolveOrderAlias(t *testing.T) {
	stmt, err := sqlparser.NewTestParser().Parse("SELECT a + 1 AS x, b FROM t ORDER BY x, 2, t.x, c, 3")
	if err != nil {
		t.Fatal(err)
	}
	sel := stmt.(*sqlparser.Select)
	want := []string{"a + 1", "b", "t.x", "c", "3"} // an alias, a position, no alias (qualified, unknown, out of range)
	for k, o := range sel.OrderBy {
		if got := sqlparser.String(plan.ResolveOrderAlias(o.Expr, sel.SelectExprs)); got != want[k] {
			t.Errorf("ORDER BY %s: %s, want %s", sqlparser.String(o.Expr), got, want[k])
		}
	}
}

func TestNeededTables(t *testing.T) {
	a := intTable("a", 10, []string{"id", "x"})
	b := intTable("b", 20, []string{"id", "y"})
	sc := &eval.Scope{}
	sc.AddTable(a, "a")
	sc.AddTable(b, "b")
	cases := []struct{ query, want string }{
		{"SELECT COUNT(*) FROM a, b", "map[]"},
		{"SELECT a.x FROM a, b", "map[0:true]"},
		{"SELECT 1 FROM a, b WHERE y > 1", "map[1:true]"},
		{"SELECT b.* FROM a, b", "map[1:true]"},
		{"SELECT * FROM a, b", "map[0:true 1:true]"},
		{"SELECT nosuch FROM a, b", "map[0:true 1:true]"}, // unresolved: all
	}
	for _, c := range cases {
		stmt, err := sqlparser.NewTestParser().Parse(c.query)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(plan.NeededTables(stmt.(*sqlparser.Select), sc)); got != c.want {
			t.Errorf("%s: %s, want %s", c.query, got, c.want)
		}
	}
}

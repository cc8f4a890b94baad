package plan_test

import (
	"strings"
	"testing"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/plan"
)

func TestOrCommonConjuncts(t *testing.T) {
	cases := []struct{ where, want string }{
		{"(a = b AND c > 1) OR (a = b AND d < 2)", "a = b"},
		{"(a = b AND c > 1) OR (b = a AND d < 2)", "a = b"},
		{"(a = b AND x = 1 AND c > 1) OR (x = 1 AND a = b)", "a = b; x = 1"},
		{"(a = b AND c > 1) OR d < 2", ""},
		{"a = b AND ((a = b AND c > 1) OR (a = b AND d < 2))", ""}, // already a conjunct
		{"(rand() < 0.5 AND c > 1) OR (rand() < 0.5 AND d < 2)", ""},
		{"(a IN (SELECT 1) AND c > 1) OR (a IN (SELECT 1) AND d < 2)", ""},
		{"(a = @v AND c > 1) OR (a = @v AND d < 2)", ""},
		{"(a < b AND c) OR (b > a AND d)", ""}, // only equalities are matched either way round
	}
	p := sqlparser.NewTestParser()
	for _, c := range cases {
		stmt, err := p.Parse("SELECT 1 FROM t WHERE " + c.where)
		if err != nil {
			t.Fatalf("%s: %v", c.where, err)
		}
		conds := plan.SplitAnd(stmt.(*sqlparser.Select).Where.Expr)
		var got []string
		for _, e := range plan.OrCommonConjuncts(conds) {
			got = append(got, sqlparser.String(e))
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%s: got %q, want %q", c.where, g, c.want)
		}
	}
}

func TestOrImpliedByTable(t *testing.T) {
	// Tables are named by the qualifier: a.x is table 0, b.y table 1.
	setOf := func(e sqlparser.Expr) uint64 {
		var set uint64
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
			if c, ok := n.(*sqlparser.ColName); ok {
				set |= 1 << (c.Qualifier.Name.String()[0] - 'a')
			}
			return true, nil
		}, e)
		return set
	}
	cases := []struct{ where, want string }{
		{"(a.x = b.y AND a.k = 1 AND b.z < 5) OR (a.x = b.y AND a.k = 2 AND b.z > 9)",
			"a.k = 1 or a.k = 2; b.z < 5 or b.z > 9"},
		{"(a.k = 1 AND a.j = 2) OR (a.k = 3 AND b.z = 4)", "a.k = 1 and a.j = 2 or a.k = 3"},
		{"(a.k = 1 AND b.z = 2) OR b.z = 3", "b.z = 2 or b.z = 3"},
		{"(a.k = rand() AND b.z = 2) OR (a.k = 1 AND b.z = 3)", "b.z = 2 or b.z = 3"},
		{"a.k = 1 OR a.k = 2", ""}, // one table: already its own condition
	}
	p := sqlparser.NewTestParser()
	for _, c := range cases {
		stmt, err := p.Parse("SELECT 1 FROM a, b WHERE " + c.where)
		if err != nil {
			t.Fatalf("%s: %v", c.where, err)
		}
		conds := plan.SplitAnd(stmt.(*sqlparser.Select).Where.Expr)
		sets := make([]uint64, len(conds))
		for k, e := range conds {
			sets[k] = setOf(e)
		}
		implied, isets := plan.OrImpliedByTable(conds, sets, setOf)
		var got []string
		for k, e := range implied {
			if isets[k] != setOf(e) {
				t.Errorf("%s: %s given set %b", c.where, sqlparser.String(e), isets[k])
			}
			got = append(got, sqlparser.String(e))
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%s: got %q, want %q", c.where, g, c.want)
		}
	}
}

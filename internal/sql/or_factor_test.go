package sql

import (
	"strings"
	"testing"

	"vitess.io/vitess/go/vt/sqlparser"
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
		conds := splitAnd(stmt.(*sqlparser.Select).Where.Expr)
		var got []string
		for _, e := range orCommonConjuncts(conds) {
			got = append(got, sqlparser.String(e))
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%s: got %q, want %q", c.where, g, c.want)
		}
	}
}

package plan_test

import (
	"testing"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
)

func TestDecorrelate(t *testing.T) {
	u := intTable("u", 10, []string{"a", "z", "q"})
	cases := []struct {
		sub  string
		kind eval.SubqueryKind
		want string // the uncorrelated query; outer keys after " | "
	}{
		{"SELECT u.z FROM u WHERE u.a = t.x AND u.q > 1", eval.SubIn,
			"select u.a as strata_key0, u.z from u where u.q > 1 | t.x"},
		{"SELECT 1 FROM u WHERE t.x = a AND q = t.y", eval.SubExists,
			"select distinct a as strata_key0, q as strata_key1 from u | t.x t.y"},
		{"SELECT AVG(q) FROM u WHERE u.a = t.x", eval.SubScalar,
			"select u.a as strata_key0, avg(q) from u group by u.a | t.x"},
		{"SELECT u.z FROM u WHERE u.a > t.x", eval.SubIn, "nil"},         // not an equality
		{"SELECT u.z FROM u WHERE u.a = t.x + u.q", eval.SubIn, "nil"},   // both sides read u
		{"SELECT u.z FROM u WHERE u.q = 1", eval.SubIn, "nil"},           // not correlated
		{"SELECT t.y FROM u WHERE u.a = t.x", eval.SubIn, "nil"},         // select list reads t
		{"SELECT u.z FROM u WHERE u.a = t.x LIMIT 1", eval.SubIn, "nil"}, // LIMIT
		{"SELECT COUNT(*) FROM u WHERE u.a = t.x", eval.SubExists, "nil"},
	}
	p := sqlparser.NewTestParser()
	for _, c := range cases {
		stmt, err := p.Parse(c.sub)
		if err != nil {
			t.Fatalf("%s: %v", c.sub, err)
		}
		var inner plan.InnerNames
		inner.Add("u", u)
		got := "nil"
		if d := plan.Decorrelate(stmt.(*sqlparser.Select), c.kind, &inner); d != nil {
			got = sqlparser.String(d.Query) + " |"
			for _, k := range d.OuterKeys {
				got += " " + sqlparser.String(k)
			}
		}
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.sub, got, c.want)
		}
	}
}

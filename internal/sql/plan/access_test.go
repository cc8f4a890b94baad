package plan_test

import (
	"strings"
	"testing"

	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
)

// TestChooseIndex checks the index chosen for a table t(id PRIMARY KEY, a,
// b, c UNIQUE) with index ab(a, b) under a WHERE clause and ORDER BY: the
// index, EXPLAIN's access type, how many key columns equalities fix, the
// range, the order and the conjuncts the key ranges enforce.
func TestChooseIndex(t *testing.T) {
	tb := intTable("t", 10, []string{"id", "a", "b", "c"})
	for i := 1; i < len(tb.Columns); i++ {
		tb.Columns[i].Nullable = true
	}
	tb.Indexes = append(tb.Indexes,
		&catalog.Index{ID: 11, Name: "ab", Columns: []catalog.IndexColumn{{Col: 1}, {Col: 2}}},
		&catalog.Index{ID: 12, Name: "c", Unique: true, Columns: []catalog.IndexColumn{{Col: 3}}})
	cases := []struct {
		query string // WHERE ... [ORDER BY ...] [LIMIT ...]
		want  string // type index eq=N range=lo..hi ordered/reverse unique consumed=...
	}{
		{"id = 5", "const PRIMARY eq=1 unique consumed=[id = 5]"},
		{"a = 1 AND b > 2 AND b <= 9", "range ab eq=1 range=2..9] consumed=[a = 1 b > 2 b <= 9]"},
		{"a = 1 AND b = 2 AND c = 3", "const c eq=1 unique consumed=[c = 3]"},
		{"a IN (1, 2) AND b = 3", "range ab eq=2 consumed=[a in (1, 2) b = 3]"},
		{"b = 3", "ALL PRIMARY eq=0 consumed=[]"},
		{"c IS NULL", "ref c eq=1 consumed=[c is null]"}, // IS NULL: not a point read
		{"a = 1 ORDER BY b DESC", "ref ab eq=1 ordered reverse consumed=[a = 1]"},
		{"1 = 1 ORDER BY a LIMIT 5", "index ab eq=0 ordered consumed=[]"},
		{"a BETWEEN 1 AND 4", "range ab eq=0 range=[1..4] consumed=[a between 1 and 4]"},
	}
	p := sqlparser.NewTestParser()
	for _, tc := range cases {
		stmt, err := p.Parse("SELECT 1 FROM t WHERE " + tc.query)
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		sel := stmt.(*sqlparser.Select)
		sc := &eval.Scope{}
		sc.AddTable(tb, "t")
		preds := plan.Sargable(plan.SplitAnd(sel.Where.Expr), sc, 0, len(tb.Columns), nil, func(int) bool { return false })
		var order []plan.OrderCol
		for _, o := range sel.OrderBy {
			oc := plan.OrderCol{Col: -1, Desc: o.Direction == sqlparser.DescOrder}
			if cn, ok := o.Expr.(*sqlparser.ColName); ok {
				oc.Col = tb.ColumnIndex(cn.Name.String())
			}
			order = append(order, oc)
		}
		ch := plan.ChooseIndex(tb, preds, plan.IndexHints{}, order, sel.Limit != nil)
		if got := describeChoice(ch); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.query, got, tc.want)
		}
	}
}

// describeChoice prints an IndexChoice in TestChooseIndex's notation.
func describeChoice(ch *plan.IndexChoice) string {
	var b strings.Builder
	b.WriteString(ch.AccessType(false) + " " + ch.Index.Name)
	b.WriteString(" eq=")
	b.WriteString(string(rune('0' + len(ch.EqPreds))))
	if ch.Range != nil {
		b.WriteString(" range=")
		if ch.Lo.Incl {
			b.WriteString("[")
		}
		if ch.Lo.Val != nil {
			b.WriteString(sqlparser.String(ch.Lo.Val))
		}
		b.WriteString("..")
		if ch.Hi.Val != nil {
			b.WriteString(sqlparser.String(ch.Hi.Val))
		}
		if ch.Hi.Incl {
			b.WriteString("]")
		}
	}
	if ch.Ordered {
		b.WriteString(" ordered")
	}
	if ch.Reverse {
		b.WriteString(" reverse")
	}
	if ch.Unique {
		b.WriteString(" unique")
	}
	var cons []string
	for _, e := range ch.Consumed {
		cons = append(cons, sqlparser.String(e))
	}
	b.WriteString(" consumed=[" + strings.Join(cons, " ") + "]")
	return b.String()
}

func TestKeyLen(t *testing.T) {
	tb := &catalog.Table{DB: "d", Name: "t", AutoIncCol: -1, Columns: []catalog.Column{
		{Name: "id", Type: sqltypes.Int32, TypeName: "int"},
		{Name: "d", Type: sqltypes.Decimal, TypeName: "decimal", Length: 10, Scale: 2, Nullable: true},
		{Name: "dt", Type: sqltypes.Datetime, TypeName: "datetime", Scale: 3},
	}}
	ix := &catalog.Index{Name: "k", Columns: []catalog.IndexColumn{{Col: 0}, {Col: 1}, {Col: 2}}}
	for parts, want := range []int{0, 4, 4 + 5 + 1, 4 + 6 + 5 + 2} {
		if n, ok := plan.KeyLen(tb, ix, parts); !ok || n != want {
			t.Errorf("%d parts: key_len %d %v, want %d", parts, n, ok, want)
		}
	}
	tb.HiddenPK = true
	if _, ok := plan.KeyLen(tb, &catalog.Index{Primary: true}, 1); ok {
		t.Errorf("hidden primary key: key_len not NULL")
	}
}

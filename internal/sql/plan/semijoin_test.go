package plan_test

import (
	"fmt"
	"testing"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/plan"
)

func TestSemiOrder(t *testing.T) {
	cases := []struct {
		order []int
		nReg  int
		deps  []uint64
		want  string
	}{
		{[]int{0, 1}, 2, []uint64{1 << 0}, "[0 2 1]"},           // after the table it reads
		{[]int{1, 0}, 2, []uint64{1 << 0}, "[1 0 2]"},           // in execution order
		{[]int{0, 1}, 2, []uint64{0}, "[2 0 1]"},                // reads nothing: first
		{[]int{0, 1}, 2, []uint64{1<<0 | 1<<1}, "[0 1 2]"},      // after the last
		{[]int{0, 1}, 2, []uint64{1 << 1, 1 << 0}, "[0 3 1 2]"}, // two semi-joins
	}
	for _, c := range cases {
		got := fmt.Sprint(plan.SemiOrder(append([]int(nil), c.order...), c.nReg, c.deps))
		if got != c.want {
			t.Errorf("SemiOrder(%v, %d, %v) = %s, want %s", c.order, c.nReg, c.deps, got, c.want)
		}
	}
}

func TestSemiJoinCandidate(t *testing.T) {
	cases := []struct {
		where string
		kind  plan.SemiKind
		ok    bool
	}{
		{"EXISTS (SELECT 1 FROM u WHERE u.a = t.a)", plan.SemiJoin, true},
		{"NOT EXISTS (SELECT 1 FROM u WHERE u.a = t.a)", plan.AntiJoin, true},
		{"t.a IN (SELECT b FROM u)", plan.SemiJoin, true},
		{"t.a NOT IN (SELECT b FROM u)", plan.SemiNone, false}, // NULL rules differ
		{"EXISTS (SELECT 1 FROM u, v)", plan.SemiNone, false},
		{"EXISTS (SELECT COUNT(*) FROM u)", plan.SemiNone, false},
		{"EXISTS (SELECT 1 FROM u LIMIT 1)", plan.SemiNone, false},
		{"EXISTS (SELECT 1 FROM u WHERE u.a IN (SELECT 1))", plan.SemiNone, false},
	}
	p := sqlparser.NewTestParser()
	for _, c := range cases {
		stmt, err := p.Parse("SELECT 1 FROM t WHERE " + c.where)
		if err != nil {
			t.Fatalf("%s: %v", c.where, err)
		}
		_, kind, _, ok := plan.SemiJoinCandidate(stmt.(*sqlparser.Select).Where.Expr)
		if ok != c.ok || kind != c.kind {
			t.Errorf("%s: kind %d ok %v, want %d %v", c.where, kind, ok, c.kind, c.ok)
		}
	}
}

package plan

import (
	"sort"

	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
)

// Equality propagation. Column equalities of the WHERE clause (and inner
// joins' ON) form classes — a = b AND b = c puts a, b and c in one — and
// every pair of a class's columns from different tables that is not
// already compared gets its implied equality as one more conjunct, as
// MySQL's multiple equalities do. TPC-H Q5 writes c_nationkey = s_nationkey
// AND s_nationkey = n_nationkey: without c_nationkey = n_nationkey the
// customer table cannot be looked up from nation, and the join must start
// from a table scan of orders.
//
// Only integer columns are propagated: their comparisons are exact, so
// equality among them is transitive whatever their widths and signedness.
// (Strings compare under a collation and mixed numeric types through a
// conversion, where a = b and b = c need not give a = c.) An implied
// conjunct only repeats what the others already require, so it can never
// change a result — NULL makes the original equalities reject the row too.

// maxImpliedEqualities bounds the conjuncts added for one query.
const maxImpliedEqualities = 16

// ImpliedEqualities returns the equalities conds imply between columns of
// different tables that conds does not state.
func ImpliedEqualities(conds []sqlparser.Expr, sc *eval.Scope) []sqlparser.Expr {
	parent := map[int]int{}
	var find func(int) int
	find = func(x int) int {
		p, ok := parent[x]
		if !ok || p == x {
			return x
		}
		r := find(p)
		parent[x] = r
		return r
	}
	names := map[int]*sqlparser.ColName{}
	stated := map[[2]int]bool{}
	for _, cd := range conds {
		cmp, ok := cd.(*sqlparser.ComparisonExpr)
		if !ok || cmp.Operator != sqlparser.EqualOp {
			continue
		}
		l, ok1 := cmp.Left.(*sqlparser.ColName)
		r, ok2 := cmp.Right.(*sqlparser.ColName)
		if !ok1 || !ok2 {
			continue
		}
		li, err1 := sc.Resolve(l)
		ri, err2 := sc.Resolve(r)
		if err1 != nil || err2 != nil || li == ri || !integerColumn(sc, li) || !integerColumn(sc, ri) {
			continue
		}
		names[li], names[ri] = l, r
		parent[find(li)] = find(ri)
		stated[[2]int{min(li, ri), max(li, ri)}] = true
	}
	if len(names) < 3 {
		return nil
	}
	classes := map[int][]int{}
	for c := range names {
		classes[find(c)] = append(classes[find(c)], c)
	}
	roots := make([]int, 0, len(classes))
	for r, members := range classes {
		if len(members) >= 3 {
			roots = append(roots, r)
		}
	}
	sort.Ints(roots)
	var out []sqlparser.Expr
	for _, r := range roots {
		members := classes[r]
		sort.Ints(members)
		for x := 0; x < len(members); x++ {
			for y := x + 1; y < len(members); y++ {
				a, b := members[x], members[y]
				if stated[[2]int{a, b}] || sc.Cols[a].Table == sc.Cols[b].Table {
					continue
				}
				if len(out) == maxImpliedEqualities {
					return out
				}
				out = append(out, &sqlparser.ComparisonExpr{Operator: sqlparser.EqualOp,
					Left: sqlparser.Clone(names[a]), Right: sqlparser.Clone(names[b])})
			}
		}
	}
	return out
}

// integerColumn reports whether scope column i is a stored integer column.
func integerColumn(sc *eval.Scope, i int) bool {
	c := sc.Cols[i].Col
	return c != nil && sqltypes.IsIntegral(c.Type)
}

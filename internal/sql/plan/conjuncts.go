package plan

import "vitess.io/vitess/go/vt/sqlparser"

// Conditions are planned as lists of conjuncts: the WHERE clause and inner
// joins' ON conditions split at AND, each conjunct placed at the first join
// level where every column it reads is available.

// SplitAnd splits a condition into its AND-ed conjuncts. A row equality
// counts as the conjunction of its element equalities (SplitRowEquality).
func SplitAnd(e sqlparser.Expr) []sqlparser.Expr {
	if e == nil {
		return nil
	}
	switch x := e.(type) {
	case *sqlparser.AndExpr:
		return append(SplitAnd(x.Left), SplitAnd(x.Right)...)
	case *sqlparser.ComparisonExpr:
		if parts := SplitRowEquality(x); parts != nil {
			return parts
		}
	}
	return []sqlparser.Expr{e}
}

// SplitRowEquality rewrites a row equality — (a, b) = (1, 2), (a, b) <=>
// (1, 2), or (a, b) IN ((1, 2)) — into its element conjuncts a = 1, b = 2,
// which have the same truth value in three-valued logic. It returns nil for
// anything else.
func SplitRowEquality(c *sqlparser.ComparisonExpr) []sqlparser.Expr {
	lt, ok := c.Left.(sqlparser.ValTuple)
	if !ok {
		return nil
	}
	op := c.Operator
	var rt sqlparser.ValTuple
	switch op {
	case sqlparser.EqualOp, sqlparser.NullSafeEqualOp:
		rt, ok = c.Right.(sqlparser.ValTuple)
	case sqlparser.InOp:
		var list sqlparser.ValTuple
		if list, ok = c.Right.(sqlparser.ValTuple); ok && len(list) == 1 {
			rt, ok = list[0].(sqlparser.ValTuple)
			op = sqlparser.EqualOp
		} else {
			ok = false
		}
	default:
		return nil
	}
	if !ok || len(rt) != len(lt) || len(lt) == 0 {
		return nil
	}
	out := make([]sqlparser.Expr, 0, len(lt))
	for i := range lt {
		out = append(out, SplitAnd(&sqlparser.ComparisonExpr{Operator: op, Left: lt[i], Right: rt[i]})...)
	}
	return out
}

// ReadsColumn reports whether e reads a column.
func ReadsColumn(e sqlparser.Expr) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if _, ok := n.(*sqlparser.ColName); ok {
			found = true
		}
		return !found, nil
	}, e)
	return found
}

// ContainsAggr reports whether e calls an aggregate function (outside
// subqueries, which aggregate on their own).
func ContainsAggr(e sqlparser.Expr) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch n.(type) {
		case *sqlparser.Subquery, *sqlparser.Offset:
			// An Offset reads a value computed already (its Original
			// is the call it replaced).
			return false, nil
		}
		if _, ok := n.(sqlparser.AggrFunc); ok && !IsWindowFunc(n) {
			found = true
		}
		return !found, nil
	}, e)
	return found
}

// HasAggregates reports whether a SELECT aggregates: an aggregate function
// in its select list, HAVING or ORDER BY (outside subqueries).
func HasAggregates(sel *sqlparser.Select) bool {
	found := false
	visit := func(n sqlparser.SQLNode) (bool, error) {
		if _, ok := n.(sqlparser.AggrFunc); ok && !IsWindowFunc(n) {
			found = true
			return false, nil
		}
		if _, ok := n.(*sqlparser.Subquery); ok {
			return false, nil
		}
		return true, nil
	}
	_ = sqlparser.Walk(visit, sel.SelectExprs)
	if sel.Having != nil {
		_ = sqlparser.Walk(visit, sel.Having)
	}
	_ = sqlparser.Walk(visit, sel.OrderBy)
	return found
}

// WhereExpr is the condition of a WHERE (or HAVING) clause, nil without
// one.
func WhereExpr(w *sqlparser.Where) sqlparser.Expr {
	if w == nil {
		return nil
	}
	return w.Expr
}

// SplitConsumed separates the conjuncts enforced by the key ranges.
func SplitConsumed(conds, consumed []sqlparser.Expr) (rest, used []sqlparser.Expr) {
	for _, c := range conds {
		hit := false
		for _, x := range consumed {
			if x == c {
				hit = true
				break
			}
		}
		if hit {
			used = append(used, c)
		} else {
			rest = append(rest, c)
		}
	}
	return rest, used
}

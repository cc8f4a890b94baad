package sql

import (
	"vitess.io/vitess/go/vt/sqlparser"
)

// A condition written as (A AND B) OR (A AND C) is A AND (B OR C): the
// conjuncts every disjunct shares hold for every row the OR accepts.
// TPC-H Q19 repeats its join equality p_partkey = l_partkey in each of
// three disjuncts; taken alone the OR joins nothing and the join is a
// cross product. orCommonConjuncts returns those shared conjuncts so they
// are added beside the OR (which stays whole): the join and access-path
// choice see them, and the answer is unchanged since the OR implies them
// (the distributive law holds in SQL's three-valued logic).

// orCommonConjuncts returns the conjuncts shared by all disjuncts of the
// ORs among conds that conds does not already hold. A conjunct that is not
// deterministic (RAND(), a subquery, a variable) is left inside its OR,
// where it is evaluated once per row as written.
func orCommonConjuncts(conds []sqlparser.Expr) []sqlparser.Expr {
	var out []sqlparser.Expr
	var have map[string]bool
	for _, c := range conds {
		or, ok := c.(*sqlparser.OrExpr)
		if !ok {
			continue
		}
		disj := splitOr(or, nil)
		common := splitAnd(disj[0])
		for _, d := range disj[1:] {
			in := map[string]bool{}
			for _, e := range splitAnd(d) {
				in[conjunctKey(e)] = true
			}
			kept := common[:0:0]
			for _, e := range common {
				if in[conjunctKey(e)] {
					kept = append(kept, e)
				}
			}
			if common = kept; len(common) == 0 {
				break
			}
		}
		if len(common) == 0 {
			continue
		}
		if have == nil {
			have = map[string]bool{}
			for _, c := range conds {
				have[conjunctKey(c)] = true
			}
		}
		for _, e := range common {
			k := conjunctKey(e)
			if !have[k] && deterministic(e) {
				have[k] = true
				out = append(out, sqlparser.CloneExpr(e))
			}
		}
	}
	return out
}

// splitOr appends the OR-ed disjuncts of e to dst.
func splitOr(e sqlparser.Expr, dst []sqlparser.Expr) []sqlparser.Expr {
	if or, ok := e.(*sqlparser.OrExpr); ok {
		return splitOr(or.Right, splitOr(or.Left, dst))
	}
	return append(dst, e)
}

// deterministic reports whether evaluating e once more per row cannot
// change anything: no subquery, variable, or function whose value or side
// effect differs between calls.
func deterministic(e sqlparser.Expr) bool {
	ok := true
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *sqlparser.Subquery, *sqlparser.Variable, *sqlparser.ExistsExpr:
			ok = false
		case *sqlparser.FuncExpr:
			switch x.Name.Lowered() {
			case "rand", "uuid", "uuid_short", "sleep", "benchmark", "get_lock", "release_lock",
				"release_all_locks", "is_free_lock", "is_used_lock", "last_insert_id",
				"found_rows", "row_count", "nextval", "setval":
				ok = false
			}
		}
		return ok, nil
	}, e)
	return ok
}

// conjunctKey is the text of a conjunct, an equality's sides in a fixed
// order (a = b and b = a are one conjunct).
func conjunctKey(e sqlparser.Expr) string {
	if c, ok := e.(*sqlparser.ComparisonExpr); ok && (c.Operator == sqlparser.EqualOp || c.Operator == sqlparser.NullSafeEqualOp) && c.Modifier == sqlparser.Missing && c.Escape == nil {
		l, r := sqlparser.String(c.Left), sqlparser.String(c.Right)
		if r < l {
			l, r = r, l
		}
		return l + " " + c.Operator.ToString() + " " + r
	}
	return sqlparser.String(e)
}

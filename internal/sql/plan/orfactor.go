package plan

import (
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
)

// A condition written as (A AND B) OR (A AND C) is A AND (B OR C): the
// conjuncts every disjunct shares hold for every row the OR accepts.
// TPC-H Q19 repeats its join equality p_partkey = l_partkey in each of
// three disjuncts; taken alone the OR joins nothing and the join is a
// cross product. OrCommonConjuncts returns those shared conjuncts so they
// are added beside the OR (which stays whole): the join and access-path
// choice see them, and the answer is unchanged since the OR implies them
// (the distributive law holds in SQL's three-valued logic).

// OrCommonConjuncts returns the conjuncts shared by all disjuncts of the
// ORs among conds that conds does not already hold. A conjunct that is not
// deterministic (RAND(), a subquery, a variable) is left inside its OR,
// where it is evaluated once per row as written.
func OrCommonConjuncts(conds []sqlparser.Expr) []sqlparser.Expr {
	var out []sqlparser.Expr
	var have map[string]bool
	for _, c := range conds {
		or, ok := c.(*sqlparser.OrExpr)
		if !ok {
			continue
		}
		disj := splitOr(or, nil)
		common := SplitAnd(disj[0])
		for _, d := range disj[1:] {
			in := map[string]bool{}
			for _, e := range SplitAnd(d) {
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
// Deterministic reports whether e gives the same value whenever its
// columns do: no subquery, user variable or function with side effects or
// a changing result (RAND, UUID, LAST_INSERT_ID, ...).
func Deterministic(e sqlparser.Expr) bool { return deterministic(e) }

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
			default:
				// A stored function runs per row (MySQL: unless
				// DETERMINISTIC; strata never folds one).
				ok = !eval.MaybeStoredCall(x)
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

// OrImpliedByTable returns, for each OR among conds over several tables
// (sets[k]: the tables of conds[k]) and each of those tables, the
// condition on that table alone that the OR implies: the OR of each
// disjunct's conjuncts on that table, when every disjunct has some. In
// TPC-H Q19 (p = l AND p_brand = 'a' AND l_qty < 5) OR (p = l AND
// p_brand = 'b' AND l_qty > 9) implies p_brand = 'a' OR p_brand = 'b' on
// part, which is then filtered before it is joined. Each disjunct implies
// its part, so the OR implies their OR; the OR itself stays.
func OrImpliedByTable(conds []sqlparser.Expr, sets []uint64, setOf func(sqlparser.Expr) uint64) ([]sqlparser.Expr, []uint64) {
	var out []sqlparser.Expr
	var outSets []uint64
	for k, c := range conds {
		or, ok := c.(*sqlparser.OrExpr)
		if !ok || sets[k]&(sets[k]-1) == 0 {
			continue // not an OR over two tables or more
		}
		disj := splitOr(or, nil)
		parts := make([][]sqlparser.Expr, len(disj))
		sub := make([][]uint64, len(disj))
		for d, e := range disj {
			parts[d] = SplitAnd(e)
			sub[d] = make([]uint64, len(parts[d]))
			for j, p := range parts[d] {
				sub[d][j] = setOf(p)
			}
		}
		for t := uint64(1); t != 0 && t <= sets[k]; t <<= 1 {
			if sets[k]&t == 0 {
				continue
			}
			var implied sqlparser.Expr
			for d := range disj {
				var and sqlparser.Expr
				for j, p := range parts[d] {
					if sub[d][j] != t || !deterministic(p) {
						continue
					}
					p = sqlparser.CloneExpr(p)
					if and == nil {
						and = p
					} else {
						and = &sqlparser.AndExpr{Left: and, Right: p}
					}
				}
				if and == nil {
					implied = nil
					break
				}
				if implied == nil {
					implied = and
				} else {
					implied = &sqlparser.OrExpr{Left: implied, Right: and}
				}
			}
			if implied != nil {
				out = append(out, implied)
				outSets = append(outSets, t)
			}
		}
	}
	return out, outSets
}

package sql

import (
	"strconv"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
)

// Semi- and anti-joins (plan/semijoin.go has the rules): the conversion
// of a WHERE conjunct into a FROM item whose table is the subquery's,
// with the subquery's columns renamed to the item's hidden scope name.

// semiJoins takes the WHERE conjuncts that can become semi- or anti-joins
// out of conds and returns them as FROM items (appended after the query's
// own tables by the caller). sc resolves the enclosing query's columns.
func (c *compiler) semiJoins(conds []sqlparser.Expr, sc *eval.Scope) (kept []sqlparser.Expr, items []*fromItem) {
	kept = conds[:0:0]
	for _, cd := range conds {
		it := c.semiJoin(cd, sc, len(items))
		if it == nil {
			kept = append(kept, cd)
			continue
		}
		items = append(items, it)
	}
	return kept, items
}

// semiJoin converts one WHERE conjunct, or returns nil.
func (c *compiler) semiJoin(cd sqlparser.Expr, sc *eval.Scope, n int) *fromItem {
	sel, kind, left, ok := plan.SemiJoinCandidate(cd)
	if !ok {
		return nil
	}
	names, ok := c.innerColumns(sel.From)
	if !ok || len(names.defs) != 1 {
		return nil
	}
	ate := sel.From[0].(*sqlparser.AliasedTableExpr)
	tn := ate.Expr.(sqlparser.TableName)
	alias := tn.Name.String()
	if !ate.As.IsEmpty() {
		alias = ate.As.String()
	}
	internal := plan.SemiAliasPrefix + strconv.Itoa(n) + "." + alias
	own := func(e sqlparser.Expr) sqlparser.Expr {
		return sqlparser.Rewrite(sqlparser.Clone(e), nil, func(cur *sqlparser.Cursor) bool {
			if cn, ok := cur.Node().(*sqlparser.ColName); ok && names.own(cn) {
				cur.Replace(sqlparser.NewColNameWithQualifier(cn.Name.String(), sqlparser.TableName{Name: sqlparser.NewIdentifierCS(internal)}))
			}
			return true
		}).(sqlparser.Expr)
	}
	on := plan.SplitAnd(whereExpr(sel.Where))
	correlated := false
	for k, e := range on {
		if _, out := names.refs(e); out {
			correlated = true
		}
		on[k] = own(e)
	}
	if left == nil {
		// EXISTS ignores the select list, but its names must resolve:
		// one that is not the subquery's own is left to the subquery's
		// planning (and its error).
		for _, se := range sel.SelectExprs.Exprs {
			if ae, ok := se.(*sqlparser.AliasedExpr); ok {
				if _, out := names.refs(ae.Expr); out {
					return nil
				}
			}
		}
	} else {
		vals := []sqlparser.Expr{left}
		if t, ok := left.(sqlparser.ValTuple); ok {
			vals = t
		}
		if len(vals) != len(sel.SelectExprs.Exprs) {
			return nil
		}
		for k, se := range sel.SelectExprs.Exprs {
			ae, ok := se.(*sqlparser.AliasedExpr)
			if !ok {
				return nil
			}
			if _, out := names.refs(ae.Expr); out {
				correlated = true
			}
			// The enclosing query's value, as written, against the
			// subquery's, with its own columns renamed.
			on = append(on, &sqlparser.ComparisonExpr{Operator: sqlparser.EqualOp, Left: vals[k], Right: own(ae.Expr)})
		}
		if !correlated && plan.LeadsIndex(vals[0], sc) {
			return nil
		}
	}
	return &fromItem{def: names.defs[0], alias: alias, scopeName: internal, hints: plan.ParseHints(ate.Hints), on: on, semi: kind}
}

package sql

import (
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
	if !ok {
		return nil
	}
	st := plan.SemiJoinOf(sel, kind, left, names, sc, n)
	if st == nil {
		return nil
	}
	return &fromItem{def: st.Def, alias: st.Alias, scopeName: st.ScopeName, hints: st.Hints, on: st.On, semi: st.Kind}
}

package sql

import (
	"strconv"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
)

// Semi-joins and anti-joins. A WHERE conjunct `EXISTS (subquery)`,
// `NOT EXISTS (subquery)` or `x IN (subquery)` whose subquery reads one
// stored table with no grouping, aggregate, LIMIT or nested subquery is
// planned as a join with that table instead of a subquery evaluated per
// row (MySQL 8's semi-join and antijoin transformations):
//
//   - the subquery's WHERE conditions (and, for IN, `x = selected value`)
//     become the table's join conditions, so the table takes part in access
//     path choice — index lookups by the enclosing rows' values, or a hash
//     join when no index serves;
//   - a semi-join level stops at the first matching row (MySQL's FirstMatch
//     strategy: an enclosing row is never repeated); an anti-join level
//     rejects the enclosing row on a match and otherwise passes it on with
//     the table's columns NULL, like LEFT JOIN ... WHERE the match is
//     absent (EXPLAIN: "Not exists").
//
// The table is placed right after the last table its conditions read
// (first when it reads none), so it filters as early as it can. Its columns
// are hidden from the enclosing query: they are added to the scope under a
// name no query can write, and every reference of the subquery's own
// columns is rewritten to it, so unqualified names of the enclosing query
// resolve as before and `SELECT *` does not show them.
//
// Not converted (the subquery is evaluated as before, with adaptive
// decorrelation): NOT IN (its NULL rules differ from an anti-join), a
// conjunct under OR or NOT, locking reads, an uncorrelated `col IN
// (SELECT ...)` whose column leads an index of its table (the subquery's
// values then drive that index, compat_insub.go), and any subquery with
// more than one table.

// semiKind says how a FROM item joins: a plain table, a semi-join or an
// anti-join.
type semiKind uint8

const (
	semiNone semiKind = iota
	semiJoin
	antiJoin
)

// semiAliasPrefix starts the scope name of a semi-joined table: a NUL byte
// no identifier of a query can contain.
const semiAliasPrefix = "\x00semi"

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
	var (
		sub  *sqlparser.Subquery
		kind = semiJoin
		left sqlparser.Expr
	)
	switch x := cd.(type) {
	case *sqlparser.ExistsExpr:
		sub = x.Subquery
	case *sqlparser.NotExpr:
		e, ok := x.Expr.(*sqlparser.ExistsExpr)
		if !ok {
			return nil
		}
		sub, kind = e.Subquery, antiJoin
	case *sqlparser.ComparisonExpr:
		s, ok := x.Right.(*sqlparser.Subquery)
		if !ok || x.Operator != sqlparser.InOp || eval.HasSubquery(x.Left) {
			return nil
		}
		sub, left = s, x.Left
	default:
		return nil
	}
	sel, ok := sub.Select.(*sqlparser.Select)
	if !ok || !semiJoinable(sel) {
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
	internal := semiAliasPrefix + strconv.Itoa(n) + "." + alias
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
		if !correlated && leadsIndex(vals[0], sc) {
			return nil
		}
	}
	return &fromItem{def: names.defs[0], alias: alias, scopeName: internal, hints: plan.ParseHints(ate.Hints), on: on, semi: kind}
}

// semiJoinable reports whether a subquery's SELECT can be a semi-join's
// table: its rows matter only by existing (no grouping, aggregate, window,
// LIMIT, HAVING, CTE, locking or nested subquery).
func semiJoinable(sel *sqlparser.Select) bool {
	if sel.With != nil || sel.Into != nil || sel.Lock != sqlparser.NoLock || sel.Having != nil || sel.Limit != nil ||
		sel.GroupBy != nil && len(sel.GroupBy.Exprs) > 0 || sel.Windows != nil || sel.SQLCalcFoundRows || len(sel.From) != 1 {
		return false
	}
	if _, ok := sel.From[0].(*sqlparser.AliasedTableExpr); !ok {
		return false
	}
	if sel.Where != nil && (eval.HasSubquery(sel.Where.Expr) || containsAggr(sel.Where.Expr)) {
		return false
	}
	bad := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch n.(type) {
		case sqlparser.AggrFunc, *sqlparser.OverClause, *sqlparser.Subquery, *sqlparser.ExistsExpr, *sqlparser.AssignmentExpr:
			bad = true
		}
		return !bad, nil
	}, sel.SelectExprs)
	return !bad
}

// leadsIndex reports whether e is a column of the enclosing query that is
// the first column of one of its table's indexes.
func leadsIndex(e sqlparser.Expr, sc *eval.Scope) bool {
	cn, ok := e.(*sqlparser.ColName)
	if !ok {
		return false
	}
	i, err := sc.Resolve(cn)
	if err != nil || sc.Cols[i].Col == nil {
		return false
	}
	for _, ix := range sc.Cols[i].Tbl.Indexes {
		if len(ix.Columns) > 0 && ix.Columns[0].Col == sc.Cols[i].ColIdx {
			return true
		}
	}
	return false
}

// semiOrder places the semi-joined items (indexes nReg and up) into order,
// the execution order of the query's own items: each right after the last
// item its conditions read, or first when they read none. deps[k] is the
// set of items semi item nReg+k reads.
func semiOrder(order []int, nReg int, deps []uint64) []int {
	for k, d := range deps {
		at := 0
		for p, i := range order {
			if i < 64 && d&(1<<i) != 0 {
				at = p + 1
			}
		}
		order = append(order, 0)
		copy(order[at+1:], order[at:])
		order[at] = nReg + k
	}
	return order
}

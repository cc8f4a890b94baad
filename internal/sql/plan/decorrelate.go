package plan

import (
	"strconv"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
)

// Decorrelation. A subquery correlated with the enclosing query only
// through equalities of its WHERE clause,
//
//	EXISTS (SELECT … FROM t WHERE t.a = outer.x AND <conditions on t>)
//	y IN (SELECT t.z FROM t WHERE t.a = outer.x …)
//	(SELECT AVG(t.q) FROM t WHERE t.a = outer.x …)
//
// runs once per outer row. It is answered instead from one run of its
// uncorrelated form — the equalities removed, their inner sides selected
// first (and grouped on, for an aggregate) — hashed on those columns: the
// rows an outer row's subquery would return are the ones with its values
// (the semi-join, anti-join and grouped join MySQL 8 plans). internal/sql
// answers an outer row from a hash of that run (subquery_decorrelate.go).

// Decorrelation is the uncorrelated form of a correlated subquery.
type Decorrelation struct {
	// Query is the subquery without its correlated equalities, selecting
	// their inner sides first (named strata_key0, ...; grouped on them for
	// an aggregate), then its own select list (none for EXISTS, which is
	// DISTINCT).
	Query *sqlparser.Select
	// OuterKeys are the equalities' outer sides, in the order of the
	// selected keys.
	OuterKeys []sqlparser.Expr
	// Grouped: an aggregate without GROUP BY, grouped on the keys (a key
	// with no rows has no group).
	Grouped bool
}

// Decorrelatable reports whether the shape of sel, a subquery used as
// kind, allows decorrelation: a WHERE clause, no CTE, LIMIT, HAVING, GROUP
// BY, window or locking; an aggregate only as a scalar subquery, DISTINCT
// only as a non-scalar one. The caller checks it before resolving sel's
// tables for Decorrelate.
func Decorrelatable(sel *sqlparser.Select, kind eval.SubqueryKind) bool {
	if sel.With != nil || sel.Limit != nil || sel.Having != nil || sel.Into != nil ||
		sel.Lock != sqlparser.NoLock || sel.Where == nil || len(sel.Windows) > 0 || HasWindowFuncs(sel) ||
		sel.GroupBy != nil && len(sel.GroupBy.Exprs) > 0 || hasTableFunc(sel.From) {
		return false
	}
	grouped := HasAggregates(sel)
	return !(kind != eval.SubScalar && grouped || sel.Distinct && kind == eval.SubScalar)
}

// hasTableFunc reports whether a FROM clause holds a table function
// (JSON_TABLE), whose argument may read the enclosing row outside WHERE.
func hasTableFunc(from []sqlparser.TableExpr) bool {
	found := false
	for _, te := range from {
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
			switch n.(type) {
			case *sqlparser.JSONTableExpr:
				found = true
			case *sqlparser.Subquery, *sqlparser.DerivedTable:
				return false, nil
			}
			return !found, nil
		}, te)
	}
	return found
}

// Decorrelate returns the uncorrelated form of sel (a subquery used as
// kind whose FROM tables are inner), or nil when its shape does not allow
// it (Decorrelatable) or its correlation is not only equalities of its
// WHERE clause.
func Decorrelate(sel *sqlparser.Select, kind eval.SubqueryKind, inner *InnerNames) *Decorrelation {
	if !Decorrelatable(sel, kind) {
		return nil
	}
	grouped := HasAggregates(sel)
	var kept, innerKeys, outerKeys []sqlparser.Expr
	for _, cd := range SplitAnd(sel.Where.Expr) {
		in, out := inner.Refs(cd)
		switch {
		case eval.HasSubquery(cd):
			return nil
		case !out:
			kept = append(kept, cd)
			continue
		}
		eq, isEq := cd.(*sqlparser.ComparisonExpr)
		if !isEq || eq.Operator != sqlparser.EqualOp || eq.Modifier != sqlparser.Missing || !in {
			return nil
		}
		li, lo := inner.Refs(eq.Left)
		ri, ro := inner.Refs(eq.Right)
		switch {
		case li && !lo && ro && !ri:
			innerKeys, outerKeys = append(innerKeys, eq.Left), append(outerKeys, eq.Right)
		case ri && !ro && lo && !li:
			innerKeys, outerKeys = append(innerKeys, eq.Right), append(outerKeys, eq.Left)
		default:
			return nil
		}
	}
	if len(innerKeys) == 0 {
		return nil
	}
	for _, e := range outerKeys {
		if !deterministic(e) || ContainsAggr(e) {
			return nil
		}
	}
	// Nothing else of the subquery may read the enclosing rows.
	for _, se := range sel.SelectExprs.Exprs {
		if _, out := inner.Refs(se); out || eval.HasSubquery(se) {
			return nil
		}
	}
	for _, o := range sel.OrderBy {
		if _, out := inner.Refs(o.Expr); out {
			return nil
		}
	}

	q := sqlparser.CloneRefOfSelect(sel)
	q.Where = nil
	if len(kept) > 0 {
		q.Where = sqlparser.NewWhere(sqlparser.WhereClause, sqlparser.AndExpressions(kept...))
	}
	q.OrderBy = nil
	var exprs []sqlparser.SelectExpr
	for i, k := range innerKeys {
		exprs = append(exprs, &sqlparser.AliasedExpr{Expr: sqlparser.CloneExpr(k), As: sqlparser.NewIdentifierCI("strata_key" + strconv.Itoa(i))})
	}
	switch kind {
	case eval.SubExists:
		q.Distinct = true
	default:
		exprs = append(exprs, q.SelectExprs.Exprs...)
	}
	q.SelectExprs = &sqlparser.SelectExprs{Exprs: exprs}
	if grouped {
		var g []sqlparser.Expr
		for _, k := range innerKeys {
			g = append(g, sqlparser.CloneExpr(k))
		}
		q.GroupBy = &sqlparser.GroupBy{Exprs: g}
	}
	return &Decorrelation{Query: q, OuterKeys: outerKeys, Grouped: grouped}
}

package sql

import (
	"context"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// View merging (MySQL's ALGORITHM=MERGE, which UNDEFINED prefers): a SELECT
// whose only table is a mergeable view is rewritten onto the view's own
// table — the view's columns replaced by the expressions they select, its
// WHERE added to the query's — so the planner sees the base table and its
// indexes (EXPLAIN shows the table, not a derived one). Everything else
// reads the view as a derived table over its query (view.go).
//
// The rewrite is deliberately narrow, so that it can never change what a
// query means: the query has one FROM item, the view; no subqueries (whose
// references into the view would need the same rewrite), no WITH, no
// locking clause; every column it names is a column of the view, either
// unqualified or qualified with the view's name or alias; no GROUP BY,
// HAVING or ORDER BY name that is also a select-list alias (alias
// resolution would differ). The view itself is mergeable (viewMergeable),
// not TEMPTABLE, and reads one table or one such view (merged in turn).
// Every select expression keeps the name it had. If the merged query does
// not plan (the view no longer resolves), it is planned unmerged, for the
// error MySQL gives (1356).

// planSelectOuter plans a SELECT, merging a view it reads when it can;
// outer is the enclosing scope when the SELECT is a correlated subquery.
func (s *Session) planSelectOuter(ctx context.Context, sel *sqlparser.Select, outer *eval.Outer) (*selectPlan, error) {
	merged, err := s.mergeView(sel)
	if err != nil {
		return nil, err
	}
	if merged != nil {
		if p, err := s.planSelectBody(ctx, merged, outer); err == nil {
			return p, nil
		}
		// Planned again unmerged, without merging below either: a failure
		// deep in nested views costs two plannings, not two per level.
		saved := s.noMerge
		s.noMerge = true
		defer func() { s.noMerge = saved }()
	}
	return s.planSelectBody(ctx, sel, outer)
}

// mergeView returns the merged form of sel (a copy), or nil when sel does
// not read a mergeable view or the rewrite does not apply.
func (s *Session) mergeView(sel *sqlparser.Select) (*sqlparser.Select, error) {
	if s.noMerge {
		return nil, nil
	}
	var seen []*catalog.View
	cur := sel
	for depth := 0; ; depth++ {
		v, alias := s.singleView(cur)
		if v == nil {
			break
		}
		for _, x := range seen {
			if x == v {
				return nil, sqlerr.New(sqlerr.ViewRecursive, sqlerror.SSUnknownSQLState, "`%s`.`%s` contains view recursion", v.DB, v.Name)
			}
		}
		if depth >= maxViewDepth {
			return nil, sqlerr.New(sqlerr.ViewRecursive, sqlerror.SSUnknownSQLState, "`%s`.`%s` contains view recursion", v.DB, v.Name)
		}
		seen = append(seen, v)
		next, err := s.mergeOne(cur, v, alias)
		if err != nil || next == nil {
			return nil, err
		}
		cur = next
	}
	if cur == sel {
		return nil, nil
	}
	return cur, nil
}

// singleView returns the view that is sel's only FROM item, with its alias.
func (s *Session) singleView(sel *sqlparser.Select) (*catalog.View, string) {
	if len(sel.From) != 1 {
		return nil, ""
	}
	a, ok := sel.From[0].(*sqlparser.AliasedTableExpr)
	if !ok || a.Hints != nil || len(a.Partitions) > 0 || len(a.Columns) > 0 {
		return nil, ""
	}
	tn, ok := a.Expr.(sqlparser.TableName)
	if !ok || (tn.Qualifier.IsEmpty() && s.lookupCTE(tn.Name.String()) != nil) {
		return nil, ""
	}
	v := s.lookupView(tn)
	if v == nil {
		return nil, ""
	}
	alias := tn.Name.String()
	if a.As.NotEmpty() {
		alias = a.As.String()
	}
	return v, alias
}

// mergeOne merges view v (sel's only FROM item, named alias) into a copy of
// sel; nil when the rewrite does not apply.
func (s *Session) mergeOne(sel *sqlparser.Select, v *catalog.View, alias string) (*sqlparser.Select, error) {
	if v.Algorithm == "TEMPTABLE" || sel.With != nil || sel.Lock != sqlparser.NoLock || sel.Into != nil || sel.SelectExprs == nil || len(sel.Windows) > 0 {
		return nil, nil
	}
	vsel, err := s.parseViewQuery(v)
	if err != nil {
		return nil, nil
	}
	body, ok := vsel.(*sqlparser.Select)
	if !ok || !viewMergeable(body) || len(body.From) != 1 || len(body.OrderBy) > 0 || body.Lock != sqlparser.NoLock {
		return nil, nil
	}
	inner, ok := body.From[0].(*sqlparser.AliasedTableExpr)
	if !ok {
		return nil, nil
	}
	if _, ok := inner.Expr.(sqlparser.TableName); !ok || body.SelectExprs == nil || len(body.SelectExprs.Exprs) != len(v.Columns) {
		return nil, nil
	}
	if hasSubquery(sel) {
		return nil, nil
	}
	if err := s.checkViewAccess(v, vsel); err != nil {
		return nil, err
	}
	cols := map[string]sqlparser.Expr{}
	for i, e := range body.SelectExprs.Exprs {
		cols[strings.ToLower(v.Columns[i])] = e.(*sqlparser.AliasedExpr).Expr
	}
	// Every column the query names must be the view's.
	aliases := map[string]bool{}
	for _, e := range sel.SelectExprs.Exprs {
		if ae, ok := e.(*sqlparser.AliasedExpr); ok && ae.As.NotEmpty() {
			aliases[ae.As.Lowered()] = true
		}
	}
	okCols := true
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if c, ok := n.(*sqlparser.ColName); ok {
			if !c.Qualifier.IsEmpty() && (c.Qualifier.Name.String() != alias || !c.Qualifier.Qualifier.IsEmpty()) {
				okCols = false
			} else if _, found := cols[c.Name.Lowered()]; !found {
				okCols = false
			}
		}
		return okCols, nil
	}, sel)
	if !okCols {
		return nil, nil
	}
	for _, clause := range []sqlparser.SQLNode{sel.GroupBy, sel.Having, sel.OrderBy} {
		clash := false
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
			if c, ok := n.(*sqlparser.ColName); ok && c.Qualifier.IsEmpty() && aliases[c.Name.Lowered()] {
				clash = true
			}
			return !clash, nil
		}, clause)
		if clash {
			return nil, nil
		}
	}

	out := sqlparser.CloneRefOfSelect(sel)
	subst := func(e sqlparser.Expr) (sqlparser.Expr, error) {
		return substViewCols(e, alias, cols, "field list")
	}
	var exprs []sqlparser.SelectExpr
	for _, e := range out.SelectExprs.Exprs {
		switch x := e.(type) {
		case *sqlparser.StarExpr:
			if !x.TableName.IsEmpty() && (x.TableName.Name.String() != alias || !x.TableName.Qualifier.IsEmpty()) {
				return nil, nil
			}
			for i, be := range body.SelectExprs.Exprs {
				exprs = append(exprs, &sqlparser.AliasedExpr{Expr: sqlparser.Clone(be.(*sqlparser.AliasedExpr).Expr), As: sqlparser.NewIdentifierCI(v.Columns[i])})
			}
		case *sqlparser.AliasedExpr:
			if x.As.IsEmpty() {
				x.As = sqlparser.NewIdentifierCI(s.exprName(x.Expr))
			}
			if x.Expr, err = subst(x.Expr); err != nil {
				return nil, nil
			}
			exprs = append(exprs, x)
		default:
			return nil, nil
		}
	}
	out.SelectExprs = &sqlparser.SelectExprs{Exprs: exprs}
	if out.Where != nil {
		if out.Where.Expr, err = subst(out.Where.Expr); err != nil {
			return nil, nil
		}
	}
	if body.Where != nil {
		out.Where = &sqlparser.Where{Type: sqlparser.WhereClause, Expr: andExpr(sqlparser.Clone(body.Where.Expr), whereExpr(out.Where))}
	}
	if out.GroupBy != nil {
		for i, e := range out.GroupBy.Exprs {
			if out.GroupBy.Exprs[i], err = subst(e); err != nil {
				return nil, nil
			}
		}
	}
	if out.Having != nil {
		if out.Having.Expr, err = subst(out.Having.Expr); err != nil {
			return nil, nil
		}
	}
	for _, o := range out.OrderBy {
		if o.Expr, err = subst(o.Expr); err != nil {
			return nil, nil
		}
	}
	out.From = []sqlparser.TableExpr{sqlparser.Clone(inner)}
	return out, nil
}

func whereExpr(w *sqlparser.Where) sqlparser.Expr {
	if w == nil {
		return nil
	}
	return w.Expr
}

// hasSubquery reports whether a statement holds a subquery or a derived
// table.
func hasSubquery(n sqlparser.SQLNode) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch n.(type) {
		case *sqlparser.Subquery, *sqlparser.DerivedTable, *sqlparser.ExistsExpr:
			found = true
		}
		return !found, nil
	}, n)
	return found
}

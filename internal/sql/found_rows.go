package sql

import (
	"context"
	"strconv"
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// SELECT SQL_CALC_FOUND_ROWS … LIMIT: FOUND_ROWS() then returns the number
// of rows the SELECT would have returned without its LIMIT (WordPress
// pages its lists this way). The plan carries a second plan that counts
// them, run after the query in the same transaction with the same
// parameters:
//
//   - a SELECT without DISTINCT, GROUP BY, HAVING or aggregates counts its
//     FROM and WHERE: SELECT COUNT(*) FROM … WHERE …;
//   - any other counts itself as a derived table, its ORDER BY and LIMIT
//     dropped (they cannot change the count), columns of the same name
//     renamed apart (a derived table's names must be unique).
//
// Without SQL_CALC_FOUND_ROWS, or without a LIMIT, FOUND_ROWS() is the
// number of rows the last SELECT returned.

// planFoundRows plans the count of sel's rows without its LIMIT, or nil
// when sel does not ask for it.
func (s *Session) planFoundRows(ctx context.Context, sel *sqlparser.Select) (*selectPlan, error) {
	if !sel.SQLCalcFoundRows || sel.Limit == nil {
		return nil, nil
	}
	count := &sqlparser.AliasedExpr{Expr: &sqlparser.CountStar{}}
	var cs *sqlparser.Select
	if !sel.Distinct && (sel.GroupBy == nil || len(sel.GroupBy.Exprs) == 0) && sel.Having == nil && !selectsAggregate(sel) {
		cs = &sqlparser.Select{With: sel.With, From: sel.From, Where: sel.Where,
			SelectExprs: &sqlparser.SelectExprs{Exprs: []sqlparser.SelectExpr{count}}}
	} else {
		inner := sqlparser.CloneRefOfSelect(sel)
		inner.SQLCalcFoundRows, inner.OrderBy, inner.Limit, inner.With = false, nil, nil, nil
		inner.Lock = sqlparser.NoLock
		uniqueNames(s, inner.SelectExprs)
		cs = &sqlparser.Select{With: sel.With,
			From: []sqlparser.TableExpr{&sqlparser.AliasedTableExpr{
				Expr: &sqlparser.DerivedTable{Select: inner}, As: sqlparser.NewIdentifierCS("strata_found_rows")}},
			SelectExprs: &sqlparser.SelectExprs{Exprs: []sqlparser.SelectExpr{count}}}
	}
	p, err := s.planSelectOuter(ctx, cs, nil)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// selectsAggregate reports whether sel's select list aggregates.
func selectsAggregate(sel *sqlparser.Select) bool {
	for _, e := range sel.SelectExprs.Exprs {
		if ae, ok := e.(*sqlparser.AliasedExpr); ok && sqlparser.ContainsAggregation(ae.Expr) {
			return true
		}
	}
	return false
}

// uniqueNames aliases the select-list expressions whose names repeat an
// earlier one's, so the list can be a derived table's.
func uniqueNames(s *Session, exprs *sqlparser.SelectExprs) {
	seen := map[string]bool{}
	for i, e := range exprs.Exprs {
		ae, ok := e.(*sqlparser.AliasedExpr)
		if !ok {
			continue
		}
		name := ae.As.String()
		if name == "" {
			name = s.exprName(ae.Expr)
		}
		key := strings.ToLower(name)
		if seen[key] {
			ae.As = sqlparser.NewIdentifierCI("strata_col_" + strconv.Itoa(i))
			key = strings.ToLower(ae.As.String())
		}
		seen[key] = true
	}
}

// runFoundRows counts the rows of a SQL_CALC_FOUND_ROWS query without its
// LIMIT (planFoundRows) within the statement's execution.
func (s *Session) runFoundRows(ex *execCtx, p *selectPlan) (uint64, error) {
	cx := s.newExecCtx(ex.Context(), ex.tx, s.bindSessionVars(p.bindVars(), ex.BV))
	res, err := p.run(cx)
	if err != nil {
		return 0, err
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
		return 0, sqlerr.Unsupported("SQL_CALC_FOUND_ROWS here")
	}
	return res.Rows[0][0].ToUint64()
}

package sql

import (
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
)

// inSubquery is an uncorrelated `col IN (SELECT x ...)` used as an index
// access: the subquery runs once per statement execution (its result is
// cached like the filter's) and its values become the index column's
// equality alternatives, as MySQL's semi-join materialization-lookup does.
// Redmine locks a whole issue tree with
//
//	SELECT id FROM issues WHERE root_id IN (SELECT root_id FROM issues WHERE id IN (?)) FOR UPDATE
//
// which without this scans and locks every row of the table. The IN
// conjunct is never consumed: the filter still applies MySQL's comparison
// rules, so a widened range is only slower, never wrong.
type inSubquery struct {
	plan queryPlan
	oc   *eval.Outer
}

// planInSubquery plans the subquery of an `IN (SELECT ...)` predicate for
// index access. ok is false when it cannot serve as one: correlated with
// the enclosing query, not exactly one column, or not plannable (the
// filter then reports the error).
func (c *compiler) planInSubquery(sq *sqlparser.Subquery) (*inSubquery, bool) {
	oc := &eval.Outer{Scope: c.Scope, Parent: c.Outer}
	p, err := c.s.planQuery(c.context(), sq.Select, oc)
	if err != nil || oc.Correlated || len(p.outputs()) != 1 {
		return nil, false
	}
	return &inSubquery{plan: p, oc: oc}, true
}

// resolveInSubqueries keeps the `IN (SELECT ...)` predicates that can drive
// an index access, planning their subqueries (subs, by the predicate's
// subquery), and drops the others.
func (c *compiler) resolveInSubqueries(preds []plan.Predicate) (kept []plan.Predicate, subs map[*sqlparser.Subquery]*inSubquery) {
	has := false
	for i := range preds {
		has = has || preds[i].Op == "insub"
	}
	if !has {
		return preds, nil
	}
	out := make([]plan.Predicate, 0, len(preds))
	for _, p := range preds {
		if p.Op == "insub" {
			sq, ok := p.Vals[0].(*sqlparser.Subquery)
			if !ok {
				continue
			}
			sub, ok := c.planInSubquery(sq)
			if !ok {
				continue
			}
			if subs == nil {
				subs = map[*sqlparser.Subquery]*inSubquery{}
			}
			subs[sq] = sub
		}
		out = append(out, p)
	}
	return out, subs
}

// values runs the subquery (once per execution: the result is cached) and
// returns its first column.
func (q *inSubquery) values(ex *execCtx, row Row) ([]sqltypes.Value, error) {
	res, err := ex.runSubquery(q.plan, q.oc, row, true, false)
	if err != nil {
		return nil, err
	}
	vals := make([]sqltypes.Value, 0, len(res.Rows))
	for _, r := range res.Rows {
		if len(r) > 0 {
			vals = append(vals, r[0])
		}
	}
	return vals, nil
}

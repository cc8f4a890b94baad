package sql

import (
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// The session as the planner (internal/sql/plan) sees it.

// planStats is the session as plan.Statistics: the catalog's statistics
// and the store's row counts.
type planStats Session

// TableStats returns t's statistics and records that the plan being built
// depends on them (it is redone when they change).
func (s *planStats) TableStats(t *catalog.Table) *catalog.TableStats {
	s.statsUsed = true
	return s.eng.Cat.Stats(t)
}

// EstimatedRows returns t's analyzed row count plus the net inserts since.
func (s *planStats) EstimatedRows(t *catalog.Table, st *catalog.TableStats) int64 {
	return s.eng.Store.EstimatedRows(t, st)
}

// EvalConstant evaluates a constant operand at planning time
// (plan.Constants: the join order looks it up in a histogram).
func (c *compiler) EvalConstant(e sqlparser.Expr) (sqltypes.Value, error) {
	if c.s.callsStored(e) {
		// Never run a stored function while planning.
		return sqltypes.NULL, sqlerr.Unsupported("a stored function as a planning constant")
	}
	x, err := c.Compile(e)
	if err != nil {
		return sqltypes.NULL, err
	}
	ex := c.s.newExecCtx(c.context(), nil, nil)
	return ex.Eval(x, nil)
}

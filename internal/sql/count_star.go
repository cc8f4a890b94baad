package sql

import (
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/plan"
)

// COUNT(*) of a whole table. A query whose only output is COUNT(*) of one
// stored table with no condition (SELECT COUNT(*) FROM t) needs the number
// of entries of an index, not its rows: the scan (of the narrowest index,
// plan.NarrowestIndex) is replaced by counting keys on the statement's
// snapshot, split over both cores for a large index
// (table.Table.CountEntries). The aggregation then starts from that count.

// countParallel is how many parts a large count is split into.
const countParallel = 2

// countsRowsOnly reports whether p is such a query.
func (p *selectPlan) countsRowsOnly() bool {
	if !p.hasAgg || len(p.groupBy) > 0 || p.rollup != nil || p.rowFilter != nil || p.having != nil ||
		len(p.windows) > 0 || p.lock != lockNone || len(p.srcs) != 1 || len(p.aggs) == 0 {
		return false
	}
	for _, a := range p.aggs {
		if a.name != "count_star" || a.distinct {
			return false
		}
	}
	src := p.srcs[0]
	ap := src.path
	return src.virtual == nil && src.tbl != nil && src.tf == nil && src.vkey == nil && src.covering && ap != nil &&
		len(src.on) == 0 && len(src.filter) == 0 && len(src.rangeFilter) == 0 && src.residual == 0 &&
		len(src.mid) == 0 && !src.outer && src.semi == plan.SemiNone &&
		len(ap.eq) == 0 && !ap.hasRange && ap.tuples == nil && !ap.hasSubIn()
}

// countStarGroup returns the single group of such a query, its counts
// taken from the index.
func (p *selectPlan) countStarGroup(ex *execCtx) (*group, error) {
	src := p.srcs[0]
	n, err := src.tbl.CountEntries(ex.tx, src.path.ix, countParallel)
	if err != nil {
		return nil, err
	}
	rep := make(Row, p.width)
	for i := range rep {
		rep[i] = sqltypes.NULL
	}
	g := &group{rep: rep, states: make([]aggState, len(p.aggs))}
	for i := range g.states {
		g.states[i].count = n
	}
	return g, nil
}

package sql

import (
	"bytes"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
)

// Stream aggregation. When the first table of the join is read in the
// order of an index whose leading columns are the GROUP BY columns (in
// any order, after columns an equality fixes to one value), every group's
// rows arrive one after another: the join keeps its outer table's order.
// Then each group is aggregated and emitted as soon as the next one
// starts — MySQL's "Group aggregate" — instead of hashing every group and
// holding them all until the input ends (TPC-H Q18's subquery groups all
// of lineitem by its primary key's first column). Groups come out in the
// order the hash aggregation would emit them (first seen), and LIMIT
// stops the read early.

// groupsContiguous reports whether the join yields the rows of each group
// contiguously (see above). groupExprs are the GROUP BY expressions.
func (p *selectPlan) groupsContiguous(sc *eval.Scope, groupExprs []sqlparser.Expr, selExprs *sqlparser.SelectExprs) bool {
	if len(groupExprs) == 0 || len(p.srcs) == 0 {
		return false
	}
	src := p.srcs[0]
	ap := src.path
	if ap == nil || ap.ix == nil || src.virtual != nil || src.vkey != nil || src.semi != plan.SemiNone || ap.tuples != nil {
		return false
	}
	want := map[int]bool{} // table-relative columns still to find in the key
	for _, g := range groupExprs {
		cn, ok := plan.ResolveOrderAlias(g, selExprs).(*sqlparser.ColName)
		if !ok {
			return false
		}
		i, err := sc.Resolve(cn)
		if err != nil || i < src.off || i >= src.off+src.width {
			return false
		}
		want[i-src.off] = true
	}
	// The key's order: the index's columns, then (a secondary index) the
	// primary key's, which every secondary entry ends with.
	keyCols := ap.ix.Columns
	if !ap.ix.Primary && src.def != nil && !src.def.HiddenPK {
		keyCols = append(append([]catalog.IndexColumn(nil), keyCols...), src.def.Primary().Columns...)
	}
	seen := map[int]bool{}
	for k, kc := range keyCols {
		if len(want) == 0 {
			break
		}
		if seen[kc.Col] {
			continue // repeated in the primary-key suffix: already in order
		}
		seen[kc.Col] = true
		switch {
		case kc.Prefix != 0:
			// A prefix key part interleaves values sharing the prefix.
			return false
		case want[kc.Col]:
			delete(want, kc.Col)
		case k < len(ap.ix.Columns) && k < len(ap.eq) && len(ap.eq[k]) == 1 && (k >= len(ap.subIn) || ap.subIn[k] == nil):
			// Fixed to one value by an equality: no order to keep.
		default:
			return false
		}
	}
	return len(want) == 0
}

// runStreamAggregate aggregates the groups of a join that yields them one
// after another (selectPlan.streamAgg), emitting each when the next starts.
func (p *selectPlan) runStreamAggregate(ex *execCtx, out *rowSink) error {
	ji := newJoinIter(ex, p.srcs, p.width, p.lock)
	if ex.analyze != nil {
		ji.stats = ex.joinStats(p.srcs)
	}
	defer ji.close()
	gvals := make(Row, len(p.groupBy))
	gcolls := make([]collations.ID, len(p.groupBy))
	agRow := make(Row, p.width+len(p.aggs))
	g := &group{states: make([]aggState, len(p.aggs))}
	var key, cur []byte
	have := false
	for !out.full() {
		row, ok, err := ji.next(ex)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if key, err = p.groupKeyOf(ex, row, gvals, gcolls, key[:0]); err != nil {
			return err
		}
		if !have || !bytes.Equal(key, cur) {
			if have {
				if err := p.emitGroup(ex, out, g, agRow); err != nil {
					return err
				}
			}
			cur = append(cur[:0], key...)
			g.rep = copyRow(g.rep, row)
			for i := range g.states {
				g.states[i] = aggState{}
			}
			have = true
		}
		for i, a := range p.aggs {
			if err := a.add(ex, &g.states[i], row); err != nil {
				return err
			}
		}
	}
	if have && !out.full() {
		return p.emitGroup(ex, out, g, agRow)
	}
	return nil
}

package sql

import (
	"bytes"
	"context"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/exec"
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

// streamAggOp is the stream aggregation as an operator over the join (nil
// when a constant WHERE condition is false: no groups). Next reads the
// input until the group changes and emits the finished group's aggregated
// row; the row that started the next group is kept (pending) and taken at
// the following call, so a LIMIT above stops the read at the group it
// needs. HAVING is a Filter above.
type streamAggOp struct {
	aggBase
	gvals  Row
	gcolls []collations.ID
	g      group
	key    []byte
	cur    []byte
	have   bool // g holds a group
	// pending are the input rows not taken yet; keyed: o.key is the
	// group key of the first.
	pending []Row
	keyed   bool
	done    bool
}

// reset prepares the aggregation of input for an execution by ex.
func (o *streamAggOp) reset(p *selectPlan, ex *execCtx, input exec.Operator) {
	*o = streamAggOp{aggBase: aggBase{p: p, ex: ex, input: input}, done: input == nil}
}

// Open implements exec.Operator.
func (o *streamAggOp) Open(ctx context.Context) error {
	p := o.p
	o.gvals = make(Row, len(p.groupBy))
	o.gcolls = make([]collations.ID, len(p.groupBy))
	o.agRow = make(Row, p.width+len(p.aggs))
	o.g.states = make([]aggState, len(p.aggs))
	if o.input == nil {
		return nil
	}
	return o.input.Open(ctx)
}

// Next implements exec.Operator: the next group's aggregated row.
func (o *streamAggOp) Next() ([]Row, error) {
	p, ex := o.p, o.ex
	for !o.done {
		if len(o.pending) == 0 {
			b, err := o.input.Next()
			if err != nil {
				return nil, err
			}
			if b == nil {
				o.done = true
				break
			}
			o.pending = b
		}
		row := o.pending[0]
		if !o.keyed {
			var err error
			if o.key, err = p.groupKeyOf(ex, row, o.gvals, o.gcolls, o.key[:0]); err != nil {
				return nil, err
			}
		}
		if o.have && !bytes.Equal(o.key, o.cur) {
			// The group ends: emit it; row (its key in o.key) starts the
			// next at the next call.
			o.have, o.keyed = false, true
			return o.emit(&o.g)
		}
		o.pending, o.keyed = o.pending[1:], false
		if !o.have {
			o.cur = append(o.cur[:0], o.key...)
			o.g.rep = copyRow(o.g.rep, row)
			for i := range o.g.states {
				o.g.states[i] = aggState{}
			}
			o.have = true
		}
		for i, a := range p.aggs {
			if err := a.add(ex, &o.g.states[i], row); err != nil {
				return nil, err
			}
		}
	}
	if o.have {
		o.have = false
		return o.emit(&o.g)
	}
	return nil, nil
}

// Close implements exec.Operator: it closes the input.
func (o *streamAggOp) Close() error {
	err := o.closeInput()
	*o = streamAggOp{}
	return err
}

package sql

import (
	"context"

	"vitess.io/vitess/go/mysql/collations"

	"github.com/strata-db/strata/internal/sql/exec"
)

// projectOp is a SELECT's projection as an operator: each input row
// (combined or aggregated) becomes the select list's values followed by
// the hidden sort-key columns (selectPlan.proj). A plain column is read
// from the row; an expression is evaluated. The projected row is one
// reused buffer (an evaluated value may live in the evaluator's scratch
// space until the next evaluation), so the operator yields one row per
// batch; its consumer copies what it keeps (rowArena.copyRow).
//
// colls holds each column's collation, as the projected rows so far had
// it: DISTINCT and the sort compare text by it.
type projectOp struct {
	p       *selectPlan
	ex      *execCtx
	input   exec.Operator
	row     Row
	colls   []collations.ID
	pending []Row // input rows not projected yet
	batch   [1]Row
}

// reset prepares the projection of input for an execution by ex.
func (o *projectOp) reset(p *selectPlan, ex *execCtx, input exec.Operator) {
	o.p, o.ex, o.input, o.pending = p, ex, input, nil
}

// Open implements exec.Operator.
func (o *projectOp) Open(ctx context.Context) error {
	n := len(o.p.proj)
	if cap(o.row) < n+1 {
		// One value more: a sorted locking read appends a row's index.
		o.row = make(Row, n, n+1)
		o.colls = make([]collations.ID, n)
	}
	o.row, o.colls = o.row[:n], o.colls[:n]
	clear(o.colls)
	return o.input.Open(ctx)
}

// Next implements exec.Operator.
func (o *projectOp) Next() ([]Row, error) {
	if len(o.pending) == 0 {
		b, err := o.input.Next()
		if err != nil || b == nil {
			return nil, err
		}
		o.pending = b
	}
	in := o.pending[0]
	o.pending = o.pending[1:]
	p := o.p
	o.row = o.row[:len(p.proj)]
	for i, e := range p.proj {
		if ci := p.projCols[i]; ci >= 0 && ci < len(in) {
			o.row[i] = in[ci]
			o.colls[i] = p.sc.Cols[ci].Type.Collation()
			continue
		}
		v, coll, err := o.ex.EvalColl(e, in)
		if err != nil {
			return nil, err
		}
		o.row[i] = v
		// A NULL carries no collation: the column keeps the one its
		// values have (an in-memory sort and DISTINCT use these for
		// every row, so the last row's NULL must not make them binary).
		if !v.IsNull() || o.colls[i] == collations.Unknown {
			o.colls[i] = coll
		}
	}
	o.batch[0] = o.row
	return o.batch[:], nil
}

// Close implements exec.Operator.
func (o *projectOp) Close() error {
	o.pending, o.batch[0] = nil, nil
	return o.input.Close()
}

// release drops the references an execution left.
func (o *projectOp) release() {
	clear(o.row[:cap(o.row)])
	o.p, o.ex, o.input = nil, nil, nil
}

// distinctPred is DISTINCT as an exec.Predicate: it keeps a projected
// row whose visible columns (by their collations, as groupKey) were not
// seen before.
type distinctPred struct {
	visible int
	colls   *[]collations.ID
	seen    map[string]struct{}
	key     []byte
}

// Keep implements exec.Predicate.
func (d *distinctPred) Keep(row Row) (bool, error) {
	d.key = groupKey(d.key[:0], row[:d.visible], *d.colls)
	if _, dup := d.seen[string(d.key)]; dup {
		return false, nil
	}
	d.seen[string(d.key)] = struct{}{}
	return true, nil
}

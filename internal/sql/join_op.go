package sql

import (
	"context"
)

// joinOp is the join of a SELECT as a source operator (exec.Operator):
// it yields the join's combined rows (joinIter: nested loop, index lookup,
// hash join), one row per batch. The row lives in the join's buffers (the
// scan's current entry) and a LIMIT above must stop the scan at the row it
// needs — Handler_read_* counts and the locks of a locking read are those
// of the rows read — so the join hands over each row as it is produced;
// batches for the client are formed at the top (rowSink).
//
// A joinOp lives in its plan (selectOps) and is reset for each execution:
// the combined row and the level slices are reused, so running the join
// allocates no operator.
type joinOp struct {
	ex    *execCtx
	it    joinIter
	batch [1]Row
}

// reset prepares the join of srcs for an execution by ex.
func (o *joinOp) reset(ex *execCtx, srcs []*tableSource, width int, lock lockMode) {
	cur, level := o.it.cur, o.it.level
	if cap(cur) < width {
		cur = make(Row, width)
	}
	if cap(level) < len(srcs) {
		level = make([]joinLevel, len(srcs))
	}
	cur, level = cur[:width], level[:len(srcs)]
	clear(cur)
	clear(level)
	o.it = joinIter{srcs: srcs, lock: lock, cur: cur, level: level, s: ex.s}
	o.ex = ex
}

// Open implements exec.Operator: EXPLAIN ANALYZE gets the join's counters.
func (o *joinOp) Open(context.Context) error {
	if o.ex.analyze != nil {
		o.it.stats = o.ex.joinStats(o.it.srcs)
	}
	return nil
}

// Next implements exec.Operator. It stops with the statement's context
// (max_execution_time, KILL), as joinIter.next checks it.
func (o *joinOp) Next() ([]Row, error) {
	row, ok, err := o.it.next(o.ex)
	if err != nil || !ok {
		return nil, err
	}
	o.batch[0] = row
	return o.batch[:], nil
}

// Close implements exec.Operator: it closes the scans and adds the
// join's Handler_read_* counts to the session's.
func (o *joinOp) Close() error {
	o.it.close()
	o.batch[0] = nil
	return nil
}

// release drops the references an execution left (rows, hash tables), so
// that an idle cached plan holds no data.
func (o *joinOp) release() {
	clear(o.it.cur)
	clear(o.it.level)
	o.it.stats, o.it.s, o.ex = nil, nil, nil
}

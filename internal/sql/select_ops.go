package sql

import (
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/exec"
)

// The operator tree of a SELECT. An execution builds it from the plan
// (selectPlan.operators) over the operators of internal/sql/exec's
// contract (Open / Next(batch) / Close):
//
//	Limit (OFFSET / LIMIT) or sort (ORDER BY no index provides, then
//	│                               OFFSET / LIMIT)
//	└── Filter (DISTINCT)
//	    └── project (select list, then hidden sort keys)
//	        └── window stages (window functions; window_op.go)
//	            └── Filter (HAVING; without aggregation, the row filter)
//	                └── hash or stream aggregate (GROUP BY / aggregates)
//	                    └── join (absent when a constant WHERE is false)
//
// and one loop (rowSink.pull) hands the root's batches to the row sink,
// which streams them to the client (stream.go) or gathers the result.
// Every operator but the sort passes a row on as soon as it has it, and
// Limit stops pulling once LIMIT is met, so the join reads no row past the
// ones the result needs. The sort (sort.go) sorts in memory, or through
// exec.Sort past sort_buffer_size, and gives back the locks of the rows a
// sorted locking read cut.
//
// The operators live in the plan (selectPlan.ops) and are reset for each
// execution: plans are checked out by one execution at a time
// (plancache.go), so a point select allocates no operator. An execution
// that finds them in use (the same plan run again inside its own
// execution) builds its own.
type selectOps struct {
	busy      bool
	join      joinOp
	hashAgg   hashAggOp
	streamAgg streamAggOp
	filter    exec.Filter
	pred      exprPred
	project   projectOp
	distinct  exec.Filter
	seen      distinctPred
	limit     exec.Limit
	sort      sortOp
	win       []windowOp
}

// exprPred is an exec.Predicate: a condition evaluated by an execution.
type exprPred struct {
	ex *execCtx
	e  *eval.Expr
}

// Keep implements exec.Predicate.
func (x *exprPred) Keep(row Row) (bool, error) { return x.ex.EvalBool(x.e, row) }

// operators builds the operator tree of an execution of p by ex (see
// above); constFalse: a constant WHERE condition is false; offset and
// limit are the statement's. The root is nil when there are no rows (no
// aggregation over a false WHERE); srt is the sort when the root is one.
// Call ops.release after the tree is closed.
func (p *selectPlan) operators(ex *execCtx, constFalse bool, offset, limit uint64) (ops *selectOps, root exec.Operator, srt *sortOp) {
	ops = &p.ops
	if ops.busy {
		ops = &selectOps{}
	}
	ops.busy = true
	var join *joinOp
	if !constFalse {
		ops.join.reset(ex, p.srcs, p.width, p.lock)
		join = &ops.join
		root = join
	}
	cond := p.rowFilter
	if p.hasAgg {
		if p.streamAgg {
			ops.streamAgg.reset(p, ex, root)
			root = &ops.streamAgg
		} else {
			ops.hashAgg.reset(p, ex, root)
			root = &ops.hashAgg
		}
		cond = p.having
	}
	if cond != nil && root != nil {
		ops.pred = exprPred{ex: ex, e: cond}
		ops.filter.Input, ops.filter.Pred = root, &ops.pred
		root = &ops.filter
	}
	if root == nil {
		return ops, nil, nil
	}
	if len(p.windows) > 0 {
		root = ops.windowOps(p, ex, root)
	}
	ops.project.reset(p, ex, root)
	root = &ops.project
	if p.distinct {
		ops.seen = distinctPred{visible: p.visible, colls: &ops.project.colls, seen: map[string]struct{}{}, key: ops.seen.key}
		ops.distinct.Input, ops.distinct.Pred = root, &ops.seen
		root = &ops.distinct
	}
	if p.sortNeed {
		ops.sort.reset(p, ex, root, join, &ops.project.colls, offset, limit)
		return ops, &ops.sort, &ops.sort
	}
	ops.limit.Input, ops.limit.Offset, ops.limit.Count = root, offset, limit
	return ops, &ops.limit, nil
}

// release ends an execution's use of the operators.
func (ops *selectOps) release() {
	ops.join.release()
	ops.pred = exprPred{}
	ops.filter.Input, ops.filter.Pred = nil, nil
	ops.project.release()
	ops.seen.seen, ops.seen.colls = nil, nil
	ops.distinct.Input, ops.distinct.Pred = nil, nil
	ops.limit.Input = nil
	ops.sort = sortOp{}
	clear(ops.win)
	ops.busy = false
}

// pull runs the operator tree root and hands its rows to the sink until
// the root ends (a Limit ends once LIMIT is met); srt is the sort when
// the root is one. root is closed before pull returns.
func (o *rowSink) pull(root exec.Operator, srt *sortOp) (err error) {
	defer func() {
		if cerr := root.Close(); err == nil {
			err = cerr
		}
	}()
	if err := root.Open(o.ex.Context()); err != nil {
		return err
	}
	spilled := srt != nil && srt.spilled()
	if spilled && o.sortTo.streaming() {
		o.dst = o.sortTo
	}
	for {
		b, err := root.Next()
		if err != nil || b == nil {
			return err
		}
		if srt != nil {
			if err := o.takeSorted(b, spilled); err != nil {
				return err
			}
			continue
		}
		for _, row := range b {
			if err := o.add(row); err != nil {
				return err
			}
		}
	}
}

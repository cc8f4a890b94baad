package sql

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/exec"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// windowOp computes one window stage (window_plan.go) as an operator
// between HAVING and the projection. Open reads its input and sorts it by
// the stage's PARTITION BY and ORDER BY with exec.Sort (which spills to
// disk past sort_buffer_size; a stage without keys keeps its input as one
// partition); Next then takes one partition at a time from the sort,
// computes the stage's functions for its rows and returns them. A row
// leaves as [input row..., window values...] (the values of later stages
// NULL until they compute them); inside the stage it carries its sort keys
// and RANGE bound values after those.
//
// Everything an execution changes lives in the operator, which is built
// for each execution (selectOps.windowOps): the plan is shared.
type windowOp struct {
	p     *selectPlan
	ex    *execCtx
	st    *windowStage
	input exec.Operator
	width int // winBase + nWin: the row the stage emits
	env   *collations.Environment
	ctx   context.Context

	// The functions' constants of this execution (NTILE's buckets, LAG's
	// offset, NTH_VALUE's N; ROWS offsets).
	consts []winConsts

	sorter  *exec.Sort
	all     []Row // a stage without keys: its one partition
	eof     bool
	pending []Row // sorted rows not yet taken into a partition
	arena   rowArena
	part    []Row // the current partition (rows of the stage's layout)
	pos     int   // next row of part to return
	batch   []Row

	scratch            Row
	colls              []collations.ID
	keyBuf             []byte
	peerStart, peerEnd []int
	los, his           []int
	cur                frameCursor
	vals               rangeVals
	acc                winAcc
	slide              slideAcc
	extreme            extremeAcc
}

// winConsts are a window function's constants for one execution.
type winConsts struct {
	n            int64
	startN, endN int64
}

// windowOps builds the window stages of an execution over input.
func (ops *selectOps) windowOps(p *selectPlan, ex *execCtx, input exec.Operator) exec.Operator {
	if cap(ops.win) < len(p.windows) {
		ops.win = make([]windowOp, len(p.windows))
	}
	ops.win = ops.win[:len(p.windows)]
	root := input
	for i, st := range p.windows {
		ops.win[i] = windowOp{p: p, ex: ex, st: st, input: root, width: p.winBase + p.nWin}
		root = &ops.win[i]
	}
	return root
}

// rowLen is the length of a row inside the stage.
func (o *windowOp) rowLen() int { return o.width + o.st.nkeys() + o.st.nbounds }

// Open implements exec.Operator: it evaluates the constants, reads the
// input and sorts it.
func (o *windowOp) Open(ctx context.Context) error {
	ex, st := o.ex, o.st
	o.env, o.ctx = ex.s.eng.Env.CollationEnv(), ctx
	o.consts = make([]winConsts, len(st.funcs))
	for i, f := range st.funcs {
		if err := o.evalConsts(f, &o.consts[i]); err != nil {
			return err
		}
		if f.framed && !f.kind.usesFrame() {
			ex.s.warn("Note", uint16(sqlerr.WindowIgnoresFrame), fmt.Sprintf("Window function '%s' ignores the frame clause of window '%s' and aggregates over the whole partition", f.name, f.win))
		}
	}
	if err := o.input.Open(ctx); err != nil {
		return err
	}
	nk := st.nkeys()
	o.scratch = make(Row, o.rowLen())
	o.colls = make([]collations.ID, o.rowLen())
	coll := ex.s.collation()
	for k := 0; k < nk; k++ {
		o.colls[o.width+k] = coll
		if c := st.keyColls[k]; c != 0 {
			o.colls[o.width+k] = c
		}
	}
	if nk > 0 {
		keys := make([]exec.Key, nk)
		for k := range keys {
			keys[k] = exec.Key{Col: o.width + k, Coll: o.colls[o.width+k]}
			if k >= len(st.partition) {
				keys[k].Desc = st.desc[k-len(st.partition)]
			}
		}
		o.sorter = exec.NewSorter(exec.Config{
			Keys:        keys,
			Env:         o.env,
			MemoryBound: ex.s.sortBuffer(),
			TempDir:     ex.s.eng.tmpDir(),
		})
	}
	if err := exec.Drain(o.input, o.add); err != nil {
		return err
	}
	if o.sorter != nil {
		return o.sorter.Open(ctx)
	}
	return nil
}

// add takes one input row: it lays it out with its keys and bound
// values, and hands it to the sort (or keeps it).
func (o *windowOp) add(in Row) error {
	st, row := o.st, o.scratch
	n := copy(row[:o.width], in)
	for i := n; i < o.width; i++ {
		row[i] = sqltypes.NULL
	}
	o.keyBuf = o.keyBuf[:0]
	// An evaluated value may live in the evaluator's scratch space until
	// the next evaluation: each is copied into keyBuf (a grown keyBuf
	// leaves the earlier copies where they are).
	put := func(col int, v sqltypes.Value) {
		if v.IsNull() {
			row[col] = sqltypes.NULL
			return
		}
		start := len(o.keyBuf)
		o.keyBuf = append(o.keyBuf, v.Raw()...)
		row[col] = sqltypes.MakeTrusted(v.Type(), o.keyBuf[start:len(o.keyBuf):len(o.keyBuf)])
	}
	col := o.width
	for _, keys := range [][]*eval.Expr{st.partition, st.order} {
		for _, e := range keys {
			v, err := o.ex.Eval(e, in)
			if err != nil {
				return err
			}
			put(col, v)
			col++
		}
	}
	for _, f := range st.funcs {
		for _, b := range []struct {
			e   *eval.Expr
			col int
		}{{f.startVal, f.startCol}, {f.endVal, f.endCol}} {
			if b.e == nil {
				continue
			}
			v, err := o.ex.Eval(b.e, in)
			if err != nil {
				return err
			}
			put(o.width+st.nkeys()+b.col, v)
		}
	}
	if o.sorter != nil {
		return o.sorter.Add(row, o.colls)
	}
	o.all = append(o.all, o.arena.copyRow(row))
	return nil
}

// Next implements exec.Operator: the rows of the current partition, the
// next partition's once they are returned.
func (o *windowOp) Next() ([]Row, error) {
	if o.pos >= len(o.part) {
		if err := o.nextPartition(); err != nil || len(o.part) == 0 {
			return nil, err
		}
		if err := o.compute(); err != nil {
			return nil, err
		}
	}
	end := min(o.pos+exec.BatchRows, len(o.part))
	o.batch = o.batch[:0]
	for _, r := range o.part[o.pos:end] {
		o.batch = append(o.batch, r[:o.width])
	}
	o.pos = end
	return o.batch, nil
}

// nextPartition makes part the next partition's rows (none at the end).
func (o *windowOp) nextPartition() error {
	o.pos = 0
	if o.sorter == nil {
		if o.eof {
			o.part = o.part[:0]
			return nil
		}
		o.eof = true
		o.part = o.all
		return nil
	}
	if len(o.part) > 0 {
		o.arena.reuse(o.part)
	}
	o.part = o.part[:0]
	for {
		if len(o.pending) == 0 {
			if o.eof {
				return nil
			}
			b, err := o.sorter.Next()
			if err != nil {
				return err
			}
			if b == nil {
				o.eof = true
				return nil
			}
			o.pending = b
		}
		r := o.pending[0]
		if len(o.part) > 0 {
			same, err := o.sameKeys(o.part[0], r, 0, len(o.st.partition))
			if err != nil {
				return err
			}
			if !same {
				return nil
			}
		}
		// The sort's rows are valid until its next batch.
		o.part = append(o.part, o.arena.copyRow(r))
		o.pending = o.pending[1:]
	}
}

// sameKeys reports whether rows a and b have equal keys [from, to).
func (o *windowOp) sameKeys(a, b Row, from, to int) (bool, error) {
	for k := from; k < to; k++ {
		c := o.width + k
		cmp, err := exec.CompareValues(a[c], b[c], o.env, o.colls[c])
		if err != nil || cmp != 0 {
			return false, err
		}
	}
	return true, nil
}

// compute computes the stage's functions for the rows of part.
func (o *windowOp) compute() error {
	if err := o.ctx.Err(); err != nil {
		return fmt.Errorf("window: %w", err)
	}
	part, n := o.part, len(o.part)
	// Peers: rows with equal ORDER BY values (all rows without ORDER BY).
	o.peerStart = resizeInts(o.peerStart, n)
	o.peerEnd = resizeInts(o.peerEnd, n)
	np, nk := len(o.st.partition), o.st.nkeys()
	start := 0
	for i := 1; i <= n; i++ {
		if i < n {
			same, err := o.sameKeys(part[i-1], part[i], np, nk)
			if err != nil {
				return err
			}
			if same {
				continue
			}
		}
		for j := start; j < i; j++ {
			o.peerStart[j], o.peerEnd[j] = start, i
		}
		start = i
	}
	for fi, f := range o.st.funcs {
		if err := o.computeFunc(f, &o.consts[fi]); err != nil {
			return err
		}
	}
	return o.vals.err
}

func resizeInts(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

// computeFunc computes one function for the partition's rows.
func (o *windowOp) computeFunc(f *windowFunc, k *winConsts) error {
	part, n := o.part, len(o.part)
	col := o.p.winBase + f.slot
	switch f.kind {
	case winRowNumber, winRank, winDenseRank, winPercentRank, winCumeDist, winNtile:
		dense := int64(0)
		for i, r := range part {
			var v sqltypes.Value
			switch f.kind {
			case winRowNumber:
				v = sqltypes.NewInt64(int64(i) + 1)
			case winRank:
				v = sqltypes.NewInt64(int64(o.peerStart[i]) + 1)
			case winDenseRank:
				if o.peerStart[i] == i {
					dense++
				}
				v = sqltypes.NewInt64(dense)
			case winPercentRank:
				pr := 0.0
				if n > 1 {
					pr = float64(o.peerStart[i]) / float64(n-1)
				}
				v = sqltypes.NewFloat64(pr)
			case winCumeDist:
				v = sqltypes.NewFloat64(float64(o.peerEnd[i]) / float64(n))
			case winNtile:
				v = sqltypes.NewInt64(ntileBucket(i, n, k.n))
			}
			r[col] = v
		}
		return nil
	case winLag, winLead:
		for i, r := range part {
			j := int64(i) - k.n
			if f.kind == winLead {
				j = int64(i) + k.n
			}
			var v sqltypes.Value
			var err error
			switch {
			case j >= 0 && j < int64(n):
				v, err = o.ex.Eval(f.arg, part[j])
			case f.def != nil:
				v, err = o.ex.Eval(f.def, r)
			default:
				v = sqltypes.NULL
			}
			if err != nil {
				return err
			}
			r[col] = cloneValue(v)
		}
		return nil
	}
	// The functions of a frame.
	o.cur = frameCursor{fr: f.fr, startN: k.startN, endN: k.endN}
	o.vals = rangeVals{part: part, env: o.env, err: o.vals.err}
	if f.startCol >= 0 || f.endCol >= 0 {
		oc := o.width + len(o.st.partition)
		o.vals.col, o.vals.desc, o.vals.coll = oc, o.st.desc[0], o.colls[oc]
		o.vals.startCol = o.width + o.st.nkeys() + f.startCol
		o.vals.endCol = o.width + o.st.nkeys() + f.endCol
	}
	o.cur.reset(n, o.peerStart, o.peerEnd, &o.vals)
	o.los, o.his = resizeInts(o.los, n), resizeInts(o.his, n)
	for i := range part {
		o.los[i], o.his[i] = o.cur.bounds(i)
	}
	switch f.kind {
	case winFirstValue, winLastValue, winNthValue:
		for i, r := range part {
			lo, hi := o.los[i], o.his[i]
			j := -1
			switch f.kind {
			case winFirstValue:
				if lo < hi {
					j = lo
				}
			case winLastValue:
				if lo < hi {
					j = hi - 1
				}
			default:
				if int64(hi-lo) >= k.n {
					j = lo + int(k.n) - 1
				}
			}
			r[col] = sqltypes.NULL
			if j >= 0 {
				v, err := o.ex.Eval(f.arg, part[j])
				if err != nil {
					return err
				}
				r[col] = cloneValue(v)
			}
		}
		return nil
	}
	return o.aggregate(f, col)
}

// aggregate computes an aggregate over each row's frame: adding rows as
// frames grow (or, for frames that end at the partition's end, from the
// end backwards); COUNT, SUM and AVG over other frames by adding the rows
// that enter and subtracting those that leave (slideAcc), MIN and MAX
// through a deque of the frame's candidates (extremeAcc); the others anew
// for each frame that differs from the row before's.
func (o *windowOp) aggregate(f *windowFunc, col int) error {
	part, n := o.part, len(o.part)
	a := &o.acc
	a.f, a.ex = f, o.ex
	switch {
	case f.fr.growing():
		a.reset()
		added := 0
		var v sqltypes.Value
		for i, r := range part {
			if i == 0 || o.his[i] != added {
				for ; added < o.his[i]; added++ {
					if err := a.add(part[added]); err != nil {
						return err
					}
				}
				var err error
				if v, err = a.result(); err != nil {
					return err
				}
			}
			r[col] = v
		}
	case f.fr.shrinking():
		a.reset()
		next := n
		var v sqltypes.Value
		for i := n - 1; i >= 0; i-- {
			if i == n-1 || o.los[i] != next {
				for next > o.los[i] {
					next--
					if err := a.add(part[next]); err != nil {
						return err
					}
				}
				var err error
				if v, err = a.result(); err != nil {
					return err
				}
			}
			part[i][col] = v
		}
	case f.kind == winAgg && slides(f.agg):
		// Both bounds move forward: rows enter at the end (the end first,
		// so every row that leaves was added) and leave at the start.
		s := &o.slide
		s.reset(o.ex, f.agg)
		lo, hi := 0, 0
		for i, r := range part {
			for ; hi < o.his[i]; hi++ {
				if err := s.add(part[hi], 1); err != nil {
					return err
				}
			}
			for ; lo < o.los[i]; lo++ {
				if err := s.add(part[lo], -1); err != nil {
					return err
				}
			}
			r[col] = s.result()
		}
	case f.kind == winAgg && slidesExtreme(f.agg):
		x := &o.extreme
		if err := x.reset(o.ex, f.agg, part); err != nil {
			return err
		}
		hi := 0
		for i, r := range part {
			for ; hi < o.his[i]; hi++ {
				if err := x.enter(hi); err != nil {
					return err
				}
			}
			x.leave(o.los[i])
			r[col] = x.result()
		}
	default:
		var v sqltypes.Value
		for i, r := range part {
			if i == 0 || o.los[i] != o.los[i-1] || o.his[i] != o.his[i-1] {
				a.reset()
				for j := o.los[i]; j < o.his[i]; j++ {
					if err := a.add(part[j]); err != nil {
						return err
					}
				}
				var err error
				if v, err = a.result(); err != nil {
					return err
				}
			}
			r[col] = v
		}
	}
	return nil
}

// Close implements exec.Operator.
func (o *windowOp) Close() error {
	err := o.input.Close()
	if o.sorter != nil {
		if e := o.sorter.Close(); err == nil {
			err = e
		}
	}
	o.sorter, o.all, o.part, o.pending, o.batch = nil, nil, nil, nil, nil
	return err
}

// evalConsts evaluates f's constants for this execution and checks them
// as MySQL does.
func (o *windowOp) evalConsts(f *windowFunc, k *winConsts) error {
	k.n = 1
	if f.n != nil {
		v, err := o.ex.Eval(f.n, nil)
		if err != nil {
			return err
		}
		n, ok := constInt(v)
		min := int64(1)
		if f.kind == winLag || f.kind == winLead {
			min = 0
		}
		if !ok || n < min {
			return wrongArgs(f.name)
		}
		k.n = n
	}
	illegal := sqlerr.Window(sqlerr.WindowFrameIllegal, "Window '%s': frame start or end is negative, NULL or of non-integral type", f.win)
	for _, b := range []struct {
		e   *eval.Expr
		dst *int64
	}{{f.startN, &k.startN}, {f.endN, &k.endN}} {
		if b.e == nil {
			continue
		}
		v, err := o.ex.Eval(b.e, nil)
		if err != nil {
			return err
		}
		if f.fr.unit == frameRows {
			n, ok := constInt(v)
			if !ok || n < 0 {
				return illegal
			}
			*b.dst = n
			continue
		}
		if v.IsNull() || strings.HasPrefix(v.ToString(), "-") {
			return illegal
		}
	}
	return nil
}

// constInt is v as an integer, if it is one.
func constInt(v sqltypes.Value) (int64, bool) {
	if v.IsNull() {
		return 0, false
	}
	if v.IsIntegral() {
		if n, err := v.ToInt64(); err == nil {
			return n, true
		}
		if _, err := v.ToUint64(); err == nil {
			return math.MaxInt64, true
		}
		return 0, false
	}
	s := v.ToString()
	if v.Type() == sqltypes.Decimal {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// rangeVals is rangeValues over a partition's rows: the ORDER BY value in
// column col, the bound values in startCol and endCol.
type rangeVals struct {
	part             []Row
	col              int
	startCol, endCol int
	desc             bool
	env              *collations.Environment
	coll             collations.ID
	err              error
}

func (r *rangeVals) null(i int) bool { return r.part[i][r.col].IsNull() }

func (r *rangeVals) cmpBound(j, i int, end bool) int {
	b := r.part[i][r.startCol]
	if end {
		b = r.part[i][r.endCol]
	}
	c, err := exec.CompareValues(r.part[j][r.col], b, r.env, r.coll)
	if err != nil && r.err == nil {
		r.err = err
	}
	if r.desc {
		return -c
	}
	return c
}

// winAcc accumulates an aggregate window function over a frame.
type winAcc struct {
	f  *windowFunc
	ex *execCtx
	st aggState
}

func (a *winAcc) reset() { a.st = aggState{} }

func (a *winAcc) add(row Row) error { return a.f.agg.add(a.ex, &a.st, row) }

func (a *winAcc) result() (sqltypes.Value, error) { return a.f.agg.result(a.ex, &a.st) }

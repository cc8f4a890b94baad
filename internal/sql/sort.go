package sql

import (
	"context"
	"os"
	"strconv"
	"sync/atomic"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/exec"
)

// Sorting a SELECT's result. A top-level or nested SELECT whose ORDER BY
// no index order provides, and that takes no row locks, gathers its
// projected rows (sort keys as hidden columns) in its sort operator
// (sortOp, the root of its operator tree) and sorts them in
// memory (sortRows) while they take less than the session's
// sort_buffer_size (at least minSortBuffer, counted as exec.Sort counts).
// Past it the rows go to an exec.Sort, which writes sorted runs to files
// in the engine's temporary directory and merges them, or, for ORDER BY
// ... LIMIT n, keeps only the offset+n best rows in a heap. A sort that
// spilled streams its merged rows to the client in batches (stream.go),
// so a result of any size is sorted in bounded memory; a small one is sent
// whole at the end as before, and creates no file.
//
// Locking reads (FOR UPDATE / FOR SHARE, which give back the locks of the
// rows LIMIT cuts), UNION's sort, GROUP_CONCAT's ORDER BY and
// UPDATE/DELETE ... ORDER BY still sort in memory (sortRows).

// minSortBuffer is the smallest sort memory bound. The bound counts the
// Go memory of the rows (values, bytes, prepared keys: ~350 bytes for a
// row of two integers and a 40-character string), about four times what
// MySQL's packed sort records take, so MySQL's default sort_buffer_size
// (256 KiB, which strata keeps as the variable's default) would spill sorts
// of ~700 such rows that MySQL sorts in memory; 1 MiB holds about as many
// rows as MySQL's default does. A larger sort_buffer_size raises the
// bound; a smaller one (MySQL's minimum is 32 KiB) does not lower it.
const minSortBuffer = 1 << 20

// sortBuffer is the session's sort memory bound in bytes.
func (s *Session) sortBuffer() int64 {
	n := int64(exec.DefaultMemoryBound)
	if v, ok := s.sysVar("sort_buffer_size"); ok {
		if i, err := v.ToInt64(); err == nil {
			n = i
		} else if u, err := v.ToUint64(); err == nil {
			n = int64(min(u, 1<<62))
		}
	}
	return max(n, minSortBuffer)
}

// tmpDir is where sorts write their runs.
func (e *Engine) tmpDir() string {
	if e.TmpDir == "" {
		return os.TempDir()
	}
	return e.TmpDir
}

// UseTmpDir makes dir the engine's directory for temporary files (created
// if missing; sort files a previous process left there are removed). Call
// it before the engine serves statements.
func (e *Engine) UseTmpDir(dir string) error {
	if err := exec.PrepareTempDir(dir); err != nil {
		return err
	}
	e.TmpDir = dir
	return nil
}

// newSort returns the sort of p's rows with the statement's LIMIT and
// OFFSET (limit 1<<63 when there is none).
func (ex *execCtx) newSort(p *selectPlan, offset, limit uint64) *exec.Sort {
	keys := make([]exec.Key, len(p.order))
	coll := ex.s.collation()
	for i, k := range p.order {
		keys[i] = exec.Key{Col: k.idx, Desc: k.desc, Coll: coll}
	}
	if limit >= 1<<63 {
		limit = 0
	}
	return exec.NewSorter(exec.Config{
		Keys:        keys,
		Env:         ex.s.eng.Env.CollationEnv(),
		MemoryBound: ex.s.sortBuffer(),
		TempDir:     ex.s.eng.tmpDir(),
		Offset:      offset,
		Limit:       limit,
	})
}

// sortOp is ORDER BY as an operator over the projection, for a SELECT
// whose order no index provides: Open reads its input, Next returns the
// sorted rows after OFFSET, at most LIMIT of them, without the hidden
// sort-key columns. The rows are copied into the operator's arena and
// sorted in memory (sortRows) while they take less than the sort buffer;
// past it they go to an exec.Sort, which spills and keeps a top-N heap for
// a LIMIT. A locking read sorts in memory and, when it has a LIMIT or an
// OFFSET, gives back the locks it took on the rows the cut drops: each
// row carries its index in locks as a hidden last value.
//
// Rows sorted in memory outlive Close (the result holds them); those of a
// sort that spilled are valid until the next call to Next.
type sortOp struct {
	p     *selectPlan
	ex    *execCtx
	input exec.Operator
	// join is the join whose current row's lock a locking read records.
	join  *joinOp
	colls *[]collations.ID // the projection's collations
	// offset and limit are the statement's (limit 1<<63 when none).
	offset, limit uint64
	// bound, when not 0, is the memory the rows may take before they go
	// to sorter; mem is the memory they took so far.
	bound, mem int64
	rows       []Row
	arena      rowArena
	sorter     *exec.Sort
	locks      *rowLocks
	pos        int
}

// rowLocks are the locks a sorting locking read took on its result rows.
type rowLocks struct {
	rows []rowLock
}

// rowLock is the lock a locking read took on a result row.
type rowLock struct {
	pk    []byte
	fresh bool
}

// reset prepares the sort of input for an execution by ex; join is the
// join under it (nil when there is none), colls the projection's
// collations. The rows of the previous execution stay with its result.
func (o *sortOp) reset(p *selectPlan, ex *execCtx, input exec.Operator, join *joinOp, colls *[]collations.ID, offset, limit uint64) {
	*o = sortOp{p: p, ex: ex, input: input, colls: colls, offset: offset, limit: limit}
	if p.lock == lockNone {
		o.bound = ex.s.sortBuffer()
	} else if !p.hasAgg && len(p.windows) == 0 && len(p.srcs) == 1 && p.srcs[0].tbl != nil && (p.limit != nil || p.offset != nil) && join != nil {
		// A locking read sorted before LIMIT/OFFSET: remember each row's
		// lock, to give back those of the rows the cut drops (a window
		// stage reads all rows before the first is projected: all keep
		// their locks).
		o.join, o.locks = join, &rowLocks{}
	}
}

// Open implements exec.Operator: it reads the input and sorts it.
func (o *sortOp) Open(ctx context.Context) error {
	if err := o.input.Open(ctx); err != nil {
		return err
	}
	if err := exec.Drain(o.input, o.add); err != nil {
		return err
	}
	if o.sorter != nil {
		return o.sorter.Open(ctx)
	}
	rows := o.rows
	if err := sortRows(rows, o.p.order, *o.colls, o.ex); err != nil {
		return err
	}
	lo := min(o.offset, uint64(len(rows)))
	hi := lo + min(o.limit, uint64(len(rows))-lo)
	if o.locks != nil {
		o.unlockCut(rows[:lo])
		o.unlockCut(rows[hi:])
	}
	o.rows = rows[lo:hi]
	for i := range o.rows {
		o.rows[i] = o.rows[i][:o.p.visible]
	}
	return nil
}

// add takes one projected row.
func (o *sortOp) add(row Row) error {
	if o.bound > 0 {
		if o.sorter != nil {
			return o.sorter.Add(row, *o.colls)
		}
		if o.mem += exec.RowMemory(row, len(o.p.order)); o.mem > o.bound {
			return o.startSort(row)
		}
	}
	if l := o.locks; l != nil {
		row = append(row, sqltypes.NewInt64(int64(len(l.rows))))
		it := &o.join.it
		l.rows = append(l.rows, rowLock{pk: append([]byte(nil), it.currentPK(0)...), fresh: it.freshLock(0)})
	}
	o.rows = append(o.rows, o.arena.copyRow(row))
	return nil
}

// startSort moves the rows gathered so far, and row, the one being
// added, to a new exec.Sort: they outgrew the sort buffer.
func (o *sortOp) startSort(row Row) error {
	o.sorter = o.ex.newSort(o.p, o.offset, o.limit)
	for _, r := range o.rows {
		// The collations of the last row, as sortRows uses.
		if err := o.sorter.Add(r, *o.colls); err != nil {
			return err
		}
	}
	clear(o.rows)
	o.rows, o.arena = nil, rowArena{}
	return o.sorter.Add(row, *o.colls)
}

// unlockCut gives back the fresh locks of rows a sort-then-LIMIT dropped:
// the statement does not return them.
func (o *sortOp) unlockCut(rows []Row) {
	src := o.p.srcs[0]
	for _, r := range rows {
		i, err := r[len(r)-1].ToInt64()
		if err != nil || i < 0 || int(i) >= len(o.locks.rows) {
			continue
		}
		if l := o.locks.rows[i]; l.fresh && l.pk != nil {
			src.tbl.UnlockRow(o.ex.tx, l.pk)
		}
	}
}

// spilled reports whether the sort wrote its rows to disk: they are then
// valid only until the next call to Next.
func (o *sortOp) spilled() bool { return o.sorter != nil && o.sorter.Spilled() }

// Next implements exec.Operator.
func (o *sortOp) Next() ([]Row, error) {
	if o.sorter != nil {
		b, err := o.sorter.Next()
		if err != nil || b == nil {
			return nil, err
		}
		for i := range b {
			b[i] = b[i][:o.p.visible]
		}
		return b, nil
	}
	if o.pos >= len(o.rows) {
		return nil, nil
	}
	end := min(o.pos+exec.BatchRows, len(o.rows))
	b := o.rows[o.pos:end:end]
	o.pos = end
	return b, nil
}

// Close implements exec.Operator: it closes the input and the exec.Sort,
// removing its files, and counts its merges (Sort_merge_passes).
func (o *sortOp) Close() error {
	err := o.input.Close()
	if o.sorter != nil {
		if e := o.sorter.Close(); err == nil {
			err = e
		}
		if n := o.sorter.MergePasses(); n > 0 {
			o.ex.s.sorts.mergePasses.Add(uint64(n))
		}
	}
	return err
}

// takeSorted takes a batch of the sort's rows: rows sorted in memory join
// the result as they are; those of a sort that spilled are sent to the
// client when the result streams (the first batch fixes the columns, as
// rowSink.flush does), else copied into the result.
func (o *rowSink) takeSorted(b []Row, spilled bool) error {
	if o.dst != nil && o.fixFields(b) {
		return o.dst.sendRows(b)
	}
	if !spilled {
		if o.rows == nil {
			o.rows = b
		} else {
			o.rows = append(o.rows, b...)
		}
		return nil
	}
	for _, r := range b {
		o.rows = append(o.rows, o.arena.copyRow(r))
	}
	return nil
}

// sortStatus holds MySQL's Sort_merge_passes status counter (read by other
// sessions for SHOW GLOBAL STATUS, so atomic).
type sortStatus struct {
	mergePasses atomic.Uint64
}

// sortStatusRows returns the Sort_* status rows of the session, or with global
// of the server (closed and flushed sessions plus the open ones).
func (s *Session) sortStatusRows(global bool) [][]string {
	n := s.sorts.mergePasses.Load()
	if global {
		n = s.eng.sortsDone.mergePasses.Load()
		for _, o := range s.eng.Sessions() {
			n += o.sorts.mergePasses.Load()
		}
	}
	return [][]string{{"Sort_merge_passes", strconv.FormatUint(n, 10)}}
}

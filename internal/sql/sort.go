package sql

import (
	"os"
	"strconv"
	"sync/atomic"

	"github.com/strata-db/strata/internal/sql/exec"
)

// Sorting a SELECT's result. A top-level or nested SELECT whose ORDER BY
// no index order provides, and that takes no row locks, gathers its
// projected rows (sort keys as hidden columns) as before and sorts them in
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

// startSort moves the rows gathered so far, and row, the one being
// added, to a new exec.Sort: they outgrew the sort buffer.
func (o *rowSink) startSort(row Row) error {
	o.sorter = o.ex.newSort(o.p, o.offset, o.limit)
	for _, r := range o.rows {
		// The collations of the last row, as sortRows uses.
		if err := o.sorter.Add(r, o.colls); err != nil {
			return err
		}
	}
	clear(o.rows)
	o.rows, o.valSlab, o.byteSlab = nil, nil, nil
	return o.sorter.Add(row, o.colls)
}

// finishSorted sorts the rows added to o.sorter. A sort that fit in
// memory returns its rows (which live in the sorter's memory); one that
// spilled sends them to o.dst in batches when the result streams and its
// columns are static, and otherwise copies them into the result.
func (o *rowSink) finishSorted() ([]Row, error) {
	p, srt := o.p, o.sorter
	if err := srt.Open(o.ex.Context()); err != nil {
		return nil, err
	}
	o.dst = nil
	if srt.Spilled() && o.sortTo.streaming() {
		o.dst = o.sortTo
	}
	var rows []Row
	for {
		b, err := srt.Next()
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		for i := range b {
			b[i] = b[i][:p.visible]
		}
		if o.dst != nil && o.dst.fields == nil && len(rows) == 0 {
			// As rowSink.flush: the first batch fixes the columns, or the
			// result is built whole when they depend on the values.
			f := p.fields(o.ex, b)
			if s := p.staticFields; len(s) == 0 || len(f) != len(s) || &f[0] != &s[0] {
				o.dst = nil
			} else {
				o.dst.fields = f
			}
		}
		if o.dst != nil {
			if err := o.dst.sendRows(b); err != nil {
				return nil, err
			}
			continue
		}
		if !srt.Spilled() {
			rows = append(rows, b...)
			continue
		}
		for _, r := range b {
			rows = append(rows, o.copyOut(r))
		}
	}
	return rows, nil
}

// closeSort ends o's sort, removing its files, and counts its merges.
func (o *rowSink) closeSort() error {
	if o.sorter == nil {
		return nil
	}
	err := o.sorter.Close()
	if n := o.sorter.MergePasses(); n > 0 {
		o.ex.s.sorts.mergePasses.Add(uint64(n))
	}
	o.sorter = nil
	return err
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

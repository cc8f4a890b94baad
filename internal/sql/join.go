package sql

import (
	"time"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
	"github.com/strata-db/strata/internal/table"
)

// tableSource is one table of a FROM clause with its access path and the
// conditions evaluated once its row is in place.
type tableSource struct {
	def   *catalog.Table
	tbl   *table.Table
	alias string
	off   int // offset of its columns in the combined row
	width int
	path  *accessPath
	// on: conditions deciding whether a row matches (LEFT JOIN ... ON);
	// filter: conditions rejecting combined rows at this level.
	on     []*eval.Expr
	filter []*eval.Expr
	// rangeFilter: conjuncts the key ranges enforce; checked only when the
	// ranges were widened at execution.
	rangeFilter []*eval.Expr
	// residual counts the conditions at this level the key ranges do not
	// enforce (EXPLAIN's "Using where"); conds are they (EXPLAIN
	// FORMAT=TREE's filter).
	residual int
	conds    []sqlparser.Expr
	outer    bool // LEFT JOIN: emit a NULL row when nothing matches
	// Nested outer joins (nest.go). nestLast: for the first level of a
	// nest (outer), the level of its last table; nestGroup: the nest's
	// condition group there. ends: the first levels of the nests that end
	// at this level, innermost first; mid: the condition groups between
	// on and filter. nested: the level needs them (a plain LEFT JOIN's
	// table does not).
	nestLast  int
	nestGroup int
	ends      []int
	mid       [][]*eval.Expr
	nested    bool
	// groupConds: the condition groups of a nested level (EXPLAIN).
	groupConds [][]sqlparser.Expr
	// semi: a semi-join stops at the first row that matches; an anti-join
	// (also outer) rejects the outer rows when one matches (semijoin.go).
	semi plan.SemiKind
	// covering: no column of this table is needed (COUNT(*)): secondary
	// index scans skip the row lookup.
	covering bool
	// rows of a virtual table (information_schema), when def is virtual.
	virtual func(ex *execCtx) ([]Row, error)
	// tf: a table function (with virtual set, which it replaces), its rows
	// computed for the current outer row, or once when its argument reads
	// no column.
	tf *tableFunc
	// vkey: the virtual table's rows are looked up by these columns
	// (join_lookup.go); for a stored table, the columns of its hash join
	// (join_hash.go).
	vkey *virtualKey
}

// joinIter produces combined rows of a nested-loop join over sources in
// order. With one source it is a plain filtered scan.
type joinIter struct {
	srcs  []*tableSource
	lock  lockMode
	cur   Row
	level []joinLevel
	depth int // deepest level with an open cursor
	empty bool
	// reads counts Handler_read_*; added to the session's at close.
	reads handlerCounts
	s     *Session
	// stats, for EXPLAIN ANALYZE only, counts each level's work.
	stats *joinStats
}

type joinLevel struct {
	ranges  []keyRange
	ri      int
	scan    *table.Scanner
	pointed bool // point range consumed
	matched bool
	done    bool
	nulled  bool
	// fresh: the lock on pk was taken by this read (the transaction did
	// not hold it before), so it is given back if the row does not match.
	fresh bool
	// step is the Handler_read_* counter of the scan's further rows,
	// counted for each read once countNext is set.
	step      readStep
	countNext bool
	virt      []Row
	vi        int
	lookup    virtualLookup
	// tfRows: a table function's rows; tfDone: they are kept for the
	// execution (its argument reads no column).
	tfRows []Row
	tfDone bool
	// hashRows: a hash join's copy of the table (built at the first open);
	// hashOff: it did not fit, the level scans per outer row; hashed: the
	// current candidates come from the hash (in virt).
	hashRows []Row
	hashOff  bool
	hashed   bool
	// lookupVals, lookupColls: the outer row's key values (reused).
	lookupVals  Row
	lookupColls []collations.TypedCollation
	pk          []byte
	rowBuf      Row
}

// newJoinIter stays small enough to inline, so that the iterator can live
// on the stack of the statement that runs it. A SELECT's own join asks
// for EXPLAIN ANALYZE's counters with ex.joinStats.
func newJoinIter(ex *execCtx, srcs []*tableSource, width int, lock lockMode) *joinIter {
	return &joinIter{srcs: srcs, lock: lock, cur: make(Row, width), level: make([]joinLevel, len(srcs)), s: ex.s}
}

// open positions level i for the current outer row.
func (j *joinIter) open(ex *execCtx, i int) error {
	l := &j.level[i]
	src := j.srcs[i]
	if l.scan != nil {
		_ = l.scan.Close()
		l.scan = nil
	}
	l.ri, l.matched, l.done, l.nulled, l.pointed, l.hashed = 0, false, false, false, false, false
	if j.stats != nil {
		j.stats.opened(i)
	}
	if src.virtual != nil || src.vkey != nil && !l.hashOff {
		var rows []Row
		if src.virtual != nil {
			var err error
			if src.tf != nil {
				if !l.tfDone {
					rows, err = src.tf.rows(ex, j.cur)
					l.tfRows, l.tfDone = rows, src.tf.constant
				}
				rows = l.tfRows
			} else {
				rows, err = src.virtual(ex)
			}
			if err != nil {
				return err
			}
		} else {
			if l.hashRows == nil {
				ok, err := j.hashBuild(ex, i)
				if err != nil {
					return err
				}
				if !ok {
					l.hashOff = true
					return j.open(ex, i)
				}
			}
			rows, l.hashed = l.hashRows, true
		}
		if k := src.vkey; k != nil {
			l.lookup.build(rows, k)
			vals, tcs := l.lookupVals[:0], l.lookupColls[:0]
			for _, p := range k.parts {
				v, tc, err := ex.EvalTyped(p.val, j.cur)
				if err != nil {
					return err
				}
				vals, tcs = append(vals, v), append(tcs, tc)
			}
			l.lookupVals, l.lookupColls = vals, tcs
			if cand, ok := l.lookup.candidates(ex, vals, tcs, k); ok {
				rows = cand
				if rows == nil {
					rows = noCandidates // opened, not to be reopened
				}
			}
		}
		l.virt, l.vi = rows, 0
		return nil
	}
	rs, ok, err := src.path.ranges(ex, src.tbl, j.cur, l.ranges[:0])
	if err != nil {
		return err
	}
	l.ranges = rs
	if !ok {
		l.ranges = l.ranges[:0]
	}
	if src.path.reverse {
		for a, b := 0, len(l.ranges)-1; a < b; a, b = a+1, b-1 {
			l.ranges[a], l.ranges[b] = l.ranges[b], l.ranges[a]
		}
	}
	return nil
}

// fetch returns the next candidate row of level i (table-local), or false.
func (j *joinIter) fetch(ex *execCtx, i int) (Row, bool, error) {
	l := &j.level[i]
	src := j.srcs[i]
	if src.virtual != nil || l.hashed {
		if l.vi >= len(l.virt) {
			return nil, false, nil
		}
		l.vi++
		return l.virt[l.vi-1], true, nil
	}
	latest := j.lock != lockNone
	for {
		if l.scan == nil && !l.pointed {
			if l.ri >= len(l.ranges) {
				return nil, false, nil
			}
			r := l.ranges[l.ri]
			if r.point {
				l.ri++
				j.reads.key++
				row, ok, err := j.readPoint(ex, src, l, r.lo, latest)
				if err != nil {
					return nil, false, err
				}
				if ok {
					return ex.s.fromStore(src.tbl, row), true, nil
				}
				continue
			}
			sc, err := src.tbl.NewScan(ex.tx, src.path.ix, r.lo, r.hi, src.path.reverse, latest)
			if err != nil {
				return nil, false, err
			}
			if src.covering {
				sc.KeysOnly()
			}
			l.scan = sc
			l.ri++
			j.countScan(src.path, l)
		}
		row, pk, ok, err := l.scan.Next()
		if err != nil {
			return nil, false, err
		}
		if l.countNext {
			j.reads.count(l.step)
		}
		l.countNext = true
		if !ok {
			_ = l.scan.Close()
			l.scan = nil
			continue
		}
		if j.lock != lockNone {
			l.pk = append(l.pk[:0], pk...)
			row, ok, err = j.lockAndReread(ex, src, l)
			if err != nil {
				return nil, false, err
			}
			if !ok {
				continue
			}
		}
		return ex.s.fromStore(src.tbl, row), true, nil
	}
}

// countScan counts the start of a scan of one key range at level l and
// picks the counter of its further rows. The first row of an index scan
// comes with its positioning read (read_key, read_first or read_last); in
// a table scan every row is a read_rnd_next.
func (j *joinIter) countScan(ap *accessPath, l *joinLevel) {
	whole := len(ap.eq) == 0 && !ap.hasRange
	l.countNext = false
	switch {
	case whole && ap.ix.Primary && !ap.ordered:
		l.step, l.countNext = stepRndNext, true
	case whole && ap.reverse:
		j.reads.last++
		l.step = stepPrev
	case whole:
		j.reads.first++
		l.step = stepNext
	case ap.reverse:
		j.reads.key++
		l.step = stepPrev
	default:
		j.reads.key++
		l.step = stepNext
	}
}

func (j *joinIter) readPoint(ex *execCtx, src *tableSource, l *joinLevel, pk []byte, latest bool) (Row, bool, error) {
	if j.lock != lockNone {
		l.pk = append(l.pk[:0], pk...)
		return j.lockAndReread(ex, src, l)
	}
	row, ok, err := src.tbl.Get(ex.tx, pk, latest, l.rowBuf[:0])
	if ok {
		l.rowBuf = row
	}
	return row, ok, err
}

// lockAndReread locks the row at l.pk and reads its latest committed version
// (InnoDB's current read).
func (j *joinIter) lockAndReread(ex *execCtx, src *tableSource, l *joinLevel) (Row, bool, error) {
	fresh, err := src.tbl.LockRowFresh(ex.tx, l.pk, j.lock == lockExclusive)
	if err != nil {
		return nil, false, err
	}
	l.fresh = fresh
	// A key with no row stays locked: no other transaction can insert it
	// before this one ends (what InnoDB's gap lock gives a unique lookup
	// that finds nothing).
	row, ok, err := src.tbl.Get(ex.tx, l.pk, true, l.rowBuf[:0])
	if ok {
		l.rowBuf = row
	}
	return row, ok, err
}

// unlockMiss gives back the lock of the row at level l when the row turned
// out not to match the conditions at its level: a locking read locks only
// the rows that match its WHERE, as InnoDB does under READ COMMITTED. Locks
// the transaction held before the read stay.
func (j *joinIter) unlockMiss(ex *execCtx, src *tableSource, l *joinLevel) {
	if j.lock != lockNone && l.fresh {
		src.tbl.UnlockRow(ex.tx, l.pk)
		l.fresh = false
	}
}

// currentPK returns the primary key of the row at level i (for UPDATE and
// DELETE).
func (j *joinIter) currentPK(i int) []byte {
	l := &j.level[i]
	if l.scan != nil && j.lock == lockNone || l.nulled {
		return nil
	}
	return l.pk
}

// freshLock reports whether the lock on the current row of level i was
// taken by this statement's read (so it may be given back if the row is
// not used after all).
func (j *joinIter) freshLock(i int) bool {
	return j.lock != lockNone && j.level[i].fresh
}

func (j *joinIter) place(i int, row Row) {
	src := j.srcs[i]
	copy(j.cur[src.off:src.off+src.width], row)
}

func (j *joinIter) placeNull(i int) {
	src := j.srcs[i]
	for k := src.off; k < src.off+src.width; k++ {
		j.cur[k] = sqltypes.NULL
	}
}

func (j *joinIter) passes(ex *execCtx, conds []*eval.Expr) (bool, error) {
	for _, c := range conds {
		ok, err := ex.EvalBool(c, j.cur)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// next returns the next combined row (valid until the next call).
func (j *joinIter) next(ex *execCtx) (Row, bool, error) {
	if j.empty {
		return nil, false, nil
	}
	n := len(j.srcs)
	if n == 0 {
		j.empty = true
		return j.cur, true, nil
	}
	if j.depth == 0 && !j.level[0].done && j.level[0].ranges == nil && j.level[0].scan == nil && j.level[0].virt == nil && !j.level[0].pointed {
		if err := j.open(ex, 0); err != nil {
			return nil, false, err
		}
		j.level[0].pointed = false
	}
	i := j.depth
	for i >= 0 {
		if err := ex.Context().Err(); err != nil {
			return nil, false, err
		}
		l := &j.level[i]
		src := j.srcs[i]
		var (
			row Row
			ok  bool
			err error
		)
		if !l.done {
			var t0 time.Time
			if j.stats != nil {
				t0 = time.Now()
			}
			row, ok, err = j.fetch(ex, i)
			if err != nil {
				return nil, false, err
			}
			if j.stats != nil {
				j.stats.fetched(i, ok, time.Since(t0))
			}
		}
		if !ok {
			l.done = true
			if src.outer && !l.matched && !l.nulled {
				l.nulled = true
				var pass bool
				var err error
				if src.nested {
					i, pass, err = j.nullNest(ex, i)
				} else {
					j.placeNull(i)
					pass, err = j.passes(ex, src.filter)
				}
				if err != nil {
					return nil, false, err
				}
				if !pass {
					i--
					continue
				}
			} else {
				i--
				continue
			}
		} else {
			j.place(i, row)
			if len(src.rangeFilter) > 0 && src.path.inexact {
				pass, err := j.passes(ex, src.rangeFilter)
				if err != nil {
					return nil, false, err
				}
				if !pass {
					j.unlockMiss(ex, src, l)
					continue
				}
			}
			pass, err := j.passes(ex, src.on)
			if err != nil {
				return nil, false, err
			}
			if !pass {
				j.unlockMiss(ex, src, l)
				continue
			}
			if src.semi == plan.AntiJoin {
				// A match: the outer rows are not wanted.
				l.matched, l.done = true, true
				i--
				continue
			}
			if src.nested {
				pass, err = j.matchNested(ex, i)
			} else {
				l.matched = true
				pass, err = j.passes(ex, src.filter)
			}
			if err != nil {
				return nil, false, err
			}
			if !pass {
				j.unlockMiss(ex, src, l)
				continue
			}
			if src.semi == plan.SemiJoin {
				l.done = true // first match: the outer rows once
			}
		}
		if j.stats != nil {
			j.stats.passed(i)
		}
		if i == n-1 {
			j.depth = i
			return j.cur, true, nil
		}
		i++
		if err := j.open(ex, i); err != nil {
			return nil, false, err
		}
	}
	j.empty = true
	return nil, false, nil
}

func (j *joinIter) close() {
	if j.s != nil {
		j.s.handler.add(&j.reads)
	}
	for i := range j.level {
		if j.level[i].scan != nil {
			_ = j.level[i].scan.Close()
			j.level[i].scan = nil
		}
	}
}

package table

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/encoding"
	"github.com/strata-db/strata/internal/table/codec"
	"github.com/strata-db/strata/internal/txn"
)

// Statistics computation (ANALYZE TABLE).
//
// Every index is read at one snapshot, keys only, in key order:
//
//   - An index of at most MaxRows entries is read in full: the row count and
//     the distinct counts of every key prefix are exact. Keys are sorted, so
//     a prefix is new exactly when the key differs from the previous one
//     within that prefix's bytes (codec.SkipKey finds the key-part ends).
//   - A larger index is sampled: its key range, from the first to the last
//     key, is cut into Segments ranges evenly spaced in key space (the eight
//     bytes after the two keys' common prefix read as a number), and up to
//     MaxRows/Segments consecutive entries are read from the start of each.
//     A segment read to its end counts exactly; a partly read one is
//     extrapolated by the key-space fraction its entries covered. Distinct
//     counts scale by the same factor (secondary indexes: by distinct values
//     per entry read times the row count, as InnoDB's leaf-page sampling
//     does).
//
// Histograms come from rows of the primary index kept by reservoir sampling
// (SampleRows in all, per segment when sampled, each weighted by the rows it
// stands for). MaxTime bounds one table: past it a full read gives way to
// sampling and sampled segments read only minRun entries.

// AnalyzeOptions bound the work of Analyze. Zero fields take the defaults.
type AnalyzeOptions struct {
	// MaxRows is the largest index read in full (default 200,000 entries);
	// larger ones are sampled, reading about MaxRows entries.
	MaxRows int
	// Segments is how many key ranges a sampled index is read in (default
	// 32).
	Segments int
	// MaxTime bounds the reading of one table (default 10 s).
	MaxTime time.Duration
	// SampleRows is how many rows histograms are built from (default
	// 20,000).
	SampleRows int
	// Buckets is the bucket count of the histograms of indexed columns
	// (default 64).
	Buckets int
	// Histograms asks for explicit histograms (ANALYZE TABLE … UPDATE
	// HISTOGRAM): column ordinal → bucket count. Explicit histograms of the
	// previous statistics are rebuilt with their bucket count in any case.
	Histograms map[int]int
}

// Defaults of AnalyzeOptions.
const (
	DefaultAnalyzeMaxRows    = 200_000
	DefaultAnalyzeSegments   = 32
	DefaultAnalyzeMaxTime    = 10 * time.Second
	DefaultAnalyzeSampleRows = 20_000
	DefaultHistogramBuckets  = 64
	// MaxHistogramBuckets is MySQL's limit of WITH n BUCKETS.
	MaxHistogramBuckets = 1024
	// minRun is how many entries a sampled segment reads past MaxTime.
	minRun = 64
	// analyzeCheckEvery is how many entries are read between checks of
	// the context and the clock.
	analyzeCheckEvery = 1024
)

func (o *AnalyzeOptions) withDefaults() AnalyzeOptions {
	r := *o
	if r.MaxRows <= 0 {
		r.MaxRows = DefaultAnalyzeMaxRows
	}
	if r.Segments <= 0 {
		r.Segments = DefaultAnalyzeSegments
	}
	if r.MaxTime <= 0 {
		r.MaxTime = DefaultAnalyzeMaxTime
	}
	if r.SampleRows <= 0 {
		r.SampleRows = DefaultAnalyzeSampleRows
	}
	if r.Buckets <= 0 {
		r.Buckets = DefaultHistogramBuckets
	}
	return r
}

// Analyze computes the statistics of def at a fresh snapshot and publishes
// them through cat (persisted in the data dictionary). It holds no lock
// while reading; writers are never blocked. It fails with
// catalog.ErrStatsStale if the table was dropped or rebuilt meanwhile.
func (s *Store) Analyze(ctx context.Context, cat *catalog.Catalog, def *catalog.Table, opts AnalyzeOptions) (*catalog.TableStats, error) {
	m := s.counter(def)
	changed, net := m.changed.Load(), m.net.Load()
	tx := s.db.Begin(ctx, txn.RepeatableRead, time.Second)
	defer tx.Rollback()
	st, err := s.Open(def).ComputeStats(ctx, tx, cat.Stats(def), opts)
	if err != nil {
		return nil, err
	}
	if err := cat.PutStats(st); err != nil {
		return nil, err
	}
	m.baseChanged.Store(changed)
	m.baseNet.Store(net)
	m.analyzedAt.Store(time.Now().UnixNano())
	return st, nil
}

// HistogramSupported reports whether a column's type can have a histogram
// (MySQL refuses JSON and spatial columns).
func HistogramSupported(col *catalog.Column) bool {
	switch col.Type {
	case sqltypes.TypeJSON, sqltypes.Geometry:
		return false
	}
	return true
}

// HistogramKey encodes v as the key a histogram of col compares (the
// ascending memcomparable key part, strings cut to
// catalog.HistogramStringChars), for TableStats.Selectivity.
func HistogramKey(dst []byte, col *catalog.Column, v sqltypes.Value) ([]byte, error) {
	return codec.AppendKey(dst, col, v, histPrefix(col), false)
}

func histPrefix(col *catalog.Column) int {
	if sqltypes.IsText(col.Type) || sqltypes.IsBinary(col.Type) {
		return catalog.HistogramStringChars
	}
	return 0
}

// ComputeStats computes the statistics of t at tx's snapshot without
// publishing them. prev (may be nil) names the explicit histograms to
// rebuild.
func (t *Table) ComputeStats(ctx context.Context, tx *txn.Txn, prev *catalog.TableStats, opts AnalyzeOptions) (*catalog.TableStats, error) {
	o := opts.withDefaults()
	now := time.Now()
	a := &analyzer{t: t, tx: tx, ctx: ctx, o: o, deadline: now.Add(o.MaxTime)}
	a.planHistograms(prev)
	def := t.Def
	prim, err := a.readIndex(def.Primary(), true)
	if err != nil {
		return nil, err
	}
	rows, pdiff := prim.estimatePrimary(len(t.keyCols(def.Primary())))
	idx := []catalog.IndexStats{{ID: def.Primary().ID, NDiff: pdiff}}
	read := prim.entriesRead()
	for _, ix := range def.Indexes[1:] {
		r, err := a.readIndex(ix, false)
		if err != nil {
			return nil, err
		}
		idx = append(idx, catalog.IndexStats{ID: ix.ID, NDiff: r.estimateSecondary(rows)})
	}
	rate := 1.0
	if rows > 0 && read < rows {
		rate = float64(read) / float64(rows)
	}
	hists := a.buildHistograms(prim, rows, rate, now)
	return catalog.NewTableStats(def, rows, rate, now, idx, hists), nil
}

// keyCols returns the key columns of ix (none for a hidden primary key).
func (t *Table) keyCols(ix *catalog.Index) []catalog.IndexColumn {
	if ix.Primary && t.Def.HiddenPK {
		return nil
	}
	return ix.Columns
}

// analyzer holds the state of one ComputeStats.
type analyzer struct {
	t        *Table
	tx       *txn.Txn
	ctx      context.Context
	o        AnalyzeOptions
	deadline time.Time
	n        int // entries read, for the periodic checks
	late     bool

	// Histogram columns and their reservoirs (primary index only).
	hcols []histCol
	res   []*reservoir
	rng   *rand.Rand
	row   []sqltypes.Value
}

// histCol is a column to build a histogram for.
type histCol struct {
	col      int
	buckets  int
	explicit bool
}

// planHistograms chooses the histogram columns: every column but TEXT and
// BLOB ones (the join order estimates conditions on unindexed columns
// too), the previous explicit histograms and the requested ones.
func (a *analyzer) planHistograms(prev *catalog.TableStats) {
	def := a.t.Def
	want := map[int]histCol{}
	for i := range def.Columns {
		if c := &def.Columns[i]; HistogramSupported(c) && c.Type != sqltypes.Text && c.Type != sqltypes.Blob {
			want[i] = histCol{col: i, buckets: a.o.Buckets}
		}
	}
	if prev != nil {
		for _, h := range prev.Histograms() {
			if !h.Explicit {
				continue
			}
			if i := def.ColumnIndex(h.Column); i >= 0 {
				want[i] = histCol{col: i, buckets: h.BucketsSpecified, explicit: true}
			}
		}
	}
	for i, n := range a.o.Histograms {
		if i >= 0 && i < len(def.Columns) && HistogramSupported(&def.Columns[i]) {
			want[i] = histCol{col: i, buckets: n, explicit: true}
		}
	}
	for _, h := range want {
		if h.buckets < 1 {
			h.buckets = 1
		} else if h.buckets > MaxHistogramBuckets {
			h.buckets = MaxHistogramBuckets
		}
		a.hcols = append(a.hcols, h)
	}
	sort.Slice(a.hcols, func(i, j int) bool { return a.hcols[i].col < a.hcols[j].col })
}

// check runs every analyzeCheckEvery entries: the statement may be
// cancelled, and past the deadline reads shrink.
func (a *analyzer) check() error {
	if a.n++; a.n%analyzeCheckEvery != 0 {
		return nil
	}
	if err := a.ctx.Err(); err != nil {
		return err
	}
	if !a.late && time.Now().After(a.deadline) {
		a.late = true
	}
	return nil
}

// segRead is what was read of one key range of an index.
type segRead struct {
	seen      int64
	exhausted bool    // read to the end of the range
	distinct  []int64 // new values of each key prefix met
	// Key-space positions (catalog.KeyWindow after the common prefix) of
	// the first and last entry read and of the range's end.
	firstX, lastX, endX float64
	// est is the estimated number of entries in the range
	// (estimatePrimary).
	est float64
}

// indexRead is what was read of one index.
type indexRead struct {
	segs []segRead
	// firstDistinct is the exact distinct count of the first key column
	// when a sampled index has few (probeFirstDistinct), else -1.
	firstDistinct int64
}

// maxDistinctProbes bounds probeFirstDistinct.
const maxDistinctProbes = 1000

// probeFirstDistinct counts the distinct values of the first key column of
// a sampled index by skipping from each value to the next (a loose index
// scan), up to maxDistinctProbes values; -1 when there are more. Sampled
// runs cannot see how many values a column with long runs of equal values
// has: each run meets one value and the count would be extrapolated from
// that.
func (a *analyzer) probeFirstDistinct(sc *keyScan, lo, hi, first []byte) (int64, error) {
	col := &a.t.Def.Columns[sc.cols[0].Col]
	var n int64
	next := lo
	for cur := first; cur != nil; n++ {
		if n >= maxDistinctProbes || a.late {
			return -1, nil
		}
		if err := a.ctx.Err(); err != nil {
			return 0, err
		}
		rest, err := codec.SkipKey(cur[4:], col, sc.cols[0].Desc)
		if err != nil {
			return 0, err
		}
		next = encoding.PrefixEnd(append(next[:0:0], cur[:len(cur)-len(rest)]...))
		it, err := a.tx.NewIter(txn.IterOptions{Lower: next, Upper: hi})
		if err != nil {
			return 0, err
		}
		cur = nil
		if it.Valid() {
			cur = append(cur, it.Key()...)
		}
		if err := it.Close(); err != nil {
			return 0, err
		}
	}
	return n, nil
}

func (r *indexRead) exact() bool {
	for i := range r.segs {
		if !r.segs[i].exhausted {
			return false
		}
	}
	return true
}

func (r *indexRead) entriesRead() int64 {
	var n int64
	for i := range r.segs {
		n += r.segs[i].seen
	}
	return n
}

// readIndex reads ix in full when small, else sampled (see the top of the
// file). withRows feeds the histogram reservoirs (primary index only).
func (a *analyzer) readIndex(ix *catalog.Index, withRows bool) (*indexRead, error) {
	sc := a.newKeyScan(ix)
	if withRows {
		a.resetReservoirs(1, ix.ID)
	}
	lo := IndexPrefix(nil, ix)
	hi := encoding.PrefixEnd(IndexPrefix(nil, ix))
	full, err := sc.read(lo, hi, a.o.MaxRows, withRows, 0, true)
	if err != nil {
		return nil, err
	}
	if full.exhausted {
		return &indexRead{segs: []segRead{full}, firstDistinct: -1}, nil
	}
	// Sample: cut [first key, last key] into segments.
	first, last, err := a.boundaryKeys(lo, hi)
	if err != nil {
		return nil, err
	}
	cp := 0
	for cp < len(first) && cp < len(last) && first[cp] == last[cp] {
		cp++
	}
	xF, xL := catalog.KeyWindow(first, cp), catalog.KeyWindow(last, cp)
	n := a.o.Segments
	if span := xL - xF; span < uint64(n) {
		n = max(1, int(span))
	}
	sc.cp = cp
	if withRows {
		a.resetReservoirs(n, ix.ID)
	}
	out := &indexRead{firstDistinct: -1}
	if len(sc.cols) > 0 && !(ix.Primary && len(sc.cols) == 1) {
		if out.firstDistinct, err = a.probeFirstDistinct(sc, lo, hi, first); err != nil {
			return nil, err
		}
	}
	step := (xL - xF) / uint64(n)
	bound := func(i int) []byte {
		switch {
		case i == 0:
			return lo
		case i == n:
			return hi
		}
		k := append([]byte(nil), first[:cp]...)
		return encodeUint64(k, xF+step*uint64(i))
	}
	sc.reset()
	for i := 0; i < n; i++ {
		budget := max(a.o.MaxRows/n, minRun)
		if a.late {
			budget = minRun
		}
		if i > 0 && !out.segs[i-1].exhausted {
			sc.reset() // not contiguous with what was read before
		}
		seg, err := sc.read(bound(i), bound(i+1), budget, withRows, i, false)
		if err != nil {
			return nil, err
		}
		if i == n-1 {
			seg.endX = float64(xL) + 1
		} else {
			seg.endX = float64(xF + step*uint64(i+1))
		}
		out.segs = append(out.segs, seg)
	}
	return out, nil
}

func encodeUint64(b []byte, x uint64) []byte {
	return append(b, byte(x>>56), byte(x>>48), byte(x>>40), byte(x>>32), byte(x>>24), byte(x>>16), byte(x>>8), byte(x))
}

// boundaryKeys returns the first and last key in [lo, hi).
func (a *analyzer) boundaryKeys(lo, hi []byte) (first, last []byte, err error) {
	for _, rev := range []bool{false, true} {
		it, err := a.tx.NewIter(txn.IterOptions{Lower: lo, Upper: hi, Reverse: rev})
		if err != nil {
			return nil, nil, err
		}
		var k []byte
		if it.Valid() {
			k = append([]byte(nil), it.Key()...)
		}
		if err := it.Close(); err != nil {
			return nil, nil, err
		}
		if rev {
			last = k
		} else {
			first = k
		}
	}
	return first, last, nil
}

// keyScan reads the keys of one index, counting distinct key prefixes.
type keyScan struct {
	a    *analyzer
	ix   *catalog.Index
	cols []catalog.IndexColumn
	cp   int // common prefix of the sampled key range (key-space positions)
	prev []byte
	ends []int
}

func (a *analyzer) newKeyScan(ix *catalog.Index) *keyScan {
	cols := a.t.keyCols(ix)
	return &keyScan{a: a, ix: ix, cols: cols, ends: make([]int, len(cols))}
}

// reset forgets the previous key: the next one starts new values.
func (s *keyScan) reset() { s.prev = s.prev[:0] }

// read reads up to budget entries of [lo, hi) (stopping early past the
// deadline when stopLate is set).
func (s *keyScan) read(lo, hi []byte, budget int, withRows bool, seg int, stopLate bool) (segRead, error) {
	r := segRead{distinct: make([]int64, len(s.cols))}
	it, err := s.a.tx.NewIter(txn.IterOptions{Lower: lo, Upper: hi})
	if err != nil {
		return r, err
	}
	var key []byte
	for ; it.Valid(); it.Next() {
		if r.seen >= int64(budget) || (stopLate && s.a.late) {
			break
		}
		if err := s.a.check(); err != nil {
			_ = it.Close()
			return r, err
		}
		key = it.Key()
		if err := s.countKey(key, &r); err != nil {
			_ = it.Close()
			return r, err
		}
		if r.seen == 0 {
			r.firstX = float64(catalog.KeyWindow(key, s.cp))
		}
		r.seen++
		if withRows {
			if err := s.a.sampleRow(seg, r.seen, key, it.Value()); err != nil {
				_ = it.Close()
				return r, err
			}
		}
		s.prev = append(s.prev[:0], key...)
	}
	r.exhausted = !it.Valid()
	if r.seen > 0 {
		r.lastX = float64(catalog.KeyWindow(s.prev, s.cp))
	}
	if err := it.Close(); err != nil {
		return r, err
	}
	return r, nil
}

// countKey counts the key prefixes of key that differ from the previous
// key's.
func (s *keyScan) countKey(key []byte, r *segRead) error {
	if len(s.cols) == 0 {
		return nil
	}
	rest := key[4:]
	var err error
	for i, ic := range s.cols {
		rest, err = codec.SkipKey(rest, &s.a.t.Def.Columns[ic.Col], ic.Desc)
		if err != nil {
			return err
		}
		s.ends[i] = len(key) - len(rest)
	}
	cpl := 0
	if len(s.prev) > 0 {
		n := min(len(key), len(s.prev))
		for cpl < n && key[cpl] == s.prev[cpl] {
			cpl++
		}
	}
	for i := range s.cols {
		if len(s.prev) == 0 || s.ends[i] > cpl {
			r.distinct[i]++
		}
	}
	return nil
}

// rowsInSegment estimates the entries of a segment from what was read.
func (g *segRead) rowsInSegment() (float64, bool) {
	if g.exhausted {
		return float64(g.seen), true
	}
	if g.seen < 2 || g.lastX <= g.firstX || g.endX <= g.firstX {
		return 0, false
	}
	density := float64(g.seen-1) / (g.lastX - g.firstX)
	return math.Max(float64(g.seen), 1+density*(g.endX-g.firstX)), true
}

// estimatePrimary returns the row count and the distinct counts of the key
// prefixes of the primary index (nk key columns).
func (r *indexRead) estimatePrimary(nk int) (int64, []int64) {
	est := make([]float64, len(r.segs))
	var sum, n float64
	for i := range r.segs {
		if e, ok := r.segs[i].rowsInSegment(); ok {
			est[i] = e
			if !r.segs[i].exhausted {
				sum += e
				n++
			}
		} else {
			est[i] = -1
		}
	}
	var rows float64
	for i := range r.segs {
		if est[i] < 0 {
			// Too dense to place in key space: like the other partly read
			// segments, or what was read.
			est[i] = float64(r.segs[i].seen)
			if n > 0 {
				est[i] = math.Max(est[i], sum/n)
			}
		}
		rows += est[i]
		r.segs[i].est = est[i]
	}
	ndiff := make([]float64, nk)
	for i := range r.segs {
		g := &r.segs[i]
		if g.seen == 0 {
			continue
		}
		f := est[i] / float64(g.seen)
		for k := 0; k < nk; k++ {
			ndiff[k] += float64(g.distinct[k]) * f
		}
	}
	total := int64(math.Round(rows))
	if r.firstDistinct >= 0 && nk > 0 {
		ndiff[0] = float64(r.firstDistinct)
	}
	out := finishNDiff(ndiff, total)
	if nk > 0 {
		out[nk-1] = total // the primary key is unique
	}
	return total, out
}

// estimateSecondary returns the distinct counts of a secondary index's key
// prefixes, given the table's row count (one entry per row).
func (r *indexRead) estimateSecondary(rows int64) []int64 {
	if len(r.segs) == 0 {
		return nil
	}
	nk := len(r.segs[0].distinct)
	ndiff := make([]float64, nk)
	if r.exact() {
		for i := range r.segs {
			for k := 0; k < nk; k++ {
				ndiff[k] += float64(r.segs[i].distinct[k])
			}
		}
		return finishNDiff(ndiff, -1)
	}
	var exhSeen, partSeen float64
	partDistinct := make([]float64, nk)
	for i := range r.segs {
		g := &r.segs[i]
		if g.exhausted {
			exhSeen += float64(g.seen)
			for k := 0; k < nk; k++ {
				ndiff[k] += float64(g.distinct[k])
			}
			continue
		}
		partSeen += float64(g.seen)
		for k := 0; k < nk; k++ {
			partDistinct[k] += float64(g.distinct[k])
		}
	}
	if rest := float64(rows) - exhSeen; rest > 0 && partSeen > 0 {
		for k := 0; k < nk; k++ {
			ndiff[k] += partDistinct[k] / partSeen * rest
		}
	}
	if r.firstDistinct >= 0 && nk > 0 {
		ndiff[0] = float64(r.firstDistinct)
	}
	return finishNDiff(ndiff, rows)
}

// finishNDiff rounds distinct counts and makes them consistent: at least 1
// when there are rows, never decreasing with the prefix length, at most
// rows (rows < 0: no bound).
func finishNDiff(f []float64, rows int64) []int64 {
	out := make([]int64, len(f))
	var prev int64
	for k, v := range f {
		n := int64(math.Round(v))
		if n < 1 && v > 0 {
			n = 1
		}
		if n < prev {
			n = prev
		}
		if rows >= 0 && n > rows {
			n = rows
		}
		out[k] = n
		prev = n
	}
	return out
}

// Histograms.

// histValue is one sampled value of a histogram column.
type histValue struct {
	key  []byte // nil: NULL
	text string
}

// reservoir keeps a uniform sample of the rows of one key range.
type reservoir struct {
	slots [][]histValue // per kept row, one value per histogram column
	seen  int64
}

func (a *analyzer) resetReservoirs(n int, seed uint32) {
	if len(a.hcols) == 0 {
		return
	}
	a.rng = rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	a.res = make([]*reservoir, n)
	for i := range a.res {
		a.res[i] = &reservoir{}
	}
}

// sampleRow offers the nth row (1-based) of segment seg to its reservoir
// (Algorithm R); only a kept row is decoded.
func (a *analyzer) sampleRow(seg int, nth int64, key, value []byte) error {
	if len(a.hcols) == 0 {
		return nil
	}
	r := a.res[seg]
	r.seen = nth
	capacity := max(1, a.o.SampleRows/len(a.res))
	slot := len(r.slots)
	if slot >= capacity {
		j := a.rng.Int64N(nth)
		if j >= int64(capacity) {
			return nil
		}
		slot = int(j)
	}
	row, err := a.t.DecodeRow(a.row[:0], key, value)
	if err != nil {
		return err
	}
	a.row = row
	vals := make([]histValue, len(a.hcols))
	for i, h := range a.hcols {
		col := &a.t.Def.Columns[h.col]
		v := row[h.col]
		if v.IsNull() {
			continue
		}
		k, err := HistogramKey(nil, col, v)
		if err != nil {
			continue // not encodable: left out of the histogram
		}
		text := v.ToString()
		if sqltypes.IsText(col.Type) {
			text = truncateChars(text, catalog.HistogramStringChars)
		} else if sqltypes.IsBinary(col.Type) && len(text) > catalog.HistogramStringChars {
			text = text[:catalog.HistogramStringChars]
		}
		vals[i] = histValue{key: k, text: text}
	}
	if slot == len(r.slots) {
		r.slots = append(r.slots, vals)
	} else {
		r.slots[slot] = vals
	}
	return nil
}

// truncateChars returns the first n characters of s.
func truncateChars(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// weightedValue is a sampled value with the number of rows it stands for.
type weightedValue struct {
	histValue
	w float64
}

// buildHistograms builds the histograms from the reservoirs.
// Each kept row stands for its segment's estimated rows / kept rows.
func (a *analyzer) buildHistograms(prim *indexRead, rows int64, rate float64, now time.Time) []*catalog.Histogram {
	if len(a.hcols) == 0 {
		return nil
	}
	weights := make([]float64, len(a.res))
	for i, r := range a.res {
		if len(r.slots) > 0 && i < len(prim.segs) {
			weights[i] = prim.segs[i].est / float64(len(r.slots))
		}
	}
	out := make([]*catalog.Histogram, 0, len(a.hcols))
	for c, h := range a.hcols {
		col := &a.t.Def.Columns[h.col]
		var vals []weightedValue
		var nullW, total float64
		for i, r := range a.res {
			for _, s := range r.slots {
				total += weights[i]
				if s[c].key == nil {
					nullW += weights[i]
					continue
				}
				vals = append(vals, weightedValue{histValue: s[c], w: weights[i]})
			}
		}
		hist := &catalog.Histogram{
			Column: col.Name, Type: col.Type, Collation: col.Collation,
			SampleRate: rate, BucketsSpecified: h.buckets, Explicit: h.explicit,
			LastUpdated: now.UnixMicro(),
		}
		if total > 0 {
			hist.NullFraction = nullW / total
			hist.Buckets = equiHeight(vals, h.buckets, total)
		}
		out = append(out, hist)
	}
	return out
}

// equiHeight builds at most n buckets from weighted values: each distinct
// value goes whole into one bucket, a bucket closes once the cumulative
// weight reaches its share of the non-NULL weight, and with at most n
// distinct values every bucket holds one (a singleton histogram). total is
// the weight of all rows, NULLs included.
func equiHeight(vals []weightedValue, n int, total float64) []catalog.Bucket {
	if len(vals) == 0 {
		return nil
	}
	// Stable: a group of equal values (x and X under a case-insensitive
	// collation) shows the text of its first row in primary key order.
	sort.SliceStable(vals, func(i, j int) bool { return bytes.Compare(vals[i].key, vals[j].key) < 0 })
	// Group equal values.
	type group struct {
		histValue
		w float64
	}
	groups := make([]group, 0, len(vals))
	var nonNull float64
	for _, v := range vals {
		nonNull += v.w
		if len(groups) > 0 && bytes.Equal(groups[len(groups)-1].key, v.key) {
			groups[len(groups)-1].w += v.w
			continue
		}
		groups = append(groups, group{histValue: v.histValue, w: v.w})
	}
	var out []catalog.Bucket
	var cum float64
	if len(groups) <= n {
		for _, g := range groups {
			cum += g.w
			out = append(out, catalog.Bucket{Lower: g.key, Upper: g.key, LowerValue: g.text,
				UpperValue: g.text, Cumulative: cum / total, Distinct: 1})
		}
		return out
	}
	per := nonNull / float64(n)
	start := 0
	for i, g := range groups {
		cum += g.w
		last := i == len(groups)-1
		if !last && cum < per*float64(len(out)+1) {
			continue
		}
		lo := groups[start]
		out = append(out, catalog.Bucket{Lower: lo.key, Upper: g.key, LowerValue: lo.text,
			UpperValue: g.text, Cumulative: cum / total, Distinct: int64(i - start + 1)})
		start = i + 1
	}
	return out
}

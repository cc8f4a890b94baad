package catalog

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
)

// Table statistics, as the cost-based planner reads them.
//
// ANALYZE TABLE (and the table layer's background refresh) computes a
// TableStats for one table definition and publishes it with
// Catalog.PutStats; Catalog.Stats returns the current snapshot. A snapshot is
// immutable: the planner may keep it in a plan shared by every session, and
// a newer ANALYZE publishes a new snapshot instead of changing this one.
//
// What a snapshot holds (InnoDB's persistent statistics, MySQL 8's
// histograms):
//
//   - RowCount: rows in the table when analyzed;
//   - Distinct(ix, k): distinct values of the first k key columns of index ix
//     (InnoDB's n_diff_pfx; SHOW INDEX's Cardinality of key part k). NULLs
//     count as one value (innodb_stats_method=nulls_equal);
//   - a histogram per indexed column and per column named in ANALYZE TABLE
//     ... UPDATE HISTOGRAM: equi-height buckets (a singleton histogram is the
//     case where every bucket holds one value), read by Selectivity.
//
// Large indexes are sampled (SampleRate < 1): the counts are then estimates.

// StatsOp is a comparison whose selectivity a histogram estimates.
type StatsOp uint8

// Comparisons for Selectivity.
const (
	OpEQ StatsOp = iota // col = v
	OpNE                // col <> v
	OpLT                // col < v
	OpLE                // col <= v
	OpGT                // col > v
	OpGE                // col >= v
)

// IndexStats are the statistics of one index.
type IndexStats struct {
	// ID is the index id.
	ID uint32 `json:"id"`
	// NDiff[k-1] is the number of distinct values of the first k key
	// columns (k = 1 … number of key columns).
	NDiff []int64 `json:"ndiff"`
}

// Bucket is one histogram bucket: the values in [Lower, Upper].
type Bucket struct {
	// Lower and Upper are the bounds as ascending memcomparable key parts
	// (table/codec.AppendKey without prefix or DESC; strings truncated to
	// HistogramStringChars characters), so they compare with bytes.Compare.
	Lower []byte `json:"lo"`
	Upper []byte `json:"hi"`
	// LowerValue and UpperValue are the bounds as values (their text), for
	// information_schema.COLUMN_STATISTICS.
	LowerValue string `json:"lo_v"`
	UpperValue string `json:"hi_v"`
	// Cumulative is the fraction of all rows (NULLs included in the total)
	// whose value is at most Upper.
	Cumulative float64 `json:"cum"`
	// Distinct is the number of distinct values in the bucket (in the
	// sample).
	Distinct int64 `json:"ndv"`
}

// HistogramStringChars is how many leading characters of a string value a
// histogram keeps (MySQL: 42).
const HistogramStringChars = 42

// Histogram is an equi-height histogram of one column's values. Buckets are
// ordered and disjoint; NULLs are counted in NullFraction, not in a bucket.
type Histogram struct {
	// Column is the column's name when analyzed; Type and Collation are its
	// type then (a histogram no longer matching its column is not used).
	Column    string        `json:"column"`
	Type      sqltypes.Type `json:"type"`
	Collation collations.ID `json:"collation"`
	// Buckets in value order.
	Buckets []Bucket `json:"buckets"`
	// NullFraction is the fraction of rows whose value is NULL.
	NullFraction float64 `json:"null_fraction"`
	// SampleRate is the fraction of the table's rows the histogram was
	// built from.
	SampleRate float64 `json:"sample_rate"`
	// BucketsSpecified is the bucket count asked for.
	BucketsSpecified int `json:"buckets_specified"`
	// Explicit marks a histogram created by ANALYZE TABLE … UPDATE
	// HISTOGRAM (shown in information_schema.COLUMN_STATISTICS and kept
	// when the column is not indexed).
	Explicit bool `json:"explicit,omitempty"`
	// LastUpdated is when it was built (Unix microseconds).
	LastUpdated int64 `json:"last_updated"`
}

// Singleton reports whether every bucket holds a single value (MySQL's
// singleton histogram).
func (h *Histogram) Singleton() bool {
	for i := range h.Buckets {
		if !bytes.Equal(h.Buckets[i].Lower, h.Buckets[i].Upper) {
			return false
		}
	}
	return true
}

// TableStats is an immutable snapshot of one table's statistics, bound to a
// table definition. Methods are safe for concurrent use.
type TableStats struct {
	def        *Table
	tableID    uint32
	rows       int64
	sampleRate float64
	analyzedAt int64 // Unix microseconds
	indexes    []IndexStats
	hists      []*Histogram // all histograms, as persisted
	byCol      []*Histogram // by column ordinal of def; nil entries: none
}

// NewTableStats builds a snapshot for def (its caller, the table layer,
// computed the figures). sampleRate is the fraction of rows read (1 =
// exact). The slices are owned by the snapshot from then on.
func NewTableStats(def *Table, rows int64, sampleRate float64, analyzedAt time.Time, indexes []IndexStats, hists []*Histogram) *TableStats {
	s := &TableStats{
		tableID:    def.Primary().ID,
		rows:       rows,
		sampleRate: sampleRate,
		analyzedAt: analyzedAt.UnixMicro(),
		indexes:    indexes,
		hists:      hists,
	}
	return s.bind(def)
}

// bind returns the snapshot resolved against def: index statistics of
// indexes def no longer has are dropped, histograms are matched to columns
// by name, type and collation. It returns s itself when s is bound to def.
func (s *TableStats) bind(def *Table) *TableStats {
	if s.def == def {
		return s
	}
	n := *s
	n.def = def
	n.indexes = make([]IndexStats, 0, len(s.indexes))
	for _, is := range s.indexes {
		for _, ix := range def.Indexes {
			if ix.ID == is.ID {
				n.indexes = append(n.indexes, is)
				break
			}
		}
	}
	n.byCol = make([]*Histogram, len(def.Columns))
	for _, h := range s.hists {
		i := def.ColumnIndex(h.Column)
		if i < 0 {
			continue
		}
		c := &def.Columns[i]
		if c.Type == h.Type && c.Collation == h.Collation {
			n.byCol[i] = h
		}
	}
	return &n
}

// Def returns the table definition the snapshot is bound to.
func (s *TableStats) Def() *Table { return s.def }

// RowCount returns the number of rows when analyzed (an estimate when
// sampled).
func (s *TableStats) RowCount() int64 { return s.rows }

// SampleRate returns the fraction of rows read to compute the snapshot
// (1: exact counts).
func (s *TableStats) SampleRate() float64 { return s.sampleRate }

// AnalyzedAt returns when the statistics were computed.
func (s *TableStats) AnalyzedAt() time.Time { return time.UnixMicro(s.analyzedAt) }

// Index returns the statistics of index ix, or nil when it was not analyzed
// (created since).
func (s *TableStats) Index(ix *Index) *IndexStats {
	for i := range s.indexes {
		if s.indexes[i].ID == ix.ID {
			return &s.indexes[i]
		}
	}
	return nil
}

// Distinct returns the number of distinct values of the first prefixLen key
// columns of ix (1 ≤ prefixLen ≤ len(ix.Columns)); ok is false when the
// index was not analyzed or prefixLen is out of range.
func (s *TableStats) Distinct(ix *Index, prefixLen int) (n int64, ok bool) {
	is := s.Index(ix)
	if is == nil || prefixLen < 1 || prefixLen > len(is.NDiff) {
		return 0, false
	}
	return is.NDiff[prefixLen-1], true
}

// Histogram returns the histogram of column ordinal col, or nil.
func (s *TableStats) Histogram(col int) *Histogram {
	if col < 0 || col >= len(s.byCol) {
		return nil
	}
	return s.byCol[col]
}

// Histograms returns every histogram of the snapshot that matches a column
// of the bound definition, in column order.
func (s *TableStats) Histograms() []*Histogram {
	var out []*Histogram
	for _, h := range s.byCol {
		if h != nil {
			out = append(out, h)
		}
	}
	return out
}

// NullFraction returns the fraction of rows whose column col is NULL; ok is
// false without a histogram.
func (s *TableStats) NullFraction(col int) (float64, bool) {
	h := s.Histogram(col)
	if h == nil {
		return 0, false
	}
	return h.NullFraction, true
}

// Selectivity estimates the fraction of the table's rows for which
// "column col op v" holds, from the column's histogram. key is v encoded as
// an ascending memcomparable key part of the column (table.HistogramKey);
// rows whose value is NULL never match. ok is false when the column has no
// histogram. A value outside every bucket gives 0 for OpEQ: the planner
// should apply its own floor.
func (s *TableStats) Selectivity(col int, op StatsOp, key []byte) (float64, bool) {
	h := s.Histogram(col)
	if h == nil {
		return 0, false
	}
	return h.Selectivity(op, key), true
}

// Selectivity estimates the fraction of rows for which "value op key" holds
// (see TableStats.Selectivity).
func (h *Histogram) Selectivity(op StatsOp, key []byte) float64 {
	nonNull := 1 - h.NullFraction
	lt, eq := h.lessEqual(key)
	var f float64
	switch op {
	case OpEQ:
		f = eq
	case OpNE:
		f = nonNull - eq
	case OpLT:
		f = lt
	case OpLE:
		f = lt + eq
	case OpGT:
		f = nonNull - lt - eq
	case OpGE:
		f = nonNull - lt
	}
	return clamp01(f)
}

// lessEqual returns the fractions of rows with value < key and = key.
func (h *Histogram) lessEqual(key []byte) (lt, eq float64) {
	b := h.Buckets
	// First bucket whose upper bound is ≥ key.
	i := sort.Search(len(b), func(i int) bool { return bytes.Compare(b[i].Upper, key) >= 0 })
	prev := 0.0
	if i > 0 {
		prev = b[i-1].Cumulative
	}
	if i == len(b) {
		return prev, 0
	}
	bk := &b[i]
	freq := bk.Cumulative - prev
	if bytes.Compare(key, bk.Lower) < 0 {
		return prev, 0 // between buckets
	}
	ndv := bk.Distinct
	if ndv < 1 {
		ndv = 1
	}
	eq = freq / float64(ndv)
	if bytes.Equal(bk.Lower, bk.Upper) {
		return prev, freq
	}
	if bytes.Equal(key, bk.Upper) {
		return bk.Cumulative - eq, eq
	}
	// Interpolate the key's position between the bounds; the bucket's
	// lower bound itself is a value of the bucket (its share is eq).
	pos := KeyFraction(bk.Lower, bk.Upper, key)
	within := (freq - eq) * pos
	if bytes.Equal(key, bk.Lower) {
		within = 0
	}
	return prev + within, eq
}

// KeyFraction returns where key lies between lo and hi (lo ≤ key ≤ hi,
// memcomparable keys) as a fraction in [0, 1], reading the eight bytes that
// follow the bounds' common prefix as a big-endian number.
func KeyFraction(lo, hi, key []byte) float64 {
	cp := 0
	for cp < len(lo) && cp < len(hi) && lo[cp] == hi[cp] {
		cp++
	}
	l, h, k := KeyWindow(lo, cp), KeyWindow(hi, cp), KeyWindow(key, cp)
	if h <= l {
		return 0.5
	}
	if k <= l {
		return 0
	}
	if k >= h {
		return 1
	}
	return float64(k-l) / float64(h-l)
}

// KeyWindow reads the eight bytes of k from offset off as a big-endian
// number (zero-padded past the end): a key's position in a key range whose
// bounds agree on their first off bytes.
func KeyWindow(k []byte, off int) uint64 {
	var x uint64
	for j := 0; j < 8; j++ {
		x <<= 8
		if off+j < len(k) {
			x |= uint64(k[off+j])
		}
	}
	return x
}

func clamp01(f float64) float64 {
	switch {
	case f < 0:
		return 0
	case f > 1:
		return 1
	}
	return f
}

// ErrStatsStale is returned by PutStats when the table was dropped, or
// rebuilt under new index ids, while its statistics were computed.
var ErrStatsStale = errors.New("catalog: table changed while its statistics were computed")

// Stats returns the current statistics of t, or nil if it was never
// analyzed. The snapshot is immutable; the call takes no lock.
func (c *Catalog) Stats(t *Table) *TableStats {
	m := c.stats.Load()
	if m == nil {
		return nil
	}
	s := (*m)[t.Primary().ID]
	if s == nil {
		return nil
	}
	// Bound to another definition of the same table (a DDL published it
	// a moment ago and has not re-bound it yet): resolve on the fly.
	return s.bind(t)
}

// statsMap holds the published snapshots by primary index id.
type statsMap = map[uint32]*TableStats

// publishStatsLocked replaces the snapshots of the given tables (nil
// removes) in a copy of the map. The caller holds ddlMu.
func (c *Catalog) publishStatsLocked(put map[uint32]*TableStats) {
	old := c.stats.Load()
	n := make(statsMap, len(put))
	if old != nil {
		for k, v := range *old {
			n[k] = v
		}
	}
	for k, v := range put {
		if v == nil {
			delete(n, k)
		} else {
			n[k] = v
		}
	}
	c.stats.Store(&n)
	c.statsVersion.Add(1)
}

// StatsVersion changes whenever statistics are published or dropped.
func (c *Catalog) StatsVersion() uint64 { return c.statsVersion.Load() }

// tableByPrimaryLocked finds the current definition whose primary index id
// is id. The caller holds ddlMu (definitions cannot change meanwhile).
func (c *Catalog) tableByPrimaryLocked(id uint32) *Table {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, m := range c.mu.tables {
		for _, t := range m {
			if t.Primary().ID == id {
				return t
			}
		}
	}
	return nil
}

// PutStats persists s (computed for s.Def()) in the data dictionary in one
// atomic batch and publishes it. It waits for a running DDL statement and
// fails with ErrStatsStale if the table no longer exists under the same
// primary index id (dropped, truncated or rebuilt meanwhile); a renamed
// table or one that gained or lost a secondary index keeps them (statistics
// of dropped indexes are left out).
func (c *Catalog) PutStats(s *TableStats) error {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	cur := c.tableByPrimaryLocked(s.tableID)
	if cur == nil {
		return ErrStatsStale
	}
	s = s.bind(cur)
	b := c.db.NewBatch()
	defer b.Close()
	for _, rec := range s.records() {
		v, err := encodeStatsRecord(rec)
		if err != nil {
			return err
		}
		if err := b.Set(statsKey(rec.Index), v); err != nil {
			return err
		}
	}
	if err := c.db.ApplyBatch(b); err != nil {
		return err
	}
	c.publishStatsLocked(map[uint32]*TableStats{s.tableID: s})
	return nil
}

// DropHistograms removes the explicit histograms of the named columns of t
// (ANALYZE TABLE … DROP HISTOGRAM); a histogram of an indexed column stays
// as an internal one. It returns the columns that had an explicit
// histogram.
func (c *Catalog) DropHistograms(t *Table, cols []string) ([]string, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	cur := c.tableByPrimaryLocked(t.Primary().ID)
	old := c.Stats(t)
	if cur == nil || old == nil {
		return nil, nil
	}
	var dropped []string
	hists := make([]*Histogram, 0, len(old.hists))
	for _, h := range old.hists {
		named := false
		for _, n := range cols {
			if strings.EqualFold(n, h.Column) {
				named = true
			}
		}
		if !named || !h.Explicit {
			hists = append(hists, h)
			continue
		}
		dropped = append(dropped, h.Column)
		if i := cur.ColumnIndex(h.Column); i >= 0 && cur.ColumnIndexed(i) {
			nh := *h
			nh.Explicit = false
			hists = append(hists, &nh)
		}
	}
	if len(dropped) == 0 {
		return nil, nil
	}
	n := *old
	n.def = nil
	n.hists = hists
	ns := n.bind(cur)
	rec := ns.records()[0] // the primary index's record holds the histograms
	v, err := encodeStatsRecord(rec)
	if err != nil {
		return nil, err
	}
	b := c.db.NewBatch()
	defer b.Close()
	if err := b.Set(statsKey(rec.Index), v); err != nil {
		return nil, err
	}
	if err := c.db.ApplyBatch(b); err != nil {
		return nil, err
	}
	c.publishStatsLocked(map[uint32]*TableStats{ns.tableID: ns})
	return dropped, nil
}

// ColumnIndexed reports whether column ordinal col is a key part of any
// index.
func (t *Table) ColumnIndexed(col int) bool {
	for k, ix := range t.Indexes {
		if k == 0 && t.HiddenPK {
			continue
		}
		for _, ic := range ix.Columns {
			if ic.Col == col {
				return true
			}
		}
	}
	return false
}

// Persistence. Each analyzed index has one dictionary entry:
//
//	dict-key  = DictIndexID(4) 'S' index-id(4, BE) -> statsRecord JSON
//
// The primary index's record also carries the table-wide figures (row
// count, sample rate, time) and the histograms. One ANALYZE writes every
// record of its table in one batch; DDL.DropIndexData deletes an index's
// record with its data, so DROP TABLE, TRUNCATE, a rebuilding ALTER and
// DROP INDEX drop the statistics in the same atomic batch.

// statsRecord is the persisted statistics of one index.
type statsRecord struct {
	Table uint32  `json:"table"` // primary index id of the table
	Index uint32  `json:"index"`
	NDiff []int64 `json:"ndiff"`
	// Primary index only.
	Rows       int64        `json:"rows,omitempty"`
	SampleRate float64      `json:"sample_rate,omitempty"`
	AnalyzedAt int64        `json:"analyzed_at,omitempty"`
	Histograms []*Histogram `json:"histograms,omitempty"`
}

func statsKey(indexID uint32) []byte {
	k := dictKey('S')
	return binary.BigEndian.AppendUint32(k, indexID)
}

func encodeStatsRecord(r *statsRecord) ([]byte, error) {
	v, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("encode statistics: %w", err)
	}
	return v, nil
}

// records returns the persisted form of s, the primary index's first.
func (s *TableStats) records() []*statsRecord {
	out := []*statsRecord{{
		Table: s.tableID, Index: s.tableID, Rows: s.rows, SampleRate: s.sampleRate,
		AnalyzedAt: s.analyzedAt, Histograms: s.hists,
	}}
	for _, is := range s.indexes {
		if is.ID == s.tableID {
			out[0].NDiff = is.NDiff
			continue
		}
		out = append(out, &statsRecord{Table: s.tableID, Index: is.ID, NDiff: is.NDiff})
	}
	return out
}

// loadStats builds the snapshots from the records read by Load; records of
// tables that no longer exist are ignored.
func (c *Catalog) loadStats(recs []*statsRecord) {
	byTable := map[uint32][]*statsRecord{}
	for _, r := range recs {
		byTable[r.Table] = append(byTable[r.Table], r)
	}
	defs := map[uint32]*Table{}
	for _, m := range c.mu.tables {
		for _, t := range m {
			defs[t.Primary().ID] = t
		}
	}
	put := map[uint32]*TableStats{}
	for id, rs := range byTable {
		def := defs[id]
		if def == nil {
			continue
		}
		var s *TableStats
		var idx []IndexStats
		for _, r := range rs {
			if r.Index == id {
				s = &TableStats{tableID: id, rows: r.Rows, sampleRate: r.SampleRate,
					analyzedAt: r.AnalyzedAt, hists: r.Histograms}
			}
			idx = append(idx, IndexStats{ID: r.Index, NDiff: r.NDiff})
		}
		if s == nil {
			continue
		}
		sort.Slice(idx, func(i, j int) bool { return idx[i].ID < idx[j].ID })
		s.indexes = idx
		put[id] = s.bind(def)
	}
	c.publishStatsLocked(put)
}

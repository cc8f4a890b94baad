package catalog

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
)

func k(b ...byte) []byte { return b }

// testHistogram: two equi-height buckets over one-byte keys, [10, 20] with
// 40 % of the rows in 5 values and [30, 30] with 50 %; 10 % NULL.
func testHistogram() *Histogram {
	return &Histogram{Column: "Name", NullFraction: 0.1, Buckets: []Bucket{
		{Lower: k(10), Upper: k(20), Cumulative: 0.4, Distinct: 5},
		{Lower: k(30), Upper: k(30), Cumulative: 0.9, Distinct: 1},
	}}
}

func TestHistogramSelectivity(t *testing.T) {
	h := testHistogram()
	for _, c := range []struct {
		op   StatsOp
		key  byte
		want float64
	}{
		{OpEQ, 10, 0.08}, {OpEQ, 15, 0.08}, {OpEQ, 20, 0.08}, {OpEQ, 25, 0}, {OpEQ, 30, 0.5}, {OpEQ, 40, 0}, {OpEQ, 5, 0},
		{OpLT, 5, 0}, {OpLT, 10, 0}, {OpLE, 10, 0.08},
		// Halfway through [10, 20]: half of the bucket's rows other than
		// those equal to 15.
		{OpLT, 15, 0.16}, {OpLT, 20, 0.32}, {OpLE, 20, 0.4},
		{OpLT, 25, 0.4}, {OpLT, 30, 0.4}, {OpLE, 30, 0.9}, {OpLT, 99, 0.9},
		{OpGT, 30, 0}, {OpGE, 30, 0.5}, {OpGT, 20, 0.5}, {OpGE, 5, 0.9}, {OpNE, 30, 0.4},
	} {
		if got := h.Selectivity(c.op, k(c.key)); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("op%d %d: %v, want %v", c.op, c.key, got, c.want)
		}
	}
	if h.Singleton() {
		t.Error("singleton")
	}
}

func TestKeyFraction(t *testing.T) {
	for _, c := range []struct {
		lo, hi, key []byte
		want        float64
	}{
		{k(1, 0), k(1, 100), k(1, 25), 0.25},
		{k(1, 0), k(1, 100), k(1, 0), 0},
		{k(1, 0), k(1, 100), k(1, 200), 1},
		{k(1), k(1), k(1), 0.5},
		{k(0, 0, 0, 0, 0, 0, 0, 0, 0, 0), k(0, 0, 0, 0, 0, 0, 0, 0, 0, 200), k(0, 0, 0, 0, 0, 0, 0, 0, 0, 50), 0.25},
	} {
		if got := KeyFraction(c.lo, c.hi, c.key); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("KeyFraction(%v, %v, %v) = %v, want %v", c.lo, c.hi, c.key, got, c.want)
		}
	}
}

// TestStatsPersistence: PutStats persists a snapshot that Load reads back
// bound to the same columns; a rename keeps it; statistics of a dropped
// table cannot be published.
func TestStatsPersistence(t *testing.T) {
	s := openStore(t, vfs.NewMem(), "/db")
	c := mustLoad(t, s.db)
	d := c.BeginDDL()
	if err := d.PutDatabase(&Database{Name: "db"}); err != nil {
		t.Fatal(err)
	}
	tb := testTable(d, "db", "t")
	if err := d.PutTable(tb); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)
	tb = c.Table("db", "t")
	at := time.UnixMicro(1700000000123456)
	h := testHistogram()
	h.Type, h.Collation = tb.Columns[1].Type, tb.Columns[1].Collation
	st := NewTableStats(tb, 42, 1, at, []IndexStats{
		{ID: tb.Indexes[0].ID, NDiff: []int64{42}},
		{ID: tb.Indexes[1].ID, NDiff: []int64{7}},
		{ID: 999999, NDiff: []int64{1}}, // not an index of t: dropped
	}, []*Histogram{h})
	if err := c.PutStats(st); err != nil {
		t.Fatal(err)
	}
	got := c.Stats(tb)
	if got.RowCount() != 42 || !got.AnalyzedAt().Equal(at) || got.Histogram(1) == nil || got.Histogram(0) != nil {
		t.Fatalf("published: %+v", got)
	}
	if n, ok := got.Distinct(tb.Indexes[1], 1); !ok || n != 7 {
		t.Errorf("distinct: %d %v", n, ok)
	}
	if got.Index(&Index{ID: 999999}) != nil {
		t.Error("statistics of an index the table does not have")
	}
	checkConsistent(t, c)

	// RENAME keeps the statistics (same primary index id).
	d = c.BeginDDL()
	nt := tb.Clone()
	nt.Name = "t2"
	if err := d.RemoveTableEntry("db", "t"); err != nil {
		t.Fatal(err)
	}
	if err := d.PutTable(nt); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)
	nt = c.Table("db", "t2")
	if st2 := c.Stats(nt); st2 == nil || st2.Def() != nt || st2.Histogram(1) == nil {
		t.Fatalf("after rename: %+v", st2)
	}
	checkConsistent(t, c)

	// A column of another type does not take the histogram.
	d = c.BeginDDL()
	nt2 := nt.Clone()
	nt2.Columns[1].Type = nt2.Columns[0].Type
	if err := d.PutTable(nt2); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)
	if h := c.Stats(c.Table("db", "t2")).Histogram(1); h != nil {
		t.Errorf("histogram kept for a column whose type changed: %+v", h)
	}

	d = c.BeginDDL()
	if err := d.DropTable(c.Table("db", "t2")); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)
	if c.Stats(nt) != nil {
		t.Error("statistics of a dropped table")
	}
	if err := c.PutStats(st); !errors.Is(err, ErrStatsStale) {
		t.Errorf("PutStats of a dropped table: %v", err)
	}
	checkConsistent(t, c)
}

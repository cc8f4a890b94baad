package table_test

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/txn"
)

var quietLogger = kv.NewSlogLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))

// env is an open store, catalog and table store on an in-memory filesystem
// that survives reopen.
type env struct {
	fs    vfs.FS
	kv    *kv.DB
	db    *txn.DB
	cat   *catalog.Catalog
	store *table.Store
}

func openEnv(t *testing.T, fs vfs.FS) *env {
	t.Helper()
	if fs == nil {
		fs = vfs.NewMem()
	}
	k, err := kv.Open(kv.Options{Dir: "/db", FS: fs, MemoryBudget: 256 << 20, Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	db := txn.New(k, txn.Options{})
	cat, err := catalog.Load(db)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{fs: fs, kv: k, db: db, cat: cat, store: table.NewStore(db)}
	t.Cleanup(func() { e.close() })
	return e
}

func (e *env) close() {
	if e.kv != nil {
		_ = e.kv.Close()
		e.kv = nil
	}
}

// reopen closes the store and opens it again from the same files.
func (e *env) reopen(t *testing.T) *env {
	t.Helper()
	e.close()
	return openEnv(t, e.fs)
}

var ci = collations.ID(45) // utf8mb4_general_ci

// createTable creates db.name with columns id INT (primary key), a INT, b
// VARCHAR(10) (case-insensitive), c INT NULL and the indexes k_ab (a, b)
// and k_c (c).
func (e *env) createTable(t *testing.T, name string) *catalog.Table {
	t.Helper()
	d := e.cat.BeginDDL()
	if e.cat.Database("db") == nil {
		if err := d.PutDatabase(&catalog.Database{Name: "db"}); err != nil {
			t.Fatal(err)
		}
	}
	bin := collations.ID(collations.CollationBinaryID)
	def := &catalog.Table{
		DB: "db", Name: name, AutoIncCol: -1,
		Columns: []catalog.Column{
			{Name: "id", Type: sqltypes.Int32, TypeName: "int", Collation: bin},
			{Name: "a", Type: sqltypes.Int32, TypeName: "int", Collation: bin},
			{Name: "b", Type: sqltypes.VarChar, TypeName: "varchar", Length: 10, Collation: ci},
			{Name: "c", Type: sqltypes.Int32, TypeName: "int", Nullable: true, Collation: bin},
		},
		Indexes: []*catalog.Index{
			{ID: d.NewIndexID(), Name: "PRIMARY", Primary: true, Unique: true, Columns: []catalog.IndexColumn{{Col: 0}}},
			{ID: d.NewIndexID(), Name: "k_ab", Columns: []catalog.IndexColumn{{Col: 1}, {Col: 2}}},
			{ID: d.NewIndexID(), Name: "k_c", Columns: []catalog.IndexColumn{{Col: 3, Desc: true}}},
		},
	}
	if err := d.PutTable(def); err != nil {
		t.Fatal(err)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	return e.cat.Table("db", name)
}

// insert inserts rows [from, to) made by mk in one transaction.
func (e *env) insert(t *testing.T, def *catalog.Table, from, to int, mk func(i int) []sqltypes.Value) {
	t.Helper()
	tb := e.store.Open(def)
	for lo := from; lo < to; lo += 5000 {
		tx := e.db.Begin(context.Background(), txn.RepeatableRead, time.Second)
		for i := lo; i < min(lo+5000, to); i++ {
			if _, err := tb.Insert(tx, mk(i), nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
}

func intv(i int) sqltypes.Value { return sqltypes.NewInt32(int32(i)) }

// smallRow: a = i%10, b = one of x/X/y/z by i%4 (x and X are equal under
// the collation), c = NULL for every fifth row, else i%3.
func smallRow(i int) []sqltypes.Value {
	c := intv(i % 3)
	if i%5 == 0 {
		c = sqltypes.NULL
	}
	return []sqltypes.Value{intv(i), intv(i % 10), sqltypes.NewVarChar([]string{"x", "X", "y", "z"}[i%4]), c}
}

func (e *env) analyze(t *testing.T, def *catalog.Table, o table.AnalyzeOptions) *catalog.TableStats {
	t.Helper()
	st, err := e.store.Analyze(context.Background(), e.cat, def, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.cat.Stats(def); got != st {
		t.Fatalf("published snapshot %p, returned %p", got, st)
	}
	return st
}

func distinct(t *testing.T, st *catalog.TableStats, ix *catalog.Index) []int64 {
	t.Helper()
	var out []int64
	for k := 1; k <= len(ix.Columns); k++ {
		n, ok := st.Distinct(ix, k)
		if !ok {
			t.Fatalf("no distinct count for %s prefix %d", ix.Name, k)
		}
		out = append(out, n)
	}
	return out
}

func key(t *testing.T, def *catalog.Table, col int, v sqltypes.Value) []byte {
	t.Helper()
	k, err := table.HistogramKey(nil, &def.Columns[col], v)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// TestAnalyzeExact: a small table is read in full: exact row count,
// distinct counts per key prefix (collation-aware, NULLs as one value),
// singleton histograms and their selectivities.
func TestAnalyzeExact(t *testing.T) {
	e := openEnv(t, nil)
	def := e.createTable(t, "t")
	if e.cat.Stats(def) != nil {
		t.Fatal("stats before ANALYZE")
	}
	e.insert(t, def, 0, 100, smallRow)
	st := e.analyze(t, def, table.AnalyzeOptions{})
	if st.RowCount() != 100 || st.SampleRate() != 1 {
		t.Fatalf("rows %d rate %v", st.RowCount(), st.SampleRate())
	}
	// (a, b): a = i%10 and b's class (x|X, y, z) by i%4 → {0,1}, 2, 3.
	// Pairs (i%10, class(i%4)): 10 values of a, each with the classes
	// its i%4 residues reach.
	pairs := map[[2]int]bool{}
	for i := 0; i < 100; i++ {
		cls := []int{0, 0, 1, 2}[i%4]
		pairs[[2]int{i % 10, cls}] = true
	}
	for _, c := range []struct {
		ix   *catalog.Index
		want []int64
	}{
		{def.Indexes[0], []int64{100}},
		{def.Indexes[1], []int64{10, int64(len(pairs))}},
		{def.Indexes[2], []int64{4}}, // 0, 1, 2 and NULL
	} {
		if got := distinct(t, st, c.ix); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: distinct %v, want %v", c.ix.Name, got, c.want)
		}
	}
	if _, ok := st.Distinct(def.Indexes[1], 3); ok {
		t.Error("prefix 3 of a 2-column index")
	}

	// a: 10 values, 10 rows each → a singleton histogram.
	h := st.Histogram(1)
	if h == nil || !h.Singleton() || len(h.Buckets) != 10 || h.NullFraction != 0 {
		t.Fatalf("histogram of a: %+v", h)
	}
	for i, b := range h.Buckets {
		if b.LowerValue != fmt.Sprint(i) || !near(b.Cumulative, float64(i+1)/10, 1e-9) {
			t.Errorf("bucket %d: %s %v", i, b.LowerValue, b.Cumulative)
		}
	}
	k3 := key(t, def, 1, intv(3))
	for op, want := range map[catalog.StatsOp]float64{
		catalog.OpEQ: 0.1, catalog.OpNE: 0.9, catalog.OpLT: 0.3, catalog.OpLE: 0.4,
		catalog.OpGT: 0.6, catalog.OpGE: 0.7,
	} {
		if got, ok := st.Selectivity(1, op, k3); !ok || !near(got, want, 1e-9) {
			t.Errorf("a op%d 3: %v, want %v", op, got, want)
		}
	}
	if got, _ := st.Selectivity(1, catalog.OpEQ, key(t, def, 1, intv(42))); got != 0 {
		t.Errorf("a = 42: %v", got)
	}
	// b: x and X are one value under the collation.
	hb := st.Histogram(2)
	if hb == nil || len(hb.Buckets) != 3 || !near(hb.Buckets[0].Cumulative, 0.5, 1e-9) {
		t.Fatalf("histogram of b: %+v", hb)
	}
	if got, _ := st.Selectivity(2, catalog.OpEQ, key(t, def, 2, sqltypes.NewVarChar("x"))); !near(got, 0.5, 1e-9) {
		t.Errorf("b = 'x': %v", got)
	}
	// c: NULL for 20 rows.
	if nf, ok := st.NullFraction(3); !ok || !near(nf, 0.2, 1e-9) {
		t.Errorf("null fraction of c: %v", nf)
	}
	if got, _ := st.Selectivity(3, catalog.OpNE, key(t, def, 3, intv(0))); !near(got, 0.8-float64(27)/100, 1e-9) {
		// c = 0 for i%3 == 0 and i%5 != 0: 34 - 7 = 27 rows.
		t.Errorf("c <> 0: %v", got)
	}
	// id (the primary key) has no histogram column other than itself.
	if st.Histogram(0) == nil {
		t.Error("no histogram of the primary key column")
	}
}

// TestEquiHeightBuckets: 1,000 distinct values in 10 buckets of 100 values
// each; range selectivities interpolate inside a bucket.
func TestEquiHeightBuckets(t *testing.T) {
	e := openEnv(t, nil)
	def := e.createTable(t, "t")
	e.insert(t, def, 0, 1000, func(i int) []sqltypes.Value {
		return []sqltypes.Value{intv(i), intv(i), sqltypes.NewVarChar("b"), intv(i)}
	})
	st := e.analyze(t, def, table.AnalyzeOptions{Buckets: 10})
	h := st.Histogram(1)
	if h == nil || h.Singleton() || len(h.Buckets) != 10 {
		t.Fatalf("histogram: %+v", h)
	}
	for i, b := range h.Buckets {
		lo, hi := fmt.Sprint(i*100), fmt.Sprint(i*100+99)
		if b.LowerValue != lo || b.UpperValue != hi || b.Distinct != 100 || !near(b.Cumulative, float64(i+1)/10, 1e-9) {
			t.Errorf("bucket %d: [%s, %s] ndv %d cum %v, want [%s, %s] 100 %v", i, b.LowerValue, b.UpperValue, b.Distinct, b.Cumulative, lo, hi, float64(i+1)/10)
		}
	}
	for _, c := range []struct {
		op   catalog.StatsOp
		v    int
		want float64
	}{
		{catalog.OpLT, 250, 0.25}, {catalog.OpGE, 250, 0.75}, {catalog.OpEQ, 250, 0.001},
		{catalog.OpLT, 0, 0}, {catalog.OpLE, 999, 1}, {catalog.OpGT, 5000, 0}, {catalog.OpLT, -5, 0},
	} {
		got, _ := st.Selectivity(1, c.op, key(t, def, 1, intv(c.v)))
		if !near(got, c.want, 0.002) {
			t.Errorf("op%d %d: %v, want %v", c.op, c.v, got, c.want)
		}
	}
	// Fewer buckets than asked when values repeat a lot: one value per
	// bucket at most, values never split.
	st = e.analyze(t, def, table.AnalyzeOptions{Buckets: 1024})
	if h := st.Histogram(1); len(h.Buckets) != 1000 || !h.Singleton() {
		t.Errorf("1024 buckets over 1000 values: %d buckets, singleton %v", len(h.Buckets), h.Singleton())
	}
}

// TestAnalyzeSampled: an index larger than MaxRows is sampled; the
// estimates stay near the truth and the reads stay bounded.
func TestAnalyzeSampled(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 60,000 rows")
	}
	e := openEnv(t, nil)
	def := e.createTable(t, "t")
	const n = 60000
	e.insert(t, def, 0, n, func(i int) []sqltypes.Value {
		// Sparse, uneven primary keys: 3i for the first half, 7i after.
		id := 3 * i
		if i >= n/2 {
			id = 7 * i
		}
		return []sqltypes.Value{intv(id), intv(i % 100), sqltypes.NewVarChar(fmt.Sprint(i)), intv(i)}
	})
	st := e.analyze(t, def, table.AnalyzeOptions{MaxRows: 6000, Segments: 20, SampleRows: 2000})
	t.Logf("rows %d rate %.3f distinct (a,b) %v c %v", st.RowCount(), st.SampleRate(), distinct(t, st, def.Indexes[1]), distinct(t, st, def.Indexes[2]))
	if r := st.RowCount(); r < n*9/10 || r > n*11/10 {
		t.Errorf("rows %d, want about %d", r, n)
	}
	if st.SampleRate() >= 0.5 {
		t.Errorf("sample rate %v", st.SampleRate())
	}
	ab := distinct(t, st, def.Indexes[1])
	if ab[0] != 100 {
		t.Errorf("distinct a: %d, want 100 (counted by skipping)", ab[0])
	}
	if ab[1] < n*8/10 || ab[1] > n*11/10 {
		t.Errorf("distinct (a, b): %d, want about %d", ab[1], n)
	}
	if c := distinct(t, st, def.Indexes[2]); c[0] < n*8/10 || c[0] > n*11/10 {
		t.Errorf("distinct c: %d, want about %d", c[0], n)
	}
	h := st.Histogram(1)
	if h == nil || h.Singleton() || len(h.Buckets) > 64 || len(h.Buckets) < 50 {
		t.Fatalf("histogram of a (100 values, 64 buckets): %d buckets", len(h.Buckets))
	}
	if got, _ := st.Selectivity(1, catalog.OpLT, key(t, def, 1, intv(50))); !near(got, 0.5, 0.1) {
		t.Errorf("a < 50: %v", got)
	}
}

// TestStatsPersistAndDrop: statistics survive a reopen; dropping an index
// drops its statistics, dropping the table drops them all.
func TestStatsPersistAndDrop(t *testing.T) {
	e := openEnv(t, nil)
	def := e.createTable(t, "t")
	e.insert(t, def, 0, 100, smallRow)
	st := e.analyze(t, def, table.AnalyzeOptions{Histograms: map[int]int{3: 2}})

	e = e.reopen(t)
	def = e.cat.Table("db", "t")
	got := e.cat.Stats(def)
	if got == nil {
		t.Fatal("no statistics after reopen")
	}
	if got.RowCount() != st.RowCount() || !got.AnalyzedAt().Equal(st.AnalyzedAt()) {
		t.Errorf("after reopen: rows %d at %v, want %d at %v", got.RowCount(), got.AnalyzedAt(), st.RowCount(), st.AnalyzedAt())
	}
	for _, ix := range def.Indexes {
		if a, b := fmt.Sprint(distinct(t, got, ix)), fmt.Sprint(distinct(t, st, ix)); a != b {
			t.Errorf("%s after reopen: %s, want %s", ix.Name, a, b)
		}
	}
	for col := range def.Columns {
		a, b := got.Histogram(col), st.Histogram(col)
		if fmt.Sprintf("%+v", a) != fmt.Sprintf("%+v", b) {
			t.Errorf("histogram %d after reopen:\n%+v\nwant\n%+v", col, a, b)
		}
	}
	if h := got.Histogram(3); !h.Explicit || h.BucketsSpecified != 2 || len(h.Buckets) != 2 {
		t.Errorf("explicit histogram of c: %+v", h)
	}
	// A new ANALYZE rebuilds the explicit histogram with its bucket count.
	if h := e.analyze(t, def, table.AnalyzeOptions{}).Histogram(3); !h.Explicit || h.BucketsSpecified != 2 {
		t.Errorf("explicit histogram after ANALYZE: %+v", h)
	}
	if dropped, err := e.cat.DropHistograms(def, []string{"C"}); err != nil || len(dropped) != 1 {
		t.Fatalf("drop histogram: %v %v", dropped, err)
	}
	if h := e.cat.Stats(def).Histogram(3); h == nil || h.Explicit {
		t.Errorf("histogram of indexed column c after DROP HISTOGRAM: %+v", h)
	}

	// DROP INDEX k_c: its statistics go with it.
	d := e.cat.BeginDDL()
	nt := def.Clone()
	dropped := nt.Indexes[2]
	nt.Indexes = nt.Indexes[:2]
	if err := d.DropIndexData(dropped.ID); err != nil {
		t.Fatal(err)
	}
	if err := d.PutTable(nt); err != nil {
		t.Fatal(err)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	def = e.cat.Table("db", "t")
	if s := e.cat.Stats(def); s == nil || s.Index(dropped) != nil || s.RowCount() != 100 {
		t.Fatalf("after DROP INDEX: %v", s)
	}
	e = e.reopen(t)
	def = e.cat.Table("db", "t")
	if s := e.cat.Stats(def); s == nil || s.Index(dropped) != nil || s.Index(def.Indexes[1]) == nil {
		t.Fatalf("after DROP INDEX and reopen: %v", s)
	}

	// DROP TABLE.
	d = e.cat.BeginDDL()
	if err := d.DropTable(def); err != nil {
		t.Fatal(err)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	if s := e.cat.Stats(def); s != nil {
		t.Fatal("statistics of a dropped table")
	}
	e = e.reopen(t)
	if _, err := e.store.Analyze(context.Background(), e.cat, def, table.AnalyzeOptions{}); err != catalog.ErrStatsStale {
		t.Errorf("ANALYZE of a dropped table: %v", err)
	}
	if s := e.cat.Stats(def); s != nil {
		t.Fatal("statistics of a dropped table after reopen")
	}
}

// TestAutoAnalyze: the modification counter drives the background refresh:
// tables without statistics are analyzed, then again only after 10 % of
// their rows changed.
func TestAutoAnalyze(t *testing.T) {
	e := openEnv(t, nil)
	def := e.createTable(t, "t")
	e.insert(t, def, 0, 100, smallRow)
	if n := e.store.ModifiedSinceAnalyze(def); n != 100 {
		t.Fatalf("modified %d", n)
	}
	if n := e.store.EstimatedRows(def, nil); n != 100 {
		t.Fatalf("estimated rows %d", n)
	}
	var off atomic.Bool
	a := e.store.StartAutoAnalyze(e.cat, table.AutoAnalyzeConfig{
		Interval: time.Hour, MinInterval: time.Nanosecond, Enabled: func() bool { return !off.Load() },
	})
	defer a.Stop()
	a.RunOnce()
	st := e.cat.Stats(def)
	if st == nil || st.RowCount() != 100 || a.Analyzed() != 1 || e.store.ModifiedSinceAnalyze(def) != 0 {
		t.Fatalf("after first round: %v, %d runs", st, a.Analyzed())
	}
	// 10 changed rows of 100: not more than 10 %.
	tb := e.store.Open(def)
	tx := e.db.Begin(context.Background(), txn.RepeatableRead, time.Second)
	for i := 0; i < 5; i++ {
		pk, err := tb.PKKey(nil, smallRow(i), 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Delete(tx, pk, smallRow(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	e.insert(t, def, 100, 105, smallRow)
	if n := e.store.EstimatedRows(def, e.cat.Stats(def)); n != 100 {
		t.Errorf("estimated rows after 5 deletes and 5 inserts: %d", n)
	}
	a.RunOnce()
	if a.Analyzed() != 1 {
		t.Fatalf("re-analyzed after 10 %% changed")
	}
	off.Store(true)
	e.insert(t, def, 105, 106, smallRow)
	a.RunOnce()
	if a.Analyzed() != 1 {
		t.Fatalf("analyzed while disabled")
	}
	off.Store(false)
	a.RunOnce()
	if a.Analyzed() != 2 || e.cat.Stats(def).RowCount() != 101 {
		t.Fatalf("after 11 %% changed: %d runs, %d rows", a.Analyzed(), e.cat.Stats(def).RowCount())
	}
}

// TestModCounterUpdates: every update is counted.
func TestModCounterUpdates(t *testing.T) {
	e := openEnv(t, nil)
	def := e.createTable(t, "t")
	e.insert(t, def, 0, 10, smallRow)
	tb := e.store.Open(def)
	tx := e.db.Begin(context.Background(), txn.RepeatableRead, time.Second)
	defer tx.Rollback()
	old, nw := smallRow(3), smallRow(3)
	pk, _ := tb.PKKey(nil, old, 0)
	before := e.store.ModifiedSinceAnalyze(def)
	for i := 0; i < 100; i++ {
		if _, err := tb.Update(tx, pk, old, nw); err != nil {
			t.Fatal(err)
		}
	}
	if n := e.store.ModifiedSinceAnalyze(def) - before; n != 100 {
		t.Errorf("counted %d updates", n)
	}
}

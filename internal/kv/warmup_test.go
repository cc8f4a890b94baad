package kv

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// warmRows is the size of the warmup tests' table: ~30 MiB of values in
// some thousands of blocks, well beyond the hot keys' share.
const warmRows = 100_000

// fillWarm writes warmRows keys with incompressible 300-byte values and
// compacts them into table files.
func fillWarm(t *testing.T, db *DB) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	val := make([]byte, 300)
	b := db.Pebble().NewBatch()
	for i := range warmRows {
		for j := range val {
			val[j] = byte(rng.Uint32())
		}
		if err := b.Set(key(i), val, nil); err != nil {
			t.Fatal(err)
		}
		if b.Len() > 4<<20 {
			if err := b.Commit(pebble.NoSync); err != nil {
				t.Fatal(err)
			}
			b = db.Pebble().NewBatch()
		}
	}
	if err := b.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if err := db.Pebble().Compact(context.Background(), []byte("key-"), []byte("key-z"), true); err != nil {
		t.Fatal(err)
	}
}

// hotKeys are every 50th key: 2,000 keys spread over the whole table, so
// almost every one lives in a data block of its own.
func hotKeys() [][]byte {
	var ks [][]byte
	for i := 0; i < warmRows; i += 50 {
		ks = append(ks, key(i))
	}
	return ks
}

// readHitRatio reads keys and returns the block cache's hit ratio over
// those reads.
func readHitRatio(t *testing.T, db *DB, keys [][]byte) float64 {
	t.Helper()
	before := db.Metrics().BlockCache
	for _, k := range keys {
		v, found, err := db.Get(k)
		if err != nil || !found || len(v) != 300 {
			t.Fatalf("get %s: found %v, %v", k, found, err)
		}
	}
	after := db.Metrics().BlockCache
	hits, misses := after.Hits-before.Hits, after.Misses-before.Misses
	return float64(hits) / float64(hits+misses)
}

func openWarm(t *testing.T, dir string, fs vfs.FS) (*DB, *syncBuffer) {
	t.Helper()
	logger, logs := testLogger(t)
	db, err := Open(Options{Dir: dir, FS: fs, MemoryBudget: testBudget, Logger: logger, RecordReads: true, SaveReadsEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	return db, logs
}

// TestWarmupRestoresHotReads is the restart test: reads recorded before a
// clean shutdown are in the block cache after the next start's warmup —
// measured by the cache's hit and miss counters, not by timing.
func TestWarmupRestoresHotReads(t *testing.T) {
	fs := vfs.NewMem()
	db, _ := openWarm(t, "db", fs)
	fillWarm(t, db)
	// Record the hot keys as the txn layer would (every read sampled here).
	for _, k := range hotKeys() {
		db.NotePoint(k)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	// Cold: without a warmup most hot reads miss.
	db, _ = openWarm(t, "db", fs)
	if r := readHitRatio(t, db, hotKeys()); r > 0.7 {
		t.Fatalf("cold hit ratio %.2f: the test's reads do not reach disk", r)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, logs := openWarm(t, "db", fs)
	defer db.Close()
	st, err := db.Warmup(context.Background(), WarmupOptions{BusyNotes: -1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Stopped != "done" || st.Reads != len(hotKeys()) || st.Files == 0 || st.Bytes == 0 {
		t.Fatalf("warmup stats %+v", st)
	}
	r := readHitRatio(t, db, hotKeys())
	t.Logf("warmup %+v; hit ratio on the hot keys after it: %.3f", st, r)
	if r < 0.99 {
		t.Fatalf("hit ratio after warmup %.3f, want ≥ 0.99", r)
	}
	if !strings.Contains(logs.String(), "warmup done") {
		t.Fatalf("warmup not logged:\n%s", logs)
	}
}

// TestWarmupScans: a recorded reverse scan (ORDER BY … DESC LIMIT n) is
// replayed from the same end over as many rows.
func TestWarmupScans(t *testing.T) {
	fs := vfs.NewMem()
	db, _ := openWarm(t, "db", fs)
	fillWarm(t, db)
	db.NoteScan([]byte("key-"), []byte("key-z"), true, 3000)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, _ = openWarm(t, "db", fs)
	defer db.Close()
	if _, err := db.Warmup(context.Background(), WarmupOptions{BusyNotes: -1, SkipFiles: true}); err != nil {
		t.Fatal(err)
	}
	var last [][]byte
	for i := warmRows - 3000; i < warmRows; i++ {
		last = append(last, key(i))
	}
	if r := readHitRatio(t, db, last); r < 0.99 {
		t.Fatalf("hit ratio over the scanned rows %.3f", r)
	}
	if r := readHitRatio(t, db, [][]byte{key(0), key(100), key(200), key(300)}); r > 0.5 {
		t.Fatalf("rows outside the scan were cached too (hit ratio %.2f)", r)
	}
}

// warmDB returns a reopened DB whose recorded reads are hotKeys; it is
// closed when the test ends unless closes is true (the test closes it).
func warmDB(t *testing.T, closes bool) *DB {
	t.Helper()
	fs := vfs.NewMem()
	db, _ := openWarm(t, "db", fs)
	fillWarm(t, db)
	for _, k := range hotKeys() {
		db.NotePoint(k)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, _ = openWarm(t, "db", fs)
	if !closes {
		t.Cleanup(func() { _ = db.Close() })
	}
	return db
}

func TestWarmupBudgets(t *testing.T) {
	db := warmDB(t, false)

	const budget = 256 << 10
	st, err := db.Warmup(context.Background(), WarmupOptions{Budget: budget, BusyNotes: -1})
	if err != nil {
		t.Fatal(err)
	}
	// It stops at the first read past the budget: one read's blocks at most.
	if st.Stopped != "budget" || st.Bytes < budget || st.Bytes > budget+256<<10 || st.Reads == len(hotKeys()) {
		t.Fatalf("byte budget: %+v", st)
	}

	start := time.Now()
	st, err = db.Warmup(context.Background(), WarmupOptions{Rate: 64 << 10, MaxTime: 300 * time.Millisecond, BusyNotes: -1, SkipFiles: true})
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); st.Stopped != "time" || el > 5*time.Second || st.Reads == len(hotKeys()) {
		t.Fatalf("time budget: %+v after %s", st, el)
	}
	// The rate held: bytes read ≤ rate × time (plus the read that crossed it).
	if limit := int64(64<<10)*int64(st.Elapsed/time.Millisecond)/1000 + 64<<10; st.Bytes > limit {
		t.Fatalf("read %d bytes in %s at 64 KiB/s", st.Bytes, st.Elapsed)
	}
}

func TestWarmupCancelAndClose(t *testing.T) {
	db := warmDB(t, true)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, err := db.Warmup(ctx, WarmupOptions{BusyNotes: -1})
	if err != nil || st.Stopped != "canceled" || st.Reads != 0 {
		t.Fatalf("canceled warmup: %+v, %v", st, err)
	}

	// Close stops a running (here: slow) warmup and waits for it.
	done := make(chan WarmupStats)
	go func() {
		st, err := db.Warmup(context.Background(), WarmupOptions{Rate: 1 << 10, BusyNotes: -1})
		if err != nil {
			t.Error(err)
		}
		done <- st
	}()
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case st := <-done:
		if st.Stopped != "canceled" {
			t.Fatalf("warmup during Close: %+v", st)
		}
	default:
		t.Fatal("Close returned before the warmup stopped")
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("Close took %s", el)
	}
	// After Close a warmup does nothing.
	if st, err := db.Warmup(context.Background(), WarmupOptions{}); err != nil || st.Stopped != "canceled" {
		t.Fatalf("warmup after close: %+v, %v", st, err)
	}
}

// TestWarmupWaitsWhileBusy: while the foreground reads a lot, the warmup
// waits instead of competing with it.
func TestWarmupWaitsWhileBusy(t *testing.T) {
	db := warmDB(t, false)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		k := []byte("foreground")
		for {
			select {
			case <-stop:
				return
			default:
				db.NotePoint(k)
				time.Sleep(time.Millisecond)
			}
		}
	}()
	st, err := db.Warmup(context.Background(), WarmupOptions{BusyNotes: 50, MaxTime: 500 * time.Millisecond, SkipFiles: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Stopped != "time" || st.Reads > len(hotKeys())/2 {
		t.Fatalf("busy foreground: %+v", st)
	}
}

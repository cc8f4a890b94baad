package kv

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// writeSST writes keys [from, to) with value "v"+key into path.
func writeSST(t *testing.T, db *DB, path string, from, to int) {
	t.Helper()
	w, err := db.NewSSTWriter(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := from; i < to; i++ {
		k := key(i)
		if err := w.Set(k, append([]byte("v"), k...)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestIngest(t *testing.T) {
	db := openMem(t)
	commitSet(t, db, key(5000), []byte("v"+string(key(5000))), true)
	snap := db.NewSnapshot()
	defer snap.Close()
	writeSST(t, db, "/a.sst", 0, 100)
	writeSST(t, db, "/b.sst", 100, 300)
	if err := db.Ingest([]string{"/a.sst", "/b.sst"}); err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range 300 {
		want = append(want, string(key(i)))
	}
	wantKeys(t, db, append(want, string(key(5000)))...)
	// A snapshot from before the ingest does not see it.
	if _, ok, err := snap.Get(key(1)); err != nil || ok {
		t.Fatalf("snapshot sees ingested key: %v %v", ok, err)
	}
	// Out-of-order keys are refused by the writer.
	w, err := db.NewSSTWriter("/c.sst")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Set(key(2), nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Set(key(1), nil); err == nil {
		t.Fatal("out-of-order key accepted")
	}
}

// TestIngestCrash: after a crash, an ingest that returned is all there;
// files written but not ingested add nothing.
func TestIngestCrash(t *testing.T) {
	fs := vfs.NewCrashableMem()
	logger, _ := testLogger(t)
	db, err := Open(Options{Dir: "/db", FS: fs, MemoryBudget: testBudget, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	writeSST(t, db, "/db/in1.sst", 0, 1000)
	if err := db.Ingest([]string{"/db/in1.sst"}); err != nil {
		t.Fatal(err)
	}
	writeSST(t, db, "/db/in2.sst", 1000, 2000) // never ingested
	rng := rand.New(rand.NewPCG(3, 4))
	for _, pct := range []int{0, 50} {
		clone := fs.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: pct, RNG: rng})
		cdb, err := Open(Options{Dir: "/db", FS: clone, MemoryBudget: testBudget, Logger: logger})
		if err != nil {
			t.Fatalf("reopen after crash: %v", err)
		}
		for _, i := range []int{0, 500, 999} {
			if v, ok, err := cdb.Get(key(i)); err != nil || !ok || string(v) != "v"+string(key(i)) {
				t.Fatalf("ingested key %d after crash (%d%%): %q %v %v", i, pct, v, ok, err)
			}
		}
		if _, ok, err := cdb.Get(key(1500)); err != nil || ok {
			t.Fatalf("key of a file never ingested is present: %v %v", ok, err)
		}
		if err := cdb.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(fmt.Errorf("close: %w", err))
	}
}

// TestSplitPoints cuts a range of four ingested files at file ends, in
// equal shares, and not at all below the size threshold.
func TestSplitPoints(t *testing.T) {
	db := openMem(t)
	var paths []string
	for f := range 4 {
		p := fmt.Sprintf("/f%d.sst", f)
		writeSST(t, db, p, f*1000, (f+1)*1000)
		paths = append(paths, p)
	}
	if err := db.Ingest(paths); err != nil {
		t.Fatal(err)
	}
	lo, hi := []byte("key-"), []byte("key-999999")
	cuts, err := db.SplitPoints(lo, hi, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(cuts) != 1 || string(cuts[0]) != string(key(1999))+"\x00" {
		t.Fatalf("cuts %q, want the end of the second file", cuts)
	}
	if cuts, _ := db.SplitPoints(lo, hi, 4, 0); len(cuts) != 3 {
		t.Fatalf("4 parts: cuts %q", cuts)
	}
	if cuts, _ := db.SplitPoints(lo, hi, 2, 1<<30); cuts != nil {
		t.Fatalf("below the threshold: cuts %q", cuts)
	}
}

func TestReadSST(t *testing.T) {
	db := openMem(t)
	writeSST(t, db, "/r.sst", 0, 2000)
	n := 0
	err := db.ReadSST("/r.sst", func(k, v []byte) error {
		if want := key(n); string(k) != string(want) || string(v) != "v"+string(want) {
			return fmt.Errorf("entry %d: %q=%q", n, k, v)
		}
		n++
		return nil
	})
	if err != nil || n != 2000 {
		t.Fatalf("read %d entries: %v", n, err)
	}
	// fn's error ends the read and is returned.
	stop := fmt.Errorf("stop")
	if err := db.ReadSST("/r.sst", func(k, v []byte) error { return stop }); err != stop {
		t.Fatalf("got %v, want fn's error", err)
	}
	if err := db.ReadSST("/missing.sst", func(k, v []byte) error { return nil }); err == nil {
		t.Fatal("missing file read")
	}
}

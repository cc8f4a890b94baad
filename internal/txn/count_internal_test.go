package txn

import (
	"context"
	"fmt"
	"testing"
)

// TestCountRange counts a range held by four table files in two parallel
// parts, on the transaction's snapshot, and through its own writes.
func TestCountRange(t *testing.T) {
	db, _ := beginInternal(t)
	var paths []string
	for f := range 4 {
		p := fmt.Sprintf("/c%d.sst", f)
		w, err := db.kv.NewSSTWriter(p)
		if err != nil {
			t.Fatal(err)
		}
		for i := f * 1000; i < (f+1)*1000; i++ {
			if err := w.Set(fmt.Appendf(nil, "k%06d", i), []byte("v")); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if err := db.kv.Ingest(paths); err != nil {
		t.Fatal(err)
	}
	defer func(m uint64) { parallelCountMin = m }(parallelCountMin)
	parallelCountMin = 0
	if cuts, _ := db.kv.SplitPoints([]byte("k"), []byte("l"), 2, 0); len(cuts) != 1 {
		t.Fatalf("the test needs a split: %q", cuts)
	}
	tx := db.Begin(context.Background(), RepeatableRead, 0)
	defer tx.Rollback()
	count := func(want int64) {
		t.Helper()
		n, err := tx.CountRange([]byte("k"), []byte("l"), 2)
		if err != nil || n != want {
			t.Fatalf("count %d (%v), want %d", n, err, want)
		}
	}
	count(4000)
	// A later commit is not in the snapshot.
	other := db.Begin(context.Background(), RepeatableRead, 0)
	if err := other.Set([]byte("k999999"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := other.Commit(); err != nil {
		t.Fatal(err)
	}
	count(4000)
	// The transaction's own writes count.
	if err := tx.Delete([]byte("k000001")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Set([]byte("k5"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	count(4000)
	if err := tx.Delete([]byte("k000002")); err != nil {
		t.Fatal(err)
	}
	count(3999)
}

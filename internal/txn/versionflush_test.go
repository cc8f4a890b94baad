package txn_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/txn"
)

// A scan that has to step over many versions of hot keys in the memtable
// gets the memtable flushed, after which the same scan sees one version per
// key.
func TestScanOverManyVersionsFlushesMemtable(t *testing.T) {
	db, _ := openMem(t, txn.Options{NoSync: true})
	const keys, versions = 100, 3000
	kvdb := db.KV()
	b := kvdb.NewBatch()
	for v := 0; v < versions; v++ {
		for k := 0; k < keys; k++ {
			if err := b.Set(fmt.Appendf(nil, "k%03d", k), fmt.Appendf(nil, "value-%06d", v)); err != nil {
				t.Fatal(err)
			}
		}
		// One commit per round, so every round is a new version.
		if err := b.Commit(false); err != nil {
			t.Fatal(err)
		}
		_ = b.Close()
		b = kvdb.NewBatch()
	}
	_ = b.Close()

	scan := func() int {
		tx := db.Begin(context.Background(), txn.RepeatableRead, time.Second)
		defer tx.Rollback()
		it, err := tx.NewIter(txn.IterOptions{Lower: []byte("k"), Upper: []byte("l")})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for ; it.Valid(); it.Next() {
			if want := fmt.Sprintf("value-%06d", versions-1); string(it.Value()) != want {
				t.Fatalf("key %s = %s, want %s", it.Key(), it.Value(), want)
			}
			n++
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := scan(); n != keys {
		t.Fatalf("scan saw %d keys, want %d", n, keys)
	}
	deadline := time.Now().Add(long)
	for db.ReadTriggeredFlushes() == 0 || kvdb.Metrics().Flush.Count == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no read-triggered flush after a scan over %d versions", keys*versions)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// After the flush the scan steps over one version per key: it must not
	// ask for another flush however often it runs.
	for range 20 {
		if n := scan(); n != keys {
			t.Fatalf("scan after flush saw %d keys, want %d", n, keys)
		}
	}
	if got := db.ReadTriggeredFlushes(); got != 1 {
		t.Errorf("read-triggered flushes = %d, want 1", got)
	}
}

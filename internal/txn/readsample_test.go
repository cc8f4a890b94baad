package txn_test

import (
	"context"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/txn"
)

// TestReadSampling: one store read in kv.ReadSampleEvery reaches the
// store's recorder — across many single-read transactions as within one
// transaction — and reads of the transaction's own writes do not count.
func TestReadSampling(t *testing.T) {
	db, err := kv.Open(kv.Options{Dir: "/db", FS: vfs.NewMem(), MemoryBudget: testBudget, Logger: quietLogger,
		RecordReads: true, SaveReadsEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tdb := txn.New(db, txn.Options{})
	rec := db.Recorder()
	k := []byte("k")

	// 1,600 autocommit point reads, each its own transaction: about
	// 1600/kv.ReadSampleEvery samples (the phase is a hash of the transaction id).
	for range 1600 {
		tx := tdb.Begin(context.Background(), txn.RepeatableRead, long)
		if _, _, err := tx.Get(k); err != nil {
			t.Fatal(err)
		}
		tx.Rollback()
	}
	if n, want := rec.Notes(), int64(1600/kv.ReadSampleEvery); n < want*6/10 || n > want*15/10 {
		t.Fatalf("%d samples of 1600 single-read transactions, want about %d", n, 1600/kv.ReadSampleEvery)
	}

	// Within one transaction: exactly one in kv.ReadSampleEvery, scans
	// included, from the bound they start at.
	before := rec.Notes()
	tx := tdb.Begin(context.Background(), txn.RepeatableRead, long)
	for range 10 * kv.ReadSampleEvery {
		if _, _, err := tx.Get(k); err != nil {
			t.Fatal(err)
		}
	}
	if got := rec.Notes() - before; got != 10 {
		t.Fatalf("%d samples of %d reads in one transaction, want 10", got, 10*kv.ReadSampleEvery)
	}
	before = rec.Notes()
	for range kv.ReadSampleEvery {
		it, err := tx.NewIter(txn.IterOptions{Lower: []byte("a"), Upper: []byte("m"), Reverse: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if got := rec.Notes() - before; got != 1 {
		t.Fatalf("%d samples of %d scans, want 1", got, kv.ReadSampleEvery)
	}
	var scan *kv.HotRead
	for _, h := range rec.Hot(nil) {
		if h.Kind == kv.ReadReverse {
			scan = &h
		}
	}
	if scan == nil || scan.Lower != nil || string(scan.Upper) != "m" {
		t.Fatalf("scan not recorded from its start: %+v", rec.Hot(nil))
	}

	// Reads answered by the transaction's own writes touch no block.
	if err := tx.Set(k, []byte("v")); err != nil {
		t.Fatal(err)
	}
	before = rec.Notes()
	for range 10 * kv.ReadSampleEvery {
		if _, _, err := tx.Get(k); err != nil {
			t.Fatal(err)
		}
	}
	if got := rec.Notes() - before; got != 0 {
		t.Fatalf("%d samples of reads of the transaction's own write", got)
	}
	tx.Rollback()
}

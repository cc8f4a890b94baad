package kv

import (
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
)

func openMem(t *testing.T) *DB {
	t.Helper()
	logger, _ := testLogger(t)
	db, err := Open(Options{Dir: "/db", FS: vfs.NewMem(), MemoryBudget: testBudget, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}

// commitSet commits one put in its own batch.
func commitSet(t *testing.T, db *DB, k, v []byte, sync bool) {
	t.Helper()
	b := db.NewBatch()
	defer b.Close()
	if err := b.Set(k, v); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(sync); err != nil {
		t.Fatal(err)
	}
}

// wantKeys fails unless the latest state holds exactly the keys want, each
// with value "v"+key.
func wantKeys(t *testing.T, db *DB, want ...string) {
	t.Helper()
	it, err := db.NewIter(IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for ok := it.First(); ok; ok = it.Next() {
		v, ok := it.Value()
		if !ok {
			t.Fatal(it.Error())
		}
		if string(v) != "v"+string(it.Key()) {
			t.Errorf("key %s = %q", it.Key(), v)
		}
		got = append(got, string(it.Key()))
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("keys %q, want %q", got, want)
	}
}

func TestBatch(t *testing.T) {
	db := openMem(t)
	b := db.NewBatchWithSize(64)
	if !b.Empty() {
		t.Fatal("new batch not empty")
	}
	for _, k := range []string{"a1", "a2", "b1", "b2", "b3", "c1"} {
		if err := b.Set([]byte(k), []byte("v"+k)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	wantKeys(t, db, "a1", "a2", "b1", "b2", "b3", "c1")

	// Nothing of an uncommitted batch is visible, before or after Close.
	b = db.NewBatch()
	if err := b.Delete([]byte("a1")); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteRange([]byte("b"), []byte("c")); err != nil {
		t.Fatal(err)
	}
	if b.Empty() {
		t.Fatal("batch with writes reports Empty")
	}
	wantKeys(t, db, "a1", "a2", "b1", "b2", "b3", "c1")
	if err := b.Commit(false); err != nil {
		t.Fatal(err)
	}
	_ = b.Close()
	wantKeys(t, db, "a2", "c1")

	b = db.NewBatch()
	if err := b.Set([]byte("z"), []byte("vz")); err != nil {
		t.Fatal(err)
	}
	_ = b.Close()
	wantKeys(t, db, "a2", "c1")
}

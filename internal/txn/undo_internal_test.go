package txn

import (
	"context"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/strata-db/strata/internal/kv"
)

// TestUndoLogBounded checks the undo log's memory directly: records are kept
// only while a statement is open or a savepoint may need them.
func TestUndoLogBounded(t *testing.T) {
	_, tx := beginInternal(t)

	set := func(k string) {
		t.Helper()
		if err := tx.Set([]byte(k), []byte("v")); err != nil {
			t.Fatal(err)
		}
	}
	set("outside") // no statement, no savepoint: no undo record
	if n := len(tx.undo); n != 0 {
		t.Fatalf("undo records outside a statement: %d", n)
	}
	for i := 0; i < 100; i++ {
		tx.BeginStatement()
		set("a")
		set("b")
		if n := len(tx.undo); n != 2 {
			t.Fatalf("statement %d: %d undo records, want 2", i, n)
		}
		tx.EndStatement()
		if n := len(tx.undo); n != 0 {
			t.Fatalf("statement %d: %d undo records after EndStatement, want 0", i, n)
		}
	}
	tx.Savepoint("sp")
	for i := 0; i < 3; i++ {
		tx.BeginStatement()
		set("c")
		tx.EndStatement()
	}
	if n := len(tx.undo); n != 3 {
		t.Fatalf("with a savepoint: %d undo records, want 3", n)
	}
	if err := tx.ReleaseSavepoint("sp"); err != nil {
		t.Fatal(err)
	}
	tx.BeginStatement()
	tx.EndStatement()
	if n := len(tx.undo); n != 0 {
		t.Fatalf("after releasing the savepoint: %d undo records, want 0", n)
	}
}

// beginInternal opens a store on an in-memory filesystem and begins a
// transaction, both closed at the end of the test.
func beginInternal(t *testing.T) (*DB, *Txn) {
	t.Helper()
	store, err := kv.Open(kv.Options{Dir: "/db", FS: vfs.NewMem()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	db := New(store, Options{})
	tx := db.Begin(context.Background(), RepeatableRead, 0)
	t.Cleanup(tx.Rollback)
	return db, tx
}

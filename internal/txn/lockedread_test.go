package txn_test

import (
	"fmt"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/txn"
	"github.com/strata-db/strata/internal/txn/lock"
)

// rawSet writes key=value straight into the store, bypassing transactions
// and locks — what no writer of strata may do; the tests use it to see
// whether a read went to the store or was answered from memory.
func rawSet(t *testing.T, k *kv.DB, key, value string) {
	t.Helper()
	b := k.NewBatch()
	defer b.Close()
	if err := b.Set([]byte(key), []byte(value)); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(false); err != nil {
		t.Fatal(err)
	}
}

func wantLocked(t *testing.T, tx *txn.Txn, key, want string, wantOK bool) {
	t.Helper()
	v, ok, err := tx.GetLocked([]byte(key))
	if err != nil {
		t.Fatalf("GetLocked %q: %v", key, err)
	}
	if ok != wantOK || string(v) != want {
		t.Fatalf("GetLocked %q = %q, %v; want %q, %v", key, v, ok, want, wantOK)
	}
}

func openRaw(t *testing.T) (*txn.DB, *kv.DB) {
	t.Helper()
	k := openKV(t, vfs.NewMem(), "/db")
	return txn.New(k.DB, txn.Options{}), k.DB
}

func TestGetLockedRemembersUntilUnlock(t *testing.T) {
	db, k := openRaw(t)
	commitKVs(t, db, "row", "v0")
	tx := begin(t, db)
	if _, err := tx.LockFresh([]byte("row"), lock.Exclusive); err != nil {
		t.Fatal(err)
	}
	key := []byte("row")
	wantLocked(t, tx, string(key), "v0", true)
	key[0] = 'X' // the remembered key must not alias the caller's buffer

	rawSet(t, k, "row", "v1")
	wantLocked(t, tx, "row", "v0", true) // answered from memory
	wantGet(t, tx, true, "row", "v1", true)

	// The transaction's own write is seen before the remembered read, and
	// a rollback of the write shows the remembered read again.
	tx.BeginStatement()
	mustSet(t, tx, "row", "mine")
	wantLocked(t, tx, "row", "mine", true)
	tx.RollbackStatement()
	wantLocked(t, tx, "row", "v0", true)

	// Giving the lock back forgets the read.
	tx.Unlock([]byte("row"))
	if _, err := tx.LockFresh([]byte("row"), lock.Exclusive); err != nil {
		t.Fatal(err)
	}
	wantLocked(t, tx, "row", "v1", true)
}

func TestGetLockedRemembersAbsence(t *testing.T) {
	db, k := openRaw(t)
	tx := begin(t, db)
	if err := tx.Lock([]byte("gap"), lock.Exclusive); err != nil {
		t.Fatal(err)
	}
	wantLocked(t, tx, "gap", "", false)
	rawSet(t, k, "gap", "x")
	wantLocked(t, tx, "gap", "", false)
	mustDelete(t, tx, "gap")
	wantLocked(t, tx, "gap", "", false)
}

func TestGetLockedBoundedAndPerTransaction(t *testing.T) {
	db, k := openRaw(t)
	const n = 100 // more than the remembered maximum
	var kvs []string
	for i := range n {
		kvs = append(kvs, fmt.Sprintf("k%03d", i), "v0")
	}
	commitKVs(t, db, kvs...)
	tx := begin(t, db)
	for i := range n {
		key := fmt.Sprintf("k%03d", i)
		if err := tx.Lock([]byte(key), lock.Shared); err != nil {
			t.Fatal(err)
		}
		wantLocked(t, tx, key, "v0", true)
	}
	for i := range n {
		rawSet(t, k, fmt.Sprintf("k%03d", i), "v1")
	}
	remembered := 0
	for i := range n {
		v, _, err := tx.GetLocked([]byte(fmt.Sprintf("k%03d", i)))
		if err != nil {
			t.Fatal(err)
		}
		if string(v) == "v0" {
			remembered++
		}
	}
	if remembered == 0 || remembered == n {
		t.Fatalf("%d of %d reads remembered; want some, bounded", remembered, n)
	}
	mustCommit(t, tx)

	// A new transaction remembers nothing of the last one.
	tx2 := begin(t, db)
	if err := tx2.Lock([]byte("k000"), lock.Shared); err != nil {
		t.Fatal(err)
	}
	wantLocked(t, tx2, "k000", "v1", true)
	if _, _, err := tx.GetLocked([]byte("k000")); err != txn.ErrDone {
		t.Fatalf("GetLocked after commit: %v, want ErrDone", err)
	}
}

// TestCommitReleasesLocksOnlyWhenVisible: Commit gives the row locks back
// while the WAL fsync runs, but never before the writes are visible — a
// transaction that takes the lock next must read them. Counters incremented
// under the row lock by concurrent durable transactions lose no update.
func TestCommitReleasesLocksOnlyWhenVisible(t *testing.T) {
	db, _ := openMem(t, txn.Options{}) // durable commits (fsync)
	commitKVs(t, db, "counter", "0")
	const workers, rounds = 4, 200
	errs := make(chan error, workers)
	for range workers {
		go func() {
			for range rounds {
				tx := db.Begin(bg(), txn.RepeatableRead, long)
				err := tx.Lock([]byte("counter"), lock.Exclusive)
				var v []byte
				if err == nil {
					v, _, err = tx.GetLocked([]byte("counter"))
				}
				var n int
				if err == nil {
					_, err = fmt.Sscan(string(v), &n)
				}
				if err == nil {
					err = tx.Set([]byte("counter"), []byte(fmt.Sprint(n+1)))
				}
				if err == nil {
					err = tx.Commit()
				}
				if err != nil {
					tx.Rollback()
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	tx := begin(t, db)
	wantGet(t, tx, true, "counter", fmt.Sprint(workers*rounds), true)
}

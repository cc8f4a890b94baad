package txn_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/txn"
	"github.com/strata-db/strata/internal/txn/lock"
)

// lockAsync runs tx.Lock in a goroutine and returns its result channel.
func lockAsync(tx *txn.Txn, k string, mode lock.Mode) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- tx.Lock([]byte(k), mode) }()
	return ch
}

// waitWaiters blocks until n transactions wait for locks.
func waitWaiters(t *testing.T, db *txn.DB, n int64) {
	t.Helper()
	deadline := time.Now().Add(long)
	for db.Locks().Stats().Waiters != n {
		if time.Now().After(deadline) {
			t.Fatalf("waiters = %d, want %d", db.Locks().Stats().Waiters, n)
		}
		time.Sleep(time.Millisecond)
	}
}

func mustStillWait(t *testing.T, ch <-chan error, what string) {
	t.Helper()
	select {
	case err := <-ch:
		t.Fatalf("%s returned %v, want still waiting", what, err)
	case <-time.After(30 * time.Millisecond):
	}
}

func result(t *testing.T, ch <-chan error, what string) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(long):
		t.Fatalf("%s did not return", what)
		return nil
	}
}

func TestLockWaitsForCommit(t *testing.T) {
	db, _ := openMem(t, txn.Options{})
	commitKVs(t, db, "row", "0")
	a := begin(t, db)
	b := begin(t, db)
	if err := a.Lock([]byte("row"), lock.Exclusive); err != nil {
		t.Fatal(err)
	}
	wantGet(t, b, false, "row", "0", true) // B's snapshot predates A's commit
	mustSet(t, a, "row", "1")

	ch := lockAsync(b, "row", lock.Exclusive)
	waitWaiters(t, db, 1)
	mustStillWait(t, ch, "B's lock")
	mustCommit(t, a)
	if err := result(t, ch, "B's lock"); err != nil {
		t.Fatalf("B's lock after A committed: %v", err)
	}
	// Current read after the lock sees A's commit; the snapshot does not.
	wantGet(t, b, true, "row", "1", true)
	wantGet(t, b, false, "row", "0", true)
	b.Rollback()
	if st := db.Locks().Stats(); st.Entries != 0 || st.Keys != 0 {
		t.Fatalf("locks left after both finished: %+v", st)
	}
}

func TestSharedLocks(t *testing.T) {
	db, _ := openMem(t, txn.Options{})
	a, b, c := begin(t, db), begin(t, db), begin(t, db)
	for _, tx := range []*txn.Txn{a, b} {
		if err := tx.Lock([]byte("row"), lock.Shared); err != nil {
			t.Fatal(err)
		}
	}
	ch := lockAsync(c, "row", lock.Exclusive)
	waitWaiters(t, db, 1)
	a.Rollback()
	mustStillWait(t, ch, "X behind one remaining S")
	mustCommit(t, b)
	if err := result(t, ch, "X lock"); err != nil {
		t.Fatal(err)
	}
}

func TestLockDeadlock(t *testing.T) {
	db, _ := openMem(t, txn.Options{})
	a, b := begin(t, db), begin(t, db)
	if err := a.Lock([]byte("k1"), lock.Exclusive); err != nil {
		t.Fatal(err)
	}
	if err := b.Lock([]byte("k2"), lock.Exclusive); err != nil {
		t.Fatal(err)
	}
	chA := lockAsync(a, "k2", lock.Exclusive)
	waitWaiters(t, db, 1)
	// B closing the cycle is the victim, at once.
	start := time.Now()
	err := b.Lock([]byte("k1"), lock.Exclusive)
	if !errors.Is(err, lock.ErrDeadlock) {
		t.Fatalf("B: %v, want ErrDeadlock", err)
	}
	if d := time.Since(start); d > long/2 {
		t.Fatalf("deadlock detected only after %v", d)
	}
	mustStillWait(t, chA, "A's lock")
	b.Rollback()
	if err := result(t, chA, "A's lock"); err != nil {
		t.Fatalf("A after B rolled back: %v", err)
	}
	mustCommit(t, a)
}

func TestLockTimeout(t *testing.T) {
	db, _ := openMem(t, txn.Options{})
	a := begin(t, db)
	if err := a.Lock([]byte("row"), lock.Exclusive); err != nil {
		t.Fatal(err)
	}
	b := db.Begin(bg(), txn.RepeatableRead, 100*time.Millisecond)
	defer b.Rollback()
	start := time.Now()
	err := b.Lock([]byte("row"), lock.Shared)
	if !errors.Is(err, lock.ErrLockWaitTimeout) {
		t.Fatalf("B: %v, want ErrLockWaitTimeout", err)
	}
	if d := time.Since(start); d < 50*time.Millisecond || d > long/2 {
		t.Fatalf("timeout after %v, want about 100ms", d)
	}
	// The transaction stays usable; changing LockTimeout takes effect.
	b.LockTimeout = long
	ch := lockAsync(b, "row", lock.Shared)
	waitWaiters(t, db, 1)
	a.Rollback()
	if err := result(t, ch, "B's second lock"); err != nil {
		t.Fatal(err)
	}
}

func TestLockNoWait(t *testing.T) {
	db, _ := openMem(t, txn.Options{})
	a := begin(t, db)
	if err := a.Lock([]byte("row"), lock.Exclusive); err != nil {
		t.Fatal(err)
	}
	b := db.Begin(bg(), txn.RepeatableRead, 0)
	defer b.Rollback()
	if err := b.Lock([]byte("row"), lock.Exclusive); !errors.Is(err, lock.ErrLockWaitTimeout) {
		t.Fatalf("no-wait lock: %v, want ErrLockWaitTimeout", err)
	}
	if err := b.Lock([]byte("other"), lock.Exclusive); err != nil {
		t.Fatalf("uncontended no-wait lock: %v", err)
	}
}

func TestLockContextCancel(t *testing.T) {
	db, _ := openMem(t, txn.Options{})
	a := begin(t, db)
	if err := a.Lock([]byte("row"), lock.Exclusive); err != nil {
		t.Fatal(err)
	}
	b := begin(t, db)
	ctx, cancel := context.WithCancel(bg())
	b.SetContext(ctx)
	ch := lockAsync(b, "row", lock.Exclusive)
	waitWaiters(t, db, 1)
	cancel() // KILL QUERY
	if err := result(t, ch, "B's lock"); !errors.Is(err, context.Canceled) {
		t.Fatalf("B after cancel: %v, want context.Canceled", err)
	}
	waitWaiters(t, db, 0)
}

func TestLocksReleasedAtFinish(t *testing.T) {
	db, _ := openMem(t, txn.Options{})
	for _, commit := range []bool{true, false} {
		a := begin(t, db)
		for i := 0; i < 10; i++ {
			if err := a.Lock([]byte(key(i)), lock.Exclusive); err != nil {
				t.Fatal(err)
			}
		}
		if commit {
			mustCommit(t, a)
		} else {
			a.Rollback()
		}
		b := db.Begin(bg(), txn.RepeatableRead, 0)
		for i := 0; i < 10; i++ {
			if err := b.Lock([]byte(key(i)), lock.Exclusive); err != nil {
				t.Fatalf("commit=%v: lock %d still held: %v", commit, i, err)
			}
		}
		b.Rollback()
	}
	if st := db.Locks().Stats(); st.Entries != 0 || st.Keys != 0 {
		t.Fatalf("locks left: %+v", st)
	}
}

// TestUnlockFreshLock: a lock taken fresh can be given back before commit
// (a locking read whose row did not match); another transaction then gets it
// at once, and the first transaction's other locks stay held.
func TestUnlockFreshLock(t *testing.T) {
	db, _ := openMem(t, txn.Options{})
	a := begin(t, db)
	b := begin(t, db)
	b.LockTimeout = 0
	if fresh, err := a.LockFresh([]byte("kept"), lock.Exclusive); err != nil || !fresh {
		t.Fatalf("kept: fresh=%v err=%v", fresh, err)
	}
	if fresh, err := a.LockFresh([]byte("kept"), lock.Shared); err != nil || fresh {
		t.Fatalf("kept again: fresh=%v err=%v, want not fresh", fresh, err)
	}
	if fresh, err := a.LockFresh([]byte("miss"), lock.Exclusive); err != nil || !fresh {
		t.Fatalf("miss: fresh=%v err=%v", fresh, err)
	}
	if err := b.Lock([]byte("miss"), lock.Exclusive); !errors.Is(err, lock.ErrLockWaitTimeout) {
		t.Fatalf("b on a held key: %v, want lock wait timeout", err)
	}
	a.Unlock([]byte("miss"))
	if err := b.Lock([]byte("miss"), lock.Exclusive); err != nil {
		t.Fatalf("b after a's unlock: %v", err)
	}
	if err := b.Lock([]byte("kept"), lock.Shared); !errors.Is(err, lock.ErrLockWaitTimeout) {
		t.Fatalf("b on a's kept key: %v, want lock wait timeout", err)
	}
	mustCommit(t, a)
	mustCommit(t, b)
	if st := db.Locks().Stats(); st.Entries != 0 {
		t.Fatalf("locks left: %+v", st)
	}
}

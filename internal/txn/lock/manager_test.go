package lock

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSharedCompatible(t *testing.T) {
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "k", Shared)
	mustAcquire(t, m, 2, "k", Shared)
	mustHold(t, m, 1, "k", Shared)
	mustHold(t, m, 2, "k", Shared)
	mustHold(t, m, 3, "k", 0)
	mustFail(t, m, 3, "k", Exclusive, ErrLockWaitTimeout)
	if st := m.Stats(); st.Entries != 2 || st.Keys != 1 || st.Timeouts != 1 {
		t.Fatalf("stats %+v", st)
	}
	m.ReleaseAll(1)
	m.ReleaseAll(2)
	m.ReleaseAll(3) // holds nothing: no-op
	checkEmpty(t, m)
}

func TestExclusiveBlocksShared(t *testing.T) {
	ctx := context.Background()
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "k", Exclusive)
	mustFail(t, m, 2, "k", Shared, ErrLockWaitTimeout)
	ch := acquireAsync(m, ctx, 2, "k", Shared, long)
	waitWaiters(t, m, 1)
	mustBlock(t, ch, "S behind X")
	mustHold(t, m, 2, "k", 0)
	m.ReleaseAll(1)
	mustGrant(t, ch, "S after X released")
	mustHold(t, m, 2, "k", Shared)
	m.ReleaseAll(2)
	checkEmpty(t, m)
}

func TestSharedBlocksExclusive(t *testing.T) {
	ctx := context.Background()
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "k", Shared)
	mustAcquire(t, m, 2, "k", Shared)
	ch := acquireAsync(m, ctx, 3, "k", Exclusive, long)
	waitWaiters(t, m, 1)
	m.ReleaseAll(1)
	mustBlock(t, ch, "X behind one remaining S")
	m.ReleaseAll(2)
	mustGrant(t, ch, "X after all S released")
	mustHold(t, m, 3, "k", Exclusive)
	m.ReleaseAll(3)
	checkEmpty(t, m)
}

func TestReentrantAndUpgrade(t *testing.T) {
	ctx := context.Background()
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "x", Exclusive)
	mustAcquire(t, m, 1, "x", Shared)
	mustAcquire(t, m, 1, "x", Exclusive)
	mustHold(t, m, 1, "x", Exclusive)

	// Sole sharer upgrades in place.
	mustAcquire(t, m, 1, "s", Shared)
	mustAcquire(t, m, 1, "s", Shared)
	mustAcquire(t, m, 1, "s", Exclusive)
	mustHold(t, m, 1, "s", Exclusive)
	if st := m.Stats(); st.Entries != 2 {
		t.Fatalf("re-acquiring must not add entries: %+v", st)
	}

	// Upgrade with another sharer waits for it.
	mustAcquire(t, m, 2, "u", Shared)
	mustAcquire(t, m, 3, "u", Shared)
	mustFail(t, m, 2, "u", Exclusive, ErrLockWaitTimeout)
	mustHold(t, m, 2, "u", Shared) // failed upgrade keeps the S lock
	ch := acquireAsync(m, ctx, 2, "u", Exclusive, long)
	waitWaiters(t, m, 1)
	mustBlock(t, ch, "upgrade with another sharer")
	m.ReleaseAll(3)
	mustGrant(t, ch, "upgrade after sharer left")
	mustHold(t, m, 2, "u", Exclusive)
	if st := m.Stats(); st.Entries != 3 {
		t.Fatalf("entries %+v, want 3", st)
	}
	m.ReleaseAll(1)
	m.ReleaseAll(2)
	checkEmpty(t, m)
}

func TestUpgradeQueuesAheadOfWaiters(t *testing.T) {
	ctx := context.Background()
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "k", Shared)
	mustAcquire(t, m, 2, "k", Shared)
	x3 := acquireAsync(m, ctx, 3, "k", Exclusive, long)
	waitWaiters(t, m, 1)
	up := acquireAsync(m, ctx, 1, "k", Exclusive, long)
	waitWaiters(t, m, 2)
	m.ReleaseAll(2)
	mustGrant(t, up, "upgrade ahead of queued X")
	mustBlock(t, x3, "X behind upgraded holder")
	m.ReleaseAll(1)
	mustGrant(t, x3, "X after upgrader released")
	m.ReleaseAll(3)
	checkEmpty(t, m)
}

func TestFIFOWakeup(t *testing.T) {
	ctx := context.Background()
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "k", Exclusive)
	var chs []<-chan error
	for txn := TxnID(2); txn <= 4; txn++ {
		chs = append(chs, acquireAsync(m, ctx, txn, "k", Exclusive, long))
		waitWaiters(t, m, int64(txn-1)) // enqueue in txn order
	}
	for i, ch := range chs {
		m.ReleaseAll(TxnID(i + 1))
		mustGrant(t, ch, "next in FIFO order")
		for _, later := range chs[i+1:] {
			mustBlock(t, later, "later waiter")
		}
	}
	m.ReleaseAll(4)
	checkEmpty(t, m)
}

func TestSharedWaitersGrantedTogether(t *testing.T) {
	ctx := context.Background()
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "k", Exclusive)
	modes := []Mode{Shared, Shared, Exclusive, Shared} // txns 2..5
	var chs []<-chan error
	for i, mode := range modes {
		chs = append(chs, acquireAsync(m, ctx, TxnID(i+2), "k", mode, long))
		waitWaiters(t, m, int64(i+1))
	}
	m.ReleaseAll(1)
	mustGrant(t, chs[0], "first S")
	mustGrant(t, chs[1], "second S")
	mustBlock(t, chs[2], "X behind S holders")
	mustBlock(t, chs[3], "S behind queued X")
	// A new S request must not overtake the queued X.
	mustFail(t, m, 6, "k", Shared, ErrLockWaitTimeout)
	m.ReleaseAll(2)
	m.ReleaseAll(3)
	mustGrant(t, chs[2], "X")
	mustBlock(t, chs[3], "S behind X holder")
	m.ReleaseAll(4)
	mustGrant(t, chs[3], "last S")
	m.ReleaseAll(5)
	checkEmpty(t, m)
}

func TestDeadlockTwoTxns(t *testing.T) {
	ctx := context.Background()
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "a", Exclusive)
	mustAcquire(t, m, 2, "b", Exclusive)
	ch := acquireAsync(m, ctx, 1, "b", Exclusive, long)
	waitWaiters(t, m, 1)
	start := time.Now()
	if err := m.Acquire(ctx, 2, []byte("a"), Exclusive, long); err != ErrDeadlock {
		t.Fatalf("closing the cycle: %v, want ErrDeadlock", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("deadlock reported after %v, want at once", d)
	}
	mustBlock(t, ch, "survivor before victim rolls back")
	mustHold(t, m, 2, "a", 0)
	m.ReleaseAll(2)
	mustGrant(t, ch, "survivor after victim rolled back")
	if st := m.Stats(); st.Deadlocks != 1 || st.Waits != 1 {
		t.Fatalf("stats %+v", st)
	}
	m.ReleaseAll(1)
	checkEmpty(t, m)
}

func TestDeadlockThreeTxns(t *testing.T) {
	ctx := context.Background()
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "a", Exclusive)
	mustAcquire(t, m, 2, "b", Exclusive)
	mustAcquire(t, m, 3, "c", Shared)
	c1 := acquireAsync(m, ctx, 1, "b", Shared, long)
	waitWaiters(t, m, 1)
	c2 := acquireAsync(m, ctx, 2, "c", Exclusive, long)
	waitWaiters(t, m, 2)
	if err := m.Acquire(ctx, 3, []byte("a"), Shared, long); err != ErrDeadlock {
		t.Fatalf("closing the 3-cycle: %v, want ErrDeadlock", err)
	}
	mustBlock(t, c1, "txn 1")
	mustBlock(t, c2, "txn 2")
	m.ReleaseAll(3)
	mustGrant(t, c2, "txn 2 after victim")
	m.ReleaseAll(2)
	mustGrant(t, c1, "txn 1 after txn 2")
	m.ReleaseAll(1)
	checkEmpty(t, m)
}

func TestDeadlockOnUpgrade(t *testing.T) {
	ctx := context.Background()
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "k", Shared)
	mustAcquire(t, m, 2, "k", Shared)
	ch := acquireAsync(m, ctx, 1, "k", Exclusive, long)
	waitWaiters(t, m, 1)
	if err := m.Acquire(ctx, 2, []byte("k"), Exclusive, long); err != ErrDeadlock {
		t.Fatalf("second upgrade: %v, want ErrDeadlock", err)
	}
	mustHold(t, m, 2, "k", Shared)
	m.ReleaseAll(2)
	mustGrant(t, ch, "first upgrade")
	mustHold(t, m, 1, "k", Exclusive)
	m.ReleaseAll(1)
	checkEmpty(t, m)
}

// A waiter also waits for the incompatible waiters queued ahead of it: here
// txn 3's Shared request is compatible with holder 1 but queued behind
// txn 2's Exclusive request, so 1 -> 3 -> 2 -> 1 is a cycle.
func TestDeadlockThroughQueue(t *testing.T) {
	ctx := context.Background()
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "a", Shared)
	mustAcquire(t, m, 3, "b", Exclusive)
	c2 := acquireAsync(m, ctx, 2, "a", Exclusive, long)
	waitWaiters(t, m, 1)
	c3 := acquireAsync(m, ctx, 3, "a", Shared, long)
	waitWaiters(t, m, 2)
	if err := m.Acquire(ctx, 1, []byte("b"), Exclusive, long); err != ErrDeadlock {
		t.Fatalf("cycle through queue order: %v, want ErrDeadlock", err)
	}
	m.ReleaseAll(1)
	mustGrant(t, c2, "txn 2")
	mustBlock(t, c3, "txn 3 behind X")
	m.ReleaseAll(2)
	mustGrant(t, c3, "txn 3")
	m.ReleaseAll(3)
	checkEmpty(t, m)
}

// After a waiter gives up, transactions queued behind it no longer wait for
// it, so a later wait in the opposite direction is not a deadlock.
func TestNoFalseDeadlockAfterTimeout(t *testing.T) {
	ctx := context.Background()
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "a", Exclusive)
	mustAcquire(t, m, 2, "b", Exclusive) // the txn that will time out
	mustAcquire(t, m, 3, "c", Exclusive) // the txn queued behind it
	c2 := acquireAsync(m, ctx, 2, "a", Exclusive, 100*time.Millisecond)
	waitWaiters(t, m, 1)
	c3 := acquireAsync(m, ctx, 3, "a", Exclusive, long)
	waitWaiters(t, m, 2)
	if err := <-c2; err != ErrLockWaitTimeout {
		t.Fatalf("txn 2: %v, want timeout", err)
	}
	// Txn 2 lives on (statement rollback only) and waits for txn 3.
	c2 = acquireAsync(m, ctx, 2, "c", Exclusive, long)
	waitWaiters(t, m, 2)
	mustBlock(t, c2, "txn 2 waiting for txn 3 (no cycle)")
	m.ReleaseAll(1)
	mustGrant(t, c3, "txn 3")
	m.ReleaseAll(3)
	mustGrant(t, c2, "txn 2")
	m.ReleaseAll(2)
	checkEmpty(t, m)
}

func TestTimeout(t *testing.T) {
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "k", Exclusive)
	const timeout = 100 * time.Millisecond
	start := time.Now()
	err := m.Acquire(context.Background(), 2, []byte("k"), Shared, timeout)
	elapsed := time.Since(start)
	if err != ErrLockWaitTimeout {
		t.Fatalf("got %v, want ErrLockWaitTimeout", err)
	}
	if elapsed < timeout*9/10 || elapsed > 5*time.Second {
		t.Fatalf("timed out after %v, want about %v", elapsed, timeout)
	}
	if st := m.Stats(); st.Timeouts != 1 || st.Entries != 1 || st.Waiters != 0 {
		t.Fatalf("stats %+v", st)
	}
	mustHold(t, m, 2, "k", 0)
	m.ReleaseAll(2)
	m.ReleaseAll(1)
	checkEmpty(t, m)
}

func TestContextCancel(t *testing.T) {
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "k", Shared)
	ctx, cancel := context.WithCancel(context.Background())
	c2 := acquireAsync(m, ctx, 2, "k", Exclusive, long)
	waitWaiters(t, m, 1)
	c3 := acquireAsync(m, context.Background(), 3, "k", Shared, long)
	waitWaiters(t, m, 2)
	mustBlock(t, c3, "S behind queued X")
	cancel()
	if err := <-c2; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled wait: %v, want context.Canceled", err)
	}
	// The cancelled X was the head hiding a grantable S.
	mustGrant(t, c3, "S after the X ahead gave up")
	if err := m.Acquire(ctx, 2, []byte("k"), Exclusive, long); !errors.Is(err, context.Canceled) {
		t.Fatalf("already-cancelled ctx: %v", err)
	}
	if st := m.Stats(); st.Timeouts != 0 || st.Entries != 2 {
		t.Fatalf("stats %+v", st)
	}
	m.ReleaseAll(1)
	m.ReleaseAll(3)
	checkEmpty(t, m)
}

func TestMaxLocks(t *testing.T) {
	ctx := context.Background()
	m := NewManager(Options{MaxLocks: 3})
	mustAcquire(t, m, 1, "a", Exclusive)
	mustAcquire(t, m, 1, "b", Shared)
	mustAcquire(t, m, 2, "b", Shared)
	mustFail(t, m, 1, "c", Exclusive, ErrTooManyLocks)
	mustFail(t, m, 3, "a", Shared, ErrTooManyLocks) // even before waiting
	mustAcquire(t, m, 1, "a", Shared)               // re-entrant: no new entry
	if st := m.Stats(); st.Entries != 3 || st.Keys != 2 {
		t.Fatalf("stats %+v", st)
	}
	m.ReleaseAll(2)
	// A waiter counts against the bound while it waits.
	ch := acquireAsync(m, ctx, 3, "a", Exclusive, long)
	waitWaiters(t, m, 1)
	mustFail(t, m, 4, "d", Exclusive, ErrTooManyLocks)
	m.ReleaseAll(1)
	mustGrant(t, ch, "waiter")
	mustAcquire(t, m, 4, "d", Exclusive)
	mustAcquire(t, m, 4, "e", Exclusive)
	m.ReleaseAll(3)
	m.ReleaseAll(4)
	checkEmpty(t, m)
}

func TestKeyCopiedAndEmptyKey(t *testing.T) {
	m := NewManager(Options{})
	key := []byte("row-1")
	if err := m.Acquire(context.Background(), 1, key, Exclusive, 0); err != nil {
		t.Fatal(err)
	}
	key[4] = '2'
	mustHold(t, m, 1, "row-1", Exclusive)
	mustHold(t, m, 1, "row-2", 0)
	mustAcquire(t, m, 1, "", Shared)
	mustHold(t, m, 1, "", Shared)
	mustFail(t, m, 2, "", Exclusive, ErrLockWaitTimeout)
	m.ReleaseAll(1)
	checkEmpty(t, m)
	// Recycled entries must not confuse keys.
	mustAcquire(t, m, 2, "row-3", Exclusive)
	mustHold(t, m, 2, "row-1", 0)
	mustHold(t, m, 2, "row-3", Exclusive)
	m.ReleaseAll(2)
	checkEmpty(t, m)
}

func TestInvalidMode(t *testing.T) {
	m := NewManager(Options{})
	if err := m.Acquire(context.Background(), 1, []byte("k"), 0, 0); err != ErrInvalidMode {
		t.Fatalf("mode 0: %v", err)
	}
	if err := m.Acquire(context.Background(), 1, []byte("k"), 3, 0); err != ErrInvalidMode {
		t.Fatalf("mode 3: %v", err)
	}
	checkEmpty(t, m)
}

package lock

import (
	"context"
	"testing"
)

// mustFresh acquires key and checks whether the lock was fresh.
func mustFresh(t *testing.T, m *Manager, txn TxnID, key string, mode Mode, want bool) {
	t.Helper()
	fresh, err := m.AcquireFresh(context.Background(), txn, []byte(key), mode, 0)
	if err != nil {
		t.Fatalf("txn %d %s on %q: %v", txn, mode, key, err)
	}
	if fresh != want {
		t.Fatalf("txn %d %s on %q: fresh = %v, want %v", txn, mode, key, fresh, want)
	}
}

func TestAcquireFresh(t *testing.T) {
	m := NewManager(Options{})
	mustFresh(t, m, 1, "a", Exclusive, true)
	mustFresh(t, m, 1, "a", Exclusive, false) // re-entrant
	mustFresh(t, m, 1, "a", Shared, false)    // covered by X
	mustFresh(t, m, 1, "s", Shared, true)
	mustFresh(t, m, 1, "s", Exclusive, false) // upgrade
	mustFresh(t, m, 2, "b", Shared, true)
	mustFresh(t, m, 3, "b", Shared, true) // joins another sharer
	m.ReleaseAll(1)
	m.ReleaseAll(2)
	m.ReleaseAll(3)
	checkEmpty(t, m)
}

func TestReleaseOne(t *testing.T) {
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "a", Exclusive)
	mustAcquire(t, m, 1, "b", Exclusive)
	mustAcquire(t, m, 1, "c", Shared)
	m.Release(1, []byte("b"))
	mustHold(t, m, 1, "b", 0)
	mustHold(t, m, 1, "a", Exclusive)
	mustHold(t, m, 1, "c", Shared)
	if st := m.Stats(); st.Entries != 2 || st.Keys != 2 {
		t.Fatalf("stats after Release %+v", st)
	}
	// Another transaction gets the released key at once.
	mustAcquire(t, m, 2, "b", Exclusive)
	// Releasing what is not held changes nothing.
	m.Release(1, []byte("b"))
	m.Release(1, []byte("zzz"))
	mustHold(t, m, 2, "b", Exclusive)
	// Re-acquiring after a release is fresh again.
	m.Release(1, []byte("a"))
	mustFresh(t, m, 1, "a", Shared, true)
	m.ReleaseAll(1)
	m.ReleaseAll(2)
	checkEmpty(t, m)
}

func TestReleaseGrantsWaiters(t *testing.T) {
	ctx := context.Background()
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "k", Exclusive)
	x2 := acquireAsync(m, ctx, 2, "k", Exclusive, long)
	waitWaiters(t, m, 1)
	mustBlock(t, x2, "X behind X")
	m.Release(1, []byte("k"))
	mustGrant(t, x2, "X after the holder released the key")
	mustHold(t, m, 2, "k", Exclusive)

	// A released sharer unblocks an upgrade.
	mustAcquire(t, m, 3, "s", Shared)
	mustAcquire(t, m, 4, "s", Shared)
	up := acquireAsync(m, ctx, 4, "s", Exclusive, long)
	waitWaiters(t, m, 1)
	m.Release(3, []byte("s"))
	mustGrant(t, up, "upgrade after the other sharer released")
	mustHold(t, m, 4, "s", Exclusive)

	// The releasing transaction's other locks and its later ReleaseAll
	// are unaffected.
	m.ReleaseAll(1)
	mustHold(t, m, 2, "k", Exclusive)
	m.ReleaseAll(2)
	m.ReleaseAll(3)
	m.ReleaseAll(4)
	checkEmpty(t, m)
}

// TestReleaseNoFalseDeadlock: after a release, the waits-for graph must not
// keep an edge to the releaser.
func TestReleaseNoFalseDeadlock(t *testing.T) {
	ctx := context.Background()
	m := NewManager(Options{})
	mustAcquire(t, m, 1, "a", Exclusive)
	mustAcquire(t, m, 1, "b", Shared)
	mustAcquire(t, m, 3, "b", Shared)
	// 2 waits for b (held S by 1 and 3).
	x2 := acquireAsync(m, ctx, 2, "b", Exclusive, long)
	waitWaiters(t, m, 1)
	m.Release(1, []byte("b"))
	mustBlock(t, x2, "X still behind sharer 3")
	// 2 holds nothing 1 wants; 1 waiting on 2 would be no cycle even if 2
	// held something: 2 no longer waits for 1.
	mustAcquire(t, m, 2, "c", Exclusive)
	c1 := acquireAsync(m, ctx, 1, "c", Exclusive, long)
	waitWaiters(t, m, 2)
	mustBlock(t, c1, "1 behind 2 without a cycle")
	m.ReleaseAll(3)
	mustGrant(t, x2, "X after the last sharer")
	m.ReleaseAll(2)
	mustGrant(t, c1, "c after 2 finished")
	m.ReleaseAll(1)
	checkEmpty(t, m)
}

package lock

import (
	"context"
	"testing"
	"time"
)

const long = 10 * time.Second

// acquireAsync runs Acquire in a goroutine and returns its result channel.
func acquireAsync(m *Manager, ctx context.Context, txn TxnID, key string, mode Mode, timeout time.Duration) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- m.Acquire(ctx, txn, []byte(key), mode, timeout) }()
	return ch
}

// waitWaiters blocks until exactly n transactions are waiting.
func waitWaiters(t *testing.T, m *Manager, n int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for m.Stats().Waiters != n {
		if time.Now().After(deadline) {
			t.Fatalf("waiters = %d, want %d", m.Stats().Waiters, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// mustBlock asserts that the Acquire behind ch has not returned.
func mustBlock(t *testing.T, ch <-chan error, what string) {
	t.Helper()
	select {
	case err := <-ch:
		t.Fatalf("%s: returned %v, want still waiting", what, err)
	case <-time.After(20 * time.Millisecond):
	}
}

// mustGrant asserts that the Acquire behind ch returns nil soon.
func mustGrant(t *testing.T, ch <-chan error, what string) {
	t.Helper()
	select {
	case err := <-ch:
		if err != nil {
			t.Fatalf("%s: %v, want granted", what, err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: not granted", what)
	}
}

func mustAcquire(t *testing.T, m *Manager, txn TxnID, key string, mode Mode) {
	t.Helper()
	if err := m.Acquire(context.Background(), txn, []byte(key), mode, 0); err != nil {
		t.Fatalf("txn %d %s on %q: %v", txn, mode, key, err)
	}
}

func mustFail(t *testing.T, m *Manager, txn TxnID, key string, mode Mode, want error) {
	t.Helper()
	if err := m.Acquire(context.Background(), txn, []byte(key), mode, 0); err != want {
		t.Fatalf("txn %d %s on %q: got %v, want %v", txn, mode, key, err, want)
	}
}

func mustHold(t *testing.T, m *Manager, txn TxnID, key string, want Mode) {
	t.Helper()
	if got := m.Held(txn, []byte(key)); got != want {
		t.Fatalf("Held(%d, %q) = %s, want %s", txn, key, got, want)
	}
}

// checkEmpty asserts that the manager holds no state at all: every lock
// released, no waiter, nothing left in any internal map.
func checkEmpty(t *testing.T, m *Manager) {
	t.Helper()
	st := m.Stats()
	if st.Entries != 0 || st.Keys != 0 || st.Waiters != 0 {
		t.Fatalf("leaked state: %+v", st)
	}
	m.reg.mu.Lock()
	nw := len(m.reg.mu.waiting)
	m.reg.mu.Unlock()
	if nw != 0 {
		t.Fatalf("registry still has %d waiters", nw)
	}
	for i := range m.txns {
		ts := &m.txns[i]
		ts.mu.Lock()
		n := len(ts.mu.txns)
		ts.mu.Unlock()
		if n != 0 {
			t.Fatalf("txn shard %d still tracks %d txns", i, n)
		}
	}
}

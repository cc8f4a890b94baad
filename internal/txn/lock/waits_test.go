package lock

import (
	"context"
	"testing"
	"time"
)

func TestWaits(t *testing.T) {
	m := NewManager(Options{})
	ctx := context.Background()
	if err := m.Acquire(ctx, 1, []byte("k"), Exclusive, long); err != nil {
		t.Fatal(err)
	}
	if w := m.Waits(); len(w) != 0 {
		t.Fatalf("Waits with no waiter: %+v", w)
	}
	before := time.Now()
	ch := acquireAsync(m, ctx, 2, "k", Shared, long)
	waitWaiters(t, m, 1)
	w := m.Waits()
	if len(w) != 1 || w[0].Txn != 2 || w[0].Mode != Shared || string(w[0].Key) != "k" ||
		len(w[0].Blockers) != 1 || w[0].Blockers[0] != 1 || w[0].Since.Before(before) {
		t.Fatalf("Waits = %+v, want txn 2 waiting for S on k behind txn 1", w)
	}
	m.ReleaseAll(1)
	if err := <-ch; err != nil {
		t.Fatal(err)
	}
	if w := m.Waits(); len(w) != 0 {
		t.Fatalf("Waits after the grant: %+v", w)
	}
	m.ReleaseAll(2)
}

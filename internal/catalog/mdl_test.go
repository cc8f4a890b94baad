package catalog

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
)

const long = 10 * time.Second

func newMDLCatalog(t *testing.T) *Catalog {
	t.Helper()
	return mustLoad(t, openStore(t, vfs.NewMem(), "/db").db)
}

func async(f func() error) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- f() }()
	return ch
}

func mustWait(t *testing.T, ch <-chan error, what string) {
	t.Helper()
	select {
	case err := <-ch:
		t.Fatalf("%s returned %v, want still waiting", what, err)
	case <-time.After(30 * time.Millisecond):
	}
}

func mustReturn(t *testing.T, ch <-chan error, what string) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(long):
		t.Fatalf("%s did not return", what)
		return nil
	}
}

// waitExclusiveQueued blocks until db.table has n queued exclusive waiters.
func waitExclusiveQueued(t *testing.T, c *Catalog, db, table string, n int) {
	t.Helper()
	deadline := time.Now().Add(long)
	for {
		c.mdl.mu.Lock()
		got := 0
		if e := c.mdl.entries[mdlName(db, table)]; e != nil {
			got = e.waitingX
		}
		c.mdl.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d exclusive waiters on %s.%s, want %d", got, db, table, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// checkMDLEmpty asserts that no metadata lock is held or waited for (idle
// entries may stay: the hot path reuses them).
func checkMDLEmpty(t *testing.T, c *Catalog) {
	t.Helper()
	c.mdl.mu.Lock()
	defer c.mdl.mu.Unlock()
	for name, e := range c.mdl.entries {
		if !e.exclusive && e.waitingX == 0 && e.idle() && e.waitingRO == 0 {
			continue
		}
		t.Fatalf("MDL entry %q left: shared=%d exclusive=%v waitingX=%d", name, e.shared, e.exclusive, e.waitingX)
	}
}

func TestMDLExclusiveWaitsForShared(t *testing.T) {
	c := newMDLCatalog(t)
	ctx := context.Background()
	for i := 0; i < 2; i++ { // two sessions
		if err := c.LockShared(ctx, "d", "t", long); err != nil {
			t.Fatal(err)
		}
	}
	x := async(func() error { return c.LockExclusive(ctx, "d", "t", long) })
	mustWait(t, x, "exclusive with two shared holders")
	// Other tables are unaffected.
	if err := c.LockExclusive(ctx, "d", "other", 0); err != nil {
		t.Fatalf("exclusive on another table: %v", err)
	}
	c.UnlockExclusive("d", "other")
	if err := c.LockShared(ctx, "e", "t", 0); err != nil {
		t.Fatalf("shared on same table name in another database: %v", err)
	}
	c.UnlockShared("e", "t")

	c.UnlockShared("d", "t")
	mustWait(t, x, "exclusive with one shared holder")
	c.UnlockShared("d", "t")
	if err := mustReturn(t, x, "exclusive"); err != nil {
		t.Fatalf("exclusive after both shared released: %v", err)
	}
	// While held exclusively, shared requests wait.
	s := async(func() error { return c.LockShared(ctx, "d", "t", long) })
	mustWait(t, s, "shared under exclusive")
	c.UnlockExclusive("d", "t")
	if err := mustReturn(t, s, "shared"); err != nil {
		t.Fatal(err)
	}
	c.UnlockShared("d", "t")
	checkMDLEmpty(t, c)
}

func TestMDLSharedQueuesBehindExclusiveWaiter(t *testing.T) {
	c := newMDLCatalog(t)
	ctx := context.Background()
	if err := c.LockShared(ctx, "d", "t", long); err != nil {
		t.Fatal(err)
	}
	x := async(func() error { return c.LockExclusive(ctx, "d", "t", long) })
	waitExclusiveQueued(t, c, "d", "t", 1)
	// A new shared request must not overtake the queued DDL.
	s := async(func() error { return c.LockShared(ctx, "d", "t", long) })
	mustWait(t, s, "shared behind a queued exclusive")
	mustWait(t, x, "exclusive")

	c.UnlockShared("d", "t")
	if err := mustReturn(t, x, "exclusive"); err != nil {
		t.Fatal(err)
	}
	mustWait(t, s, "shared while exclusive held")
	c.UnlockExclusive("d", "t")
	if err := mustReturn(t, s, "shared"); err != nil {
		t.Fatal(err)
	}
	c.UnlockShared("d", "t")
	checkMDLEmpty(t, c)
}

func TestMDLTimeouts(t *testing.T) {
	c := newMDLCatalog(t)
	ctx := context.Background()
	if err := c.LockShared(ctx, "d", "t", long); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := c.LockExclusive(ctx, "d", "t", 100*time.Millisecond); !errors.Is(err, ErrMDLTimeout) {
		t.Fatalf("exclusive under shared: %v, want ErrMDLTimeout", err)
	}
	if d := time.Since(start); d < 50*time.Millisecond || d > long/2 {
		t.Fatalf("timed out after %v, want about 100ms", d)
	}
	// The timed-out waiter no longer blocks new shared requests.
	if err := c.LockShared(ctx, "d", "t", 0); err != nil {
		t.Fatalf("shared after the exclusive waiter gave up: %v", err)
	}
	c.UnlockShared("d", "t")
	c.UnlockShared("d", "t")

	if err := c.LockExclusive(ctx, "d", "t", long); err != nil {
		t.Fatal(err)
	}
	if err := c.LockShared(ctx, "d", "t", 50*time.Millisecond); !errors.Is(err, ErrMDLTimeout) {
		t.Fatalf("shared under exclusive: %v, want ErrMDLTimeout", err)
	}
	if err := c.LockExclusive(ctx, "d", "t", 50*time.Millisecond); !errors.Is(err, ErrMDLTimeout) {
		t.Fatalf("second exclusive: %v, want ErrMDLTimeout", err)
	}
	c.UnlockExclusive("d", "t")
	checkMDLEmpty(t, c)
}

func TestMDLTimedOutExclusiveWakesQueuedShared(t *testing.T) {
	// S1 held, X queued, S2 queued behind X. When X gives up, S2 must be
	// granted at once (S1 is compatible), not wait for its own timeout.
	c := newMDLCatalog(t)
	ctx := context.Background()
	if err := c.LockShared(ctx, "d", "t", long); err != nil {
		t.Fatal(err)
	}
	x := async(func() error { return c.LockExclusive(ctx, "d", "t", 150*time.Millisecond) })
	waitExclusiveQueued(t, c, "d", "t", 1)
	start := time.Now()
	s := async(func() error { return c.LockShared(ctx, "d", "t", long) })
	if err := mustReturn(t, x, "exclusive"); !errors.Is(err, ErrMDLTimeout) {
		t.Fatalf("exclusive: %v, want ErrMDLTimeout", err)
	}
	if err := mustReturn(t, s, "shared"); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > long/2 {
		t.Fatalf("queued shared granted only after %v", d)
	}
	c.UnlockShared("d", "t")
	c.UnlockShared("d", "t")
	checkMDLEmpty(t, c)
}

func TestMDLContextCancel(t *testing.T) {
	c := newMDLCatalog(t)
	if err := c.LockShared(context.Background(), "d", "t", long); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	x := async(func() error { return c.LockExclusive(ctx, "d", "t", long) })
	waitExclusiveQueued(t, c, "d", "t", 1)
	cancel()
	if err := mustReturn(t, x, "exclusive"); !errors.Is(err, context.Canceled) {
		t.Fatalf("exclusive after cancel: %v, want context.Canceled", err)
	}
	c.UnlockShared("d", "t")
	checkMDLEmpty(t, c)
}

func TestMDLUnbalancedUnlock(t *testing.T) {
	// Unlocking what is not held is a no-op and does not go negative.
	c := newMDLCatalog(t)
	c.UnlockShared("d", "t")
	c.UnlockExclusive("d", "t")
	if err := c.LockExclusive(context.Background(), "d", "t", 0); err != nil {
		t.Fatal(err)
	}
	c.UnlockShared("d", "t") // not held in shared mode: no-op
	if err := c.LockShared(context.Background(), "d", "t", 20*time.Millisecond); !errors.Is(err, ErrMDLTimeout) {
		t.Fatalf("shared while exclusive held: %v", err)
	}
	c.UnlockExclusive("d", "t")
	checkMDLEmpty(t, c)
}

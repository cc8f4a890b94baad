package catalog

import (
	"context"
	"errors"
	"testing"
	"time"
)

// LOCK TABLES … READ lets others read and take READ, but holds their
// writes (and LOCK … WRITE, DDL) back until it is released.
func TestMDLTableReadBlocksWrites(t *testing.T) {
	c := newMDLCatalog(t)
	ctx := context.Background()
	if err := c.LockTableRead(ctx, "d", "t", long); err != nil {
		t.Fatal(err)
	}
	if err := c.LockShared(ctx, "d", "t", long); err != nil {
		t.Fatalf("read under LOCK READ: %v", err)
	}
	c.UnlockShared("d", "t")
	if err := c.LockTableRead(ctx, "d", "t", long); err != nil {
		t.Fatalf("second LOCK READ: %v", err)
	}
	c.UnlockTableRead("d", "t")
	if err := c.LockSharedWrite(ctx, "d", "t", 20*time.Millisecond); !errors.Is(err, ErrMDLTimeout) {
		t.Fatalf("write under LOCK READ: %v, want timeout", err)
	}
	if err := c.LockTableWrite(ctx, "d", "t", 20*time.Millisecond); !errors.Is(err, ErrMDLTimeout) {
		t.Fatalf("LOCK WRITE under LOCK READ: %v, want timeout", err)
	}
	w := async(func() error { return c.LockSharedWrite(ctx, "d", "t", long) })
	mustWait(t, w, "write")
	c.UnlockTableRead("d", "t")
	if err := mustReturn(t, w, "write"); err != nil {
		t.Fatal(err)
	}
	c.UnlockSharedWrite("d", "t")
	checkMDLEmpty(t, c)
}

// LOCK TABLES … READ waits for writes under way, and a waiting one holds
// new writes back (but not reads).
func TestMDLTableReadWaitsForWrites(t *testing.T) {
	c := newMDLCatalog(t)
	ctx := context.Background()
	if err := c.LockSharedWrite(ctx, "d", "t", long); err != nil {
		t.Fatal(err)
	}
	r := async(func() error { return c.LockTableRead(ctx, "d", "t", long) })
	mustWait(t, r, "LOCK READ")
	if err := c.LockShared(ctx, "d", "t", 20*time.Millisecond); err != nil {
		t.Fatalf("read beside a waiting LOCK READ: %v", err)
	}
	c.UnlockShared("d", "t")
	if err := c.LockSharedWrite(ctx, "d", "t", 20*time.Millisecond); !errors.Is(err, ErrMDLTimeout) {
		t.Fatalf("new write beside a waiting LOCK READ: %v, want timeout", err)
	}
	c.UnlockSharedWrite("d", "t")
	if err := mustReturn(t, r, "LOCK READ"); err != nil {
		t.Fatal(err)
	}
	c.UnlockTableRead("d", "t")
	checkMDLEmpty(t, c)
}

// LOCK TABLES … WRITE shuts out reads and writes; it waits for reads.
func TestMDLTableWrite(t *testing.T) {
	c := newMDLCatalog(t)
	ctx := context.Background()
	if err := c.LockShared(ctx, "d", "t", long); err != nil {
		t.Fatal(err)
	}
	w := async(func() error { return c.LockTableWrite(ctx, "d", "t", long) })
	mustWait(t, w, "LOCK WRITE")
	c.UnlockShared("d", "t")
	if err := mustReturn(t, w, "LOCK WRITE"); err != nil {
		t.Fatal(err)
	}
	if err := c.LockShared(ctx, "d", "t", 20*time.Millisecond); !errors.Is(err, ErrMDLTimeout) {
		t.Fatalf("read under LOCK WRITE: %v, want timeout", err)
	}
	if err := c.LockTableRead(ctx, "d", "t", 20*time.Millisecond); !errors.Is(err, ErrMDLTimeout) {
		t.Fatalf("LOCK READ under LOCK WRITE: %v, want timeout", err)
	}
	if err := c.LockExclusive(ctx, "d", "t", 20*time.Millisecond); !errors.Is(err, ErrMDLTimeout) {
		t.Fatalf("DDL under LOCK WRITE: %v, want timeout", err)
	}
	c.UnlockTableWrite("d", "t")
	checkMDLEmpty(t, c)
}

// A transaction that read a table and then writes it upgrades its lock;
// the upgrade waits for another session's LOCK READ, not for a waiting DDL
// (which waits for the reader itself).
func TestMDLUpgrade(t *testing.T) {
	c := newMDLCatalog(t)
	ctx := context.Background()
	if err := c.LockShared(ctx, "d", "t", long); err != nil {
		t.Fatal(err)
	}
	x := async(func() error { return c.LockExclusive(ctx, "d", "t", long) })
	waitExclusiveQueued(t, c, "d", "t", 1)
	if err := c.UpgradeShared(ctx, "d", "t", 20*time.Millisecond); err != nil {
		t.Fatalf("upgrade beside a waiting DDL: %v", err)
	}
	c.UnlockSharedWrite("d", "t")
	if err := mustReturn(t, x, "DDL"); err != nil {
		t.Fatal(err)
	}
	c.UnlockExclusive("d", "t")

	if err := c.LockShared(ctx, "d", "t", long); err != nil {
		t.Fatal(err)
	}
	if err := c.LockTableRead(ctx, "d", "t", long); err != nil {
		t.Fatal(err)
	}
	if err := c.UpgradeShared(ctx, "d", "t", 20*time.Millisecond); !errors.Is(err, ErrMDLTimeout) {
		t.Fatalf("upgrade under LOCK READ: %v, want timeout", err)
	}
	c.UnlockTableRead("d", "t")
	if err := c.UpgradeShared(ctx, "d", "t", long); err != nil {
		t.Fatal(err)
	}
	c.UnlockSharedWrite("d", "t")
	checkMDLEmpty(t, c)
}

// The global read lock waits for writes under way, then holds new ones
// back until released; a timed-out one holds nothing.
func TestGlobalReadLock(t *testing.T) {
	c := newMDLCatalog(t)
	ctx := context.Background()
	if err := c.EnterWrite(ctx, long); err != nil {
		t.Fatal(err)
	}
	if err := c.LockGlobalRead(ctx, 20*time.Millisecond); !errors.Is(err, ErrMDLTimeout) {
		t.Fatalf("global read lock beside a write: %v, want timeout", err)
	}
	if err := c.EnterWrite(ctx, 20*time.Millisecond); err != nil {
		t.Fatalf("write after a timed-out global read lock: %v", err)
	}
	c.LeaveWrite()
	g := async(func() error { return c.LockGlobalRead(ctx, long) })
	mustWait(t, g, "global read lock")
	c.LeaveWrite()
	if err := mustReturn(t, g, "global read lock"); err != nil {
		t.Fatal(err)
	}
	if err := c.EnterWrite(ctx, 20*time.Millisecond); !errors.Is(err, ErrMDLTimeout) {
		t.Fatalf("write under the global read lock: %v, want timeout", err)
	}
	w := async(func() error { return c.EnterWrite(ctx, long) })
	mustWait(t, w, "write")
	c.UnlockGlobalRead()
	if err := mustReturn(t, w, "write"); err != nil {
		t.Fatal(err)
	}
	c.LeaveWrite()
	if n := c.grl.write.holders.Load(); n != 0 {
		t.Fatalf("%d writers left", n)
	}
}

// While the global read lock waits for a write under way, commits go on
// (the write may wait for a row lock such a commit releases); once it is
// granted they wait.
func TestGlobalReadLockCommits(t *testing.T) {
	c := newMDLCatalog(t)
	ctx := context.Background()
	if err := c.EnterWrite(ctx, long); err != nil {
		t.Fatal(err)
	}
	g := async(func() error { return c.LockGlobalRead(ctx, long) })
	mustWait(t, g, "global read lock")
	if err := c.EnterCommit(ctx, 20*time.Millisecond); err != nil {
		t.Fatalf("commit while the global read lock waits for a write: %v", err)
	}
	c.LeaveWrite()
	mustWait(t, g, "global read lock behind a commit")
	c.LeaveCommit()
	if err := mustReturn(t, g, "global read lock"); err != nil {
		t.Fatal(err)
	}
	if err := c.EnterCommit(ctx, 20*time.Millisecond); !errors.Is(err, ErrMDLTimeout) {
		t.Fatalf("commit under the global read lock: %v, want timeout", err)
	}
	c.UnlockGlobalRead()
	if err := c.EnterCommit(ctx, long); err != nil {
		t.Fatal(err)
	}
	c.LeaveCommit()
}

// The uncontended DML path allocates nothing.
func TestMDLNoAllocs(t *testing.T) {
	c := newMDLCatalog(t)
	ctx := context.Background()
	n := testing.AllocsPerRun(100, func() {
		_ = c.LockShared(ctx, "d", "t", long)
		_ = c.UpgradeShared(ctx, "d", "t", long)
		c.UnlockSharedWrite("d", "t")
		_ = c.LockSharedWrite(ctx, "d", "t", long)
		c.UnlockSharedWrite("d", "t")
		_ = c.EnterWrite(ctx, long)
		c.LeaveWrite()
		_ = c.EnterCommit(ctx, long)
		c.LeaveCommit()
	})
	if n != 0 {
		t.Fatalf("%v allocations per run, want 0", n)
	}
}

package catalog

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// ErrMDLTimeout is returned when a metadata lock cannot be acquired within
// lock_wait_timeout.
var ErrMDLTimeout = errors.New("metadata lock wait timeout")

// Metadata locks (MDL) keep a table definition stable for the transactions
// using it, as MySQL does: DML takes a shared lock on each table it touches and
// holds it until the transaction ends; DDL takes an exclusive lock, waiting for
// those transactions to finish. New shared requests wait while DDL waits, so
// DDL is not starved.
type mdlTable struct {
	mu      sync.Mutex
	entries map[mdlKey]*mdlEntry
}

// mdlKey names a table (a struct key: lookups do not allocate).
type mdlKey struct{ db, table string }

// The modes follow MySQL's: a statement that only reads a table takes
// SHARED_READ (shared), one that writes it SHARED_WRITE (writes); LOCK
// TABLES … READ takes SHARED_READ_ONLY (readOnly), which lets others read
// but not write, and LOCK TABLES … WRITE SHARED_NO_READ_WRITE (noRW),
// which shuts every other session out; DDL takes EXCLUSIVE. A waiting
// EXCLUSIVE or SHARED_NO_READ_WRITE request (waitingX) holds back new
// shared requests, a waiting SHARED_READ_ONLY (waitingRO) new writes.
type mdlEntry struct {
	shared    int
	writes    int
	readOnly  int
	noRW      bool
	exclusive bool
	waitingX  int
	waitingRO int
	// changed is created by the first waiter and closed (then cleared) on
	// the next release, so the uncontended path allocates nothing.
	changed chan struct{}
}

func (m *mdlTable) init() { m.entries = map[mdlKey]*mdlEntry{} }

func mdlName(db, table string) mdlKey { return mdlKey{db, table} }

// entryLocked returns the entry of a table, creating it on first use.
// Entries stay while the table is in use; idle entries are dropped by
// exclusive unlocks (DDL) only, so the hot path reuses them.
func (m *mdlTable) entryLocked(name mdlKey) *mdlEntry {
	e := m.entries[name]
	if e == nil {
		e = &mdlEntry{}
		m.entries[name] = e
	}
	return e
}

func (m *mdlTable) wait(ctx context.Context, e *mdlEntry, deadline *time.Timer) error {
	if e.changed == nil {
		e.changed = make(chan struct{})
	}
	ch := e.changed
	m.mu.Unlock()
	var err error
	select {
	case <-ch:
	case <-deadline.C:
		err = ErrMDLTimeout
	case <-ctx.Done():
		err = ctx.Err()
	}
	m.mu.Lock()
	return err
}

func (m *mdlTable) signalLocked(name mdlKey, e *mdlEntry) {
	if e.changed != nil {
		close(e.changed)
		e.changed = nil
	}
}

// dropIdleLocked forgets an unused entry.
func (m *mdlTable) dropIdleLocked(name mdlKey, e *mdlEntry) {
	if e.shared == 0 && e.writes == 0 && e.readOnly == 0 && !e.noRW && !e.exclusive &&
		e.waitingX == 0 && e.waitingRO == 0 && e.changed == nil {
		delete(m.entries, name)
	}
}

// Grant rules, one per mode (see mdlEntry).
func (e *mdlEntry) canRead() bool  { return !e.exclusive && !e.noRW && e.waitingX == 0 }
func (e *mdlEntry) canWrite() bool { return e.canRead() && e.readOnly == 0 && e.waitingRO == 0 }
func (e *mdlEntry) canReadOnly() bool {
	return !e.exclusive && !e.noRW && e.writes == 0 && e.waitingX == 0
}
func (e *mdlEntry) idle() bool {
	return !e.exclusive && !e.noRW && e.shared == 0 && e.writes == 0 && e.readOnly == 0
}

// acquire grants a lock on db.table once can allows it, then calls take;
// while it waits, wait(+1) and wait(-1) bracket the wait (the waiting
// counters). It waits at most timeout (ErrMDLTimeout) and until ctx ends.
func (m *mdlTable) acquire(ctx context.Context, name mdlKey, timeout time.Duration,
	can func(*mdlEntry) bool, take func(*mdlEntry), waiting func(*mdlEntry, int)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.entryLocked(name)
	if can(e) {
		take(e)
		return nil
	}
	if waiting != nil {
		waiting(e, 1)
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		err := m.wait(ctx, e, t)
		e = m.entryLocked(name)
		if err != nil {
			if waiting != nil {
				waiting(e, -1)
				m.signalLocked(name, e)
			}
			return err
		}
		if waiting != nil {
			waiting(e, -1)
		}
		if can(e) {
			take(e)
			return nil
		}
		if waiting != nil {
			waiting(e, 1)
		}
	}
}

// take grants a lock at once when can allows it (the uncontended path:
// one mutex, no allocation), else waits in acquire.
func (m *mdlTable) take(ctx context.Context, name mdlKey, timeout time.Duration, can func(*mdlEntry) bool, take func(*mdlEntry)) error {
	m.mu.Lock()
	e := m.entryLocked(name)
	if can(e) {
		take(e)
		m.mu.Unlock()
		return nil
	}
	m.mu.Unlock()
	return m.acquire(ctx, name, timeout, can, take, nil)
}

// LockShared takes a shared (read) metadata lock on db.table.
func (c *Catalog) LockShared(ctx context.Context, db, table string, timeout time.Duration) error {
	return c.mdl.take(ctx, mdlName(db, table), timeout, (*mdlEntry).canRead, func(e *mdlEntry) { e.shared++ })
}

// LockSharedWrite takes the shared metadata lock of a statement that
// writes db.table (MySQL's SHARED_WRITE): unlike a read's, it waits
// while another session holds the table with LOCK TABLES … READ.
func (c *Catalog) LockSharedWrite(ctx context.Context, db, table string, timeout time.Duration) error {
	return c.mdl.take(ctx, mdlName(db, table), timeout, (*mdlEntry).canWrite, func(e *mdlEntry) { e.writes++ })
}

// UpgradeShared turns a shared read lock the caller holds on db.table
// into a write lock (a transaction that read a table now writes it).
// Waiting requests do not hold it back (they may be waiting for the
// caller's own read lock); granted LOCK TABLES locks do.
func (c *Catalog) UpgradeShared(ctx context.Context, db, table string, timeout time.Duration) error {
	can := func(e *mdlEntry) bool { return !e.exclusive && !e.noRW && e.readOnly == 0 }
	take := func(e *mdlEntry) {
		if e.shared > 0 {
			e.shared--
		}
		e.writes++
	}
	return c.mdl.take(ctx, mdlName(db, table), timeout, can, take)
}

// UnlockShared releases one shared read metadata lock.
func (c *Catalog) UnlockShared(db, table string) { c.unlockShared(db, table, false) }

// UnlockSharedWrite releases one shared write metadata lock.
func (c *Catalog) UnlockSharedWrite(db, table string) { c.unlockShared(db, table, true) }

func (c *Catalog) unlockShared(db, table string, write bool) {
	m := &c.mdl
	name := mdlName(db, table)
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.entries[name]
	if e == nil {
		return
	}
	n := &e.shared
	if write {
		n = &e.writes
	}
	if *n == 0 {
		return
	}
	*n--
	if *n == 0 {
		m.signalLocked(name, e)
	}
}

// LockTableRead takes LOCK TABLES … READ's lock on db.table (MySQL's
// SHARED_READ_ONLY): other sessions may read the table and take it READ
// too, but their writes wait until UnlockTableRead.
func (c *Catalog) LockTableRead(ctx context.Context, db, table string, timeout time.Duration) error {
	return c.mdl.acquire(ctx, mdlName(db, table), timeout, (*mdlEntry).canReadOnly,
		func(e *mdlEntry) { e.readOnly++ }, func(e *mdlEntry, d int) { e.waitingRO += d })
}

// UnlockTableRead releases a LockTableRead.
func (c *Catalog) UnlockTableRead(db, table string) {
	c.mdl.release(mdlName(db, table), func(e *mdlEntry) bool {
		if e.readOnly == 0 {
			return false
		}
		e.readOnly--
		return true
	})
}

// LockTableWrite takes LOCK TABLES … WRITE's lock on db.table (MySQL's
// SHARED_NO_READ_WRITE): every other session's use of the table waits
// until UnlockTableWrite.
func (c *Catalog) LockTableWrite(ctx context.Context, db, table string, timeout time.Duration) error {
	return c.mdl.acquire(ctx, mdlName(db, table), timeout, (*mdlEntry).idle,
		func(e *mdlEntry) { e.noRW = true }, func(e *mdlEntry, d int) { e.waitingX += d })
}

// UnlockTableWrite releases a LockTableWrite.
func (c *Catalog) UnlockTableWrite(db, table string) {
	c.mdl.release(mdlName(db, table), func(e *mdlEntry) bool { e.noRW = false; return true })
}

// LockExclusive takes the exclusive metadata lock for DDL on db.table.
func (c *Catalog) LockExclusive(ctx context.Context, db, table string, timeout time.Duration) error {
	return c.mdl.acquire(ctx, mdlName(db, table), timeout, (*mdlEntry).idle,
		func(e *mdlEntry) { e.exclusive = true }, func(e *mdlEntry, d int) { e.waitingX += d })
}

// UnlockExclusive releases the exclusive metadata lock.
func (c *Catalog) UnlockExclusive(db, table string) {
	c.mdl.release(mdlName(db, table), func(e *mdlEntry) bool { e.exclusive = false; return true })
}

// release gives back a LOCK TABLES or exclusive lock on name: clear
// drops it from the entry (false: it was not held), then waiters are
// woken and an idle entry forgotten.
func (m *mdlTable) release(name mdlKey, clear func(e *mdlEntry) bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.entries[name]
	if e == nil || !clear(e) {
		return
	}
	m.signalLocked(name, e)
	m.dropIdleLocked(name, e)
}

// The global read lock (FLUSH TABLES WITH READ LOCK) as MySQL builds it
// from its GLOBAL and COMMIT metadata locks, in two phases: every
// statement that writes holds the global intention (EnterWrite …
// LeaveWrite) for its duration, the commit of a transaction that wrote
// the commit intention (EnterCommit … LeaveCommit). The global read lock
// first holds back new writes and waits for the writes under way, then
// holds back commits and waits for those under way; commits go on while
// it waits for the writes (a write may be waiting for a row lock that
// such a commit releases).
//
// Each phase is a pair of atomic counters, which keeps the writers' side
// free of mutexes and allocations while no global read lock is about (a
// Dekker pair: a writer announces itself, then looks for readers; a
// reader announces itself, then looks for writers; sync/atomic is
// sequentially consistent).
type globalLock struct {
	write, commit gate
	mu            sync.Mutex
	changed       chan struct{}
}

type gate struct {
	holders  atomic.Int64 // intentions held
	blockers atomic.Int64 // global read locks held or wanted
}

// waitLocked waits (g.mu held) for the next signal.
func (g *globalLock) waitLocked(ctx context.Context, t *time.Timer) error {
	if g.changed == nil {
		g.changed = make(chan struct{})
	}
	ch := g.changed
	g.mu.Unlock()
	var err error
	select {
	case <-ch:
	case <-t.C:
		err = ErrMDLTimeout
	case <-ctx.Done():
		err = ctx.Err()
	}
	g.mu.Lock()
	return err
}

func (g *globalLock) signalLocked() {
	if g.changed != nil {
		close(g.changed)
		g.changed = nil
	}
}

func (g *globalLock) signal() {
	g.mu.Lock()
	g.signalLocked()
	g.mu.Unlock()
}

// enter takes an intention on gt, waiting at most timeout while a global
// read lock is held or wanted.
func (g *globalLock) enter(ctx context.Context, gt *gate, timeout time.Duration) error {
	gt.holders.Add(1)
	if gt.blockers.Load() == 0 {
		return nil
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	g.mu.Lock()
	defer g.mu.Unlock()
	// Step back (a reader may be waiting for the holders to drain) and
	// wait, without announcing itself while it waits: waiting writers
	// never wake each other.
	gt.holders.Add(-1)
	g.signalLocked()
	for {
		if gt.blockers.Load() == 0 {
			gt.holders.Add(1)
			if gt.blockers.Load() == 0 {
				return nil
			}
			gt.holders.Add(-1)
			g.signalLocked()
		}
		if err := g.waitLocked(ctx, t); err != nil {
			return err
		}
	}
}

func (g *globalLock) leave(gt *gate) {
	gt.holders.Add(-1)
	if gt.blockers.Load() != 0 {
		g.signal()
	}
}

// block holds gt's new intentions back and waits for those held to end.
func (g *globalLock) block(ctx context.Context, gt *gate, t *time.Timer) error {
	gt.blockers.Add(1)
	if gt.holders.Load() == 0 {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for gt.holders.Load() != 0 {
		if err := g.waitLocked(ctx, t); err != nil {
			gt.blockers.Add(-1)
			g.signalLocked()
			return err
		}
	}
	return nil
}

// EnterWrite takes the intention to write, waiting at most timeout while
// a global read lock is held or wanted.
func (c *Catalog) EnterWrite(ctx context.Context, timeout time.Duration) error {
	return c.grl.enter(ctx, &c.grl.write, timeout)
}

// LeaveWrite releases an EnterWrite.
func (c *Catalog) LeaveWrite() { c.grl.leave(&c.grl.write) }

// EnterCommit takes the intention to commit a transaction that wrote,
// waiting at most timeout while a global read lock holds commits back.
func (c *Catalog) EnterCommit(ctx context.Context, timeout time.Duration) error {
	return c.grl.enter(ctx, &c.grl.commit, timeout)
}

// LeaveCommit releases an EnterCommit.
func (c *Catalog) LeaveCommit() { c.grl.leave(&c.grl.commit) }

// LockGlobalRead takes the global read lock: it waits at most timeout for
// the writes, then the commits, under way to end (ErrMDLTimeout, nothing
// held), after which every EnterWrite and EnterCommit waits until
// UnlockGlobalRead.
func (c *Catalog) LockGlobalRead(ctx context.Context, timeout time.Duration) error {
	g := &c.grl
	t := time.NewTimer(timeout)
	defer t.Stop()
	if err := g.block(ctx, &g.write, t); err != nil {
		return err
	}
	if err := g.block(ctx, &g.commit, t); err != nil {
		g.write.blockers.Add(-1)
		g.signal()
		return err
	}
	return nil
}

// UnlockGlobalRead releases a LockGlobalRead.
func (c *Catalog) UnlockGlobalRead() {
	c.grl.write.blockers.Add(-1)
	c.grl.commit.blockers.Add(-1)
	c.grl.signal()
}

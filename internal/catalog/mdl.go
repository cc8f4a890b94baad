package catalog

import (
	"context"
	"errors"
	"sync"
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

type mdlEntry struct {
	shared    int
	exclusive bool
	waitingX  int
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
	if e.shared == 0 && !e.exclusive && e.waitingX == 0 && e.changed == nil {
		delete(m.entries, name)
	}
}

// LockShared takes a shared metadata lock on db.table.
func (c *Catalog) LockShared(ctx context.Context, db, table string, timeout time.Duration) error {
	m := &c.mdl
	name := mdlName(db, table)
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.entryLocked(name)
	if !e.exclusive && e.waitingX == 0 {
		e.shared++
		return nil
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	for e.exclusive || e.waitingX > 0 {
		if err := m.wait(ctx, e, t); err != nil {
			return err
		}
		e = m.entryLocked(name)
	}
	e.shared++
	return nil
}

// UnlockShared releases one shared metadata lock.
func (c *Catalog) UnlockShared(db, table string) {
	m := &c.mdl
	name := mdlName(db, table)
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.entries[name]
	if e == nil || e.shared == 0 {
		return
	}
	e.shared--
	if e.shared == 0 {
		m.signalLocked(name, e)
	}
}

// LockExclusive takes the exclusive metadata lock for DDL on db.table.
// sharedHeld is the number of shared locks the caller's own session holds on
// it (a session may ALTER a table it used in its transaction after the
// implicit commit released them; normally 0).
func (c *Catalog) LockExclusive(ctx context.Context, db, table string, timeout time.Duration) error {
	m := &c.mdl
	name := mdlName(db, table)
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.entryLocked(name)
	e.waitingX++
	t := time.NewTimer(timeout)
	defer t.Stop()
	for e.exclusive || e.shared > 0 {
		if err := m.wait(ctx, e, t); err != nil {
			e = m.entryLocked(name)
			e.waitingX--
			m.signalLocked(name, e)
			return err
		}
		e = m.entryLocked(name)
	}
	e.waitingX--
	e.exclusive = true
	return nil
}

// UnlockExclusive releases the exclusive metadata lock.
func (c *Catalog) UnlockExclusive(db, table string) {
	m := &c.mdl
	name := mdlName(db, table)
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.entries[name]
	if e == nil {
		return
	}
	e.exclusive = false
	m.signalLocked(name, e)
	m.dropIdleLocked(name, e)
}

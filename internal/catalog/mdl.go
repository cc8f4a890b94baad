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
	entries map[string]*mdlEntry
}

type mdlEntry struct {
	shared    int
	exclusive bool
	waitingX  int
	changed   chan struct{} // closed and replaced on every release
}

func (m *mdlTable) init() { m.entries = map[string]*mdlEntry{} }

func mdlName(db, table string) string { return db + "\x00" + table }

func (m *mdlTable) entryLocked(name string) *mdlEntry {
	e := m.entries[name]
	if e == nil {
		e = &mdlEntry{changed: make(chan struct{})}
		m.entries[name] = e
	}
	return e
}

func (m *mdlTable) wait(ctx context.Context, e *mdlEntry, deadline *time.Timer) error {
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

func (m *mdlTable) signalLocked(name string, e *mdlEntry) {
	close(e.changed)
	e.changed = make(chan struct{})
	if e.shared == 0 && !e.exclusive && e.waitingX == 0 {
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
}

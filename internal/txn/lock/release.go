package lock

// Release gives back txn's lock on key before the transaction ends, granting
// waiters that become grantable. It is for locks a locking read took on a row
// that then turned out not to match the statement's condition (InnoDB
// releases those under READ COMMITTED; strata, having no gap locks, releases
// them at every level): call it only for a lock AcquireFresh reported fresh
// in the same statement, so that nothing the transaction read or wrote
// earlier loses its protection. Releasing a key txn does not hold is a no-op.
func (m *Manager) Release(txn TxnID, key []byte) {
	s := m.shardFor(key)
	s.mu.Lock()
	e := s.mu.entries[string(key)]
	if e == nil {
		s.mu.Unlock()
		return
	}
	i := e.holderIndex(txn)
	if i < 0 {
		s.mu.Unlock()
		return
	}
	e.removeHolder(i)
	if len(e.waiters) > 0 {
		m.reg.mu.Lock()
		m.reg.dropBlockerLocked(e, txn)
		m.reg.mu.Unlock()
		m.grantLocked(e)
	}
	s.maybeFreeLocked(e)
	s.mu.Unlock()
	// e may be recycled by now, but only the pointer is compared: txn's
	// list holds it exactly once, and no call of txn runs concurrently.
	m.untrackOne(txn, e)
	m.entries.Add(-1)
}

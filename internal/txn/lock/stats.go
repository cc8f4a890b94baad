package lock

// Stats is a snapshot of lock-manager counters (for SHOW STATUS).
type Stats struct {
	// Entries is the number of lock entries: one per transaction and key it
	// holds or is waiting for. It is what Options.MaxLocks bounds.
	Entries int64
	// Keys is the number of distinct keys in the lock table.
	Keys int64
	// Waiters is the number of transactions currently waiting for a lock
	// (Innodb_row_lock_current_waits).
	Waiters int64
	// Waits counts lock waits started (Innodb_row_lock_waits).
	Waits uint64
	// Deadlocks counts Acquires that failed with ErrDeadlock
	// (Innodb_deadlocks).
	Deadlocks uint64
	// Timeouts counts Acquires that failed with ErrLockWaitTimeout,
	// including no-wait requests (timeout <= 0) that were not grantable.
	Timeouts uint64
}

// Stats returns current counters. Keys is summed shard by shard, so under
// concurrent use the fields are not one atomic snapshot.
func (m *Manager) Stats() Stats {
	st := Stats{
		Entries:   m.entries.Load(),
		Waiters:   m.waiting.Load(),
		Waits:     m.waits.Load(),
		Deadlocks: m.deadlocks.Load(),
		Timeouts:  m.timeouts.Load(),
	}
	for i := range m.shards {
		s := &m.shards[i]
		s.mu.Lock()
		st.Keys += int64(len(s.mu.entries))
		s.mu.Unlock()
	}
	return st
}

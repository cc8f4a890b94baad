package lock

import (
	"sort"
	"time"
)

// Wait is a transaction waiting for a row lock, as Waits reports it (for
// information_schema.INNODB_TRX and STRATA_LOCK_WAITS).
type Wait struct {
	// Txn waits for Key in Mode since Since.
	Txn   TxnID
	Mode  Mode
	Key   []byte
	Since time.Time
	// Blockers are the transactions it waits for: incompatible holders and
	// incompatible waiters queued ahead of it.
	Blockers []TxnID
}

// Waits lists the transactions waiting for a lock now, by transaction id.
// It copies the waits-for graph under the registry mutex (which deadlock
// searches take too), so it is meant for diagnostics, not hot paths.
func (m *Manager) Waits() []Wait {
	m.reg.mu.Lock()
	out := make([]Wait, 0, len(m.reg.mu.waiting))
	for _, w := range m.reg.mu.waiting {
		out = append(out, Wait{Txn: w.txn, Mode: w.mode, Key: w.key, Since: w.since,
			Blockers: append([]TxnID(nil), w.blockers...)})
	}
	m.reg.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Txn < out[j].Txn })
	return out
}

package lock

import "sync"

const (
	numTxnShards         = 64
	maxFreeTxnsPerShard  = 64
	maxRecycledHeldSlice = 1024
)

// txnLocks is the list of entries one transaction holds, so that ReleaseAll
// is O(held). An entry appears once however often it was re-acquired or
// upgraded. An entry cannot be freed while the transaction holds it, so the
// pointers stay valid until ReleaseAll.
type txnLocks struct {
	held []*entry
}

// txnShard is one partition of the transaction table.
type txnShard struct {
	mu struct {
		sync.Mutex
		txns map[TxnID]*txnLocks
		free []*txnLocks
	}
	_ [64]byte
}

// txnShardFor picks the shard of a transaction (Fibonacci hashing, so that
// sequential ids spread evenly).
func (m *Manager) txnShardFor(txn TxnID) *txnShard {
	return &m.txns[(uint64(txn)*0x9E3779B97F4A7C15)>>(64-6)]
}

// track records that txn now holds e.
func (m *Manager) track(txn TxnID, e *entry) {
	ts := m.txnShardFor(txn)
	ts.mu.Lock()
	tl := ts.mu.txns[txn]
	if tl == nil {
		if n := len(ts.mu.free); n > 0 {
			tl = ts.mu.free[n-1]
			ts.mu.free[n-1] = nil
			ts.mu.free = ts.mu.free[:n-1]
		} else {
			tl = &txnLocks{}
		}
		ts.mu.txns[txn] = tl
	}
	tl.held = append(tl.held, e)
	ts.mu.Unlock()
}

// untrack removes and returns txn's lock list (nil if it holds nothing).
// The caller passes it to recycle when done.
func (m *Manager) untrack(txn TxnID) *txnLocks {
	ts := m.txnShardFor(txn)
	ts.mu.Lock()
	tl := ts.mu.txns[txn]
	if tl != nil {
		delete(ts.mu.txns, txn)
	}
	ts.mu.Unlock()
	return tl
}

// untrackOne removes e from txn's lock list (searching from the end: the
// lock given back early is usually the one taken last).
func (m *Manager) untrackOne(txn TxnID, e *entry) {
	ts := m.txnShardFor(txn)
	ts.mu.Lock()
	if tl := ts.mu.txns[txn]; tl != nil {
		for i := len(tl.held) - 1; i >= 0; i-- {
			if tl.held[i] == e {
				last := len(tl.held) - 1
				tl.held[i] = tl.held[last]
				tl.held[last] = nil
				tl.held = tl.held[:last]
				break
			}
		}
	}
	ts.mu.Unlock()
}

// recycle returns an emptied lock list to the free list of txn's shard.
func (m *Manager) recycle(txn TxnID, tl *txnLocks) {
	clear(tl.held)
	tl.held = tl.held[:0]
	if cap(tl.held) > maxRecycledHeldSlice {
		tl.held = nil
	}
	ts := m.txnShardFor(txn)
	ts.mu.Lock()
	if len(ts.mu.free) < maxFreeTxnsPerShard {
		ts.mu.free = append(ts.mu.free, tl)
	}
	ts.mu.Unlock()
}

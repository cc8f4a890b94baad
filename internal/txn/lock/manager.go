package lock

import (
	"context"
	"hash/maphash"
	"sync/atomic"
	"time"
)

// numShards is the number of lock-table shards (a power of two).
const numShards = 64

// DefaultMaxLocks is the lock-table bound used when Options.MaxLocks is 0.
const DefaultMaxLocks = 1 << 22

// TxnID identifies a transaction to the lock manager.
type TxnID uint64

// Options configures a Manager.
type Options struct {
	// MaxLocks bounds the number of lock entries (one per transaction and
	// key it holds or waits for) across all transactions. An Acquire that
	// would exceed it fails with ErrTooManyLocks. 0 means DefaultMaxLocks
	// (4Mi entries, roughly 0.5 GiB with 64-byte keys).
	MaxLocks int
}

// Manager is the row lock table. It is safe for concurrent use; see the
// package documentation for the rules on calls of one transaction.
type Manager struct {
	shards   [numShards]shard
	txns     [numTxnShards]txnShard
	reg      registry
	seed     maphash.Seed
	maxLocks int64

	entries   atomic.Int64  // lock entries held or reserved by waiters
	waiting   atomic.Int64  // transactions currently waiting
	waits     atomic.Uint64 // waits started
	deadlocks atomic.Uint64 // ErrDeadlock returned
	timeouts  atomic.Uint64 // ErrLockWaitTimeout returned
}

// NewManager returns an empty lock table.
func NewManager(opts Options) *Manager {
	m := &Manager{seed: maphash.MakeSeed(), maxLocks: int64(opts.MaxLocks)}
	if m.maxLocks <= 0 {
		m.maxLocks = DefaultMaxLocks
	}
	for i := range m.shards {
		m.shards[i].mu.entries = make(map[string]*entry)
	}
	for i := range m.txns {
		m.txns[i].mu.txns = make(map[TxnID]*txnLocks)
	}
	m.reg.init()
	return m
}

func (m *Manager) shardFor(key []byte) *shard {
	return &m.shards[maphash.Bytes(m.seed, key)&(numShards-1)]
}

// reserve counts one more lock entry, failing if that exceeds MaxLocks.
func (m *Manager) reserve() bool {
	if m.entries.Add(1) > m.maxLocks {
		m.entries.Add(-1)
		return false
	}
	return true
}

// Acquire blocks until txn holds key in mode. It is re-entrant: holding
// Exclusive satisfies Shared, and a Shared holder asking for Exclusive
// upgrades, waiting while other transactions share the key.
//
// When the lock is not grantable at once, Acquire returns ErrDeadlock
// immediately if waiting would close a cycle in the waits-for graph (the
// requester is the victim), ErrLockWaitTimeout after timeout (timeout <= 0:
// at once, without waiting), ctx.Err() if ctx ends first, or ErrTooManyLocks
// if the lock table is full. A failed Acquire leaves the locks txn already
// held untouched. The key bytes are copied.
func (m *Manager) Acquire(ctx context.Context, txn TxnID, key []byte, mode Mode, timeout time.Duration) error {
	_, err := m.AcquireFresh(ctx, txn, key, mode, timeout)
	return err
}

// AcquireFresh is Acquire that also reports whether txn held no lock on key
// before the call (fresh): only a fresh lock may be given back early with
// Release, since a lock held before may protect the transaction's earlier
// reads or writes. A re-entrant request or an upgrade is not fresh.
func (m *Manager) AcquireFresh(ctx context.Context, txn TxnID, key []byte, mode Mode, timeout time.Duration) (fresh bool, err error) {
	if mode != Shared && mode != Exclusive {
		return false, ErrInvalidMode
	}
	s := m.shardFor(key)
	s.mu.Lock()
	e := s.mu.entries[string(key)]
	if e == nil {
		// Uncontended: nobody holds or waits for key.
		if !m.reserve() {
			s.mu.Unlock()
			return false, ErrTooManyLocks
		}
		e = s.newEntryLocked(key)
		e.holders = append(e.holders, holder{txn: txn, mode: mode})
		s.mu.Unlock()
		m.track(txn, e)
		return true, nil
	}
	if i := e.holderIndex(txn); i >= 0 {
		if e.holders[i].mode >= mode {
			s.mu.Unlock()
			return false, nil
		}
		// Upgrade Shared -> Exclusive.
		if len(e.holders) == 1 {
			e.holders[i].mode = Exclusive
			if len(e.waiters) > 0 {
				// Shared waiters now conflict with this holder.
				m.reg.mu.Lock()
				m.reg.refreshLocked(e, 0)
				m.reg.mu.Unlock()
			}
			s.mu.Unlock()
			return false, nil
		}
		return false, m.waitLocked(ctx, s, e, txn, Exclusive, true, timeout)
	}
	if !m.reserve() {
		s.mu.Unlock()
		return false, ErrTooManyLocks
	}
	if len(e.waiters) == 0 && e.compatibleWithHolders(mode) {
		e.holders = append(e.holders, holder{txn: txn, mode: mode})
		s.mu.Unlock()
		m.track(txn, e)
		return true, nil
	}
	if err := m.waitLocked(ctx, s, e, txn, mode, false, timeout); err != nil {
		return false, err
	}
	return true, nil
}

// ReleaseAll releases every lock txn holds and grants waiters that become
// grantable. It is called at commit and rollback; txn may be reused only
// afterwards. Releasing a transaction that holds nothing is a no-op.
func (m *Manager) ReleaseAll(txn TxnID) {
	tl := m.untrack(txn)
	if tl == nil {
		return
	}
	for _, e := range tl.held {
		s := e.shard
		s.mu.Lock()
		if i := e.holderIndex(txn); i >= 0 {
			e.removeHolder(i)
		}
		if len(e.waiters) > 0 {
			m.reg.mu.Lock()
			m.reg.dropBlockerLocked(e, txn)
			m.reg.mu.Unlock()
			m.grantLocked(e)
		}
		s.maybeFreeLocked(e)
		s.mu.Unlock()
	}
	m.entries.Add(-int64(len(tl.held)))
	m.recycle(txn, tl)
}

// Held reports the mode txn holds on key, or 0 if it holds none.
func (m *Manager) Held(txn TxnID, key []byte) Mode {
	s := m.shardFor(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.mu.entries[string(key)]
	if e == nil {
		return 0
	}
	if i := e.holderIndex(txn); i >= 0 {
		return e.holders[i].mode
	}
	return 0
}

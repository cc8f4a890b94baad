package lock

import (
	"sync"
	"time"
	"unsafe"
)

// Free-list bounds: recycled entries keep their buffers, but only up to
// these sizes, so an occasional huge key or hot key does not pin memory.
const (
	maxFreeEntriesPerShard = 128
	maxRecycledKeyCap      = 256
	maxRecycledHolders     = 16
	maxRecycledWaiters     = 16
)

// holder is one transaction holding a lock on an entry.
type holder struct {
	txn  TxnID
	mode Mode
}

// shard is one partition of the lock table.
type shard struct {
	mu struct {
		sync.Mutex
		// entries maps a key to its entry. Map keys alias entry.buf (see
		// entry.key), so an entry is recycled only after its deletion.
		entries map[string]*entry
		// free is a bounded free list of recycled entries.
		free []*entry
	}
	// Pad to a cache line so neighbouring shards do not false-share.
	_ [64]byte
}

// entry is the lock state of one key. All fields are guarded by shard.mu.
type entry struct {
	// key is the map key. It aliases buf (unsafe.String) so that inserting
	// a key allocates nothing once entries are recycled; buf is overwritten
	// only after the entry has left the map and key has been reset.
	key   string
	buf   []byte
	shard *shard
	// holders is the set of transactions holding the key; at most one if
	// any holds Exclusive. It starts on inline, the common case.
	holders []holder
	inline  [1]holder
	// waiters is the FIFO wait queue. Upgrade requests sit at the front,
	// ahead of ordinary requests. Invariant (after every change): the head
	// waiter is not grantable.
	waiters []*waiter
}

// waiter is one blocked Acquire.
type waiter struct {
	txn     TxnID
	mode    Mode // requested mode
	upgrade bool // txn already holds Shared on the key and wants Exclusive
	// granted is set under shard.mu by the granter, before ch is signalled.
	granted bool
	// ch (capacity 1) is signalled once when the lock is granted.
	ch chan struct{}
	// blockers are the transactions this waiter waits for: incompatible
	// holders and incompatible waiters ahead of it. Guarded by
	// registry.mu (written with shard.mu held too).
	blockers []TxnID
	// mark is the last deadlock search that visited this waiter; guarded
	// by registry.mu.
	mark uint64
	// key (a copy) and since say what the waiter waits for and since when
	// (Manager.Waits); set before it is registered, then read-only.
	key   []byte
	since time.Time
}

// newEntryLocked takes an entry from the free list (or allocates one), sets
// its key to a copy of key and inserts it into the map.
func (s *shard) newEntryLocked(key []byte) *entry {
	var e *entry
	if n := len(s.mu.free); n > 0 {
		e = s.mu.free[n-1]
		s.mu.free[n-1] = nil
		s.mu.free = s.mu.free[:n-1]
	} else {
		e = &entry{shard: s}
		e.holders = e.inline[:0]
	}
	e.buf = append(e.buf[:0], key...)
	if len(e.buf) > 0 {
		e.key = unsafe.String(&e.buf[0], len(e.buf))
	} else {
		e.key = ""
	}
	s.mu.entries[e.key] = e
	return e
}

// maybeFreeLocked removes e from the map and recycles it if no transaction
// holds or waits for it.
func (s *shard) maybeFreeLocked(e *entry) {
	if len(e.holders) > 0 || len(e.waiters) > 0 {
		return
	}
	delete(s.mu.entries, e.key)
	e.key = ""
	if len(s.mu.free) >= maxFreeEntriesPerShard {
		return
	}
	if cap(e.buf) > maxRecycledKeyCap {
		e.buf = nil
	}
	if cap(e.holders) > maxRecycledHolders {
		e.holders = e.inline[:0]
	}
	if cap(e.waiters) > maxRecycledWaiters {
		e.waiters = nil
	}
	s.mu.free = append(s.mu.free, e)
}

// holderIndex returns the index of txn in e.holders, or -1.
func (e *entry) holderIndex(txn TxnID) int {
	for i := range e.holders {
		if e.holders[i].txn == txn {
			return i
		}
	}
	return -1
}

// removeHolder removes holder i (order of holders is irrelevant).
func (e *entry) removeHolder(i int) {
	last := len(e.holders) - 1
	e.holders[i] = e.holders[last]
	e.holders[last] = holder{}
	e.holders = e.holders[:last]
}

// compatibleWithHolders reports whether a transaction that holds nothing on
// e could be granted mode given the current holders (waiters ignored).
func (e *entry) compatibleWithHolders(mode Mode) bool {
	if mode == Exclusive {
		return len(e.holders) == 0
	}
	for i := range e.holders {
		if e.holders[i].mode == Exclusive {
			return false
		}
	}
	return true
}

// grantable reports whether waiter w could be granted now, ignoring the
// queue order.
func (e *entry) grantable(w *waiter) bool {
	if w.upgrade {
		return len(e.holders) == 1 && e.holders[0].txn == w.txn
	}
	return e.compatibleWithHolders(w.mode)
}

// upgradeInsertPos is where a new upgrade request joins the queue: after the
// upgrade requests already queued, ahead of every ordinary request.
func (e *entry) upgradeInsertPos() int {
	i := 0
	for i < len(e.waiters) && e.waiters[i].upgrade {
		i++
	}
	return i
}

// insertWaiter inserts w at position i of the queue.
func (e *entry) insertWaiter(i int, w *waiter) {
	e.waiters = append(e.waiters, nil)
	copy(e.waiters[i+1:], e.waiters[i:])
	e.waiters[i] = w
}

// waiterIndex returns the position of w in the queue, or -1.
func (e *entry) waiterIndex(w *waiter) int {
	for i, x := range e.waiters {
		if x == w {
			return i
		}
	}
	return -1
}

// removeWaiter removes the waiter at position i, keeping the order.
func (e *entry) removeWaiter(i int) {
	copy(e.waiters[i:], e.waiters[i+1:])
	e.waiters[len(e.waiters)-1] = nil
	e.waiters = e.waiters[:len(e.waiters)-1]
}

// appendBlockers appends to dst the transactions the waiter at position i
// waits for: holders and earlier waiters whose modes conflict with it.
func (e *entry) appendBlockers(dst []TxnID, i int) []TxnID {
	w := e.waiters[i]
	for _, h := range e.holders {
		if h.txn != w.txn && conflicts(h.mode, w.mode) {
			dst = append(dst, h.txn)
		}
	}
	for _, a := range e.waiters[:i] {
		if a.txn != w.txn && conflicts(a.mode, w.mode) {
			dst = append(dst, a.txn)
		}
	}
	return dst
}

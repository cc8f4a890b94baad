package txn

import (
	"bytes"
	"fmt"
)

// Locked reads.
//
// A current read of a row the transaction holds a lock on (SELECT … FOR
// UPDATE, the row lookup of an UPDATE or DELETE, ON DUPLICATE KEY UPDATE)
// returns the latest committed value, and that value cannot change while
// the lock is held: every committed write of a key is made by a transaction
// holding the key's exclusive lock, which a lock of ours (shared or
// exclusive) keeps out. So the second current read of the same row in the
// transaction — the UPDATE that follows a SELECT … FOR UPDATE, as TPC-C and
// most OLTP code do — needs no second Pebble read: GetLocked remembers what
// it read. Entries live until the lock is given back (Unlock) or the
// transaction ends; the transaction's own writes are still seen first,
// because they are looked up in the write buffer before the remembered
// reads.

// maxLockedReads bounds the reads a transaction remembers: a transaction
// that locks more rows than this reads the rest from Pebble each time
// (remembering is for the handful of rows an OLTP transaction revisits).
const maxLockedReads = 64

// lockedRead is the latest committed state of a key read under its lock.
type lockedRead struct {
	key   []byte
	value []byte // nil when !found
	found bool
}

// GetLocked reads the latest committed version of key (current read),
// seeing the transaction's own writes, for a key the transaction holds a
// lock on (Lock or LockFresh returned before the call, and no Unlock
// since). Repeated reads of the key under that lock are answered from
// memory. The returned value must not be modified.
func (t *Txn) GetLocked(key []byte) ([]byte, bool, error) {
	if t.done {
		return nil, false, ErrDone
	}
	if v, found, ok := t.ownWrite(key); ok {
		return v, found, nil
	}
	for i := range t.reads {
		if r := &t.reads[i]; bytes.Equal(r.key, key) {
			return r.value, r.found, nil
		}
	}
	t.notePoint(key)
	v, found, err := t.db.kv.Get(key)
	if err != nil {
		return nil, false, fmt.Errorf("txn get: %w", err)
	}
	if len(t.reads) < maxLockedReads {
		// kv.Get returned a private copy of the value; the key is the
		// caller's buffer, so it is copied into the transaction's arena
		// (appends never move bytes already handed out: a full arena is
		// replaced, not resized in place).
		if cap(t.readArena)-len(t.readArena) < len(key) {
			t.readArena = make([]byte, 0, max(128, 2*cap(t.readArena), len(key)))
		}
		n := len(t.readArena)
		t.readArena = append(t.readArena, key...)
		t.reads = append(t.reads, lockedRead{key: t.readArena[n:len(t.readArena):len(t.readArena)], value: v, found: found})
	}
	return v, found, nil
}

// forgetLockedRead drops what GetLocked remembers of key (its lock is being
// given back).
func (t *Txn) forgetLockedRead(key []byte) {
	for i := range t.reads {
		if bytes.Equal(t.reads[i].key, key) {
			last := len(t.reads) - 1
			t.reads[i] = t.reads[last]
			t.reads[last] = lockedRead{}
			t.reads = t.reads[:last]
			return
		}
	}
}

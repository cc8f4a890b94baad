package txn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/btree"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/txn/lock"
)

// Sentinel errors returned by Txn methods.
var (
	// ErrTxnTooBig: the write buffer exceeded Options.MaxTxnBytes. The
	// statement fails; the transaction should be rolled back.
	ErrTxnTooBig = errors.New("transaction write buffer exceeds its memory bound")
	// ErrDone: the transaction was already committed or rolled back.
	ErrDone = errors.New("transaction already finished")
	// ErrNoSavepoint: ROLLBACK TO / RELEASE of an unknown savepoint.
	ErrNoSavepoint = errors.New("savepoint does not exist")
)

// entryOverhead approximates the per-entry memory of the write buffer beyond
// key and value bytes (tree node share, item struct, undo record).
const entryOverhead = 96

// item is one pending write.
type item struct {
	key   []byte
	value []byte
	del   bool
}

// size is the entry's charge against Options.MaxTxnBytes.
func (it *item) size() int64 { return int64(len(it.key) + len(it.value) + entryOverhead) }

func itemLess(a, b *item) bool { return bytes.Compare(a.key, b.key) < 0 }

// undoRec restores the buffer state of key: prev == nil means the key was not
// in the buffer.
type undoRec struct {
	key  []byte
	prev *item
}

type savepoint struct {
	name string
	mark int
	// changes is the binlog collector's mark (binlog.go).
	changes int
}

// Txn is one transaction. It is not safe for concurrent use.
type Txn struct {
	db  *DB
	id  lock.TxnID
	iso Isolation
	ctx context.Context

	// LockTimeout is innodb_lock_wait_timeout for this transaction.
	LockTimeout time.Duration

	snap  *kv.Snapshot
	buf   *btree.BTreeG[*item]
	bytes int64

	undo       []undoRec
	savepoints []savepoint
	stmtMark   int
	inStmt     bool
	// bl is the transaction's binary log state (binlog.go): nil when the
	// log is off or the transaction wrote no logged row.
	bl *txnBinlog

	done   bool
	locked bool // holds at least one lock
	// readLatest makes snapshot reads go to the latest state: set for a
	// single-read autocommit statement, where one read is trivially
	// consistent and a Pebble snapshot would be pure overhead.
	readLatest bool
	probe      item
	// sampleIn counts down to the next read sampled for warm restarts
	// (readsample.go).
	sampleIn uint32

	// reads are the rows GetLocked read under their locks (lockedread.go),
	// their keys copied into readArena.
	reads     []lockedRead
	readArena []byte

	// wmem and witems are the write buffer's arena (writearena.go).
	wmem    []byte
	witems  []item
	wcarved int
}

// ID returns the transaction id (unique within the process lifetime).
func (t *Txn) ID() uint64 { return uint64(t.id) }

// Isolation returns the isolation level.
func (t *Txn) Isolation() Isolation { return t.iso }

// SetContext sets the context used for lock waits (per statement, so KILL
// QUERY can cancel a wait).
func (t *Txn) SetContext(ctx context.Context) { t.ctx = ctx }

// HasWrites reports whether the transaction buffered any write.
func (t *Txn) HasWrites() bool { return t.buf != nil && t.buf.Len() > 0 }

// BufferedBytes reports the approximate size of the write buffer.
func (t *Txn) BufferedBytes() int64 { return t.bytes }

// snapshot returns the read snapshot, taking it on first use.
func (t *Txn) snapshot() *kv.Snapshot {
	if t.snap == nil {
		t.snap = t.db.kv.NewSnapshot()
	}
	return t.snap
}

// BeginStatement marks the start of a statement: the statement's writes can be
// undone by RollbackStatement. Under READ COMMITTED it also drops the snapshot
// so the statement reads the latest commits.
func (t *Txn) BeginStatement() {
	t.stmtMark = len(t.undo)
	t.inStmt = true
	if t.bl != nil {
		t.bl.markStatement()
	}
	if t.iso == ReadCommitted && t.snap != nil {
		_ = t.snap.Close()
		t.snap = nil
	}
}

// EndStatement ends a successful statement. Undo records are only kept while a
// savepoint may need them.
func (t *Txn) EndStatement() {
	t.inStmt = false
	if len(t.savepoints) == 0 {
		// Entries replaced during the statement are garbage now.
		for _, u := range t.undo {
			if u.prev != nil {
				t.bytes -= u.prev.size()
			}
		}
		clear(t.undo)
		t.undo = t.undo[:0]
	}
}

// RollbackStatement undoes the writes of the current statement (MySQL
// statement atomicity); locks stay held, as in InnoDB.
func (t *Txn) RollbackStatement() {
	t.rollbackTo(t.stmtMark)
	if t.bl != nil {
		t.bl.rollbackStatement()
	}
	t.EndStatement()
}

// Get reads key at the transaction's snapshot, seeing its own writes. The
// returned value must not be modified and is valid until the next write.
func (t *Txn) Get(key []byte) ([]byte, bool, error) {
	return t.get(key, t.readLatest)
}

// SetSingleRead declares that the transaction performs exactly one read
// (an autocommit point lookup): it then reads the latest committed state
// without taking a snapshot.
func (t *Txn) SetSingleRead(v bool) { t.readLatest = v }

// GetLatest reads the latest committed version of key (current read), seeing
// the transaction's own writes. Lock the key first to keep it stable.
func (t *Txn) GetLatest(key []byte) ([]byte, bool, error) {
	return t.get(key, true)
}

// View is Get that shows the value to fn instead of returning a copy: the
// value is valid only during fn, which must not keep or modify it. fn is
// not called when the key does not exist; its error is returned.
func (t *Txn) View(key []byte, fn func(value []byte) error) (bool, error) {
	if t.done {
		return false, ErrDone
	}
	if v, found, ok := t.ownWrite(key); ok {
		if !found {
			return false, nil
		}
		return true, fn(v)
	}
	t.notePoint(key)
	var (
		found bool
		err   error
	)
	if t.readLatest {
		found, err = t.db.kv.View(key, fn)
	} else {
		found, err = t.snapshot().View(key, fn)
	}
	if err != nil {
		return found, fmt.Errorf("txn get: %w", err)
	}
	return found, nil
}

func (t *Txn) get(key []byte, latest bool) ([]byte, bool, error) {
	if t.done {
		return nil, false, ErrDone
	}
	if v, found, ok := t.ownWrite(key); ok {
		return v, found, nil
	}
	t.notePoint(key)
	var (
		v     []byte
		found bool
		err   error
	)
	if latest {
		v, found, err = t.db.kv.Get(key)
	} else {
		v, found, err = t.snapshot().Get(key)
	}
	if err != nil {
		return nil, false, fmt.Errorf("txn get: %w", err)
	}
	return v, found, nil
}

// ownWrite returns what the transaction's pending write of key leaves
// (found is false for a delete); ok is false when it has none.
func (t *Txn) ownWrite(key []byte) (value []byte, found, ok bool) {
	if t.buf == nil {
		return nil, false, false
	}
	t.probe.key = key
	it, ok := t.buf.Get(&t.probe)
	t.probe.key = nil
	if !ok {
		return nil, false, false
	}
	if it.del {
		return nil, false, true
	}
	return it.value, true, true
}

// Set buffers a put.
func (t *Txn) Set(key, value []byte) error {
	return t.write(key, value, false)
}

// Delete buffers a delete.
func (t *Txn) Delete(key []byte) error {
	return t.write(key, nil, true)
}

func (t *Txn) write(key, value []byte, del bool) error {
	if t.done {
		return ErrDone
	}
	if t.buf == nil {
		t.buf = btree.NewWithFreeListG[*item](32, itemLess, t.db.bufNodes)
	}
	size := int64(len(key) + len(value) + entryOverhead)
	if t.bytes+size > t.db.opts.MaxTxnBytes {
		return ErrTxnTooBig
	}
	// Key and value in one piece of memory, carved from the arena.
	mem := t.carve(len(key) + len(value))
	copy(mem, key)
	copy(mem[len(key):], value)
	it := t.newItem()
	*it = item{key: mem[:len(key):len(key)], del: del}
	if !del {
		it.value = mem[len(key):]
	}
	prev, had := t.buf.ReplaceOrInsert(it)
	if !had {
		prev = nil
	}
	if t.inStmt || len(t.savepoints) > 0 {
		t.undo = append(t.undo, undoRec{key: it.key, prev: prev})
	} else if prev != nil {
		// Nothing refers to the replaced entry any more.
		t.bytes -= prev.size()
	}
	t.bytes += size
	return nil
}

// Lock acquires a row lock on key (a primary-key or unique-key value).
func (t *Txn) Lock(key []byte, mode lock.Mode) error {
	if t.done {
		return ErrDone
	}
	ctx := t.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if err := t.db.locks.Acquire(ctx, t.id, key, mode, t.LockTimeout); err != nil {
		return err
	}
	t.locked = true
	return nil
}

// LockFresh is Lock that also reports whether the transaction held no lock
// on key before (see lock.Manager.AcquireFresh): only such a lock may be
// given back with Unlock.
func (t *Txn) LockFresh(key []byte, mode lock.Mode) (fresh bool, err error) {
	if t.done {
		return false, ErrDone
	}
	ctx := t.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	fresh, err = t.db.locks.AcquireFresh(ctx, t.id, key, mode, t.LockTimeout)
	if err != nil {
		return false, err
	}
	t.locked = true
	return fresh, nil
}

// Unlock gives back a lock LockFresh reported fresh in the current
// statement, before the transaction ends: a locking read that found the row
// not matching its condition does not keep it locked.
func (t *Txn) Unlock(key []byte) {
	if !t.done {
		t.forgetLockedRead(key)
		t.db.locks.Release(t.id, key)
	}
}

// Savepoint sets (or moves) a named savepoint.
func (t *Txn) Savepoint(name string) {
	t.removeSavepoint(name)
	t.savepoints = append(t.savepoints, savepoint{name: name, mark: len(t.undo), changes: t.changesLen()})
}

// RollbackToSavepoint undoes every write after the savepoint; the savepoint
// stays, later ones are removed (as in MySQL). Locks are kept.
func (t *Txn) RollbackToSavepoint(name string) error {
	for i := len(t.savepoints) - 1; i >= 0; i-- {
		if strings.EqualFold(t.savepoints[i].name, name) {
			t.rollbackTo(t.savepoints[i].mark)
			if t.bl != nil {
				t.bl.truncate(t.savepoints[i].changes)
			}
			t.savepoints = t.savepoints[:i+1]
			return nil
		}
	}
	return ErrNoSavepoint
}

// ReleaseSavepoint removes a savepoint (and all later ones).
func (t *Txn) ReleaseSavepoint(name string) error {
	for i := len(t.savepoints) - 1; i >= 0; i-- {
		if strings.EqualFold(t.savepoints[i].name, name) {
			t.savepoints = t.savepoints[:i]
			return nil
		}
	}
	return ErrNoSavepoint
}

func (t *Txn) removeSavepoint(name string) {
	for i := range t.savepoints {
		if strings.EqualFold(t.savepoints[i].name, name) {
			t.savepoints = append(t.savepoints[:i], t.savepoints[i+1:]...)
			return
		}
	}
}

func (t *Txn) rollbackTo(mark int) {
	if mark > len(t.undo) {
		mark = len(t.undo)
	}
	for i := len(t.undo) - 1; i >= mark; i-- {
		u := t.undo[i]
		if u.prev == nil {
			t.probe.key = u.key
			if it, ok := t.buf.Delete(&t.probe); ok {
				t.bytes -= int64(len(it.key) + len(it.value) + entryOverhead)
			}
			t.probe.key = nil
		} else {
			if it, ok := t.buf.ReplaceOrInsert(u.prev); ok {
				t.bytes -= int64(len(it.key) + len(it.value) + entryOverhead)
			}
		}
	}
	t.undo = t.undo[:mark]
	if t.bytes < 0 {
		t.bytes = 0
	}
}

// Commit applies the buffered writes atomically and durably, then releases
// the locks. A transaction without writes just releases its resources.
//
// The locks are released as soon as the writes are visible, while the WAL
// fsync of a durable commit is still running (kv.DB.CommitVisible), and
// Commit returns after the fsync: a hot row (TPC-C's warehouse) is then not
// held for an fsync per transaction, and nothing acknowledged can be lost —
// a transaction that read the writes commits behind them in the WAL.
func (t *Txn) Commit() error {
	if t.done {
		return ErrDone
	}
	var (
		err    error
		b      *kv.Batch
		ticket uint64
	)
	if t.buf != nil && t.buf.Len() > 0 {
		b = t.db.kv.NewBatchWithSize(int(t.bytes))
		t.buf.Ascend(func(it *item) bool {
			if it.del {
				err = b.Delete(it.key)
			} else {
				err = b.Set(it.key, it.value)
			}
			return err == nil
		})
		if err == nil {
			if t.bl != nil && t.bl.changes != nil {
				ticket, err = t.commitLogged(b)
			} else {
				err = t.db.kv.CommitVisible(b, t.db.sync)
			}
			if err != nil {
				// Not applied: nothing to wait for.
				_ = b.Close()
				b = nil
			}
		}
	}
	t.finish()
	if b != nil {
		if err == nil {
			err = b.SyncWait(t.db.sync)
		}
		_ = b.Close()
		if err == nil && ticket != 0 {
			err = t.db.binlog.Publish(ticket)
		}
	}
	if err != nil {
		err = fmt.Errorf("txn commit: %w", err)
	}
	return err
}

// Rollback discards the buffered writes and releases the locks.
func (t *Txn) Rollback() {
	if t.done {
		return
	}
	t.finish()
}

func (t *Txn) finish() {
	t.done = true
	if t.snap != nil {
		_ = t.snap.Close()
		t.snap = nil
	}
	if t.locked {
		t.db.locks.ReleaseAll(t.id)
	}
	if t.buf != nil {
		// The nodes go back to the DB's free list for the next
		// transaction; nothing reads the buffer after the end.
		t.buf.Clear(true)
		t.buf = nil
	}
	if t.bl != nil {
		t.bl.release(t.db.binlog)
		t.bl = nil
	}
	t.undo = nil
	t.savepoints = nil
	t.reads = nil
	t.readArena = nil
	t.wmem, t.witems = nil, nil
}

// Done reports whether the transaction has finished.
func (t *Txn) Done() bool { return t.done }

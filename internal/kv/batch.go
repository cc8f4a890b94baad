package kv

import (
	"github.com/cockroachdb/pebble/v2"
)

// Batch is a set of writes applied atomically by Commit: all of them or,
// after a crash before Commit returns, none. It is Pebble's batch under
// strata's narrower API (a defined type over pebble.Batch, so handing one out
// costs no allocation and no indirection). A Batch is not safe for
// concurrent use; it must be closed, committed or not.
type Batch pebble.Batch

// NewBatch returns an empty write batch.
func (db *DB) NewBatch() *Batch { return (*Batch)(db.pdb.NewBatch()) }

// NewBatchWithSize returns an empty write batch whose buffer is preallocated
// for about size bytes of keys and values (a transaction commit knows its
// size in advance).
func (db *DB) NewBatchWithSize(size int) *Batch {
	return (*Batch)(db.pdb.NewBatchWithSize(size))
}

func (b *Batch) pebble() *pebble.Batch { return (*pebble.Batch)(b) }

// Set adds a put of key to value. The batch copies both.
func (b *Batch) Set(key, value []byte) error {
	if err := b.pebble().Set(key, value, nil); err != nil {
		return opError("batch set", err)
	}
	return nil
}

// Delete adds a point deletion of key. The batch copies it.
func (b *Batch) Delete(key []byte) error {
	if err := b.pebble().Delete(key, nil); err != nil {
		return opError("batch delete", err)
	}
	return nil
}

// DeleteRange adds a range tombstone over [start, end): every key in the
// range disappears at once, and the space comes back through compaction.
func (b *Batch) DeleteRange(start, end []byte) error {
	if err := b.pebble().DeleteRange(start, end, nil); err != nil {
		return opError("batch delete range", err)
	}
	return nil
}

// Len returns the size of the batch's representation in bytes (its keys,
// values and per-entry overhead): what it holds in memory until committed.
func (b *Batch) Len() int { return b.pebble().Len() }

// Empty reports whether the batch holds no writes.
func (b *Batch) Empty() bool { return b.pebble().Empty() }

// Commit applies the batch atomically. With sync it returns only after the
// WAL is fsynced (Pebble's commit pipeline groups the fsyncs of concurrent
// committers); without, a kill -9 or power loss can lose the last commits
// (Pebble NoSync). The batch must still be closed.
func (b *Batch) Commit(sync bool) error {
	wo := pebble.NoSync
	if sync {
		wo = pebble.Sync
	}
	if err := b.pebble().Commit(wo); err != nil {
		return opError("batch commit", err)
	}
	return nil
}

// CommitVisible applies the batch and returns as soon as its writes are
// visible to readers; with sync the WAL fsync may still be running, and the
// caller must call SyncWait before it reports the commit durable (a crash
// before SyncWait returns may lose the batch). Without sync it is Commit.
// A transaction uses the gap to release its row locks during the fsync, as
// InnoDB releases them before its log flush: a later transaction that reads
// the writes and commits has its own WAL record behind this one, so it
// cannot become durable without it.
func (db *DB) CommitVisible(b *Batch, sync bool) error {
	if !sync {
		return b.Commit(false)
	}
	if err := db.pdb.ApplyNoSyncWait(b.pebble(), pebble.Sync); err != nil {
		return opError("batch commit", err)
	}
	return nil
}

// SyncWait waits for the WAL fsync of a batch committed by CommitVisible
// with sync (it returns at once otherwise).
func (b *Batch) SyncWait(sync bool) error {
	if !sync {
		return nil
	}
	if err := b.pebble().SyncWait(); err != nil {
		return opError("batch commit sync", err)
	}
	return nil
}

// Close releases the batch; uncommitted writes are discarded.
func (b *Batch) Close() error {
	if err := b.pebble().Close(); err != nil {
		return opError("batch close", err)
	}
	return nil
}

package txn

import (
	"context"
	"github.com/google/btree"
	"sync/atomic"
	"time"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/txn/lock"
)

// Options configure a DB. Zero values take the documented defaults.
type Options struct {
	// MaxTxnBytes bounds the write buffer of one transaction (keys + values +
	// per-entry overhead). Default 256 MiB: large enough for bulk INSERTs of
	// hundreds of thousands of rows, small enough that a handful of concurrent
	// big transactions cannot exhaust a small VM.
	MaxTxnBytes int64
	// MaxLocks bounds the row-lock table across all transactions. Default 4M
	// entries (~0.5 GiB worst case).
	MaxLocks int
	// NoSync commits without fsync (Pebble NoSync): a kill -9 or power loss can
	// lose the last commits. Default false: every commit is durable when
	// acknowledged; Pebble's commit pipeline groups concurrent fsyncs.
	NoSync bool
}

// DB is the transactional store.
type DB struct {
	kv     *kv.DB
	locks  *lock.Manager
	opts   Options
	nextID atomic.Uint64
	// sync is !Options.NoSync: commits wait for the WAL fsync.
	sync bool
	// flusher flushes the memtable when iterators skip many versions.
	flusher versionFlusher
	// bufNodes recycles the nodes of finished transactions' write buffers
	// (safe for concurrent use).
	bufNodes *btree.FreeListG[*item]
	// binlog is the binary log, nil when off (binlog.go).
	binlog Binlog
}

// bufNodeCache bounds the write-buffer nodes kept for reuse (each holds up
// to 63 entries; an OLTP transaction uses one or two).
const bufNodeCache = 1024

// New wraps an open store.
func New(store *kv.DB, opts Options) *DB {
	if opts.MaxTxnBytes <= 0 {
		opts.MaxTxnBytes = 256 << 20
	}
	if opts.MaxLocks <= 0 {
		opts.MaxLocks = 4 << 20
	}
	return &DB{
		kv:    store,
		locks: lock.NewManager(lock.Options{MaxLocks: opts.MaxLocks}),
		opts:  opts,
		sync:  !opts.NoSync,

		bufNodes: btree.NewFreeListG[*item](bufNodeCache),
	}
}

// KV returns the underlying store (for metrics and backups).
func (db *DB) KV() *kv.DB { return db.kv }

// Locks returns the lock manager (for statistics).
func (db *DB) Locks() *lock.Manager { return db.locks }

// Begin starts a transaction.
func (db *DB) Begin(ctx context.Context, iso Isolation, lockTimeout time.Duration) *Txn {
	id := db.nextID.Add(1)
	t := &Txn{
		db:          db,
		id:          lock.TxnID(id),
		iso:         iso,
		ctx:         ctx,
		LockTimeout: lockTimeout,
		sampleIn:    firstSample(id),
	}
	return t
}

// Batch is a write batch applied outside any transaction by ApplyBatch: all
// of its writes or none.
type Batch = kv.Batch

// NewBatch returns an empty batch for ApplyBatch.
func (db *DB) NewBatch() *Batch { return db.kv.NewBatch() }

// ApplyBatch commits a batch outside any transaction (used by DDL, which holds
// the schema lock, and by bulk back-fills), as durably as a transaction
// commit (see Options.NoSync). The caller still closes the batch.
func (db *DB) ApplyBatch(b *Batch) error {
	return b.Commit(db.sync)
}

// Isolation is a transaction isolation level.
type Isolation uint8

// Isolation levels. READ UNCOMMITTED behaves as READ COMMITTED and
// SERIALIZABLE as REPEATABLE READ (documented in docs/).
const (
	RepeatableRead Isolation = iota
	ReadCommitted
)

package kv

import (
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// Options configures Open.
type Options struct {
	// Dir is the database directory; Open creates it if missing.
	Dir string
	// FS is the filesystem; nil means vfs.Default. Tests pass
	// vfs.NewCrashableMem() or an errorfs wrapper.
	FS vfs.FS
	// MemoryBudget is the bytes the whole process may use; the block cache
	// and memtables are sized from it. 0 means MemoryLimit().
	MemoryBudget int64
	// Logger receives Pebble's log lines; nil logs text to stderr. Fatalf is
	// always turned into a logged line plus a *FatalError panic.
	Logger Logger
	// ReadOnly opens the database without allowing writes or compactions.
	ReadOnly bool
	// RecordReads keeps a bounded sample of recent reads (Recorder) and
	// saves it to <Dir>/warmup every SaveReadsEvery and at Close, for
	// Warmup after the next start. Default off.
	RecordReads bool
	// SaveReadsEvery is the period of those saves; 0 means
	// DefaultSaveReadsEvery, negative only at Close.
	SaveReadsEvery time.Duration
}

// DB is an open Pebble database tuned by PebbleOptions.
type DB struct {
	pdb  *pebble.DB
	opts *pebble.Options
	dir  string
	fs   vfs.FS
	// blockCache is the block share of the cache (warmup's default budget).
	blockCache int64
	// rec samples reads for warm restarts (nil unless Options.RecordReads);
	// bg is the background work Close stops (record.go).
	rec *Recorder
	bg  background
}

// Open opens (creating if needed) the database in opts.Dir.
func Open(opts Options) (*DB, error) {
	if opts.Dir == "" {
		return nil, fmt.Errorf("kv: open: empty directory")
	}
	po := PebbleOptions(opts.MemoryBudget, opts.FS, opts.Logger)
	po.ReadOnly = opts.ReadOnly
	if !opts.ReadOnly {
		if err := po.FS.MkdirAll(opts.Dir, 0o755); err != nil {
			return nil, fmt.Errorf("kv: create directory %s: %w", opts.Dir, err)
		}
	}
	pdb, err := pebble.Open(opts.Dir, po)
	if err != nil {
		if le := lockedError(opts.Dir, po.FS, err); le != nil {
			return nil, le
		}
		return nil, fmt.Errorf("kv: open %s: %w", opts.Dir, err)
	}
	budget := opts.MemoryBudget
	if budget <= 0 {
		budget = MemoryLimit()
	}
	db := &DB{pdb: pdb, opts: po, dir: opts.Dir, fs: po.FS, blockCache: blockCacheSize(budget)}
	if o, ok := po.FS.(*osFS); ok {
		l0 := func() int { return int(pdb.Metrics().Levels[0].Sublevels) }
		o.p.l0.Store(&l0)
	}
	db.startRecording(opts)
	return db, nil
}

// Pebble returns the underlying Pebble database, for tests and diagnostic
// tools. Strata's layers go through DB's own methods (NewBatch, NewIter,
// NewSnapshot, Get) so that only this package depends on Pebble.
func (db *DB) Pebble() *pebble.DB { return db.pdb }

// Dir returns the database directory.
func (db *DB) Dir() string { return db.dir }

// Close closes the database; committed writes are already durable in the
// WAL. It stops a running Warmup and saves the recorded reads first. The
// DB must not be used afterwards.
func (db *DB) Close() error {
	db.stopRecording()
	if err := db.pdb.Close(); err != nil {
		return fmt.Errorf("kv: close %s: %w", db.dir, err)
	}
	return nil
}

// Metrics returns Pebble's current metrics: per-level sizes and write
// amplification (Total().WriteAmp()), compaction debt, block-cache hits and
// misses.
func (db *DB) Metrics() *pebble.Metrics { return db.pdb.Metrics() }

// AsyncFlush starts flushing the memtable to an sstable; the channel is
// closed when the flush is done.
func (db *DB) AsyncFlush() (<-chan struct{}, error) {
	done, err := db.pdb.AsyncFlush()
	if err != nil {
		return nil, fmt.Errorf("kv: flush %s: %w", db.dir, err)
	}
	return done, nil
}

// DiskUsage returns the bytes the database occupies on disk (sstables, blob
// files, WAL, MANIFEST, obsolete files not yet deleted).
func (db *DB) DiskUsage() uint64 { return db.pdb.Metrics().DiskSpaceUsage() }

// opError wraps err, the failure of operation op ("batch commit"), as
// "kv: op: err". It is kept out of line so that the small methods calling it
// on their error path stay small.
//
//go:noinline
func opError(op string, err error) error {
	return fmt.Errorf("kv: %s: %w", op, err)
}

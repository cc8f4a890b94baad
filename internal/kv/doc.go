// Package kv is strata's storage layer: a Pebble database opened with options
// tuned to the machine it runs on.
//
// # Basics
//
// Open creates (or reopens) a database directory and returns a *DB wrapping
// the *pebble.DB. This is the only package of strata that imports Pebble
// (tests aside): the layers above read and write through its small API —
// Batch (atomic writes, committed with or without fsync), Snapshot (a
// consistent read view), Iterator (bounded scans over either) and Get — and
// the package owns what must be decided once for the whole process: the
// Pebble options (PebbleOptions is the single place where tuning lives), the
// memory budget (MemoryLimit), logging, and metrics.
//
// For warm restarts it also keeps, with Options.RecordReads, a bounded
// sample of recent reads (Recorder, fed by the txn layer through NotePoint
// and NoteScan) saved to <dir>/warmup, and Warmup replays it into the
// block cache after a start within byte, time and rate budgets
// (warmup.go explains what is loaded and why).
//
// For operations it reports the LSM tree's shape (lsm.go: EngineStats,
// TableFiles) and makes online consistent copies of the open store
// (Checkpoint), which internal/backup turns into backups.
//
// Batch, Snapshot and Iterator are defined types over Pebble's own, so
// converting costs nothing: no allocation per batch or iterator and no
// interface dispatch per key. Errors are wrapped with the operation that
// failed ("kv: batch commit: ...").
//
// # Caveats
//
//   - Pebble reports unrecoverable WAL and MANIFEST write errors through
//     Logger.Fatalf, whose default implementation calls os.Exit. The logger
//     installed by this package logs the line and then panics with a
//     *FatalError instead, so a caller (or a fault-injection test) can
//     recover. After such a panic the database must not be used again.
//   - Pebble skips bloom filters on L6, where most data lives, unless the
//     iterator opts in: point and prefix reads should build their iterators
//     from PointIterOptions.
//   - Memtables are charged to the block cache; PebbleOptions keeps the cache
//     larger than the memtables can ever grow.
package kv

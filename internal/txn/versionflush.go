package txn

import (
	"sync/atomic"
	"time"

	"github.com/strata-db/strata/internal/kv"
)

// Read-triggered memtable flushes.
//
// Every committed write is a new internal version of its key in Pebble's
// memtable, and a deleted row leaves a tombstone there. Pebble's iterator
// steps over every one of them (it has no RocksDB-style reseek after a few
// skipped versions), so a range scan over rows that a hot-spot workload has
// updated thousands of times walks thousands of internal entries per
// visible row until the memtable is flushed — and a flush writes only the
// newest version of each key. Measured with sysbench: after the write
// scripts had updated sysbench's hot 1 % of rows for a minute, oltp_read_only
// fell from ~1,100 to ~50 transactions/s with a 64 MiB memtable, 98 % of the
// CPU in the memtable skiplist's Next.
//
// So iterators report how many internal entries they skipped; once skipping
// adds up, the DB asks Pebble to flush the memtable (at most one flush in
// flight and one per flushMinInterval, and only if the memtable holds at
// least flushMinMemtable bytes, so versions that live in sstables, which a
// flush cannot remove, do not cause a stream of tiny flushes).
const (
	// skipReportMin: an iterator reports skipped entries only above this
	// many and above skipReportRatio × its visible steps.
	skipReportMin   = 1024
	skipReportRatio = 8
	// skipFlushThreshold: skipped entries, summed over iterators since the
	// last flush request, that trigger one.
	skipFlushThreshold = 256 << 10
	flushMinInterval   = time.Second
	flushMinMemtable   = 4 << 20
)

// versionFlusher accumulates skipped entries and requests flushes.
type versionFlusher struct {
	skipped  atomic.Int64
	inFlight atomic.Bool
	last     atomic.Int64 // unix nanos of the last flush request
	flushes  atomic.Int64 // flushes requested (statistics, tests)
}

// noteIterator records the work of a closing iterator.
func (db *DB) noteIterator(s kv.StepStats) {
	visible := s.Visible
	skipped := s.Internal - visible
	if skipped < skipReportMin || skipped < skipReportRatio*visible {
		return
	}
	f := &db.flusher
	if f.skipped.Add(int64(skipped)) < skipFlushThreshold {
		return
	}
	now := time.Now().UnixNano()
	if now-f.last.Load() < int64(flushMinInterval) || !f.inFlight.CompareAndSwap(false, true) {
		return
	}
	f.skipped.Store(0)
	f.last.Store(now)
	go db.flushMemtable()
}

// flushMemtable flushes the memtable if it is large enough to matter.
func (db *DB) flushMemtable() {
	f := &db.flusher
	defer f.inFlight.Store(false)
	defer func() {
		// The DB may be closing; a flush request then is moot.
		_ = recover()
	}()
	if db.kv.Metrics().MemTable.Size < flushMinMemtable {
		return
	}
	done, err := db.kv.AsyncFlush()
	if err != nil {
		return
	}
	f.flushes.Add(1)
	<-done
}

// ReadTriggeredFlushes returns how many memtable flushes iterators have
// requested because they skipped many versions.
func (db *DB) ReadTriggeredFlushes() int64 { return db.flusher.flushes.Load() }

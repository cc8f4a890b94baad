package kv

import "github.com/cockroachdb/pebble/v2"

// Stats are the storage engine's cumulative counters and current sizes, as
// the server reports them in SHOW STATUS (MyRocks reports the same kind of
// figures as rocksdb_* status variables).
type Stats struct {
	// Flushes and Compactions count completed memtable flushes and
	// compactions since the store opened.
	Flushes, Compactions int64
	// BytesFlushed and BytesCompacted are the sstable bytes they wrote.
	BytesFlushed, BytesCompacted uint64
	// BlockCacheHits and BlockCacheMisses count block-cache lookups.
	BlockCacheHits, BlockCacheMisses int64
	// MemTableBytes is the memory the memtables hold now; L0Files the
	// sstables in level 0 (read amplification grows with them).
	MemTableBytes uint64
	L0Files       int64
}

// Stats returns the store's counters.
func (db *DB) Stats() Stats { return statsOf(db.pdb.Metrics()) }

// statsOf extracts Stats from Pebble's metrics.
func statsOf(m *pebble.Metrics) Stats {
	s := Stats{
		Flushes:          m.Flush.Count,
		Compactions:      m.Compact.Count,
		BlockCacheHits:   m.BlockCache.Hits,
		BlockCacheMisses: m.BlockCache.Misses,
		MemTableBytes:    m.MemTable.Size,
		L0Files:          m.Levels[0].TablesCount,
	}
	for i := range m.Levels {
		s.BytesFlushed += m.Levels[i].TableBytesFlushed
		s.BytesCompacted += m.Levels[i].TableBytesCompacted
	}
	return s
}

package kv

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	dto "github.com/prometheus/client_model/go"
)

// The shape of the LSM tree, for the observability surfaces above (the
// /metrics endpoint, SHOW ENGINE STRATA STATUS, information_schema's
// STRATA_LSM_LEVELS and STRATA_SST_FILES). Everything here is read from
// Pebble's metrics and version when asked; nothing is counted on a hot path.

// NumLevels is the number of LSM levels (L0 … L6).
const NumLevels = 7

// LevelStats describes one level of the LSM tree.
type LevelStats struct {
	// Level is 0 … NumLevels-1.
	Level int
	// Sublevels is L0's read amplification (0 on other levels when empty,
	// else 1).
	Sublevels int32
	// Files and Size are the level's table files and their bytes.
	Files, Size int64
	// Score is the compaction picker's score: above 1 the level is due
	// for compaction.
	Score float64
	// BytesIn are the bytes added to the level (flushed or compacted from
	// above); BytesIngested, BytesMoved, BytesRead, BytesCompacted and
	// BytesFlushed are cumulative since the store opened.
	BytesIn, BytesIngested, BytesMoved, BytesRead, BytesCompacted, BytesFlushed uint64
	// TablesCompacted, TablesFlushed and TablesIngested count the files
	// written into the level by each kind of work.
	TablesCompacted, TablesFlushed, TablesIngested uint64
	// WriteAmp is the level's (bytes flushed + compacted) / bytes in.
	WriteAmp float64
}

// EngineStats is the whole store's figures beside the levels.
type EngineStats struct {
	Stats
	// Levels are L0 … L6.
	Levels [NumLevels]LevelStats
	// CompactionDebt is the estimated bytes compactions must still rewrite
	// to bring every level under its target (Pebble's EstimatedDebt).
	CompactionDebt uint64
	// CompactionsInProgress and CompactionBytesInProgress are the running
	// compactions; FlushesInProgress the running flushes.
	CompactionsInProgress, CompactionBytesInProgress, FlushesInProgress int64
	// CompactionSeconds is the time spent in compactions since the store
	// opened.
	CompactionSeconds float64
	// WriteAmp is the whole store's write amplification: bytes written to
	// the WAL and to table files per byte written to the WAL or ingested.
	WriteAmp float64
	// ReadAmp is the number of sublevels and levels a point read may visit.
	ReadAmp int
	// BlockCacheBytes and BlockCacheBlocks are what the block cache holds.
	BlockCacheBytes, BlockCacheBlocks int64
	// MemTables is the number of memtables (the mutable one and those
	// waiting to be flushed).
	MemTables int64
	// DiskUsage is the bytes the store occupies on disk.
	DiskUsage uint64
	// WALFiles and WALBytes are the live write-ahead-log files and their
	// logical size; WALBytesWritten the bytes written to the WAL since open.
	WALFiles                  int64
	WALBytes, WALBytesWritten uint64
	// WALSyncs and WALSyncSeconds count the WAL fsyncs since open and the
	// time they took; one fsync may make many commits durable (group commit).
	WALSyncs       uint64
	WALSyncSeconds float64
	// Snapshots is the number of open snapshots (transactions' read views).
	Snapshots int
	// TableIterators is the number of open table-file iterators.
	TableIterators int64
}

// EngineStats returns the store's current figures.
func (db *DB) EngineStats() EngineStats {
	m := db.pdb.Metrics()
	st := EngineStats{
		Stats:                     statsOf(m),
		CompactionDebt:            m.Compact.EstimatedDebt,
		CompactionsInProgress:     m.Compact.NumInProgress,
		CompactionBytesInProgress: m.Compact.InProgressBytes,
		FlushesInProgress:         m.Flush.NumInProgress,
		CompactionSeconds:         m.Compact.Duration.Seconds(),
		ReadAmp:                   m.ReadAmp(),
		BlockCacheBytes:           m.BlockCache.Size,
		BlockCacheBlocks:          m.BlockCache.Count,
		MemTables:                 m.MemTable.Count,
		DiskUsage:                 m.DiskSpaceUsage(),
		WALFiles:                  m.WAL.Files,
		WALBytes:                  m.WAL.Size,
		WALBytesWritten:           m.WAL.BytesWritten,
		Snapshots:                 m.Snapshots.Count,
		TableIterators:            m.TableIters,
	}
	total := m.Total()
	st.WriteAmp = total.WriteAmp()
	for i := range m.Levels {
		l := &m.Levels[i]
		st.Levels[i] = LevelStats{
			Level: i, Sublevels: l.Sublevels, Files: l.TablesCount, Size: l.TablesSize, Score: l.Score,
			BytesIn: l.TableBytesIn, BytesIngested: l.TableBytesIngested, BytesMoved: l.TableBytesMoved,
			BytesRead: l.TableBytesRead, BytesCompacted: l.TableBytesCompacted, BytesFlushed: l.TableBytesFlushed,
			TablesCompacted: l.TablesCompacted, TablesFlushed: l.TablesFlushed, TablesIngested: l.TablesIngested,
			WriteAmp: l.WriteAmp(),
		}
	}
	if h := m.LogWriter.FsyncLatency; h != nil {
		// Pebble's histogram observes nanoseconds.
		var pm dto.Metric
		if err := h.Write(&pm); err == nil && pm.Histogram != nil {
			st.WALSyncs = pm.Histogram.GetSampleCount()
			st.WALSyncSeconds = pm.Histogram.GetSampleSum() / 1e9
		}
	}
	return st
}

// TableFile describes one table file (sstable) of the LSM tree.
type TableFile struct {
	// Level is the level the file is in; FileNum its number (the file is
	// <FileNum>.sst in the data directory, zero-padded to six digits).
	Level   int
	FileNum uint64
	// Size is the file's size in bytes.
	Size uint64
	// Smallest and Largest are the smallest and largest user keys.
	Smallest, Largest []byte
	// SmallestSeq and LargestSeq are the sequence numbers of its oldest and
	// newest entries.
	SmallestSeq, LargestSeq uint64
	// Entries and Deletions are the file's entry and deletion counts;
	// RawKeyBytes and RawValueBytes the uncompressed sizes.
	Entries, Deletions         uint64
	RawKeyBytes, RawValueBytes uint64
	// Virtual is true for a virtual file (part of a shared backing file).
	Virtual bool
}

// TableFiles lists the table files of the current version, level by level.
// Files are read from the current version: concurrent flushes and
// compactions may change the list the moment after.
func (db *DB) TableFiles() ([]TableFile, error) {
	levels, err := db.pdb.SSTables(pebble.WithProperties())
	if err != nil {
		return nil, fmt.Errorf("kv: list table files: %w", err)
	}
	var out []TableFile
	for lvl, files := range levels {
		for i := range files {
			f := &files[i]
			tf := TableFile{
				Level: lvl, FileNum: uint64(f.FileNum), Size: f.Size,
				Smallest: f.Smallest.UserKey, Largest: f.Largest.UserKey,
				SmallestSeq: uint64(f.SmallestSeqNum), LargestSeq: uint64(f.LargestSeqNum),
				Virtual: f.Virtual,
			}
			if p := f.Properties; p != nil {
				tf.Entries, tf.Deletions = p.NumEntries, p.NumDeletions
				tf.RawKeyBytes, tf.RawValueBytes = p.RawKeySize, p.RawValueSize
			}
			out = append(out, tf)
		}
	}
	return out, nil
}

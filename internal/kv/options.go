package kv

import (
	"runtime"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
)

const (
	kib = int64(1) << 10
	mib = int64(1) << 20
	gib = int64(1) << 30

	// minBlockCache is the smallest block share of the cache.
	minBlockCache = 16 * mib
	// minMemTableSize and maxMemTableSize bound the memtable size.
	minMemTableSize = 4 * mib
	maxMemTableSize = 64 * mib
	// memTableStopWritesThreshold is the number of queued memtables at which
	// writes stop (Pebble default: 2).
	memTableStopWritesThreshold = 3
	// bloomBitsPerKey gives a ~1% false-positive rate.
	bloomBitsPerKey = 10
)

// FormatMajorVersion is the on-disk format strata pins. Pebble's default is
// FormatMinSupported, which would silently leave newer features (columnar
// blocks, value separation, newer table formats) off; pinning it also means
// an upgrade of the Pebble module never ratchets the format by accident.
const FormatMajorVersion = pebble.FormatValueSeparation

// PebbleOptions returns the Pebble options strata runs with, sized for a
// process allowed to use budget bytes (0 or less = MemoryLimit()) on this
// machine's CPUs. fs nil means vfs.Default (as osFS: WAL files
// preallocated with their size, background writes paced); logger nil means the stderr slog
// logger, and any logger is wrapped so that Fatalf panics (*FatalError)
// instead of exiting. This function is the one place where Pebble is tuned.
func PebbleOptions(budget int64, fs vfs.FS, logger Logger) *pebble.Options {
	if budget <= 0 {
		budget = MemoryLimit()
	}
	if fs == nil {
		fs = newOSFS()
	}
	logger = guardLogger(logger)
	memTableSize := memTableSizeFor(budget)
	cacheSize := blockCacheSize(budget) + 2*memTableSize
	ncpu := runtime.GOMAXPROCS(0)

	o := &pebble.Options{
		FS:     fs,
		Logger: logger,
		// Default: nil (Pebble logs events at info level, including every
		// flush and compaction). Ours logs only what an operator acts on.
		EventListener: eventListener(logger),

		// Default: FormatMinSupported. See FormatMajorVersion.
		FormatMajorVersion: FormatMajorVersion,

		// Default: 8 MiB. A quarter of the memory budget for blocks (at least
		// 16 MiB) plus room for two memtables, which Pebble charges to this
		// cache (the mutable one and one being flushed): the rest is left to
		// the OS page cache, SQL sessions, sort buffers and the lock table.
		CacheSize: cacheSize,

		// Default: 4 MiB. An eighth of the budget, 4–64 MiB. Larger memtables
		// absorb more overwrites before a flush and produce fewer, larger L0
		// files, so every flushed byte is rewritten fewer times on its way
		// down the LSM. Measured with oltp_update_index on 1M rows: 8 MiB
		// memtables (the earlier 1/16-of-the-cache sizing at a 512 MiB
		// budget) wrote several times more compaction bytes per transaction
		// than 64 MiB ones; MyRocks' default write buffer is 64 MiB too.
		MemTableSize: uint64(memTableSize),
		// Default: 2. Two queued memtables stall writers whenever one flush
		// is slow (shared or slow disk); three give a flush room to catch up
		// while the worst case (four memtables, half the budget) stays
		// bounded.
		MemTableStopWritesThreshold: memTableStopWritesThreshold,

		// Default: 4. Compact L0 as soon as two sublevels exist: reads on a
		// 2-core machine pay for every L0 sublevel, and small early
		// compactions keep L0 from building a backlog (CockroachDB uses 2).
		L0CompactionThreshold: 2,
		// Default: 12. Stopping writes is the worst outcome for latency; with
		// no admission control in front of Pebble, allow a deeper L0 before
		// stalling while compactions catch up.
		L0StopWritesThreshold: 20,
		// Default: 64 MiB. Keep Lbase a few memtables large so one L0→Lbase
		// compaction does not immediately cascade into Lbase→Lbase+1.
		LBaseMaxBytes: max(64*mib, 4*memTableSize),

		// Default: 1000. More open sstables avoid reopen churn for databases
		// of a few hundred GiB; Go raises the soft RLIMIT_NOFILE to the hard
		// limit at startup, which is far above this on Linux.
		MaxOpenFiles: 4096,

		// Default: 512 KiB (sstables). Stated here because the WAL value
		// below matches it.
		BytesPerSync: int(512 * kib),
		// Default: 0 (never sync the WAL in the background). Durable commits
		// fsync anyway; for relaxed (NoSync) commits this bounds how much
		// dirty WAL the OS may hold and smooths write-back bursts.
		WALBytesPerSync: int(512 * kib),

		// Default: (1, 1). Compactions are CPU-bound (zstd); allow up to half
		// the CPUs (at least 2, at most 8) when Pebble sees compaction debt or
		// L0 read amplification, leaving the other half to SQL.
		CompactionConcurrencyRange: func() (int, int) {
			return 1, min(max(2, ncpu/2), 8)
		},
	}

	// Default: 2 MiB for L0, doubling per level (L6 = 128 MiB). Start at
	// 4 MiB so a 64 MiB memtable flushes into a handful of files, and cap at
	// 128 MiB so single compactions and delete-only compactions stay small.
	size := 4 * mib
	for i := range o.TargetFileSizes {
		o.TargetFileSizes[i] = size
		size = min(2*size, 128*mib)
	}

	for i := range o.Levels {
		l := &o.Levels[i]
		l.Compression = levelCompression(i, len(o.Levels))
		// Default: no filter. 10 bits/key bloom filters (~1 % false
		// positives) on every level, so point reads and unique checks of
		// absent keys skip sstables. L6 filters are only read when the
		// iterator opts in (PointIterOptions).
		l.FilterPolicy = bloom.FilterPolicy(bloomBitsPerKey)
		l.FilterType = pebble.TableFilter
	}
	return o
}

// levelCompression is the block compression of LSM level i of levels
// (default: snappy everywhere). The bottom level holds about 90 % of the
// data and L5 most of the rest, so they are compressed with zstd level 1
// (Pebble's "Balanced" profile; MyRocks deployments use zstd for the
// bottommost level the same way): zstd measured ~10 % smaller than snappy,
// and space is what users pick strata for. Level 1, not 3: a small
// database has no level between L0 and L6, so every L0 compaction rewrites
// the L6 files it overlaps, and zstd-3 compression took 5 % of TPC-C's
// server CPU (zstd-1: 1.4 %) for tables 3–7 % smaller. The upper levels are
// rewritten by every flush and most compactions but hold little; MinLZ
// (Snappy's faster successor) keeps them off the write path's CPU.
func levelCompression(i, levels int) func() *sstable.CompressionProfile {
	p := sstable.FastestCompression
	switch i {
	case levels - 1, levels - 2:
		p = sstable.BalancedCompression
	}
	return func() *sstable.CompressionProfile { return p }
}

// blockCacheSize is the block share of the cache: a quarter of the budget, at
// least minBlockCache.
func blockCacheSize(budget int64) int64 {
	return max(budget/4, minBlockCache)
}

// memTableSizeFor is an eighth of the budget clamped to [4 MiB, 64 MiB]
// (64 MiB from a 512 MiB budget upwards).
func memTableSizeFor(budget int64) int64 {
	return min(max(budget/8, minMemTableSize), maxMemTableSize)
}

// PointIterOptions returns iterator options for point and prefix reads
// (SeekPrefixGE, unique checks, primary-key lookups) within [lower, upper):
// they opt into L6 bloom filters, which Pebble otherwise skips although most
// data lives in L6. Use plain options for long range scans, where filters
// cannot help.
func PointIterOptions(lower, upper []byte) pebble.IterOptions {
	return pebble.IterOptions{LowerBound: lower, UpperBound: upper, UseL6Filters: true}
}

package kv

import (
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
)

func TestPebbleOptionsSanity(t *testing.T) {
	for _, budget := range []int64{0, 128 * mib, 512 * mib, 1 * gib, 2 * gib, 4 * gib, 16 * gib, 256 * gib} {
		o := PebbleOptions(budget, vfs.NewMem(), nil)
		o.EnsureDefaults() // as pebble.Open does; must not override our values
		if err := o.Validate(); err != nil {
			t.Errorf("budget %d: invalid options: %v", budget, err)
		}
		if o.FormatMajorVersion != pebble.FormatValueSeparation {
			t.Errorf("budget %d: FormatMajorVersion = %d", budget, o.FormatMajorVersion)
		}
		// Memtables are charged to the block cache: two of them (mutable +
		// flushing) on top of the block share.
		mt := int64(o.MemTableSize)
		blocks := o.CacheSize - 2*mt
		if blocks < minBlockCache {
			t.Errorf("budget %d: block share %d below minimum", budget, blocks)
		}
		if budget >= 4*minBlockCache && blocks != budget/4 {
			t.Errorf("budget %d: block share %d, want a quarter of the budget", budget, blocks)
		}
		if o.MemTableStopWritesThreshold < 2 {
			t.Errorf("budget %d: MemTableStopWritesThreshold %d < 2 stalls on every flush", budget, o.MemTableStopWritesThreshold)
		}
		if budget >= 512*mib && mt != 64*mib {
			t.Errorf("budget %d: MemTableSize = %d, want 64 MiB", budget, mt)
		}
		if budget > 0 && budget <= 256*mib && mt > 32*mib {
			t.Errorf("budget %d: MemTableSize = %d too large for a small budget", budget, mt)
		}
		// Worst case: the block share plus every queued memtable stays within
		// three quarters of the budget.
		if worst := blocks + mt*int64(o.MemTableStopWritesThreshold+1); budget >= 128*mib && worst > 3*budget/4 {
			t.Errorf("budget %d: blocks + memtables up to %d, over 3/4 of the budget", budget, worst)
		}
		if o.L0CompactionThreshold >= o.L0StopWritesThreshold {
			t.Errorf("budget %d: L0 compaction threshold %d ≥ stop threshold %d",
				budget, o.L0CompactionThreshold, o.L0StopWritesThreshold)
		}
		lo, hi := o.CompactionConcurrencyRange()
		if lo < 1 || hi < lo || hi < 2 {
			t.Errorf("budget %d: compaction concurrency [%d, %d]", budget, lo, hi)
		}
		for i, l := range o.Levels {
			// zstd where the data lives (the bottom two levels), a fast
			// codec where flushes and most compactions write.
			want := sstable.FastestCompression
			if i >= len(o.Levels)-2 {
				want = sstable.BalancedCompression
			}
			if l.Compression == nil || l.Compression() != want {
				t.Errorf("level %d: compression is not %s", i, want.Name)
			}
			if l.FilterPolicy != bloom.FilterPolicy(10) || l.FilterType != pebble.TableFilter {
				t.Errorf("level %d: filter %v/%v, want 10-bit bloom table filter", i, l.FilterPolicy, l.FilterType)
			}
		}
		for i := 1; i < len(o.TargetFileSizes); i++ {
			if o.TargetFileSizes[i] < o.TargetFileSizes[i-1] {
				t.Errorf("TargetFileSizes decrease at L%d: %v", i, o.TargetFileSizes)
			}
		}
		if o.WALBytesPerSync <= 0 || o.Logger == nil || o.EventListener == nil {
			t.Errorf("budget %d: WALBytesPerSync/Logger/EventListener unset", budget)
		}
	}
}

func TestPointIterOptions(t *testing.T) {
	o := PointIterOptions([]byte("a"), []byte("b"))
	if !o.UseL6Filters || string(o.LowerBound) != "a" || string(o.UpperBound) != "b" {
		t.Errorf("PointIterOptions = %+v", o)
	}
}

package kv

import (
	"bytes"
	"slices"
	"sync"
	"sync/atomic"
)

// Read recording for warm restarts (InnoDB's buffer-pool dump).
//
// Pebble's block cache does not expose what it holds, so strata records
// what was read instead: the layer above (txn) passes one read in
// ReadSampleEvery to NoteRead or NoteScan, which copy the key (or a scan's
// bounds, direction and row count) into a fixed ring of slots. Memory is
// the ring's, allocated once; a sampled read costs one mutex and a copy of
// at most sampleKeyBytes bytes, an unsampled one nothing here. Replaying
// those reads after a restart (Warmup) loads the same blocks a second time:
// a point read's index partition and data block, a scan's run of data
// blocks. What every read of a table file needs whatever its key — the top
// index block and, above the bottom level, the bloom filter — is not
// recorded but loaded for every file (see warmup.go).
//
// The ring holds the most recent samples; Hot aggregates them (the number
// of samples of the same read is its hotness) and appends the reads of
// the previous save (the file, read back at each save and held only
// then) not sampled again, up to keepFactor times the ring's size. So the
// saved list accumulates the working set across saves — a ring covers
// only the last slots×ReadSampleEvery reads —, a restart shortly after a
// restart keeps the hot set, and reads not repeated move to the tail and
// drop off.

// ReadSampleEvery is the sampling interval of reads: the txn layer passes
// one read in this many to NoteRead/NoteScan.
const ReadSampleEvery = 8

// sampleKeyBytes bounds the key bytes a slot holds: a point read's key, or
// a scan's lower and upper bounds together. Longer keys are truncated (a
// truncated lower bound or point key still seeks to the right region; a
// truncated upper bound is widened to the end of its prefix).
const sampleKeyBytes = 64

// Recorder slot counts: Options.RecordReads sizes the ring from the block
// cache (one slot per 8 KiB of it, a few blocks), within these bounds: at
// most 5 MiB of 80-byte slots (1 % of a 512 MiB block cache), and
// keepFactor times as many saved reads.
const (
	minRecorderSlots = 1024
	maxRecorderSlots = 65536
	keepFactor       = 4
)

// ReadKind is the kind of a recorded read.
type ReadKind uint8

// Kinds of recorded reads.
const (
	// ReadPoint is a point read of Lower.
	ReadPoint ReadKind = iota + 1
	// ReadForward is a scan from Lower upwards (below Upper, if set).
	ReadForward
	// ReadReverse is a scan from below Upper downwards (to Lower, if set).
	ReadReverse
)

// HotRead is a recorded read.
type HotRead struct {
	Kind ReadKind
	// Lower is the point key or the scan's inclusive lower bound (nil: none);
	// Upper is the scan's exclusive upper bound (nil: none).
	Lower, Upper []byte
	// Rows is the number of keys the scan visited (1 for a point read).
	Rows uint32
	// Hits is how many samples recorded this read: its hotness.
	Hits uint32
}

// sample is one ring slot: kind 0 means empty. The key bytes are
// key[:loLen] (point key or lower bound) and key[loLen:loLen+hiLen].
type sample struct {
	kind         ReadKind
	hasLo, hasHi bool
	loTruncated  bool
	hiTruncated  bool
	loLen, hiLen uint8
	rows         uint32
	key          [sampleKeyBytes]byte
}

// Recorder keeps a bounded sample of recent reads. It is safe for
// concurrent use.
type Recorder struct {
	mu struct {
		sync.Mutex
		slots []sample
		next  int // slot written next
	}
	// notes counts samples since the Recorder was created (the warmup's
	// measure of foreground activity); saved is notes at the last save.
	notes atomic.Int64
	saved atomic.Int64
}

// NewRecorder returns a recorder of at most slots samples (minimum 1).
func NewRecorder(slots int) *Recorder {
	r := &Recorder{}
	r.mu.slots = make([]sample, max(slots, 1))
	return r
}

// recorderSlots is the ring size for a block cache of blockCache bytes.
func recorderSlots(blockCache int64) int {
	return int(min(max(blockCache/(8<<10), minRecorderSlots), maxRecorderSlots))
}

// Notes returns the number of samples taken so far.
func (r *Recorder) Notes() int64 { return r.notes.Load() }

// NotePoint records a point read of key.
func (r *Recorder) NotePoint(key []byte) {
	r.note(ReadPoint, key, nil, true, false, 1)
}

// NoteScan records a scan of [lower, upper) that visited rows keys; reverse
// scans start at the upper end. Nil bounds mean unbounded.
func (r *Recorder) NoteScan(lower, upper []byte, reverse bool, rows int) {
	kind := ReadForward
	if reverse {
		kind = ReadReverse
	}
	r.note(kind, lower, upper, lower != nil, upper != nil, uint32(min(max(rows, 1), 1<<31)))
}

func (r *Recorder) note(kind ReadKind, lo, hi []byte, hasLo, hasHi bool, rows uint32) {
	hiN := min(len(hi), sampleKeyBytes/2)
	if len(lo)+len(hi) <= sampleKeyBytes {
		hiN = len(hi)
	}
	loN := min(len(lo), sampleKeyBytes-hiN)
	r.mu.Lock()
	s := &r.mu.slots[r.mu.next]
	r.mu.next++
	if r.mu.next == len(r.mu.slots) {
		r.mu.next = 0
	}
	s.kind, s.hasLo, s.hasHi, s.rows = kind, hasLo, hasHi, rows
	s.loTruncated, s.hiTruncated = loN < len(lo), hiN < len(hi)
	s.loLen, s.hiLen = uint8(loN), uint8(hiN)
	copy(s.key[:loN], lo)
	copy(s.key[loN:loN+hiN], hi)
	r.mu.Unlock()
	r.notes.Add(1)
}

// Hot returns the recorded reads, hottest first (most samples; among equal
// counts the most recent first), then the carried reads (an earlier list,
// hottest first) not sampled again, at most keepFactor times as many reads
// in all as the ring has slots. Identical reads (kind and bounds) are
// merged, keeping the largest row count.
func (r *Recorder) Hot(carried []HotRead) []HotRead {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.mu.slots)
	keep := keepFactor * n
	out := make([]HotRead, 0, min(keep, n+len(carried)))
	index := make(map[string]int, n)
	var kb []byte
	// Newest first, so first appearance orders equal counts by recency.
	for i := 1; i <= n; i++ {
		s := &r.mu.slots[(r.mu.next-i+n)%n]
		if s.kind == 0 {
			continue
		}
		h := s.read()
		kb = readIdent(kb[:0], &h)
		if j, ok := index[string(kb)]; ok {
			out[j].Hits++
			out[j].Rows = max(out[j].Rows, h.Rows)
			continue
		}
		index[string(kb)] = len(out)
		out = append(out, h)
	}
	slices.SortStableFunc(out, func(a, b HotRead) int { return int(b.Hits) - int(a.Hits) })
	for _, h := range carried {
		if len(out) >= keep {
			break
		}
		kb = readIdent(kb[:0], &h)
		if _, ok := index[string(kb)]; ok {
			continue
		}
		index[string(kb)] = len(out)
		out = append(out, h)
	}
	return out
}

// read returns the slot as a HotRead with Hits 1 (copies of its bytes).
func (s *sample) read() HotRead {
	h := HotRead{Kind: s.kind, Rows: s.rows, Hits: 1}
	lo := s.key[:s.loLen]
	hi := s.key[s.loLen : s.loLen+s.hiLen]
	if s.hasLo {
		h.Lower = bytes.Clone(lo)
		if h.Lower == nil {
			h.Lower = []byte{}
		}
	}
	if s.kind == ReadPoint && s.loTruncated {
		// The key's prefix finds the region, not the key: replay it as a
		// one-row scan from there.
		h.Kind = ReadForward
	}
	if s.hasHi {
		h.Upper = bytes.Clone(hi)
		if h.Upper == nil {
			h.Upper = []byte{}
		}
		if s.hiTruncated {
			h.Upper = prefixSuccessor(h.Upper)
		}
	}
	return h
}

// readIdent appends the identity of a read (kind and bounds) to b.
func readIdent(b []byte, h *HotRead) []byte {
	b = append(b, byte(h.Kind))
	b = appendBound(b, h.Lower)
	return appendBound(b, h.Upper)
}

func appendBound(b, k []byte) []byte {
	if k == nil {
		return append(b, 0)
	}
	b = append(b, 1, byte(len(k)>>8), byte(len(k)))
	return append(b, k...)
}

// prefixSuccessor returns the smallest key greater than every key with
// prefix p (nil when there is none: p is all 0xff), reusing p's memory.
func prefixSuccessor(p []byte) []byte {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] != 0xff {
			p[i]++
			return p[:i+1]
		}
	}
	return nil
}

// changedSinceSave reports whether samples were taken since the last
// markSaved.
func (r *Recorder) changedSinceSave() bool { return r.notes.Load() != r.saved.Load() }

// markSaved records that the samples up to now are saved.
func (r *Recorder) markSaved(notes int64) { r.saved.Store(notes) }

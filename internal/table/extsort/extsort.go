// Package extsort sorts key/value records that may not fit in memory.
//
// A Sorter buffers records in one arena up to a byte budget; when the
// budget is reached it sorts them by key and appends them as a sorted run
// to a temporary file. Iter merges the runs with the records still in
// memory, yielding every record in key order. Records with equal keys come
// out in the order they were added (the sort is stable and the merge
// prefers the earlier run), so a caller can keep the first or the last of
// a set of duplicates. Memory use is the budget plus one read buffer per
// run; the file grows with the data.
//
// Run layout: records back to back, each key stored after the bytes it
// shares with the previous record's (front coding: sorted keys share long
// prefixes, so a run takes a fraction of the records' bytes):
// record = uvarint(shared) || uvarint(len(key)-shared) || uvarint(len(value))
// || key[shared:] || value; a run is a byte range of the file.
package extsort

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"unsafe"
)

// FilePrefix starts the name of the temporary file; sql's PrepareTempDir
// removes files named "strata-sort-*" that a crash left behind.
const FilePrefix = "strata-sort-bulk-"

// ErrCorrupt means a run read back is not what was written.
var ErrCorrupt = errors.New("extsort: corrupt run")

// rec is one buffered record: its bytes are arena[off : off+klen+vlen].
// p0 and p1 hold the key's first 16 bytes (big-endian, zero-padded; after
// the shared prefix once sortMem runs, and later bytes where its radix sort
// needed them), so the sort's passes mostly never touch the arena (whose
// records, once sorted, are read in an order that misses the CPU caches).
type rec struct {
	p0, p1     uint64
	off        int
	klen, vlen int
}

// keyPrefix returns the first 16 bytes of k as two big-endian words.
func keyPrefix(k []byte) (uint64, uint64) {
	var b [16]byte
	copy(b[:], k)
	return binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])
}

type run struct{ off, size int64 }

// Sorter collects records; see the package comment.
type Sorter struct {
	dir    string
	budget int
	arena  []byte
	recs   []rec
	f      *os.File
	w      *bufio.Writer
	size   int64
	runs   []run
	hdr    [3 * binary.MaxVarintLen64]byte
	// lcp is the length of the prefix every buffered key shares (keys of
	// one index share its id, and often much more: a url's scheme and
	// host); the sort compares what follows it.
	lcp int
	// chunks are the ends of the sorted parts of recs (sortMem).
	chunks []int
	// sorted is set once sortMem has run: its radix sort leaves some
	// records' p0 and p1 holding later key bytes.
	sorted bool
}

// New returns a sorter that spills to a file in dir once its buffered
// records (their bytes and an entry of recSize each) take budget bytes.
func New(dir string, budget int) *Sorter {
	return &Sorter{dir: dir, budget: max(budget, 1<<16)}
}

// recSize is the memory of one record's entry beside its bytes, counted
// in the budget (small records are mostly entry).
const recSize = int(unsafe.Sizeof(rec{}))

// Add copies a record into the sorter.
func (s *Sorter) Add(key, value []byte) error {
	if len(s.arena)+len(key)+len(value)+(len(s.recs)+1)*recSize > s.budget && len(s.recs) > 0 {
		if err := s.spill(); err != nil {
			return err
		}
	}
	if len(s.recs) == 0 {
		s.lcp = len(key)
	} else if s.lcp > 0 {
		first := s.key(s.recs[0])
		n := min(s.lcp, len(key))
		i := 0
		for i < n && first[i] == key[i] {
			i++
		}
		s.lcp = i
	}
	off := len(s.arena)
	s.arena = append(s.arena, key...)
	s.arena = append(s.arena, value...)
	p0, p1 := keyPrefix(key)
	s.recs = append(s.recs, rec{p0: p0, p1: p1, off: off, klen: len(key), vlen: len(value)})
	return nil
}

// SetBudget changes the bytes buffered before a spill (from the next Add).
func (s *Sorter) SetBudget(budget int) { s.budget = max(budget, 1<<16) }

// Runs is the number of runs spilled to disk so far.
func (s *Sorter) Runs() int { return len(s.runs) }

func (s *Sorter) key(r rec) []byte { return s.arena[r.off : r.off+r.klen] }

// parallelSortMin is the number of records from which sortMem sorts
// parts of the buffer on several cores.
const parallelSortMin = 1 << 16

// sortMem sorts the buffered records by key and, for equal keys, by the
// order they were added (their arena offsets grow with it): a total order,
// so the unstable radix sort (radixSorter) keeps duplicates in their added
// order. A
// large buffer is cut into one part per core, each sorted on its own
// goroutine; s.chunks holds the parts' ends, which are merged as separate
// sources (each part's records were added after the previous part's, so
// ranking the parts in order keeps duplicates in their added order).
func (s *Sorter) sortMem() {
	s.loadPrefixes()
	rs := &radixSorter{arena: s.arena, lcp: s.lcp, cmp: s.cmpFunc()}
	n := len(s.recs)
	parts := 1
	if n >= parallelSortMin {
		parts = min(runtime.GOMAXPROCS(0), 8)
	}
	s.chunks = s.chunks[:0]
	var wg sync.WaitGroup
	for i := range parts {
		lo, hi := n*i/parts, n*(i+1)/parts
		s.chunks = append(s.chunks, hi)
		if parts == 1 {
			rs.sort(s.recs[lo:hi], 0, 0)
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			rs.sort(s.recs[lo:hi], 0, 0)
		}()
	}
	wg.Wait()
	s.sorted = true
}

// loadPrefixes sets the records' p0 and p1 to the 16 key bytes after the
// prefix all keys share (those Add set, unless a sort has since changed
// them).
func (s *Sorter) loadPrefixes() {
	if lcp := s.lcp; lcp > 0 || s.sorted {
		for i := range s.recs {
			r := &s.recs[i]
			r.p0, r.p1 = keyPrefix(s.arena[r.off+lcp : r.off+r.klen])
		}
	}
}

// cmpFunc returns the order of sortMem: by key (p0, p1, then the key's
// bytes after the shared prefix) and, for equal keys, by arena offset.
func (s *Sorter) cmpFunc() func(a, b rec) int {
	lcp := s.lcp
	return func(a, b rec) int {
		switch {
		case a.p0 != b.p0:
			return cmpUint(a.p0, b.p0)
		case a.p1 != b.p1:
			return cmpUint(a.p1, b.p1)
		}
		if c := bytes.Compare(s.arena[a.off+lcp:a.off+a.klen], s.arena[b.off+lcp:b.off+b.klen]); c != 0 {
			return c
		}
		return a.off - b.off
	}
}

// spill sorts the buffered records and appends each sorted part to the
// file as a run.
func (s *Sorter) spill() error {
	if s.f == nil {
		f, err := os.CreateTemp(s.dir, FilePrefix)
		if err != nil {
			return fmt.Errorf("extsort: create run file: %w", err)
		}
		s.f, s.w = f, bufio.NewWriterSize(f, 1<<20)
	}
	s.sortMem()
	lo := 0
	for _, hi := range s.chunks {
		if err := s.writeRun(s.recs[lo:hi]); err != nil {
			return err
		}
		lo = hi
	}
	s.arena, s.recs, s.sorted = s.arena[:0], s.recs[:0], false
	return nil
}

// writeRun appends sorted records to the file as a run.
func (s *Sorter) writeRun(recs []rec) error {
	start := s.size
	var prev []byte
	for _, r := range recs {
		key := s.arena[r.off : r.off+r.klen]
		shared := 0
		for shared < len(prev) && shared < len(key) && prev[shared] == key[shared] {
			shared++
		}
		n := binary.PutUvarint(s.hdr[:], uint64(shared))
		n += binary.PutUvarint(s.hdr[n:], uint64(r.klen-shared))
		n += binary.PutUvarint(s.hdr[n:], uint64(r.vlen))
		if _, err := s.w.Write(s.hdr[:n]); err != nil {
			return fmt.Errorf("extsort: write run: %w", err)
		}
		if _, err := s.w.Write(s.arena[r.off+shared : r.off+r.klen+r.vlen]); err != nil {
			return fmt.Errorf("extsort: write run: %w", err)
		}
		s.size += int64(n + r.klen - shared + r.vlen)
		prev = key
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("extsort: write run: %w", err)
	}
	s.runs = append(s.runs, run{off: start, size: s.size - start})
	return nil
}

// Close removes the temporary file. The sorter and its iterator must not
// be used afterwards.
func (s *Sorter) Close() error {
	if s.f == nil {
		return nil
	}
	name := s.f.Name()
	err := s.f.Close()
	s.f = nil
	if rerr := os.Remove(name); err == nil && rerr != nil && !os.IsNotExist(rerr) {
		err = rerr
	}
	return err
}

// Iter returns an iterator over every record in key order. No record may
// be added afterwards.
func (s *Sorter) Iter() (*Iter, error) { return Merge(s) }

// Merge returns an iterator over the records of several sorters, in key
// order; of equal keys, those of a sorter come before those of the
// sorters after it (and within one sorter in the order they were added).
// No record may be added to any of them afterwards.
func Merge(ss ...*Sorter) (*Iter, error) {
	it := &Iter{}
	rank := 0
	for _, s := range ss {
		s.sortMem()
		for _, r := range s.runs {
			sr := &source{rank: rank, rd: bufio.NewReaderSize(io.NewSectionReader(s.f, r.off, r.size), 256<<10)}
			rank++
			if err := sr.next(); err != nil {
				return nil, err
			}
			if sr.ok {
				it.h = append(it.h, sr)
			}
		}
		lo := 0
		for _, hi := range s.chunks {
			mem := &source{rank: rank, mem: s, i: lo, end: hi}
			rank++
			lo = hi
			if err := mem.next(); err != nil {
				return nil, err
			}
			if mem.ok {
				it.h = append(it.h, mem)
			}
		}
	}
	heap.Init(&it.h)
	return it, nil
}

// Iter yields the records of a Sorter in key order:
//
//	for it.Next() { it.Key(), it.Value() }; it.Err()
//
// Key and Value are valid until the next call to Next.
type Iter struct {
	h       sources
	cur     *source
	started bool
	err     error
}

// Next moves to the next record, reporting whether there is one.
func (it *Iter) Next() bool {
	if it.err != nil {
		return false
	}
	if it.started && it.cur != nil {
		if err := it.cur.next(); err != nil {
			it.err = err
			return false
		}
		if it.cur.ok {
			heap.Fix(&it.h, 0)
		} else {
			heap.Pop(&it.h)
		}
	}
	it.started = true
	if len(it.h) == 0 {
		it.cur = nil
		return false
	}
	it.cur = it.h[0]
	return true
}

// Key is the current record's key.
func (it *Iter) Key() []byte { return it.cur.key }

// Value is the current record's value.
func (it *Iter) Value() []byte { return it.cur.val }

// Err is the error that ended the iteration, if any.
func (it *Iter) Err() error { return it.err }

// source is one run being merged: a file run or the in-memory records.
type source struct {
	rank     int // run order: ties go to the lower rank (added earlier)
	rd       *bufio.Reader
	mem      *Sorter
	i, end   int    // the part of mem.recs left to merge
	buf      []byte // the value read
	kbuf     []byte // the key read, rebuilt over the previous one
	key, val []byte
	ok       bool
}

func (r *source) next() error {
	if r.mem != nil {
		if r.i >= r.end {
			r.ok = false
			return nil
		}
		rc := r.mem.recs[r.i]
		r.i++
		r.key = r.mem.arena[rc.off : rc.off+rc.klen]
		r.val = r.mem.arena[rc.off+rc.klen : rc.off+rc.klen+rc.vlen]
		r.ok = true
		return nil
	}
	shared, err := binary.ReadUvarint(r.rd)
	if err == io.EOF {
		r.ok = false
		return nil
	}
	if err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	sl, err := binary.ReadUvarint(r.rd)
	if err != nil {
		return fmt.Errorf("%w: record header", ErrCorrupt)
	}
	vl, err := binary.ReadUvarint(r.rd)
	if err != nil || shared > uint64(len(r.key)) || sl+vl > 1<<32 {
		return fmt.Errorf("%w: record header", ErrCorrupt)
	}
	// The key is rebuilt in place over the previous one's shared bytes.
	kl := int(shared + sl)
	if cap(r.kbuf) < kl {
		nb := make([]byte, kl, max(kl, 2*cap(r.kbuf)))
		copy(nb, r.kbuf[:shared])
		r.kbuf = nb
	}
	r.kbuf = r.kbuf[:kl]
	if cap(r.buf) < int(vl) {
		r.buf = make([]byte, vl, max(int(vl), 2*cap(r.buf)))
	}
	r.buf = r.buf[:vl]
	if _, err := io.ReadFull(r.rd, r.kbuf[shared:]); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if _, err := io.ReadFull(r.rd, r.buf); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	r.key, r.val, r.ok = r.kbuf, r.buf, true
	return nil
}

type sources []*source

func (h sources) Len() int { return len(h) }
func (h sources) Less(i, j int) bool {
	if c := bytes.Compare(h[i].key, h[j].key); c != 0 {
		return c < 0
	}
	return h[i].rank < h[j].rank
}
func (h sources) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *sources) Push(x any)   { *h = append(*h, x.(*source)) }
func (h *sources) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func cmpUint(a, b uint64) int {
	if a < b {
		return -1
	}
	return 1
}

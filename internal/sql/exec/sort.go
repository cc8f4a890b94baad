package exec

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"slices"
	"unsafe"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
)

// Key is one ORDER BY key: a column of the sorted rows.
type Key struct {
	Col  int
	Desc bool
	// Coll is the collation of a text key when Add is not told one.
	Coll collations.ID
}

// Config describes a sort.
type Config struct {
	Keys []Key
	// Env compares values of mixed types (evalengine's collation
	// environment).
	Env *collations.Environment
	// MemoryBound is how many bytes of rows the sort holds before it
	// writes a sorted run to disk (DefaultMemoryBound when <= 0).
	MemoryBound int64
	// TempDir holds the sort's files (os.TempDir() when empty).
	TempDir string
	// Offset rows are skipped, then at most Limit rows returned (0: all).
	Offset, Limit uint64
}

// DefaultMemoryBound is MySQL's default sort_buffer_size.
const DefaultMemoryBound = 256 << 10

// Sizes the memory bound counts per row: the row's slot in the run, its
// values and its prepared keys, besides the values' bytes.
const (
	entrySize   = int64(unsafe.Sizeof(entry{}))
	valueSize   = int64(unsafe.Sizeof(sqltypes.Value{}))
	sortValSize = int64(unsafe.Sizeof(SortVal{}))
	// topNRowGuess is the smallest row a top-N heap plans for: the heap
	// is used when offset+limit such rows fit in the bound.
	topNRowGuess = 128
)

// entry is a row held in memory with its prepared keys and its position in
// the input (the tie-break that makes the sort stable).
type entry struct {
	row  Row
	keys []SortVal
	seq  uint64
}

// topEntry is an entry of the top-N heap, which owns its bytes (an entry
// that leaves the heap gives its buffers to the one replacing it).
type topEntry struct {
	entry
	buf  []byte
	size int64
}

// Sort is the sort operator (see the package doc). Rows come from an
// input Operator (NewSort) or are pushed with Add before Open
// (NewSorter); Open sorts, Next returns the sorted rows, Close removes the
// files.
type Sort struct {
	cfg   Config
	input Operator
	ctx   context.Context
	bound int64
	keep  uint64 // rows that can be returned (Offset+Limit), 0: all

	seq     uint64
	scratch []SortVal
	err     error // first comparison error

	// The run being gathered in memory, and the memory it takes.
	ents  []entry
	mem   int64
	vals  slab[sqltypes.Value]
	bytes slab[byte]
	kvals slab[SortVal]

	// The top-N heap (when topN): the worst kept row on top.
	topN bool
	heap topHeap

	// Runs on disk: the file of the runs, the file a merge pass writes,
	// and readers reused by the merges.
	file     *runFile
	passFile *runFile
	runs     []run
	readers  []*runReader
	bufSize  int
	passes   int
	spilled  bool
	maxBytes int64

	// Output.
	opened   bool
	pos      int // next in-memory entry
	merge    *merger
	emitted  uint64 // rows taken from the merge (skipped ones included)
	batch    []Row
	outVals  slab[sqltypes.Value]
	outBytes slab[byte]
}

// NewSort returns a sort of the rows of input.
func NewSort(input Operator, cfg Config) *Sort {
	s := NewSorter(cfg)
	s.input = input
	return s
}

// NewSorter returns a sort whose rows are pushed with Add before Open.
func NewSorter(cfg Config) *Sort {
	s := &Sort{cfg: cfg, bound: cfg.MemoryBound}
	s.heap.s = s
	if s.bound <= 0 {
		s.bound = DefaultMemoryBound
	}
	s.scratch = make([]SortVal, len(cfg.Keys))
	s.vals.first, s.vals.size = 1024, 1024
	s.bytes.first, s.bytes.size = 32<<10, 32<<10
	s.kvals.first, s.kvals.size = 512, 512
	s.outVals.first, s.outVals.size = 1024, 1024
	s.outBytes.first, s.outBytes.size = 32<<10, 32<<10
	s.bufSize = int(min(max(s.bound/MergeFanIn, 4<<10), 64<<10))
	if cfg.Limit > 0 && cfg.Offset+cfg.Limit >= cfg.Limit { // no overflow
		s.keep = cfg.Offset + cfg.Limit
		s.topN = s.keep <= uint64(s.bound/topNRowGuess)
	}
	return s
}

// Spilled reports whether the sort wrote runs to disk. The rows of a sort
// that did not spill live in its memory and stay valid after Next and
// Close (nothing reuses them).
func (s *Sort) Spilled() bool { return s.spilled }

// MergePasses is the number of merges of runs the sort did (MySQL's
// Sort_merge_passes): 0 when it did not spill.
func (s *Sort) MergePasses() int { return s.passes }

// MaxMemory is the most bytes of rows the sort held at once (as the bound
// counts them).
func (s *Sort) MaxMemory() int64 { return s.maxBytes }

// Add adds a row (NewSorter's input; before Open). colls, when not nil,
// holds the collation of each column of row (0: the key's Coll). The sort
// copies what it keeps: row may be reused once Add returns.
func (s *Sort) Add(row Row, colls []collations.ID) error {
	if s.err != nil {
		return s.err
	}
	seq := s.seq
	s.seq++
	if s.topN {
		return s.addTop(row, colls, seq)
	}
	size := s.rowSize(row)
	if len(s.ents) > 0 && s.mem+size > s.bound {
		if err := s.spill(); err != nil {
			return err
		}
	}
	r := s.vals.alloc(len(row))
	copyRow(r, row, s.bytes.alloc(rawLen(row)))
	keys := s.kvals.alloc(len(s.cfg.Keys))
	s.prepare(keys, r, colls)
	s.ents = append(s.ents, entry{row: r, keys: keys, seq: seq})
	s.grow(size)
	return nil
}

func (s *Sort) grow(n int64) {
	s.mem += n
	s.maxBytes = max(s.maxBytes, s.mem)
}

// addTop offers a row to the top-N heap.
func (s *Sort) addTop(row Row, colls []collations.ID, seq uint64) error {
	var e *topEntry
	if uint64(len(s.heap.ents)) < s.keep {
		e = &topEntry{entry: entry{keys: make([]SortVal, len(s.cfg.Keys))}}
	} else {
		// Only a row that sorts strictly before the worst kept one gets
		// in: an equal one came later and loses the tie.
		s.prepare(s.scratch, row, colls)
		c, err := compareKeys(s.scratch, s.heap.ents[0].keys, s.cfg.Keys, s.cfg.Env)
		if err != nil {
			s.err = err
			return err
		}
		if c >= 0 {
			return nil
		}
		e = s.heap.ents[0]
		s.mem -= e.size
	}
	n := rawLen(row)
	if cap(e.buf) < n {
		e.buf = make([]byte, n)
	}
	e.row = append(e.row[:0], row...)
	copyRow(e.row, row, e.buf[:n])
	s.prepare(e.keys, e.row, colls)
	e.seq = seq
	e.size = s.rowSize(row)
	s.grow(e.size)
	if uint64(len(s.heap.ents)) < s.keep {
		heap.Push(&s.heap, e)
	} else {
		heap.Fix(&s.heap, 0)
	}
	if s.err != nil {
		return s.err
	}
	if s.mem > s.bound {
		// The kept rows outgrew the bound: they become the first run of a
		// spilling sort (which still keeps no more than s.keep per run).
		s.topToRun()
	}
	return nil
}

// topToRun moves the heap's rows to the in-memory run.
func (s *Sort) topToRun() {
	for _, e := range s.heap.ents {
		s.ents = append(s.ents, e.entry)
	}
	s.heap.ents = nil
	s.topN = false
}

// prepare makes the sort keys of row into dst.
func (s *Sort) prepare(dst []SortVal, row Row, colls []collations.ID) {
	for k, key := range s.cfg.Keys {
		coll := key.Coll
		if key.Col < len(colls) && colls[key.Col] != 0 {
			coll = colls[key.Col]
		}
		dst[k] = MakeSortVal(row[key.Col], coll)
	}
}

func (s *Sort) rowSize(row Row) int64 { return RowMemory(row, len(s.cfg.Keys)) }

// RowMemory is the memory a sort with nkeys keys counts for row.
func RowMemory(row Row, nkeys int) int64 {
	return entrySize + int64(len(row))*valueSize + int64(rawLen(row)) + int64(nkeys)*sortValSize
}

func rawLen(row Row) int {
	n := 0
	for _, v := range row {
		n += len(v.Raw())
	}
	return n
}

// copyRow copies the values of src into dst, their bytes into buf (which
// holds exactly rawLen(src) bytes).
func copyRow(dst, src Row, buf []byte) {
	off := 0
	for i, v := range src {
		if v.IsNull() {
			dst[i] = sqltypes.NULL
			continue
		}
		n := copy(buf[off:], v.Raw())
		dst[i] = sqltypes.MakeTrusted(v.Type(), buf[off:off+n:off+n])
		off += n
	}
}

// compare orders two entries: by key, then by input position.
func (s *Sort) compare(a, b *entry) int {
	c, err := compareKeys(a.keys, b.keys, s.cfg.Keys, s.cfg.Env)
	if err != nil && s.err == nil {
		s.err = err
	}
	if c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}

// sortRun sorts the in-memory run.
func (s *Sort) sortRun() error {
	slices.SortFunc(s.ents, func(a, b entry) int { return s.compare(&a, &b) })
	return s.err
}

// spill sorts the in-memory run, writes it to the run file and empties
// memory for the next run.
func (s *Sort) spill() error {
	if err := s.ctxErr(); err != nil {
		return err
	}
	if err := s.sortRun(); err != nil {
		return err
	}
	if s.file == nil {
		f, err := createRunFile(s.cfg.TempDir)
		if err != nil {
			return err
		}
		s.file = f
		s.spilled = true
	}
	ents := s.ents
	if s.keep > 0 && uint64(len(ents)) > s.keep {
		ents = ents[:s.keep]
	}
	start := s.file.size
	for i := range ents {
		if err := s.file.appendRow(ents[i].row, ents[i].keys); err != nil {
			return err
		}
	}
	s.runs = append(s.runs, run{off: start, size: s.file.size - start, rows: uint64(len(ents))})
	clear(s.ents)
	s.ents = s.ents[:0]
	s.vals.reset()
	s.bytes.reset()
	s.kvals.reset()
	s.mem = 0
	return nil
}

func (s *Sort) ctxErr() error {
	if s.ctx == nil {
		return nil
	}
	if err := s.ctx.Err(); err != nil {
		return fmt.Errorf("exec: sort: %w", err)
	}
	return nil
}

// Open implements Operator: it reads the whole input, then sorts it in
// memory or merges the runs down to at most MergeFanIn.
func (s *Sort) Open(ctx context.Context) error {
	s.ctx = ctx
	if s.opened {
		return fmt.Errorf("exec: sort opened twice")
	}
	s.opened = true
	if s.input != nil {
		if err := s.input.Open(ctx); err != nil {
			return err
		}
		for {
			b, err := s.input.Next()
			if err != nil {
				return err
			}
			if b == nil {
				break
			}
			for _, r := range b {
				if err := s.Add(r, nil); err != nil {
					return err
				}
			}
		}
	}
	if s.err != nil {
		return s.err
	}
	if s.topN {
		s.topToRun()
	}
	if s.file == nil {
		s.pos = int(min(s.cfg.Offset, uint64(len(s.ents))))
		return s.sortRun()
	}
	if len(s.ents) > 0 {
		if err := s.spill(); err != nil {
			return err
		}
	}
	s.ents = nil
	if err := s.file.flush(); err != nil {
		return err
	}
	for len(s.runs) > MergeFanIn {
		if err := s.mergePass(); err != nil {
			return err
		}
	}
	s.merge = &merger{keys: s.cfg.Keys, env: s.cfg.Env}
	s.passes++
	return s.merge.start(s.file.f, s.runs, &s.readers, s.bufSize)
}

// mergePass merges groups of MergeFanIn runs into a new file, one longer
// run per group.
func (s *Sort) mergePass() error {
	nf, err := createRunFile(s.cfg.TempDir)
	if err != nil {
		return err
	}
	s.passFile = nf
	m := &merger{keys: s.cfg.Keys, env: s.cfg.Env}
	var out []run
	for i := 0; i < len(s.runs); i += MergeFanIn {
		if err := s.ctxErr(); err != nil {
			return err
		}
		group := s.runs[i:min(i+MergeFanIn, len(s.runs))]
		s.passes++
		if err := m.start(s.file.f, group, &s.readers, s.bufSize); err != nil {
			return err
		}
		start, rows := nf.size, uint64(0)
		for !m.done() && (s.keep == 0 || rows < s.keep) {
			rr := m.top()
			if err := nf.appendRow(rr.row, rr.keys); err != nil {
				return err
			}
			rows++
			if err := m.advance(); err != nil {
				return err
			}
		}
		out = append(out, run{off: start, size: nf.size - start, rows: rows})
	}
	if err := nf.flush(); err != nil {
		return err
	}
	old := s.file
	s.file, s.passFile, s.runs = nf, nil, out
	return old.remove()
}

// Next implements Operator.
func (s *Sort) Next() ([]Row, error) {
	if !s.opened {
		return nil, fmt.Errorf("exec: sort: Next before Open")
	}
	if err := s.ctxErr(); err != nil {
		return nil, err
	}
	s.batch = s.batch[:0]
	if s.merge == nil {
		end := len(s.ents)
		if s.keep > 0 {
			end = int(min(uint64(end), s.keep))
		}
		for s.pos < end && len(s.batch) < BatchRows {
			s.batch = append(s.batch, s.ents[s.pos].row)
			s.pos++
		}
	} else {
		s.outVals.reset()
		s.outBytes.reset()
		bytes := 0
		for !s.merge.done() && len(s.batch) < BatchRows && bytes < BatchBytes && (s.keep == 0 || s.emitted < s.keep) {
			rr := s.merge.top()
			if s.emitted >= s.cfg.Offset {
				n := rawLen(rr.row)
				r := s.outVals.alloc(len(rr.row))
				copyRow(r, rr.row, s.outBytes.alloc(n))
				s.batch = append(s.batch, r)
				bytes += n
			}
			s.emitted++
			if err := s.merge.advance(); err != nil {
				return nil, err
			}
		}
	}
	if len(s.batch) == 0 {
		return nil, nil
	}
	return s.batch, nil
}

// Close implements Operator: it closes the input and removes the sort's
// files. Rows of a sort that did not spill stay valid.
func (s *Sort) Close() error {
	var err error
	if s.input != nil {
		err = s.input.Close()
		s.input = nil
	}
	for _, f := range []*runFile{s.file, s.passFile} {
		if e := f.remove(); e != nil && err == nil {
			err = e
		}
	}
	s.file, s.passFile, s.merge, s.readers, s.heap.ents = nil, nil, nil, nil, nil
	return err
}

// topHeap is a max-heap of the kept rows: the one that sorts last on top.
type topHeap struct {
	ents []*topEntry
	s    *Sort
}

func (h *topHeap) Len() int { return len(h.ents) }
func (h *topHeap) Less(i, j int) bool {
	return h.s.compare(&h.ents[i].entry, &h.ents[j].entry) > 0
}
func (h *topHeap) Swap(i, j int) { h.ents[i], h.ents[j] = h.ents[j], h.ents[i] }
func (h *topHeap) Push(x any)    { h.ents = append(h.ents, x.(*topEntry)) }
func (h *topHeap) Pop() any {
	x := h.ents[len(h.ents)-1]
	h.ents = h.ents[:len(h.ents)-1]
	return x
}

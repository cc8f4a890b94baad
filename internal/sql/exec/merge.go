package exec

import (
	"container/heap"
	"os"

	"vitess.io/vitess/go/mysql/collations"
)

// MergeFanIn is the most runs merged at once (MySQL's MERGEBUFF2 is 15):
// a sort with more runs first merges groups of them into longer runs, each
// group one merge pass.
const MergeFanIn = 16

// merger merges sorted runs of one file with a heap of their readers,
// smallest key first; equal keys come from the earlier run first, so a
// merge of runs written in input order keeps the input order (stable).
type merger struct {
	h    []*runReader
	keys []Key
	env  *collations.Environment
	err  error // first comparison error
}

// start begins a merge of runs (at most MergeFanIn) of f, reading through
// readers (grown as needed and reused by later merges).
func (m *merger) start(f *os.File, runs []run, readers *[]*runReader, bufSize int) error {
	m.h = m.h[:0]
	for len(*readers) < len(runs) {
		*readers = append(*readers, &runReader{})
	}
	for i, r := range runs {
		rr := (*readers)[i]
		rr.idx = i
		rr.reset(f, r, bufSize)
		ok, err := rr.next(m.keys)
		if err != nil {
			return err
		}
		if ok {
			m.h = append(m.h, rr)
		}
	}
	heap.Init(m)
	return m.err
}

// done reports whether every run is exhausted.
func (m *merger) done() bool { return len(m.h) == 0 }

// top is the reader holding the smallest row.
func (m *merger) top() *runReader { return m.h[0] }

// advance moves past the smallest row (whose values the caller has
// copied or written: they are overwritten).
func (m *merger) advance() error {
	rr := m.h[0]
	ok, err := rr.next(m.keys)
	if err != nil {
		return err
	}
	if ok {
		heap.Fix(m, 0)
	} else {
		heap.Pop(m)
	}
	return m.err
}

func (m *merger) Len() int { return len(m.h) }

func (m *merger) Less(i, j int) bool {
	a, b := m.h[i], m.h[j]
	c, err := compareKeys(a.keys, b.keys, m.keys, m.env)
	if err != nil && m.err == nil {
		m.err = err
	}
	if c != 0 {
		return c < 0
	}
	return a.idx < b.idx
}

func (m *merger) Swap(i, j int) { m.h[i], m.h[j] = m.h[j], m.h[i] }

func (m *merger) Push(x any) { m.h = append(m.h, x.(*runReader)) }

func (m *merger) Pop() any {
	x := m.h[len(m.h)-1]
	m.h[len(m.h)-1] = nil
	m.h = m.h[:len(m.h)-1]
	return x
}

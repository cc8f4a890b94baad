package sql

import (
	"strconv"
	"sync/atomic"
)

// MySQL's Handler_read_* status counters: how a statement reached its rows.
// A point lookup or the start of a key range is a read_key; each further
// row of a range a read_next (read_prev when scanning backwards); a whole
// index scan starts with read_first (read_last) instead; a full table scan
// counts one read_rnd_next per row, plus one at its end. They make "did it
// use the index or scan the table?" visible to a client:
//
//	FLUSH STATUS;
//	SELECT ... ;
//	SHOW SESSION STATUS LIKE 'Handler_read%';

// handlerCounts are the counters of one statement's reads (one goroutine).
type handlerCounts struct {
	first, key, last, next, prev, rndNext uint64
}

// readStep names the counter of a scan's further rows.
type readStep uint8

const (
	stepNext readStep = iota
	stepPrev
	stepRndNext
)

// count counts one further row of a scan.
func (c *handlerCounts) count(s readStep) {
	switch s {
	case stepNext:
		c.next++
	case stepPrev:
		c.prev++
	default:
		c.rndNext++
	}
}

// handlerStatus accumulates counters; read by other sessions for SHOW
// GLOBAL STATUS, so atomic.
type handlerStatus struct {
	first, key, last, next, prev, rndNext atomic.Uint64
}

// add folds one statement's counts in.
func (h *handlerStatus) add(c *handlerCounts) {
	for _, x := range [...]struct {
		dst *atomic.Uint64
		n   uint64
	}{{&h.first, c.first}, {&h.key, c.key}, {&h.last, c.last}, {&h.next, c.next}, {&h.prev, c.prev}, {&h.rndNext, c.rndNext}} {
		if x.n != 0 {
			x.dst.Add(x.n)
		}
	}
	*c = handlerCounts{}
}

// load returns a copy of the counters.
func (h *handlerStatus) load() handlerCounts {
	return handlerCounts{first: h.first.Load(), key: h.key.Load(), last: h.last.Load(), next: h.next.Load(), prev: h.prev.Load(), rndNext: h.rndNext.Load()}
}

// take returns the counters and resets them.
func (h *handlerStatus) take() handlerCounts {
	return handlerCounts{first: h.first.Swap(0), key: h.key.Swap(0), last: h.last.Swap(0), next: h.next.Swap(0), prev: h.prev.Swap(0), rndNext: h.rndNext.Swap(0)}
}

func (c *handlerCounts) plus(o handlerCounts) {
	c.first += o.first
	c.key += o.key
	c.last += o.last
	c.next += o.next
	c.prev += o.prev
	c.rndNext += o.rndNext
}

// rows returns the counters as SHOW STATUS rows.
func (c handlerCounts) rows() [][]string {
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	return [][]string{
		{"Handler_read_first", u(c.first)},
		{"Handler_read_key", u(c.key)},
		{"Handler_read_last", u(c.last)},
		{"Handler_read_next", u(c.next)},
		{"Handler_read_prev", u(c.prev)},
		{"Handler_read_rnd", "0"},
		{"Handler_read_rnd_next", u(c.rndNext)},
	}
}

// handlerRows returns the session's counters, or with global the server's:
// those of ended and flushed sessions plus those of the open ones.
func (s *Session) handlerRows(global bool) [][]string {
	if !global {
		return s.handler.load().rows()
	}
	c := s.eng.handlerDone.load()
	for _, o := range s.eng.Sessions() {
		c.plus(o.handler.load())
	}
	return c.rows()
}

// flushStatus implements FLUSH STATUS: the session's counters restart from
// zero (the global ones keep counting).
func (s *Session) flushStatus() {
	c := s.handler.take()
	s.eng.handlerDone.add(&c)
	s.eng.sortsDone.mergePasses.Add(s.sorts.mergePasses.Swap(0))
	s.flushComs()
}

// total is the number of rows the counted reads returned or looked at.
func (c handlerCounts) total() uint64 {
	return c.first + c.key + c.last + c.next + c.prev + c.rndNext
}

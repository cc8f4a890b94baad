package sql

import (
	"fmt"
	"testing"
)

// intRange is rangeValues over integer ORDER BY values (nil: NULL) whose
// start and end bounds are the value plus start and plus end (RANGE 2
// PRECEDING: -2 ascending, +2 descending), sorted in the direction desc.
type intRange struct {
	vals       []*int
	start, end int // offsets added to the value (negative: preceding)
	desc       bool
	calls      int
}

func (r *intRange) null(i int) bool { return r.vals[i] == nil }

func (r *intRange) cmpBound(j, i int, end bool) int {
	r.calls++
	off := r.start
	if end {
		off = r.end
	}
	b := *r.vals[i] + off
	var c int
	switch {
	case r.vals[j] == nil:
		c = -1
	case *r.vals[j] < b:
		c = -1
	case *r.vals[j] > b:
		c = 1
	}
	if r.desc {
		return -c
	}
	return c
}

// peersOf returns the peer groups of vals (equal values, adjacent).
func peersOf(vals []*int) (start, end []int) {
	n := len(vals)
	start, end = make([]int, n), make([]int, n)
	eq := func(a, b *int) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }
	s := 0
	for i := 1; i <= n; i++ {
		if i < n && eq(vals[i-1], vals[i]) {
			continue
		}
		for j := s; j < i; j++ {
			start[j], end[j] = s, i
		}
		s = i
	}
	return start, end
}

func ints(xs ...any) []*int {
	out := make([]*int, len(xs))
	for i, x := range xs {
		if v, ok := x.(int); ok {
			out[i] = &v
		}
	}
	return out
}

func frames(c *frameCursor, n int) string {
	s := ""
	for i := 0; i < n; i++ {
		lo, hi := c.bounds(i)
		s += fmt.Sprintf("[%d,%d)", lo, hi)
	}
	return s
}

func TestFrameRows(t *testing.T) {
	for _, c := range []struct {
		fr           frame
		startN, endN int64
		want         string
	}{
		// ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING
		{frame{frameRows, boundPreceding, boundFollowing}, 1, 1, "[0,2)[0,3)[1,4)[2,5)[3,5)"},
		// ROWS 2 PRECEDING (end CURRENT ROW)
		{frame{frameRows, boundPreceding, boundCurrent}, 2, 0, "[0,1)[0,2)[0,3)[1,4)[2,5)"},
		// ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING: empty at the end
		{frame{frameRows, boundFollowing, boundFollowing}, 2, 3, "[2,4)[3,5)[4,5)[5,5)[5,5)"},
		// ROWS BETWEEN 3 PRECEDING AND 2 PRECEDING: empty at the start
		{frame{frameRows, boundPreceding, boundPreceding}, 3, 2, "[0,0)[0,0)[0,1)[0,2)[1,3)"},
		// ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING
		{frame{frameRows, boundCurrent, boundUnboundedFollowing}, 0, 0, "[0,5)[1,5)[2,5)[3,5)[4,5)"},
		// huge offsets do not overflow
		{frame{frameRows, boundPreceding, boundFollowing}, 1 << 62, 1<<63 - 1, "[0,5)[0,5)[0,5)[0,5)[0,5)"},
	} {
		cur := frameCursor{fr: c.fr, startN: c.startN, endN: c.endN}
		cur.reset(5, nil, nil, nil)
		if got := frames(&cur, 5); got != c.want {
			t.Errorf("%+v %d %d: %s, want %s", c.fr, c.startN, c.endN, got, c.want)
		}
	}
}

func TestFrameRange(t *testing.T) {
	for _, c := range []struct {
		vals       []*int
		fr         frame
		start, end int
		desc       bool
		want       string
	}{
		// the default frame: up to the last peer
		{ints(1, 2, 2, 3), defaultFrame, 0, 0, false, "[0,1)[0,3)[0,3)[0,4)"},
		// no ORDER BY: every row a peer, the whole partition
		{ints(nil, nil, nil), defaultFrame, 0, 0, false, "[0,3)[0,3)[0,3)"},
		// RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING, NULLs first are
		// their own peers
		{ints(nil, nil, 1, 2, 2, 4, 5), frame{frameRange, boundPreceding, boundFollowing}, -1, 1, false,
			"[0,2)[0,2)[2,5)[2,5)[2,5)[5,7)[5,7)"},
		// descending: PRECEDING is the larger values; NULLs last
		{ints(9, 7, 6, 2, nil), frame{frameRange, boundPreceding, boundCurrent}, 2, 0, true,
			"[0,1)[0,2)[1,3)[3,4)[4,5)"},
		// RANGE BETWEEN CURRENT ROW AND 2 FOLLOWING
		{ints(1, 1, 2, 3, 6), frame{frameRange, boundCurrent, boundFollowing}, 0, 2, false,
			"[0,4)[0,4)[2,4)[3,4)[4,5)"},
		// RANGE BETWEEN 2 FOLLOWING AND 3 FOLLOWING: empty frames
		{ints(1, 2, 10), frame{frameRange, boundFollowing, boundFollowing}, 2, 3, false,
			"[2,2)[2,2)[3,3)"},
		// RANGE BETWEEN 3 PRECEDING AND UNBOUNDED FOLLOWING
		{ints(1, 3, 5, 7, 8), frame{frameRange, boundPreceding, boundUnboundedFollowing}, -3, 0, false,
			"[0,5)[0,5)[1,5)[2,5)[2,5)"},
	} {
		ps, pe := peersOf(c.vals)
		r := &intRange{vals: c.vals, start: c.start, end: c.end, desc: c.desc}
		cur := frameCursor{fr: c.fr}
		cur.reset(len(c.vals), ps, pe, r)
		if got := frames(&cur, len(c.vals)); got != c.want {
			t.Errorf("%+v %v: %s, want %s", c.fr, c.vals, got, c.want)
		}
		// Bounds only move forward: at most two passes over the rows
		// per bound.
		if r.calls > 4*len(c.vals) {
			t.Errorf("%+v: %d comparisons for %d rows", c.fr, r.calls, len(c.vals))
		}
	}
}

func TestNtileBucket(t *testing.T) {
	for _, c := range []struct {
		n       int
		buckets int64
		want    string
	}{
		{7, 3, "1 1 1 2 2 3 3"},
		{7, 2, "1 1 1 1 2 2 2"},
		{3, 10, "1 2 3"},
		{6, 3, "1 1 2 2 3 3"},
		{5, 1, "1 1 1 1 1"},
	} {
		got := ""
		for i := 0; i < c.n; i++ {
			if i > 0 {
				got += " "
			}
			got += fmt.Sprint(ntileBucket(i, c.n, c.buckets))
		}
		if got != c.want {
			t.Errorf("NTILE(%d) of %d rows: %s, want %s", c.buckets, c.n, got, c.want)
		}
	}
}

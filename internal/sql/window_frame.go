package sql

// Window frames: which rows of its partition a window function reads for
// a row. A partition's rows are in the window's ORDER BY order; a frame is
// the half-open range [lo, hi) of their positions.
//
//	ROWS   bounds count rows: N PRECEDING of row i is i-N, CURRENT ROW is i.
//	RANGE  bounds compare ORDER BY values: CURRENT ROW is the row's peers
//	       (rows with an equal ORDER BY value; without ORDER BY, the whole
//	       partition), N PRECEDING the first row whose value is at least
//	       the row's value minus N (in the ORDER BY direction), N FOLLOWING
//	       the last row whose value is at most the value plus N. A row
//	       whose ORDER BY value is NULL has its NULL peers as N PRECEDING
//	       and N FOLLOWING bounds.
//
// MySQL's default frame is RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT
// ROW: the rows up to the current row's last peer, or the whole partition
// without ORDER BY.
//
// Rows are visited in order, and every bound moves forward only, so the
// bounds of a partition of n rows cost O(n) comparisons.

// frameUnit is ROWS or RANGE.
type frameUnit uint8

const (
	frameRows frameUnit = iota
	frameRange
)

// boundKind is a frame start or end.
type boundKind uint8

const (
	boundUnboundedPreceding boundKind = iota
	boundPreceding
	boundCurrent
	boundFollowing
	boundUnboundedFollowing
)

// frame is a window frame's unit and bounds.
type frame struct {
	unit       frameUnit
	start, end boundKind
}

// defaultFrame is the frame of a window that names none.
var defaultFrame = frame{unit: frameRange, start: boundUnboundedPreceding, end: boundCurrent}

// rangeValues is what RANGE N PRECEDING/FOLLOWING bounds need of a
// partition: whether a row's ORDER BY value is NULL, and how row j's
// ORDER BY value compares with row i's start (end false) or end (end
// true) bound value, in the ORDER BY direction (-1: j comes before).
type rangeValues interface {
	null(i int) bool
	cmpBound(j, i int, end bool) int
}

// frameCursor computes the frames of one partition's rows, visited in
// order (bounds(0), bounds(1), ...).
type frameCursor struct {
	fr frame
	n  int
	// startN, endN are the ROWS offsets of N PRECEDING/FOLLOWING.
	startN, endN int64
	// peerStart[i], peerEnd[i]: the peers of row i are [peerStart[i],
	// peerEnd[i]).
	peerStart, peerEnd []int
	vals               rangeValues
	lo, hi             int // RANGE value bounds found so far
}

// reset starts the frames of a partition of n rows.
func (c *frameCursor) reset(n int, peerStart, peerEnd []int, vals rangeValues) {
	c.n, c.peerStart, c.peerEnd, c.vals, c.lo, c.hi = n, peerStart, peerEnd, vals, 0, 0
}

// bounds returns the frame [lo, hi) of row i (lo == hi: empty).
func (c *frameCursor) bounds(i int) (lo, hi int) {
	lo = c.startOf(i)
	hi = c.endOf(i)
	if hi < lo {
		hi = lo
	}
	return lo, hi
}

// startOf is the first row of row i's frame.
func (c *frameCursor) startOf(i int) int {
	switch c.fr.start {
	case boundUnboundedPreceding:
		return 0
	case boundCurrent:
		if c.fr.unit == frameRange {
			return c.peerStart[i]
		}
		return i
	case boundPreceding, boundFollowing:
		if c.fr.unit == frameRows {
			if c.fr.start == boundPreceding {
				return clampRow(int64(i)-c.capN(c.startN), c.n)
			}
			return clampRow(int64(i)+c.capN(c.startN), c.n)
		}
		if c.vals.null(i) {
			return c.peerStart[i]
		}
		for c.lo < c.n && c.vals.cmpBound(c.lo, i, false) < 0 {
			c.lo++
		}
		return c.lo
	}
	return c.n
}

// endOf is one past the last row of row i's frame.
func (c *frameCursor) endOf(i int) int {
	switch c.fr.end {
	case boundUnboundedFollowing:
		return c.n
	case boundCurrent:
		if c.fr.unit == frameRange {
			return c.peerEnd[i]
		}
		return i + 1
	case boundPreceding, boundFollowing:
		if c.fr.unit == frameRows {
			if c.fr.end == boundPreceding {
				return clampRow(int64(i)-c.capN(c.endN)+1, c.n)
			}
			return clampRow(int64(i)+c.capN(c.endN)+1, c.n)
		}
		if c.vals.null(i) {
			return c.peerEnd[i]
		}
		for c.hi < c.n && c.vals.cmpBound(c.hi, i, true) <= 0 {
			c.hi++
		}
		return c.hi
	}
	return 0
}

// capN limits a ROWS offset to the partition's size plus one (the same
// frames; no overflow in the arithmetic).
func (c *frameCursor) capN(n int64) int64 { return min(n, int64(c.n)+1) }

// clampRow bounds a row position to [0, n].
func clampRow(r int64, n int) int {
	switch {
	case r < 0:
		return 0
	case r > int64(n):
		return n
	}
	return int(r)
}

// growing reports whether every frame starts at the partition's first
// row, so each ends at or after the one before: aggregates add rows as
// the frame grows (O(n)).
func (f frame) growing() bool { return f.start == boundUnboundedPreceding }

// shrinking reports whether every frame ends at the partition's end, so
// each starts at or after the one before: aggregates add rows from the
// last row backwards (O(n)).
func (f frame) shrinking() bool { return f.end == boundUnboundedFollowing }

// ntileBucket returns the NTILE(buckets) value of row i of n: the first
// n%buckets buckets have one row more than the others.
func ntileBucket(i, n int, buckets int64) int64 {
	if buckets <= 0 {
		return 0
	}
	if int64(n) <= buckets {
		return int64(i) + 1
	}
	size, rem := int64(n)/buckets, int64(n)%buckets
	big := rem * (size + 1) // rows in the larger buckets
	if int64(i) < big {
		return int64(i)/(size+1) + 1
	}
	return rem + (int64(i)-big)/size + 1
}

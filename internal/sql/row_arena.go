package sql

import "vitess.io/vitess/go/sqltypes"

// rowArena copies rows into slabs shared by many rows: two allocations per
// slab instead of two per row. A result's rows (rowSink) and the rows a
// sort holds (sortOp) live in one.
type rowArena struct {
	vals  Row
	bytes []byte
	slabs int
	// n counts the value bytes copied since the arena was new or reused.
	n int
}

// copyRow copies src, its values' bytes included, into the arena.
func (a *rowArena) copyRow(src Row) Row {
	n := 0
	for _, v := range src {
		n += len(v.Raw())
	}
	a.n += n
	// Slabs start small (most results are a row or a few) and double.
	grow := min(a.slabs, 7) // slab sizes stop growing at 64 rows / 16 KiB
	if cap(a.vals)-len(a.vals) < len(src) {
		a.vals = make(Row, 0, len(src)*min(64, 1<<grow))
		a.slabs++
	}
	if cap(a.bytes)-len(a.bytes) < n {
		a.bytes = make([]byte, 0, max(n, min(16384, 128<<grow)))
	}
	dst := a.vals[len(a.vals) : len(a.vals)+len(src) : len(a.vals)+len(src)]
	a.vals = a.vals[:len(a.vals)+len(src)]
	for i, v := range src {
		if v.IsNull() {
			dst[i] = sqltypes.NULL
			continue
		}
		start := len(a.bytes)
		a.bytes = append(a.bytes, v.Raw()...)
		dst[i] = sqltypes.MakeTrusted(v.Type(), a.bytes[start:len(a.bytes):len(a.bytes)])
	}
	return dst
}

// reuse starts the arena over when the rows copied since it was new or
// last reused are no longer needed: one slab of each kind as large as
// those rows took (the first batches grow them), reused from the start.
func (a *rowArena) reuse(rows []Row) {
	vals := 0
	for _, r := range rows {
		vals += cap(r) // the values copied, hidden ones included
	}
	if cap(a.vals) < vals {
		a.vals = make(Row, 0, vals)
	}
	if cap(a.bytes) < a.n {
		a.bytes = make([]byte, 0, a.n)
	}
	a.vals, a.bytes, a.n = a.vals[:0], a.bytes[:0], 0
}

package collation

import (
	"bytes"
	"sync"
	"sync/atomic"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/colldata"
)

// ASCII weights of the other collations. Weighing text through a UCA
// collation's iterator costs tens of nanoseconds per character; for most
// collations the weight string of ASCII text is the concatenation of its
// characters' weights, so a table of the 128 weights gives the same bytes
// at a few nanoseconds per character. Whether a collation has that
// property is checked once, on its first use: every ASCII character's
// weight, and every pair's weight against the two concatenated (a
// contraction or padding breaks it, and any longer ASCII contraction of a
// well-formed collation has a two-character one — the check then fails
// and the collation keeps its iterator).

// concatTable is the per-character weight table of one collation.
type concatTable struct {
	once sync.Once
	ok   bool
	w    [128][]byte
}

// concatTables are indexed by collation id, each made and built on first
// use (a few collations are used; a table is 3 KiB).
var concatTables [4096]atomic.Pointer[concatTable]

// init decides whether c's ASCII weights concatenate. Only UTF-8
// collations qualify: elsewhere an ASCII byte need not be a character
// (ucs2, utf16, utf32).
func (a *concatTable) init(c colldata.Collation) {
	if cs := c.Charset().Name(); cs != "utf8mb4" && cs != "utf8mb3" {
		return
	}
	for ch := range 128 {
		a.w[ch] = c.WeightString(nil, []byte{byte(ch)}, 0)
	}
	var buf, want []byte
	for x := range 128 {
		for y := range 128 {
			buf = c.WeightString(buf[:0], []byte{byte(x), byte(y)}, 0)
			want = append(append(want[:0], a.w[x]...), a.w[y]...)
			if !bytes.Equal(buf, want) {
				return
			}
		}
	}
	a.ok = true
}

// appendConcatWeights appends the weight string of the ASCII text s under
// collation c (id) from its table; false (nothing appended) when the
// collation's ASCII weights do not concatenate.
func appendConcatWeights(dst []byte, id collations.ID, c colldata.Collation, s []byte) ([]byte, bool) {
	if int(id) >= len(concatTables) {
		return dst, false
	}
	a := concatTables[id].Load()
	if a == nil {
		concatTables[id].CompareAndSwap(nil, &concatTable{})
		a = concatTables[id].Load()
	}
	a.once.Do(func() { a.init(c) })
	if !a.ok {
		return dst, false
	}
	for _, ch := range s {
		dst = append(dst, a.w[ch]...)
	}
	return dst, true
}

package codec

import (
	"bytes"
	"sync"

	"vitess.io/vitess/go/mysql/collations/colldata"
)

// ASCII weights for the general (escaped) key style. Weighing text through
// a UCA collation's iterator costs tens of nanoseconds per character; for
// most collations the weight string of ASCII text is the concatenation of
// its characters' weights, so a table of the 128 weights gives the same
// bytes at a few nanoseconds per character. Whether a collation has that
// property is checked once, on its first use: every ASCII character's
// weight, and every pair's weight against the two concatenated (a
// contraction or padding breaks it, and any longer ASCII contraction of a
// well-formed collation has a two-character one — the check then fails
// and the collation keeps its iterator).

// asciiWeights is the per-character weight table of one collation.
type asciiWeights struct {
	once sync.Once
	ok   bool
	w    [128][]byte
}

// init decides whether coll's ASCII weights concatenate.
func (a *asciiWeights) init(coll colldata.Collation) {
	for c := range 128 {
		a.w[c] = coll.WeightString(nil, []byte{byte(c)}, 0)
	}
	var buf, want []byte
	for x := range 128 {
		for y := range 128 {
			buf = coll.WeightString(buf[:0], []byte{byte(x), byte(y)}, 0)
			want = append(append(want[:0], a.w[x]...), a.w[y]...)
			if !bytes.Equal(buf, want) {
				return
			}
		}
	}
	a.ok = true
}

// weighASCII appends the weight string of s under coll when s is ASCII
// and the collation's ASCII weights concatenate; ok false otherwise
// (nothing appended).
func (a *asciiWeights) weighASCII(b []byte, coll colldata.Collation, s []byte) ([]byte, bool) {
	for _, c := range s {
		if c >= 0x80 {
			return b, false
		}
	}
	a.once.Do(func() { a.init(coll) })
	if !a.ok {
		return b, false
	}
	for _, c := range s {
		b = append(b, a.w[c]...)
	}
	return b, true
}

// asciiLen returns the length of s's leading run of ASCII bytes, at most
// n.
func asciiLen(s []byte, n int) int {
	i := 0
	for i < len(s) && i < n && s[i] < 0x80 {
		i++
	}
	return i
}

package collation

import (
	"encoding/binary"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/colldata"
)

// ASCII fast paths for the utf8 general_ci collations (utf8mb4's default
// in strata): there every ASCII byte is one character with one 16-bit
// weight, so a string of ASCII bytes weighs and compares by table lookups
// instead of rune decoding and case tables. The weights are taken from
// colldata itself, so the results are those of its WeightString and
// Collate, byte for byte.

// asciiWeights holds, per collation id, the weight of each ASCII byte, or
// nil when the collation has no such fast path.
var asciiWeights = func() []*[128]uint16 {
	const maxID = 4096
	out := make([]*[128]uint16, maxID)
	for id := 0; id < maxID; id++ {
		c, ok := colldata.Lookup(collations.ID(id)).(*colldata.Collation_unicode_general_ci)
		if !ok {
			continue
		}
		if cs := c.Charset().Name(); cs != "utf8mb4" && cs != "utf8mb3" {
			continue
		}
		var w [128]uint16
		good := true
		for ch := 0; ch < 128; ch++ {
			ws := c.WeightString(nil, []byte{byte(ch)}, 0)
			if len(ws) != 2 {
				good = false
				break
			}
			w[ch] = uint16(ws[0])<<8 | uint16(ws[1])
		}
		if good {
			out[id] = &w
		}
	}
	return out
}()

// ASCIIWeights returns the weights of the ASCII bytes under collation id,
// or nil when id has no ASCII fast path.
func ASCIIWeights(id collations.ID) *[128]uint16 {
	if int(id) < len(asciiWeights) {
		return asciiWeights[id]
	}
	return nil
}

// IsASCII reports whether every byte of s is below 0x80 (ASCIIPrefix's
// eight bytes at a time).
func IsASCII(s []byte) bool { return ASCIIPrefix(s, len(s)) == len(s) }

// AppendWeightString appends the weight string of s under collation c
// (id), as c.WeightString(dst, s, 0) does (no padding), by table lookups
// when s is ASCII and id has a fast path (general_ci's units, or a
// collation whose ASCII weights concatenate: asciiconcat.go).
func AppendWeightString(dst []byte, id collations.ID, c colldata.Collation, s []byte) []byte {
	if IsASCII(s) {
		if w := ASCIIWeights(id); w != nil {
			for _, b := range s {
				u := w[b]
				dst = append(dst, byte(u>>8), byte(u))
			}
			return dst
		}
		if out, ok := appendConcatWeights(dst, id, c, s); ok {
			return out
		}
	}
	return c.WeightString(dst, s, 0)
}

// ASCIIPrefix returns the length of b's leading run of ASCII bytes, at
// most n (eight bytes at a time).
func ASCIIPrefix(b []byte, n int) int {
	if n < len(b) {
		b = b[:n]
	}
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(b) && b[i] < 0x80; i++ {
	}
	return i
}

// CompareASCII compares two ASCII strings under the weights w as the
// collation's Collate does (no padding: trim first for PAD SPACE).
func CompareASCII(w *[128]uint16, a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if x, y := w[a[i]], w[b[i]]; x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return len(a) - len(b)
}

package codec

import (
	"bytes"
	"fmt"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/charset"
	"vitess.io/vitess/go/mysql/collations/colldata"

	"github.com/strata-db/strata/internal/collation"
	"github.com/strata-db/strata/internal/encoding"
)

// textStyle is how the key of a text value is built for a collation. All
// styles are order-equivalent to the collation's weight string; the special
// ones only make keys shorter.
type textStyle uint8

const (
	// styleEscaped: bytes-asc(weight string). The general case.
	styleEscaped textStyle = iota
	// styleUTF8Bin: bytes-asc(the UTF-8 text itself). For utf8mb4_bin and
	// utf8mb3_bin, whose weights are the code points: UTF-8 byte order is
	// code point order, and raw text is 1 byte per ASCII character where the
	// escaped 3-byte weights would take 5.
	styleUTF8Bin
	// styleUnits16: units16(weight string). For the *_general_ci family,
	// whose weights are 16-bit units that are mostly below 0x7f (ASCII): one
	// byte per ASCII character where escaping 0x00 0xNN would take 3.
	styleUnits16
)

// collInfo is what the key encoder needs to know about a collation.
type collInfo struct {
	known     bool
	padSpace  bool // PAD SPACE (trailing spaces stripped by collation.TrimPad)
	style     textStyle
	asciiUnit [128]uint16 // styleUnits16: the weight of each ASCII byte
	asciiByte [128]byte   // styleUnits16: its one-byte units16 form, 0 if longer
}

// collInfos is indexed by collation id.
var collInfos = func() []*collInfo {
	const maxID = 4096
	infos := make([]*collInfo, maxID)
	for id := 0; id < maxID; id++ {
		c := colldata.Lookup(collations.ID(id))
		if c == nil {
			continue
		}
		info := &collInfo{known: true, padSpace: collation.PadSpace(collations.ID(id))}
		cs := c.Charset().Name()
		utf8 := cs == "utf8mb4" || cs == "utf8mb3"
		switch c.(type) {
		case *colldata.Collation_unicode_bin:
			if utf8 && info.padSpace {
				info.style = styleUTF8Bin
			}
		case *colldata.Collation_unicode_general_ci:
			if utf8 && info.padSpace {
				info.style = styleUnits16
				for ch := 0; ch < 128; ch++ {
					w := c.WeightString(nil, []byte{byte(ch)}, 0)
					if len(w) != 2 {
						info.style = styleEscaped
						break
					}
					info.asciiUnit[ch] = uint16(w[0])<<8 | uint16(w[1])
					if u := info.asciiUnit[ch]; u < units16Two {
						info.asciiByte[ch] = byte(u + 1)
					}
				}
			}
		}
		infos[id] = info
	}
	return infos
}()

func lookupColl(id collations.ID) (colldata.Collation, *collInfo, error) {
	_, coll, info, err := lookupCollID(id)
	return coll, info, err
}

// lookupCollID is lookupColl with the id of the collation text is weighed
// under.
func lookupCollID(id collations.ID) (collations.ID, colldata.Collation, *collInfo, error) {
	// Text is stored as UTF-8 whatever the column's character set, and
	// weighed under the collation expressions compare it with.
	id = collation.EvalCollation(id)
	if int(id) < len(collInfos) && collInfos[id] != nil {
		return id, colldata.Lookup(id), collInfos[id], nil
	}
	return id, nil, nil, fmt.Errorf("collation %d: %w", id, ErrUnknownCollation)
}

// appendTextKey appends the key of text s under collation id: s truncated to
// prefix characters when prefix > 0, trailing spaces stripped for PAD SPACE
// collations, then weighed and made prefix-free per the collation's style.
// It needs no scratch buffer: weights are written into b and rewritten in
// place.
func appendTextKey(b []byte, id collations.ID, s []byte, prefix int) ([]byte, error) {
	wid, coll, info, err := lookupCollID(id)
	if err != nil {
		return b, err
	}
	if prefix > 0 {
		// ASCII characters are a byte each.
		if n := collation.ASCIIPrefix(s, prefix); n == prefix || n == len(s) {
			s = s[:n]
		} else {
			s = charset.Slice(coll.Charset(), s, 0, prefix)
		}
	}
	if info.padSpace {
		s = collation.TrimPad(id, s)
	}
	switch info.style {
	case styleUTF8Bin:
		return encoding.EncodeBytesAsc(b, s), nil
	case styleUnits16:
		return appendUnits16(b, coll, info, s), nil
	}
	start := len(b)
	b = collation.AppendWeightString(b, wid, coll, s)
	return escapeInPlace(b, start), nil
}

// units16 encoding of a sequence of 16-bit weights w, order-preserving and
// prefix-free:
//
//	units16 = { unit } 0x00
//	unit    = w+1                              w < 0x7f           (0x01..0x7f)
//	        | 0x80|(w-0x7f)>>8, (w-0x7f)&0xff  w < 0x7f+0x4000     (0x80..0xbf, any)
//	        | 0xc0, w>>8, w&0xff               otherwise
const (
	units16Two   = 0x7f
	units16Three = 0x7f + 0x4000
)

func appendUnit16(b []byte, w uint16) []byte {
	switch {
	case w < units16Two:
		return append(b, byte(w+1))
	case w < units16Three:
		v := w - units16Two
		return append(b, 0x80|byte(v>>8), byte(v))
	}
	return append(b, 0xc0, byte(w>>8), byte(w))
}

func appendUnits16(b []byte, coll colldata.Collation, info *collInfo, s []byte) []byte {
	start := len(b)
	for _, c := range s {
		if c >= 0x80 {
			return appendUnits16Slow(b[:start], coll, s)
		}
		if x := info.asciiByte[c]; x != 0 {
			b = append(b, x)
		} else {
			b = appendUnit16(b, info.asciiUnit[c])
		}
	}
	return append(b, 0x00)
}

// appendUnits16Slow weighs s through the collation (any characters).
func appendUnits16Slow(b []byte, coll colldata.Collation, s []byte) []byte {
	// Weigh into b, move the weights right by one byte per unit (the most
	// the rewrite can grow), then rewrite front to back: after k units the
	// writer is at most 3k bytes in, the reader 2k+gap, so it never
	// overtakes.
	start := len(b)
	b = coll.WeightString(b, s, 0)
	wlen := len(b) - start
	gap := wlen / 2
	for i := 0; i < gap; i++ {
		b = append(b, 0)
	}
	copy(b[start+gap:], b[start:start+wlen])
	r, w := start+gap, start
	for ; r+1 < start+gap+wlen; r += 2 {
		unit := uint16(b[r])<<8 | uint16(b[r+1])
		n := len(appendUnit16(b[w:w], unit)) // writes in place: w+3 <= r+2
		w += n
	}
	b = b[:w]
	return append(b, 0x00)
}

// skipUnits16 returns b after one units16 encoding (complemented when mask
// is 0xff).
func skipUnits16(b []byte, mask byte) ([]byte, error) {
	for i := 0; i < len(b); {
		switch c := b[i] ^ mask; {
		case c == 0:
			return b[i+1:], nil
		case c < 0x80:
			i++
		case c < 0xc0:
			i += 2
		default:
			i += 3
		}
	}
	return b, fmt.Errorf("skip text key: missing terminator: %w", encoding.ErrShortBuffer)
}

// skipText returns b after the text key of collation id.
func skipText(b []byte, id collations.ID, desc bool) ([]byte, error) {
	_, info, err := lookupColl(id)
	if err != nil {
		return b, err
	}
	switch {
	case info.style == styleUnits16 && desc:
		return skipUnits16(b, 0xff)
	case info.style == styleUnits16:
		return skipUnits16(b, 0)
	case desc:
		return encoding.SkipBytesDesc(b)
	}
	return encoding.SkipBytesAsc(b)
}

// escapeInPlace turns b[start:] into its EncodeBytesAsc form in place.
func escapeInPlace(b []byte, start int) []byte {
	zeros := bytes.Count(b[start:], []byte{0})
	n := len(b)
	if zeros == 0 {
		return append(b, 0x00, 0x01)
	}
	total := n + zeros + 2
	for len(b) < total {
		b = append(b, 0)
	}
	b[total-2], b[total-1] = 0x00, 0x01
	w := total - 2
	for r := n; r > start; {
		i := bytes.LastIndexByte(b[start:r], 0)
		if i < 0 {
			copy(b[start:w], b[start:r])
			break
		}
		i += start
		seg := r - i - 1 // bytes after the zero
		copy(b[w-seg:w], b[i+1:r])
		w -= seg
		w -= 2
		b[w], b[w+1] = 0x00, 0xff
		r = i
	}
	return b
}

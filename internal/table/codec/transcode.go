package codec

import (
	"errors"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/encoding"
)

// ErrNoTranscode means KeyTranscoder.AppendKey cannot build this row's key
// from its stored bytes (a column added after the row was written, or a
// value outside its column's range); the caller decodes the row and uses
// AppendKey instead.
var ErrNoTranscode = errors.New("codec: key not transcodable from the stored row")

// KeyTranscoder builds the key parts of one index straight from a stored
// row value, without decoding the values to text and parsing them back:
// the bytes are the ones AppendKey gives for the decoded row (the tests
// compare both on every supported type). Index builds read every row of
// a table, and that text round trip was most of their decoding cost.
//
// Supported key columns: integers, DATE, DATETIME, TIMESTAMP and strings
// (text with a collation, or binary), stored in the row value (not
// recovered from the primary key), with any prefix length and direction.
// NewKeyTranscoder returns nil for an index with any other column.
type KeyTranscoder struct {
	rc    *RowCodec
	parts []transPart
	// slot[i] is the index into parts of table column i, or -1.
	slot []int
	last int // the last table column a part reads
}

// transPart is one key part: its column and where this row's stored value
// starts (set per row by locate).
type transPart struct {
	col    *catalog.Column
	ci     *colInfo
	ord    int
	prefix int
	desc   bool
	val    []byte // the stored value (nil: NULL)
}

// NewKeyTranscoder returns a transcoder for the key parts cols of an
// index of rc's table, or nil when a part's column is not supported.
func (rc *RowCodec) NewKeyTranscoder(cols []catalog.IndexColumn) *KeyTranscoder {
	kt := &KeyTranscoder{rc: rc, slot: make([]int, len(rc.cols)), last: -1}
	for i := range kt.slot {
		kt.slot[i] = -1
	}
	for _, ic := range cols {
		if ic.Col < 0 || ic.Col >= len(rc.cols) || kt.slot[ic.Col] >= 0 {
			return nil
		}
		ci := &rc.cols[ic.Col]
		if !ci.stored {
			return nil
		}
		switch ci.kind {
		case kindInt, kindUint, kindDate, kindDatetime, kindText, kindBytes:
		default:
			return nil
		}
		kt.slot[ic.Col] = len(kt.parts)
		kt.parts = append(kt.parts, transPart{col: &rc.t.Columns[ic.Col], ci: ci, ord: ic.Col, prefix: ic.Prefix, desc: ic.Desc})
		kt.last = max(kt.last, ic.Col)
	}
	return kt
}

// AppendKey appends the key parts of the row stored as value to dst, and
// reports whether any of them is NULL. On ErrNoTranscode the caller falls
// back to decoding the row; other errors mean a corrupt row.
func (kt *KeyTranscoder) AppendKey(dst, value []byte) ([]byte, bool, error) {
	if err := kt.locate(value); err != nil {
		return dst, false, err
	}
	hasNull := false
	for i := range kt.parts {
		part := &kt.parts[i]
		start := len(dst)
		if part.val == nil {
			dst = append(dst, encoding.NullMarker)
			hasNull = true
		} else {
			var err error
			dst = append(dst, encoding.NotNullMarker)
			if dst, err = part.appendKey(dst); err != nil {
				return dst[:start], false, err
			}
		}
		if part.desc {
			encoding.Invert(dst[start:])
		}
	}
	return dst, hasNull, nil
}

// locate walks the stored row, pointing each part at its value.
func (kt *KeyTranscoder) locate(value []byte) error {
	rc := kt.rc
	p, ncols, bitmap, err := rc.header(value)
	if err != nil {
		return err
	}
	if kt.last >= int(ncols) {
		return ErrNoTranscode // a key column has its default in this row
	}
	for i := 0; i <= kt.last; i++ {
		ci := &rc.cols[i]
		if !ci.stored {
			continue
		}
		null := bitmap[ci.storedIdx>>3]&(1<<(ci.storedIdx&7)) != 0
		if s := kt.slot[i]; s >= 0 {
			kt.parts[s].val = nil
			if !null {
				kt.parts[s].val = p
			}
		}
		if null {
			continue
		}
		if p, err = skipRowValue(p, ci); err != nil {
			return wrapErr("decode row", rc.t.Columns[i].Name, err)
		}
	}
	return nil
}

// appendKey appends the typed key encoding of the part's stored value (the
// bytes appendKeyValue gives for its decoded text).
func (part *transPart) appendKey(b []byte) ([]byte, error) {
	p := part.val
	switch part.ci.kind {
	case kindInt:
		_, x, err := encoding.DecodeVarint(p)
		if err != nil {
			return b, err
		}
		if x < intMin[part.ci.width] || x > intMax[part.ci.width] {
			return b, ErrNoTranscode
		}
		return encoding.EncodeIntAsc(b, x, part.ci.width), nil
	case kindUint:
		_, x, err := encoding.DecodeUvarint(p)
		if err != nil {
			return b, err
		}
		if x > uintMax[part.ci.width] {
			return b, ErrNoTranscode
		}
		return encoding.EncodeUintAsc(b, x, part.ci.width), nil
	case kindDate:
		_, x, err := encoding.DecodeUvarint(p)
		if err != nil {
			return b, err
		}
		d := unpackDate(x)
		if !d.textRoundTrips() {
			return b, ErrNoTranscode
		}
		return encoding.EncodeUintAsc(b, d.packDate(), 3), nil
	case kindDatetime:
		p, x, err := encoding.DecodeUvarint(p)
		if err != nil {
			return b, err
		}
		var micro uint64
		if x&1 != 0 {
			if _, micro, err = encoding.DecodeUvarint(p); err != nil {
				return b, err
			}
		}
		d := unpackSeconds(x>>1, int(micro%1000000))
		if !d.textRoundTrips() {
			return b, ErrNoTranscode
		}
		b = encoding.EncodeUintAsc(b, d.packSeconds(), 5)
		if fb := fracBytes(fsp(part.col)); fb > 0 {
			// The text keeps fsp digits of the fraction (appendFrac).
			keep := fsp(part.col)
			m := d.micro
			for i := keep; i < 6; i++ {
				m /= 10
			}
			for i := keep; i < 6; i++ {
				m *= 10
			}
			b = encoding.EncodeUintAsc(b, uint64(m/fracUnit[fb]), fb)
		}
		return b, nil
	case kindText:
		_, s, err := decodeLenBytes(p)
		if err != nil {
			return b, err
		}
		return appendTextKey(b, part.col.Collation, s, part.prefix)
	default: // kindBytes
		_, s, err := decodeLenBytes(p)
		if err != nil {
			return b, err
		}
		if part.prefix > 0 && len(s) > part.prefix {
			s = s[:part.prefix]
		}
		return encoding.EncodeBytesAsc(b, s), nil
	}
}

// textRoundTrips reports whether d's canonical text parses back to d
// (parseDatetime's field widths and ranges), which the transcoded key
// relies on.
func (d datetime) textRoundTrips() bool {
	return d.year >= 0 && d.year <= 9999 && d.month <= 12 && d.day <= 31 &&
		d.hour <= 23 && d.minute <= 59 && d.second <= 59
}

package codec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/encoding"
)

// AppendKey appends the memcomparable key part for v: NullMarker for NULL,
// else NotNullMarker followed by the typed encoding (see the package doc for
// the layout of every type). prefix > 0 truncates text to that many
// characters (bytes for binary strings) before weighing, for index key-part
// prefixes. desc inverts the bytes of this key part so that a descending
// index sorts in reverse. On error b is returned unchanged.
func AppendKey(b []byte, col *catalog.Column, v sqltypes.Value, prefix int, desc bool) ([]byte, error) {
	start := len(b)
	if v.IsNull() {
		b = append(b, encoding.NullMarker)
	} else {
		var err error
		b = append(b, encoding.NotNullMarker)
		if b, err = appendKeyValue(b, col, v.Raw(), prefix); err != nil {
			return b[:start], wrapErr("encode key", col.Name, err)
		}
	}
	if desc {
		encoding.Invert(b[start:])
	}
	return b, nil
}

func appendKeyValue(b []byte, col *catalog.Column, s []byte, prefix int) ([]byte, error) {
	k, width := kindOf(col)
	switch k {
	case kindInt:
		v, err := parseIntWidth(s, width)
		if err != nil {
			return b, err
		}
		return encoding.EncodeIntAsc(b, v, width), nil
	case kindUint:
		v, err := parseUintWidth(s, width)
		if err != nil {
			return b, err
		}
		return encoding.EncodeUintAsc(b, v, width), nil
	case kindYear:
		y, err := parseYear(s)
		if err != nil {
			return b, err
		}
		if y != 0 {
			y -= 1900
		}
		return append(b, byte(y)), nil
	case kindFloat32:
		f, err := strconv.ParseFloat(bytesToString(s), 32)
		if err != nil || math.IsNaN(f) {
			return b, ErrBadValue
		}
		return encoding.EncodeFloat32Asc(b, float32(f)), nil
	case kindFloat64:
		f, err := strconv.ParseFloat(bytesToString(s), 64)
		if err != nil || math.IsNaN(f) {
			return b, ErrBadValue
		}
		return encoding.EncodeFloat64Asc(b, f), nil
	case kindDecimal:
		out, err := encoding.AppendDecimalAsc(b, s)
		if err != nil {
			return b, fmt.Errorf("%w: %w", ErrBadValue, err)
		}
		return out, nil
	case kindDate:
		d, err := parseDatetime(s, false)
		if err != nil {
			return b, err
		}
		return encoding.EncodeUintAsc(b, d.packDate(), 3), nil
	case kindDatetime:
		d, err := parseDatetime(s, true)
		if err != nil {
			return b, err
		}
		b = encoding.EncodeUintAsc(b, d.packSeconds(), 5)
		if fb := fracBytes(fsp(col)); fb > 0 {
			b = encoding.EncodeUintAsc(b, uint64(d.micro/fracUnit[fb]), fb)
		}
		return b, nil
	case kindTime:
		neg, secs, micro, err := parseTime(s)
		if err != nil {
			return b, err
		}
		fb := fracBytes(fsp(col))
		v := secs*fracMul[fb] + int64(micro/fracUnit[fb])
		if neg {
			v = -v
		}
		return encoding.EncodeIntAsc(b, v, 3+fb), nil
	case kindEnum:
		i, err := enumIndex(col, s)
		if err != nil {
			return b, err
		}
		return encoding.EncodeUintAsc(b, i, 2), nil
	case kindSet:
		bits, err := setBits(col, s)
		if err != nil {
			return b, err
		}
		return encoding.EncodeUint64Asc(b, bits), nil
	case kindBit:
		u, err := bitValue(s)
		if err != nil {
			return b, err
		}
		return encoding.EncodeUint64Asc(b, u), nil
	case kindText:
		return appendTextKey(b, col.Collation, s, prefix)
	default:
		if prefix > 0 && len(s) > prefix {
			s = s[:prefix]
		}
		return encoding.EncodeBytesAsc(b, s), nil
	}
}

// keyWidth returns the width of the fixed-size key encodings after the null
// marker, or 0 for the variable-size ones (decimal, text, bytes).
func keyWidth(col *catalog.Column) int {
	switch k, width := kindOf(col); k {
	case kindInt, kindUint, kindYear, kindFloat32, kindFloat64, kindDate, kindEnum, kindSet, kindBit:
		return width
	case kindDatetime:
		return 5 + fracBytes(fsp(col))
	case kindTime:
		return 3 + fracBytes(fsp(col))
	}
	return 0
}

// SkipKey returns b after one key part of col (any type, asc or desc).
func SkipKey(b []byte, col *catalog.Column, desc bool) ([]byte, error) {
	var mask byte
	if desc {
		mask = 0xff
	}
	if len(b) == 0 {
		return b, wrapErr("skip key", col.Name, encoding.ErrShortBuffer)
	}
	switch b[0] ^ mask {
	case encoding.NullMarker:
		return b[1:], nil
	case encoding.NotNullMarker:
	default:
		return b, wrapErr("skip key", col.Name, ErrCorruptRow)
	}
	b = b[1:]
	if w := keyWidth(col); w > 0 {
		if len(b) < w {
			return b, wrapErr("skip key", col.Name, encoding.ErrShortBuffer)
		}
		return b[w:], nil
	}
	var rest []byte
	var err error
	switch k, _ := kindOf(col); {
	case k == kindDecimal && desc:
		rest, err = encoding.SkipDecimalDesc(b)
	case k == kindDecimal:
		rest, err = encoding.SkipDecimalAsc(b)
	case k == kindText:
		rest, err = skipText(b, col.Collation, desc)
	case desc:
		rest, err = encoding.SkipBytesDesc(b)
	default:
		rest, err = encoding.SkipBytesAsc(b)
	}
	if err != nil {
		return b, wrapErr("skip key", col.Name, err)
	}
	return rest, nil
}

// KeyDecodable reports whether DecodeKey can recover the exact value of col
// from its key part: true for integers, YEAR, DATE, DATETIME, TIMESTAMP,
// TIME, ENUM, SET, BIT, DECIMAL (the column scale is re-applied) and binary
// strings; false for text with a collation (weights are not reversible) and
// FLOAT/DOUBLE (-0 is folded into +0). A key part with a prefix is never
// decodable, whatever KeyDecodable says.
func KeyDecodable(col *catalog.Column) bool {
	switch k, _ := kindOf(col); k {
	case kindText, kindFloat32, kindFloat64:
		return false
	}
	return true
}

// DecodeKey decodes one key part of col written by AppendKey (without a
// prefix). The value's bytes are appended to dst, so v aliases dst's array
// when it has room; use AppendDecodedKey to keep appending to the same
// buffer. It fails for columns that are not KeyDecodable.
func DecodeKey(b []byte, col *catalog.Column, desc bool, dst []byte) (rest []byte, v sqltypes.Value, err error) {
	rest, _, v, err = AppendDecodedKey(b, col, desc, dst)
	return rest, v, err
}

// AppendDecodedKey is DecodeKey returning the extended dst as well: v
// aliases dst[len(dst):len(out)], so decoding several key parts into one
// buffer costs no allocation once the buffer is large enough.
func AppendDecodedKey(b []byte, col *catalog.Column, desc bool, dst []byte) (rest, out []byte, v sqltypes.Value, err error) {
	if !KeyDecodable(col) {
		return b, dst, sqltypes.NULL, wrapErr("decode key", col.Name, fmt.Errorf("%w: type %s is not decodable from a key", ErrBadValue, col.Type))
	}
	var mask byte
	if desc {
		mask = 0xff
	}
	if len(b) == 0 {
		return b, dst, sqltypes.NULL, wrapErr("decode key", col.Name, encoding.ErrShortBuffer)
	}
	switch b[0] ^ mask {
	case encoding.NullMarker:
		return b[1:], dst, sqltypes.NULL, nil
	case encoding.NotNullMarker:
	default:
		return b, dst, sqltypes.NULL, wrapErr("decode key", col.Name, ErrCorruptRow)
	}
	start := len(dst)
	rest, dst, err = appendKeyValueText(b[1:], col, desc, dst)
	if err != nil {
		return b, dst[:start], sqltypes.NULL, wrapErr("decode key", col.Name, err)
	}
	return rest, dst, sqltypes.MakeTrusted(col.Type, dst[start:len(dst):len(dst)]), nil
}

// appendKeyValueText decodes the typed key encoding after the null marker
// and appends the value's canonical text to dst.
func appendKeyValueText(b []byte, col *catalog.Column, desc bool, dst []byte) (rest, out []byte, err error) {
	k, width := kindOf(col)
	switch k {
	case kindDecimal:
		start := len(dst)
		rest, dst, err = encoding.AppendDecodedDecimal(b, dst, desc)
		if err != nil {
			return b, dst, err
		}
		return rest, applyScale(dst, len(dst)-start, col.Scale), nil
	case kindBytes:
		if desc {
			return encoding.DecodeBytesDesc(b, dst)
		}
		return encoding.DecodeBytesAsc(b, dst)
	}
	w := keyWidth(col)
	if len(b) < w {
		return b, dst, encoding.ErrShortBuffer
	}
	var fixed [16]byte
	copy(fixed[:], b[:w])
	if desc {
		encoding.Invert(fixed[:w])
	}
	rest = b[w:]
	switch k {
	case kindInt:
		_, v, _ := encoding.DecodeIntAsc(fixed[:w], width)
		return rest, strconv.AppendInt(dst, v, 10), nil
	case kindUint:
		_, v, _ := encoding.DecodeUintAsc(fixed[:w], width)
		return rest, strconv.AppendUint(dst, v, 10), nil
	case kindYear:
		y := int(fixed[0])
		if y != 0 {
			y += 1900
		}
		return rest, appendYear(dst, y), nil
	case kindDate:
		_, p, _ := encoding.DecodeUintAsc(fixed[:3], 3)
		return rest, unpackDate(p).appendDate(dst), nil
	case kindDatetime:
		_, p, _ := encoding.DecodeUintAsc(fixed[:5], 5)
		scale := fsp(col)
		micro := 0
		if fb := fracBytes(scale); fb > 0 {
			_, f, _ := encoding.DecodeUintAsc(fixed[5:w], fb)
			micro = int(f) * fracUnit[fb]
		}
		return rest, unpackSeconds(p, micro).appendDatetime(dst, scale), nil
	case kindTime:
		scale := fsp(col)
		fb := fracBytes(scale)
		_, v, _ := encoding.DecodeIntAsc(fixed[:w], w)
		neg := v < 0
		if neg {
			v = -v
		}
		secs := v / fracMul[fb]
		if secs > maxTimeSeconds {
			return b, dst, ErrCorruptRow
		}
		micro := int(v%fracMul[fb]) * fracUnit[fb]
		return rest, appendTime(dst, neg, secs, micro, scale), nil
	case kindEnum:
		_, i, _ := encoding.DecodeUintAsc(fixed[:2], 2)
		dst, err = appendEnum(dst, col, i)
		return rest, dst, err
	case kindSet:
		dst, err = appendSet(dst, col, binary.BigEndian.Uint64(fixed[:8]))
		return rest, dst, err
	case kindBit:
		return rest, append(dst, fixed[8-bitWidth(col.Length):8]...), nil
	}
	return b, dst, ErrBadValue
}

// applyScale pads the decimal text at the end of b (whose last n bytes are
// the number) with fraction zeros up to scale digits.
func applyScale(b []byte, n, scale int) []byte {
	if scale <= 0 {
		return b
	}
	num := b[len(b)-n:]
	frac := 0
	if i := bytes.IndexByte(num, '.'); i >= 0 {
		frac = len(num) - i - 1
	} else {
		b = append(b, '.')
	}
	for ; frac < scale; frac++ {
		b = append(b, '0')
	}
	return b
}

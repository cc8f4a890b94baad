package codec

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/encoding"
)

// rowFormatV1 is the first byte of every row value written by this version.
const rowFormatV1 = 0x01

// maxDecimalScale bounds the scale read back from a stored decimal.
const maxDecimalScale = 64

// colInfo is the precomputed storage class of one table column.
type colInfo struct {
	kind      kind
	width     int
	stored    bool // in the row value (else recovered from the primary key)
	storedIdx int  // ordinal among stored columns (null bitmap bit)
}

// pkPart is one key part of the primary key.
type pkPart struct {
	col     int
	desc    bool
	recover bool // the column is not stored: decode it from the key
}

// RowCodec encodes and decodes the row values of one table definition. It
// holds no mutable state and is safe for concurrent use.
//
// Stored columns are all columns except primary-key columns that are
// KeyDecodable and have no key-part prefix; those are recovered from the
// primary key. Layout of a row value:
//
//	row      = 0x01 (format) || uvarint(N) || bitmap || { value }
//	N        = number of table columns when the row was written
//	bitmap   = ceil(S/8) bytes, S = stored columns among the first N;
//	           bit i (LSB first) set = i-th stored column is NULL
//	value    = one per non-NULL stored column, in column order:
//	  signed int             varint (zigzag)
//	  unsigned int, YEAR     uvarint
//	  FLOAT / DOUBLE         4 / 8 bytes LE IEEE bits
//	  DECIMAL                uvarint(scale<<1) || varint(unscaled)   (<= 18 digits)
//	                       | uvarint(1) || uvarint(len) || text      (longer)
//	  DATE                   uvarint(year<<9 | month<<5 | day)
//	  DATETIME, TIMESTAMP    uvarint(packed<<1 | hasMicro) [|| uvarint(micro)]
//	  TIME                   varint(±(seconds<<1 | hasMicro)) [|| uvarint(micro)]
//	  ENUM / SET             uvarint(member index / member bitmask)
//	  strings, BIT, JSON     uvarint(len) || bytes
//
// Columns appended to the table after a row was written (ordinal >= N) read
// as their default. Dropping, reordering or retyping columns needs a table
// rewrite.
type RowCodec struct {
	t            *catalog.Table
	cols         []colInfo
	storedBefore []int // storedBefore[n]: stored columns among the first n
	pk           []pkPart
	lastRecover  int // last index into pk with recover set, -1 if none
	fmtBound     int // bytes of formatted (non-aliasing) text per row, upper bound
}

// NewRowCodec returns the row codec of table t. t must not change afterwards
// (catalog definitions are immutable).
func NewRowCodec(t *catalog.Table) *RowCodec {
	rc := &RowCodec{
		t:            t,
		cols:         make([]colInfo, len(t.Columns)),
		storedBefore: make([]int, len(t.Columns)+1),
		lastRecover:  -1,
	}
	for i := range t.Columns {
		k, w := kindOf(&t.Columns[i])
		rc.cols[i] = colInfo{kind: k, width: w, stored: true}
	}
	if !t.HiddenPK && len(t.Indexes) > 0 {
		for _, ic := range t.Primary().Columns {
			col := &t.Columns[ic.Col]
			p := pkPart{col: ic.Col, desc: ic.Desc, recover: ic.Prefix == 0 && KeyDecodable(col) && rc.cols[ic.Col].stored}
			if p.recover {
				rc.cols[ic.Col].stored = false
				rc.lastRecover = len(rc.pk)
				rc.fmtBound += textBound(col, rc.cols[ic.Col].kind)
			}
			rc.pk = append(rc.pk, p)
		}
	}
	n := 0
	for i := range rc.cols {
		rc.storedBefore[i] = n
		if rc.cols[i].stored {
			rc.cols[i].storedIdx = n
			n++
			rc.fmtBound += textBound(&t.Columns[i], rc.cols[i].kind)
		}
	}
	rc.storedBefore[len(rc.cols)] = n
	return rc
}

// textBound is an upper bound on the text a decoded value of col formats
// into the decode buffer (values that alias the input count 0).
func textBound(col *catalog.Column, k kind) int {
	switch k {
	case kindInt, kindUint:
		return 20
	case kindYear:
		return 4
	case kindFloat32, kindFloat64:
		return 24
	case kindDecimal:
		return 20 + 3 + maxDecimalScale
	case kindDate:
		return 10
	case kindDatetime:
		return 26
	case kindTime:
		return 17
	case kindEnum, kindSet:
		n := 0
		for _, m := range col.EnumValues {
			if k == kindEnum {
				n = max(n, len(m))
			} else {
				n += len(m) + 1
			}
		}
		return n
	}
	return 0
}

// Table returns the table definition the codec was built for.
func (rc *RowCodec) Table() *catalog.Table { return rc.t }

// Stored reports whether column i is kept in the row value (false for
// primary-key columns recovered from the key).
func (rc *RowCodec) Stored(i int) bool { return rc.cols[i].stored }

// EncodeRow appends the value bytes of a full row (len(row) ==
// len(t.Columns)). Values must be in the canonical text of their column type.
// On error dst is returned unchanged.
func (rc *RowCodec) EncodeRow(dst []byte, row []sqltypes.Value) ([]byte, error) {
	if len(row) != len(rc.cols) {
		return dst, fmt.Errorf("encode row of %s: %d values for %d columns: %w", rc.t.Name, len(row), len(rc.cols), ErrBadValue)
	}
	start := len(dst)
	dst = append(dst, rowFormatV1)
	dst = encoding.AppendUvarint(dst, uint64(len(rc.cols)))
	bm := len(dst)
	for i := (rc.storedBefore[len(rc.cols)] + 7) / 8; i > 0; i-- {
		dst = append(dst, 0)
	}
	for i := range rc.cols {
		ci := &rc.cols[i]
		if !ci.stored {
			continue
		}
		if row[i].IsNull() {
			dst[bm+ci.storedIdx>>3] |= 1 << (ci.storedIdx & 7)
			continue
		}
		var err error
		if dst, err = appendRowValue(dst, &rc.t.Columns[i], ci, row[i].Raw()); err != nil {
			return dst[:start], wrapErr("encode row", rc.t.Columns[i].Name, err)
		}
	}
	return dst, nil
}

func appendRowValue(b []byte, col *catalog.Column, ci *colInfo, s []byte) ([]byte, error) {
	switch ci.kind {
	case kindInt:
		v, err := parseIntWidth(s, ci.width)
		if err != nil {
			return b, err
		}
		return encoding.AppendVarint(b, v), nil
	case kindUint:
		v, err := parseUintWidth(s, ci.width)
		if err != nil {
			return b, err
		}
		return encoding.AppendUvarint(b, v), nil
	case kindYear:
		y, err := parseYear(s)
		if err != nil {
			return b, err
		}
		return encoding.AppendUvarint(b, uint64(y)), nil
	case kindFloat32:
		f, err := strconv.ParseFloat(bytesToString(s), 32)
		if err != nil {
			return b, ErrBadValue
		}
		return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(f))), nil
	case kindFloat64:
		f, err := strconv.ParseFloat(bytesToString(s), 64)
		if err != nil {
			return b, ErrBadValue
		}
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(f)), nil
	case kindDecimal:
		return appendRowDecimal(b, s)
	case kindDate:
		d, err := parseDatetime(s, false)
		if err != nil {
			return b, err
		}
		return encoding.AppendUvarint(b, d.packDate()), nil
	case kindDatetime:
		d, err := parseDatetime(s, true)
		if err != nil {
			return b, err
		}
		p := d.packSeconds() << 1
		if d.micro == 0 {
			return encoding.AppendUvarint(b, p), nil
		}
		b = encoding.AppendUvarint(b, p|1)
		return encoding.AppendUvarint(b, uint64(d.micro)), nil
	case kindTime:
		neg, secs, micro, err := parseTime(s)
		if err != nil {
			return b, err
		}
		v := secs << 1
		if micro != 0 {
			v |= 1
		}
		if neg {
			v = -v
		}
		b = encoding.AppendVarint(b, v)
		if micro != 0 {
			b = encoding.AppendUvarint(b, uint64(micro))
		}
		return b, nil
	case kindEnum:
		i, err := enumIndex(col, s)
		if err != nil {
			return b, err
		}
		return encoding.AppendUvarint(b, i), nil
	case kindSet:
		bits, err := setBits(col, s)
		if err != nil {
			return b, err
		}
		return encoding.AppendUvarint(b, bits), nil
	default:
		b = encoding.AppendUvarint(b, uint64(len(s)))
		return append(b, s...), nil
	}
}

// appendRowDecimal stores a decimal text as its unscaled integer and scale
// when it has at most 18 significant digits, else as the text itself.
func appendRowDecimal(b, s []byte) ([]byte, error) {
	i, neg := 0, false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg, i = s[0] == '-', 1
	}
	var u uint64
	sig, nd, scale := 0, 0, -1
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			nd++
			if scale >= 0 {
				scale++
			}
			if sig > 0 || c != '0' {
				sig++
			}
			if sig <= 18 {
				u = u*10 + uint64(c-'0')
			}
		case c == '.' && scale < 0:
			scale = 0
		default:
			return b, ErrBadValue
		}
	}
	if nd == 0 {
		return b, ErrBadValue
	}
	scale = max(scale, 0)
	if sig <= 18 && scale <= maxDecimalScale {
		v := int64(u)
		if neg {
			v = -v
		}
		b = encoding.AppendUvarint(b, uint64(scale)<<1)
		return encoding.AppendVarint(b, v), nil
	}
	b = encoding.AppendUvarint(b, 1)
	b = encoding.AppendUvarint(b, uint64(len(s)))
	return append(b, s...), nil
}

// DecodeRow decodes a full row into dst (reused when it has room; the result
// has len(t.Columns) values). pkSuffix is the primary key after the 4-byte
// index id (the key parts of the primary-key columns in index order, or the
// hidden row id), used to recover the primary-key columns that are not
// stored. Columns added after the row was written take col.Default when
// HasDefault, else NULL.
//
// Ownership: every value is formatted or copied into one buffer allocated
// per call; none aliases value, which usually is the storage engine's own
// memory (a memtable or a cached block) — a bug that wrote into a decoded
// value must never reach the store. DecodeRowBuf reuses a caller's buffer.
func (rc *RowCodec) DecodeRow(dst []sqltypes.Value, pkSuffix, value []byte) ([]sqltypes.Value, error) {
	buf := make([]byte, 0, rc.fmtBound+rc.pkBound(pkSuffix)+len(value))
	row, _, err := rc.DecodeRowBuf(dst, buf, pkSuffix, value)
	return row, err
}

// pkBound is the decode-buffer room needed for binary primary-key columns
// unescaped from the key (at most the key's length).
func (rc *RowCodec) pkBound(pkSuffix []byte) int {
	if rc.lastRecover < 0 {
		return 0
	}
	return len(pkSuffix)
}

// DecodeRowBuf is DecodeRow formatting into buf (appended to, and returned
// extended): values alias buf's array (never value), so buf may be reused
// (as buf[:0]) only once the previous row's values are no longer needed.
func (rc *RowCodec) DecodeRowBuf(dst []sqltypes.Value, buf, pkSuffix, value []byte) ([]sqltypes.Value, []byte, error) {
	return rc.DecodeColumns(dst, buf, pkSuffix, value, nil)
}

// DecodeColumns is DecodeRowBuf decoding only the stored columns need
// marks (nil: all); the others are skipped and come out NULL, except
// primary-key columns that are not stored (the key gives them back). The
// bytes after the last column needed are not read (nor checked).
func (rc *RowCodec) DecodeColumns(dst []sqltypes.Value, buf, pkSuffix, value []byte, need []bool) ([]sqltypes.Value, []byte, error) {
	n := len(rc.cols)
	if cap(dst) >= n {
		dst = dst[:n]
	} else {
		dst = make([]sqltypes.Value, n)
	}
	// Room for everything appended below: formatted text, copied stored
	// bytes (at most len(value)) and key-recovered columns.
	if need := rc.fmtBound + rc.pkBound(pkSuffix) + len(value); cap(buf)-len(buf) < need {
		nb := make([]byte, len(buf), len(buf)+need)
		copy(nb, buf)
		buf = nb
	}
	p, ncols, bitmap, err := rc.header(value)
	if err != nil {
		return dst, buf, err
	}
	// With need, the values after the last column needed are not read.
	last := int(ncols) - 1
	if need != nil {
		for last >= 0 && !need[last] {
			last--
		}
	}
	for i := 0; i < int(ncols); i++ {
		ci := &rc.cols[i]
		if i > last {
			dst[i] = sqltypes.NULL
			continue
		}
		if !ci.stored {
			continue
		}
		if bitmap[ci.storedIdx>>3]&(1<<(ci.storedIdx&7)) != 0 {
			dst[i] = sqltypes.NULL
			continue
		}
		if need != nil && !need[i] {
			dst[i] = sqltypes.NULL
			if p, err = skipRowValue(p, ci); err != nil {
				return dst, buf, wrapErr("decode row", rc.t.Columns[i].Name, err)
			}
			continue
		}
		if p, buf, dst[i], err = decodeRowValue(p, buf, &rc.t.Columns[i], ci); err != nil {
			return dst, buf, wrapErr("decode row", rc.t.Columns[i].Name, err)
		}
	}
	if len(p) != 0 && last == int(ncols)-1 {
		return dst, buf, fmt.Errorf("decode row of %s: %d trailing bytes: %w", rc.t.Name, len(p), ErrCorruptRow)
	}
	for i := int(ncols); i < n; i++ {
		if col := &rc.t.Columns[i]; col.HasDefault {
			dst[i] = col.Default
		} else {
			dst[i] = sqltypes.NULL
		}
	}
	k := pkSuffix
	for j := 0; j <= rc.lastRecover; j++ {
		part := &rc.pk[j]
		col := &rc.t.Columns[part.col]
		if part.recover {
			k, buf, dst[part.col], err = AppendDecodedKey(k, col, part.desc, buf)
		} else {
			k, err = SkipKey(k, col, part.desc)
		}
		if err != nil {
			return dst, buf, fmt.Errorf("decode row of %s: primary key: %w", rc.t.Name, err)
		}
	}
	return dst, buf, nil
}

// header reads a row value's format byte, column count and NULL bitmap,
// returning the stored values after them.
func (rc *RowCodec) header(value []byte) (p []byte, ncols uint64, bitmap []byte, err error) {
	if len(value) == 0 || value[0] != rowFormatV1 {
		return nil, 0, nil, fmt.Errorf("decode row of %s: unknown format: %w", rc.t.Name, ErrCorruptRow)
	}
	p, ncols, err = encoding.DecodeUvarint(value[1:])
	if err != nil {
		return nil, 0, nil, fmt.Errorf("decode row of %s: %w", rc.t.Name, err)
	}
	if ncols > uint64(len(rc.cols)) {
		return nil, 0, nil, fmt.Errorf("decode row of %s: row has %d columns, table %d: %w", rc.t.Name, ncols, len(rc.cols), ErrCorruptRow)
	}
	nb := (rc.storedBefore[ncols] + 7) / 8
	if len(p) < nb {
		return nil, 0, nil, fmt.Errorf("decode row of %s: %w", rc.t.Name, encoding.ErrShortBuffer)
	}
	return p[nb:], ncols, p[:nb], nil
}

// decodeRowValue decodes one stored non-NULL value at p.
func decodeRowValue(p, buf []byte, col *catalog.Column, ci *colInfo) (rest, out []byte, v sqltypes.Value, err error) {
	start := len(buf)
	switch ci.kind {
	case kindInt:
		var x int64
		if p, x, err = encoding.DecodeVarint(p); err != nil {
			return p, buf, v, err
		}
		buf = strconv.AppendInt(buf, x, 10)
	case kindUint:
		var x uint64
		if p, x, err = encoding.DecodeUvarint(p); err != nil {
			return p, buf, v, err
		}
		buf = strconv.AppendUint(buf, x, 10)
	case kindYear:
		var x uint64
		if p, x, err = encoding.DecodeUvarint(p); err != nil {
			return p, buf, v, err
		}
		buf = appendYear(buf, int(x%10000))
	case kindFloat32:
		if len(p) < 4 {
			return p, buf, v, encoding.ErrShortBuffer
		}
		f := math.Float32frombits(binary.LittleEndian.Uint32(p))
		p = p[4:]
		buf = appendMySQLFloat(buf, float64(f), 32)
	case kindFloat64:
		if len(p) < 8 {
			return p, buf, v, encoding.ErrShortBuffer
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(p))
		p = p[8:]
		buf = appendMySQLFloat(buf, f, 64)
	case kindDecimal:
		var tag uint64
		if p, tag, err = encoding.DecodeUvarint(p); err != nil {
			return p, buf, v, err
		}
		if tag&1 != 0 {
			var s []byte
			if p, s, err = decodeLenBytes(p); err != nil {
				return p, buf, v, err
			}
			buf = append(buf, s...)
			break
		}
		var x int64
		if p, x, err = encoding.DecodeVarint(p); err != nil {
			return p, buf, v, err
		}
		scale := tag >> 1
		if scale > maxDecimalScale {
			return p, buf, v, ErrCorruptRow
		}
		buf = appendUnscaled(buf, x, int(scale))
	case kindDate:
		var x uint64
		if p, x, err = encoding.DecodeUvarint(p); err != nil {
			return p, buf, v, err
		}
		buf = unpackDate(x).appendDate(buf)
	case kindDatetime:
		var x, micro uint64
		if p, x, err = encoding.DecodeUvarint(p); err != nil {
			return p, buf, v, err
		}
		if x&1 != 0 {
			if p, micro, err = encoding.DecodeUvarint(p); err != nil {
				return p, buf, v, err
			}
		}
		buf = unpackSeconds(x>>1, int(micro%1000000)).appendDatetime(buf, fsp(col))
	case kindTime:
		var x int64
		var micro uint64
		if p, x, err = encoding.DecodeVarint(p); err != nil {
			return p, buf, v, err
		}
		neg := x < 0
		if neg {
			x = -x
		}
		if x&1 != 0 {
			if p, micro, err = encoding.DecodeUvarint(p); err != nil {
				return p, buf, v, err
			}
		}
		if x>>1 > maxTimeSeconds {
			return p, buf, v, ErrCorruptRow
		}
		buf = appendTime(buf, neg, x>>1, int(micro%1000000), fsp(col))
	case kindEnum:
		var x uint64
		if p, x, err = encoding.DecodeUvarint(p); err != nil {
			return p, buf, v, err
		}
		if buf, err = appendEnum(buf, col, x); err != nil {
			return p, buf, v, err
		}
	case kindSet:
		var x uint64
		if p, x, err = encoding.DecodeUvarint(p); err != nil {
			return p, buf, v, err
		}
		if buf, err = appendSet(buf, col, x); err != nil {
			return p, buf, v, err
		}
	default:
		var s []byte
		if p, s, err = decodeLenBytes(p); err != nil {
			return p, buf, v, err
		}
		buf = append(buf, s...)
	}
	return p, buf, sqltypes.MakeTrusted(col.Type, buf[start:len(buf):len(buf)]), nil
}

// skipRowValue steps over one stored non-NULL value at p (as
// decodeRowValue reads it).
func skipRowValue(p []byte, ci *colInfo) ([]byte, error) {
	var err error
	var x uint64
	var sx int64
	switch ci.kind {
	case kindInt:
		p, _, err = encoding.DecodeVarint(p)
	case kindUint, kindYear, kindDate, kindEnum, kindSet:
		p, _, err = encoding.DecodeUvarint(p)
	case kindFloat32, kindFloat64:
		w := 8
		if ci.kind == kindFloat32 {
			w = 4
		}
		if len(p) < w {
			return p, encoding.ErrShortBuffer
		}
		p = p[w:]
	case kindDecimal:
		if p, x, err = encoding.DecodeUvarint(p); err == nil {
			if x&1 != 0 {
				p, _, err = decodeLenBytes(p)
			} else {
				p, _, err = encoding.DecodeVarint(p)
			}
		}
	case kindDatetime:
		if p, x, err = encoding.DecodeUvarint(p); err == nil && x&1 != 0 {
			p, _, err = encoding.DecodeUvarint(p)
		}
	case kindTime:
		if p, sx, err = encoding.DecodeVarint(p); err == nil && (sx < 0 && -sx&1 != 0 || sx >= 0 && sx&1 != 0) {
			p, _, err = encoding.DecodeUvarint(p)
		}
	default:
		p, _, err = decodeLenBytes(p)
	}
	return p, err
}

// decodeLenBytes reads uvarint(len) || bytes, returning a capped subslice.
func decodeLenBytes(p []byte) (rest, s []byte, err error) {
	p, n, err := encoding.DecodeUvarint(p)
	if err != nil {
		return p, nil, err
	}
	if uint64(len(p)) < n {
		return p, nil, encoding.ErrShortBuffer
	}
	return p[n:], p[:n:n], nil
}

// appendUnscaled formats unscaled * 10^-scale.
func appendUnscaled(b []byte, x int64, scale int) []byte {
	u := uint64(x)
	if x < 0 {
		b = append(b, '-')
		u = -u
	}
	var tmp [20]byte
	digits := strconv.AppendUint(tmp[:0], u, 10)
	if scale == 0 {
		return append(b, digits...)
	}
	if len(digits) <= scale {
		b = append(b, '0', '.')
		for i := len(digits); i < scale; i++ {
			b = append(b, '0')
		}
		return append(b, digits...)
	}
	b = append(b, digits[:len(digits)-scale]...)
	b = append(b, '.')
	return append(b, digits[len(digits)-scale:]...)
}

// AppendHiddenPK appends the primary-key suffix of a table without a
// primary key: its hidden row id.
func AppendHiddenPK(b []byte, rowID uint64) []byte {
	return encoding.EncodeUint64Asc(b, rowID)
}

// DecodeHiddenPK decodes a hidden row id written by AppendHiddenPK.
func DecodeHiddenPK(b []byte) (rest []byte, rowID uint64, err error) {
	return encoding.DecodeUint64Asc(b)
}

// appendMySQLFloat formats a float as MySQL prints it: plain notation for
// 1e-15 <= |f| < 1e15, otherwise exponent notation without '+' (1e15).
func appendMySQLFloat(buf []byte, f float64, bits int) []byte {
	a := math.Abs(f)
	fmtc := byte('f')
	if a >= 1e15 || (a < 1e-15 && a != 0) {
		fmtc = 'g'
	}
	start := len(buf)
	buf = strconv.AppendFloat(buf, f, fmtc, -1, bits)
	for i := start; i+1 < len(buf); i++ {
		if buf[i] == 'e' && buf[i+1] == '+' {
			buf = append(buf[:i+1], buf[i+2:]...)
			break
		}
	}
	return buf
}

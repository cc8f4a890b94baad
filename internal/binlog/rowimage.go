package binlog

import (
	"encoding/binary"
	"math"
	"strconv"

	"vitess.io/vitess/go/sqltypes"
)

// appendRow appends one row image: the null bitmap of the (all present)
// columns, then each non-NULL value in MySQL's binlog format.
func (ti *tableInfo) appendRow(b []byte, row []sqltypes.Value) ([]byte, error) {
	n := len(ti.cols)
	at := len(b)
	for i := 0; i < (n+7)/8; i++ {
		b = append(b, 0)
	}
	var err error
	for i := range ti.cols {
		if i >= len(row) || row[i].IsNull() {
			b[at+i/8] |= 1 << (i % 8)
			continue
		}
		if b, err = ti.cols[i].appendValue(b, row[i]); err != nil {
			return b, err
		}
	}
	return b, nil
}

// appendValue appends v in the column's binlog format.
func (c *column) appendValue(b []byte, v sqltypes.Value) ([]byte, error) {
	raw := v.Raw()
	switch c.typ {
	case typeTiny, typeShort, typeInt24, typeLong, typeLongLong:
		var u uint64
		if c.unsigned {
			x, err := strconv.ParseUint(string(raw), 10, 64)
			if err != nil {
				return b, errBadValue(c.col, v)
			}
			u = x
		} else {
			x, err := strconv.ParseInt(string(raw), 10, 64)
			if err != nil {
				return b, errBadValue(c.col, v)
			}
			u = uint64(x)
		}
		w := 8
		switch c.typ {
		case typeTiny:
			w = 1
		case typeShort:
			w = 2
		case typeInt24:
			w = 3
		case typeLong:
			w = 4
		}
		for i := 0; i < w; i++ {
			b = append(b, byte(u>>(8*i)))
		}
		return b, nil
	case typeFloat:
		f, err := strconv.ParseFloat(string(raw), 32)
		if err != nil {
			return b, errBadValue(c.col, v)
		}
		return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(f))), nil
	case typeDouble:
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return b, errBadValue(c.col, v)
		}
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(f)), nil
	case typeNewDecimal:
		out, ok := appendDecimal(b, raw, c.precision, c.scale)
		if !ok {
			return b, errBadValue(c.col, v)
		}
		return out, nil
	case typeDate:
		y, m, d, ok := parseDate(raw)
		if !ok {
			return b, errBadValue(c.col, v)
		}
		x := uint32(d) | uint32(m)<<5 | uint32(y)<<9
		return append(b, byte(x), byte(x>>8), byte(x>>16)), nil
	case typeDatetime2:
		out, ok := appendDatetime2(b, raw, c.fsp)
		if !ok {
			return b, errBadValue(c.col, v)
		}
		return out, nil
	case typeTimestamp2:
		out, ok := appendTimestamp2(b, raw, c.fsp)
		if !ok {
			return b, errBadValue(c.col, v)
		}
		return out, nil
	case typeTime2:
		out, ok := appendTime2(b, raw, c.fsp)
		if !ok {
			return b, errBadValue(c.col, v)
		}
		return out, nil
	case typeYear:
		y, err := strconv.Atoi(string(raw))
		if err != nil {
			return b, errBadValue(c.col, v)
		}
		if y != 0 {
			y -= 1900
		}
		return append(b, byte(y)), nil
	case typeBit:
		w := (c.bits + 7) / 8
		if len(raw) > w {
			raw = raw[len(raw)-w:]
		}
		for i := len(raw); i < w; i++ {
			b = append(b, 0)
		}
		return append(b, raw...), nil
	case typeString:
		if c.isEnumSet() {
			x, ok := c.enumSetValue(raw)
			if !ok {
				return b, errBadValue(c.col, v)
			}
			for i := 0; i < c.packLen; i++ {
				b = append(b, byte(x>>(8*i)))
			}
			return b, nil
		}
		return appendLenBytes(b, raw, c.lenBytes), nil
	case typeVarchar, typeBlob:
		return appendLenBytes(b, raw, c.lenBytes), nil
	case typeJSON:
		at := len(b)
		b = append(b, 0, 0, 0, 0)
		out, err := appendJSONText(b, raw)
		if err != nil {
			return b[:at], errBadValue(c.col, v)
		}
		binary.LittleEndian.PutUint32(out[at:], uint32(len(out)-at-4))
		return out, nil
	}
	return b, errBadValue(c.col, v)
}

// appendLenBytes appends s after its little-endian length of w bytes.
func appendLenBytes(b, s []byte, w int) []byte {
	n := uint64(len(s))
	for i := 0; i < w; i++ {
		b = append(b, byte(n>>(8*i)))
	}
	return append(b, s...)
}

// enumSetValue returns an ENUM's 1-based index or a SET's bitmask.
func (c *column) enumSetValue(s []byte) (uint64, bool) {
	members := c.col.EnumValues
	index := func(item []byte) (uint64, bool) {
		for i, m := range members {
			if string(item) == m {
				return uint64(i + 1), true
			}
		}
		return 0, len(item) == 0
	}
	if c.meta[0] == typeEnum {
		return index(s)
	}
	var bits uint64
	for len(s) > 0 {
		item := s
		rest := []byte(nil)
		for i, ch := range s {
			if ch == ',' {
				item, rest = s[:i], s[i+1:]
				break
			}
		}
		s = rest
		i, ok := index(item)
		if !ok {
			return 0, false
		}
		if i > 0 {
			bits |= 1 << (i - 1)
		}
	}
	return bits, true
}

// dig2bytes is the bytes a group of n<9 decimal digits takes.
var dig2bytes = [10]int{0, 1, 1, 2, 2, 3, 3, 4, 4, 4}

// appendDecimal appends the text decimal s as MySQL's binary DECIMAL(p,d)
// (decimal2bin).
func appendDecimal(b []byte, s []byte, p, d int) ([]byte, bool) {
	neg := len(s) > 0 && s[0] == '-'
	if neg || (len(s) > 0 && s[0] == '+') {
		s = s[1:]
	}
	intPart, frac := s, []byte(nil)
	for i, ch := range s {
		if ch == '.' {
			intPart, frac = s[:i], s[i+1:]
			break
		}
	}
	for len(intPart) > 1 && intPart[0] == '0' {
		intPart = intPart[1:]
	}
	if len(intPart) == 1 && intPart[0] == '0' {
		intPart = nil
	}
	intg := p - d
	if len(intPart) > intg || len(frac) > d {
		return b, false
	}
	// The digits, integer part left-padded to intg, fraction right-padded to d.
	digits := make([]byte, 0, p)
	for i := len(intPart); i < intg; i++ {
		digits = append(digits, 0)
	}
	for _, ch := range intPart {
		if ch < '0' || ch > '9' {
			return b, false
		}
		digits = append(digits, ch-'0')
	}
	for _, ch := range frac {
		if ch < '0' || ch > '9' {
			return b, false
		}
		digits = append(digits, ch-'0')
	}
	for len(digits) < p {
		digits = append(digits, 0)
	}
	var mask byte
	if neg {
		mask = 0xff
	}
	start := len(b)
	group := func(ds []byte, nbytes int) {
		var x uint32
		for _, dg := range ds {
			x = x*10 + uint32(dg)
		}
		for i := nbytes - 1; i >= 0; i-- {
			b = append(b, byte(x>>(8*i))^mask)
		}
	}
	intg0, intg0x := intg/9, intg%9
	pos := 0
	if intg0x > 0 {
		group(digits[:intg0x], dig2bytes[intg0x])
		pos = intg0x
	}
	for i := 0; i < intg0; i++ {
		group(digits[pos:pos+9], 4)
		pos += 9
	}
	frac0, frac0x := d/9, d%9
	for i := 0; i < frac0; i++ {
		group(digits[pos:pos+9], 4)
		pos += 9
	}
	if frac0x > 0 {
		group(digits[pos:pos+frac0x], dig2bytes[frac0x])
	}
	if len(b) > start {
		b[start] ^= 0x80
	}
	return b, true
}

// num parses the unsigned decimal digits of s.
func num(s []byte) (int, bool) {
	if len(s) == 0 {
		return 0, false
	}
	n := 0
	for _, ch := range s {
		if ch < '0' || ch > '9' {
			return 0, false
		}
		n = n*10 + int(ch-'0')
	}
	return n, true
}

// parseDate parses "YYYY-MM-DD".
func parseDate(s []byte) (y, m, d int, ok bool) {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, false
	}
	y, ok1 := num(s[0:4])
	m, ok2 := num(s[5:7])
	d, ok3 := num(s[8:10])
	return y, m, d, ok1 && ok2 && ok3
}

// parseClock parses "H+:MM:SS[.ffffff]" into its parts and microseconds.
func parseClock(s []byte) (h, mi, sec, micro int, ok bool) {
	c1 := -1
	for i, ch := range s {
		if ch == ':' {
			c1 = i
			break
		}
	}
	if c1 < 1 || len(s) < c1+6 || s[c1+3] != ':' {
		return 0, 0, 0, 0, false
	}
	h, ok1 := num(s[:c1])
	mi, ok2 := num(s[c1+1 : c1+3])
	sec, ok3 := num(s[c1+4 : c1+6])
	rest := s[c1+6:]
	if len(rest) > 0 {
		if rest[0] != '.' || len(rest) > 7 {
			return 0, 0, 0, 0, false
		}
		f := rest[1:]
		x, okf := num(f)
		if !okf && len(f) > 0 {
			return 0, 0, 0, 0, false
		}
		for i := len(f); i < 6; i++ {
			x *= 10
		}
		micro = x
	}
	return h, mi, sec, micro, ok1 && ok2 && ok3
}

// appendFrac appends microseconds at fsp digits (my_datetime_packed_to_binary).
func appendFrac(b []byte, micro, fsp int) []byte {
	switch fsp {
	case 1, 2:
		return append(b, byte(micro/10000))
	case 3, 4:
		x := micro / 100
		return append(b, byte(x>>8), byte(x))
	case 5, 6:
		return append(b, byte(micro>>16), byte(micro>>8), byte(micro))
	}
	return b
}

// appendDatetime2 appends "YYYY-MM-DD HH:MM:SS[.f]" as DATETIME2(fsp).
func appendDatetime2(b []byte, s []byte, fsp int) ([]byte, bool) {
	y, m, d, ok := parseDate(s)
	if !ok {
		return b, false
	}
	var h, mi, sec, micro int
	if len(s) > 10 {
		if s[10] != ' ' {
			return b, false
		}
		if h, mi, sec, micro, ok = parseClock(s[11:]); !ok {
			return b, false
		}
	}
	ymd := uint64((y*13+m)<<5 | d)
	hms := uint64(h<<12 | mi<<6 | sec)
	x := (ymd<<17 | hms) + 0x8000000000
	b = append(b, byte(x>>32), byte(x>>24), byte(x>>16), byte(x>>8), byte(x))
	return appendFrac(b, micro, fsp), true
}

// appendTimestamp2 appends a UTC "YYYY-MM-DD HH:MM:SS[.f]" as TIMESTAMP2.
func appendTimestamp2(b []byte, s []byte, fsp int) ([]byte, bool) {
	y, m, d, ok := parseDate(s)
	if !ok {
		return b, false
	}
	var h, mi, sec, micro int
	if len(s) > 10 {
		if h, mi, sec, micro, ok = parseClock(s[11:]); !ok {
			return b, false
		}
	}
	var secs int64
	if y != 0 {
		secs = daysFromCivil(y, m, d)*86400 + int64(h*3600+mi*60+sec)
	}
	b = binary.BigEndian.AppendUint32(b, uint32(secs))
	return appendFrac(b, micro, fsp), true
}

// daysFromCivil is the days since 1970-01-01 of a proleptic Gregorian date.
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era*146097 + doe - 719468)
}

// appendTime2 appends "[-]H:MM:SS[.f]" as TIME2(fsp) (my_time_packed_to_binary).
func appendTime2(b []byte, s []byte, fsp int) ([]byte, bool) {
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	h, mi, sec, micro, ok := parseClock(s)
	if !ok {
		return b, false
	}
	// MySQL's packed time: (hms << 24) + microseconds, negated when negative.
	nr := int64(h<<12|mi<<6|sec)<<24 + int64(micro)
	if neg {
		nr = -nr
	}
	intPart := nr >> 24
	fracPart := nr % (1 << 24)
	put3 := func(x int64) { b = append(b, byte(x>>16), byte(x>>8), byte(x)) }
	switch fsp {
	case 1, 2:
		put3(0x800000 + intPart)
		b = append(b, byte(int8(fracPart/10000)))
	case 3, 4:
		put3(0x800000 + intPart)
		x := uint16(int16(fracPart / 100))
		b = append(b, byte(x>>8), byte(x))
	case 5, 6:
		x := nr + 0x800000000000
		b = append(b, byte(x>>40), byte(x>>32), byte(x>>24), byte(x>>16), byte(x>>8), byte(x))
	default:
		put3(0x800000 + intPart)
	}
	return b, true
}

package coltype

import (
	"math"
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/decimal"
	"vitess.io/vitess/go/mysql/format"
	"vitess.io/vitess/go/sqltypes"
)

// toInteger rounds n to an integer: half to even for floating-point input
// (MySQL uses rint), half away from zero for decimal input.
func toInteger(n number) (neg bool, mag uint64, over bool) {
	switch n.kind {
	case numInt:
		return n.neg, n.mag, n.over
	case numFloat:
		f := math.RoundToEven(n.f)
		if math.IsNaN(f) {
			return false, 0, false
		}
		if f < 0 {
			if f < -18446744073709551615.0 {
				return true, math.MaxUint64, true
			}
			return f != 0, uint64(-f), false
		}
		if f >= 18446744073709551615.0 {
			return false, math.MaxUint64, true
		}
		return false, uint64(f), false
	}
	d, big, _ := n.decimalOf()
	if big != 0 {
		return big < 0, math.MaxUint64, true
	}
	d = d.Round(0)
	neg = d.Sign() < 0
	u, ok := d.Abs().Uint64()
	if !ok {
		return neg, math.MaxUint64, true
	}
	return neg && u != 0, u, false
}

func (c *conv) toInt(v sqltypes.Value) (sqltypes.Value, error) {
	ii := intInfoOf(c.col)
	neg, mag, over := false, uint64(0), false
	if d, ok := digitText(v); ok {
		mag = d // plain digits, as a loaded file's fields mostly are
		if raw := v.Raw(); (raw[0] != '0' || len(raw) == 1) && (c.col.Unsigned && mag <= ii.umax || !c.col.Unsigned && mag <= uint64(ii.max)) {
			// Already the canonical text: kept, not formatted again
			// (text values alias their input the same way).
			return sqltypes.MakeTrusted(c.col.Type, raw), nil
		}
	} else {
		n, err := c.numberOf(v, "integer")
		if err != nil {
			return sqltypes.Value{}, err
		}
		neg, mag, over = toInteger(n)
	}
	var buf [24]byte
	var out []byte
	if c.col.Unsigned {
		switch {
		case neg:
			if err := c.outOfRange(); err != nil {
				return sqltypes.Value{}, err
			}
			mag = 0
		case over || mag > ii.umax:
			if err := c.outOfRange(); err != nil {
				return sqltypes.Value{}, err
			}
			mag = ii.umax
		}
		out = strconv.AppendUint(buf[:0], mag, 10)
	} else {
		var x int64
		switch {
		case neg && (over || mag > uint64(-(ii.min+1))+1):
			if err := c.outOfRange(); err != nil {
				return sqltypes.Value{}, err
			}
			x = ii.min
		case neg:
			x = -int64(mag-1) - 1
		case over || mag > uint64(ii.max):
			if err := c.outOfRange(); err != nil {
				return sqltypes.Value{}, err
			}
			x = ii.max
		default:
			x = int64(mag)
		}
		out = strconv.AppendInt(buf[:0], x, 10)
	}
	return sqltypes.MakeTrusted(c.col.Type, append([]byte(nil), out...)), nil
}

// digitText returns the value of a text value of 1 to 19 ASCII digits
// (nothing else: no sign, space or point), which fits a uint64.
func digitText(v sqltypes.Value) (uint64, bool) {
	if !v.IsText() {
		return 0, false
	}
	b := v.Raw()
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var x uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		x = x*10 + uint64(c-'0')
	}
	return x, true
}

// decimalMax returns the largest DECIMAL(m,d) value.
func decimalMax(m, d int) decimal.Decimal {
	if m < 1 {
		m = 1
	}
	if d > m {
		d = m
	}
	s := strings.Repeat("9", m-d)
	if s == "" {
		s = "0"
	}
	if d > 0 {
		s += "." + strings.Repeat("9", d)
	}
	out, _ := decimal.NewFromString(s)
	return out
}

func (c *conv) toDecimal(v sqltypes.Value) (sqltypes.Value, error) {
	if out, ok := exactDecimal(v, c.col.Length, c.col.Scale, c.col.Unsigned); ok {
		return out, nil
	}
	return c.toDecimalRounded(v)
}

// toDecimalRounded is toDecimal for every value exactDecimal leaves: text,
// floating point, values that round, out of range or negative for an
// UNSIGNED column.
func (c *conv) toDecimalRounded(v sqltypes.Value) (sqltypes.Value, error) {
	n, err := c.numberOf(v, "decimal")
	if err != nil {
		return sqltypes.Value{}, err
	}
	m, d := c.col.Length, c.col.Scale
	if d < 0 {
		d = 0
	}
	max := decimalMax(m, d)
	dec, big, tiny := n.decimalOf()
	r := decZero
	switch {
	case big != 0:
		if err := c.outOfRange(); err != nil {
			return sqltypes.Value{}, err
		}
		r = max
		if big < 0 {
			r = max.Neg()
		}
	case tiny:
		c.noteTruncated()
	default:
		r = dec.Round(int32(d))
		if r.Cmp(dec) != 0 {
			c.noteTruncated()
		}
		if r.Abs().Cmp(max) > 0 {
			if err := c.outOfRange(); err != nil {
				return sqltypes.Value{}, err
			}
			if r.Sign() < 0 {
				r = max.Neg()
			} else {
				r = max
			}
		}
	}
	if c.col.Unsigned && r.Sign() < 0 {
		if err := c.outOfRange(); err != nil {
			return sqltypes.Value{}, err
		}
		r = decZero
	}
	s := r.StringFixed(int32(d))
	if strings.HasPrefix(s, "-") && r.IsZero() {
		s = s[1:]
	}
	return sqltypes.MakeTrusted(sqltypes.Decimal, []byte(s)), nil
}

func (c *conv) toFloat(v sqltypes.Value) (sqltypes.Value, error) {
	n, err := c.numberOf(v, "double")
	if err != nil {
		return sqltypes.Value{}, err
	}
	f := n.float()
	if math.IsNaN(f) {
		f = 0
	}
	limit := math.MaxFloat64
	if c.col.Type == sqltypes.Float32 {
		limit = math.MaxFloat32
	}
	if c.col.Scale >= 0 && c.col.Length > 0 {
		p := math.Pow10(c.col.Scale)
		if !math.IsInf(f, 0) {
			if r := math.Round(f*p) / p; !math.IsInf(r, 0) && !math.IsNaN(r) {
				f = r
			}
		}
		limit = math.Pow10(c.col.Length-c.col.Scale) - 1/p
	}
	over := math.Abs(f) > limit
	if over && c.col.Type == sqltypes.Float32 && c.col.Length == 0 && !math.IsInf(float64(float32(f)), 0) {
		// The shortest text of MaxFloat32 ("3.4028235e38") reads back a
		// hair above it as a float64; what counts is that it is a finite
		// float32.
		over = false
	}
	if over {
		if err := c.outOfRange(); err != nil {
			return sqltypes.Value{}, err
		}
		f = math.Copysign(limit, f)
	}
	if c.col.Unsigned && f < 0 {
		if err := c.outOfRange(); err != nil {
			return sqltypes.Value{}, err
		}
		f = 0
	}
	if f == 0 {
		f = 0 // drop the sign of -0
	}
	if c.col.Type == sqltypes.Float32 {
		return sqltypes.MakeTrusted(sqltypes.Float32, FormatFloat32(float32(f))), nil
	}
	return sqltypes.MakeTrusted(sqltypes.Float64, format.FormatFloat(f)), nil
}

// FormatFloat32 prints a FLOAT value in its shortest round-trip form, with
// MySQL's exponent style ("1e20", "0.1", "3.4028235e38").
func FormatFloat32(f float32) []byte {
	a := math.Abs(float64(f))
	fmtc := byte('f')
	if a >= 1e15 || (a < 1e-15 && a != 0) {
		fmtc = 'g'
	}
	b := strconv.AppendFloat(nil, float64(f), fmtc, -1, 32)
	for i := 0; i+1 < len(b); i++ {
		if b[i] == 'e' && b[i+1] == '+' {
			b = append(b[:i+1], b[i+2:]...)
			break
		}
	}
	return b
}

func isStringType(t sqltypes.Type) bool {
	if isLiteralBytes(t) {
		return false
	}
	return sqltypes.IsText(t) || sqltypes.IsBinary(t) || t == sqltypes.Enum || t == sqltypes.Set ||
		t == sqltypes.TypeJSON || t == sqltypes.Expression
}

func (c *conv) toBit(v sqltypes.Value) (sqltypes.Value, error) {
	var n number
	t := v.Type()
	switch {
	case isStringType(t) || t == sqltypes.Bit:
		n = bytesNumber(v.Raw())
	case isLiteralBytes(t):
		b, err := literalBytes(v)
		if err != nil {
			return sqltypes.Value{}, c.tooLong(true)
		}
		n = bytesNumber(b)
	default:
		num, err := c.numberOf(v, "integer")
		if err != nil {
			return sqltypes.Value{}, err
		}
		neg, mag, over := toInteger(num)
		n = number{mag: mag, over: over}
		if neg {
			n.mag = -mag // two's complement, as MySQL stores longlong bits
		}
	}
	bits := c.col.Length
	if bits < 1 || bits > 64 {
		bits = 64
	}
	max := uint64(math.MaxUint64)
	if bits < 64 {
		max = 1<<uint(bits) - 1
	}
	if n.over || n.mag > max {
		if err := c.tooLong(true); err != nil {
			return sqltypes.Value{}, err
		}
		n.mag = max
	}
	out := make([]byte, (bits+7)/8)
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = byte(n.mag)
		n.mag >>= 8
	}
	return sqltypes.MakeTrusted(sqltypes.Bit, out), nil
}

func (c *conv) toYear(v sqltypes.Value) (sqltypes.Value, error) {
	t := v.Type()
	var y int64
	switch t {
	case sqltypes.Date, sqltypes.Datetime, sqltypes.Timestamp:
		s := v.RawStr()
		if len(s) >= 4 {
			y, _ = strconv.ParseInt(s[:4], 10, 64)
		}
		if y == 0 {
			return sqltypes.MakeTrusted(sqltypes.Year, []byte("0000")), nil
		}
	default:
		n, err := c.numberOf(v, "integer")
		if err != nil {
			return sqltypes.Value{}, err
		}
		neg, mag, over := toInteger(n)
		switch {
		case over || mag > 10000:
			y = 10000
		case neg:
			y = -int64(mag)
		default:
			y = int64(mag)
		}
		if y == 0 && (isStringType(t) || isLiteralBytes(t)) && t != sqltypes.Bit {
			// The strings '0', '00' and '000' mean 2000; '0000' means 0000.
			if num, isInt, ok, _ := scanNumber(v.RawStr()); ok && isInt && len(strings.TrimLeft(num, "+-")) < 4 {
				y = 2000
			}
		}
	}
	switch {
	case y == 0:
	case y >= 1 && y <= 69:
		y += 2000
	case y >= 70 && y <= 99:
		y += 1900
	case y >= 1901 && y <= 2155:
	default:
		if err := c.outOfRange(); err != nil {
			return sqltypes.Value{}, err
		}
		y = 0
	}
	b := []byte{'0' + byte(y/1000), '0' + byte(y/100%10), '0' + byte(y/10%10), '0' + byte(y%10)}
	return sqltypes.MakeTrusted(sqltypes.Year, b), nil
}

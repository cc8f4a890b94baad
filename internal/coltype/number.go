package coltype

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/decimal"
	"vitess.io/vitess/go/sqltypes"
)

// number is a numeric view of any input value.
type number struct {
	kind numKind
	neg  bool    // numInt: sign
	mag  uint64  // numInt: magnitude
	over bool    // numInt: magnitude does not fit in uint64
	f    float64 // numFloat
	dec  string  // numDec: decimal text, may carry an exponent
}

type numKind uint8

const (
	numInt numKind = iota
	numFloat
	numDec
)

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// scanNumber finds the longest numeric prefix of s (after leading spaces).
// It returns the prefix, whether it is a plain integer, whether any digit was
// seen, and whether non-space text follows it.
func scanNumber(s string) (num string, isInt, ok, garbage bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	start := i
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	isInt = true
	if i < len(s) && s[i] == '.' {
		j := i + 1
		fd := 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
			fd++
		}
		if digits+fd > 0 {
			i = j
			digits += fd
			isInt = false
		}
	}
	if digits == 0 {
		return "", false, false, strings.TrimLeft(s, " \t\n\r\v\f") != ""
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
			isInt = false
		}
	}
	num = s[start:i]
	for k := i; k < len(s); k++ {
		if !isSpace(s[k]) {
			garbage = true
			break
		}
	}
	return num, isInt, true, garbage
}

// parseIntText parses an optionally signed decimal integer.
// An integer too large for uint64 is returned as decimal text.
func parseIntText(s string) number {
	n := number{kind: numInt}
	orig := s
	if s != "" && (s[0] == '-' || s[0] == '+') {
		n.neg = s[0] == '-'
		s = s[1:]
	}
	for i := 0; i < len(s); i++ {
		d := uint64(s[i] - '0')
		if d > 9 {
			break
		}
		if n.mag > (math.MaxUint64-d)/10 {
			return number{kind: numDec, dec: orig}
		}
		n.mag = n.mag*10 + d
	}
	if n.mag == 0 {
		n.neg = false
	}
	return n
}

// bytesNumber reads bytes as a big-endian unsigned integer.
func bytesNumber(b []byte) number {
	n := number{kind: numInt}
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	if len(b) > 8 {
		n.over, n.mag = true, math.MaxUint64
		return n
	}
	for _, c := range b {
		n.mag = n.mag<<8 | uint64(c)
	}
	return n
}

// hexLiteralBytes decodes HexNum ("0x41"), HexVal ("X'41'") and BitNum
// ("0b101") literals.
func literalBytes(v sqltypes.Value) ([]byte, error) {
	s := v.RawStr()
	switch v.Type() {
	case sqltypes.HexNum:
		s = strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
		if len(s)%2 == 1 {
			s = "0" + s
		}
		return hex.DecodeString(s)
	case sqltypes.HexVal:
		if len(s) >= 3 && (s[0] == 'x' || s[0] == 'X') && s[1] == '\'' {
			s = strings.TrimSuffix(s[2:], "'")
		}
		if len(s)%2 == 1 {
			s = "0" + s
		}
		return hex.DecodeString(s)
	case sqltypes.BitNum:
		s = strings.TrimPrefix(strings.TrimPrefix(s, "0b"), "0B")
		s = strings.TrimPrefix(strings.TrimSuffix(s, "'"), "b'")
		out := make([]byte, (len(s)+7)/8)
		for i := 0; i < len(s); i++ {
			if s[i] != '0' && s[i] != '1' {
				return nil, strconv.ErrSyntax
			}
			bit := len(s) - 1 - i
			if s[i] == '1' {
				out[len(out)-1-bit/8] |= 1 << (bit % 8)
			}
		}
		return out, nil
	}
	return v.Raw(), nil
}

func isLiteralBytes(t sqltypes.Type) bool {
	return t == sqltypes.HexNum || t == sqltypes.HexVal || t == sqltypes.BitNum
}

// temporalDigits turns a temporal text into its numeric form
// ("2024-01-02 03:04:05.5" -> "20240102030405.5").
func temporalDigits(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c == '.':
			b = append(b, c)
		case c == '-' && i == 0:
			b = append(b, c)
		}
	}
	return string(b)
}

// numberOf returns the numeric view of v, reporting bad or truncated text
// through c with the given kind name ("integer", "decimal", "double").
func (c *conv) numberOf(v sqltypes.Value, kind string) (number, error) {
	t := v.Type()
	switch {
	case sqltypes.IsSigned(t) || t == sqltypes.Year:
		return parseIntText(strings.TrimSpace(v.RawStr())), nil
	case sqltypes.IsUnsigned(t):
		return parseIntText(v.RawStr()), nil
	case sqltypes.IsFloat(t):
		f, err := strconv.ParseFloat(v.RawStr(), 64)
		if err != nil && !isRangeErr(err) {
			return c.badNumber(v, kind)
		}
		return number{kind: numFloat, f: f}, nil
	case t == sqltypes.Decimal:
		return c.textNumber(v.RawStr(), v, kind)
	case t == sqltypes.Bit:
		return bytesNumber(v.Raw()), nil
	case isLiteralBytes(t):
		b, err := literalBytes(v)
		if err != nil {
			return c.badNumber(v, kind)
		}
		return bytesNumber(b), nil
	case t == sqltypes.Date || t == sqltypes.Datetime || t == sqltypes.Timestamp || t == sqltypes.Time:
		return c.textNumber(temporalDigits(v.RawStr()), v, kind)
	}
	return c.textNumber(v.RawStr(), v, kind)
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func (c *conv) badNumber(v sqltypes.Value, kind string) (number, error) {
	if err := c.problem(1366, ssGeneral, msgIncorrect(kind, v.RawStr(), c.col.Name, c.row)); err != nil {
		return number{}, err
	}
	return number{kind: numInt}, nil
}

// textNumber parses text the way MySQL converts strings to numbers.
func (c *conv) textNumber(s string, v sqltypes.Value, kind string) (number, error) {
	num, isInt, ok, garbage := scanNumber(s)
	if !ok {
		return c.badNumber(v, kind)
	}
	if garbage {
		if err := c.problem(1265, ssTruncated, msgTruncated(c.col.Name, c.row)); err != nil {
			return number{}, err
		}
	}
	if isInt {
		return parseIntText(num), nil
	}
	return number{kind: numDec, dec: num}, nil
}

// float returns n as a float64.
func (n number) float() float64 {
	switch n.kind {
	case numFloat:
		return n.f
	case numDec:
		f, _ := strconv.ParseFloat(n.dec, 64)
		return f
	}
	if n.over {
		if n.neg {
			return -1e20
		}
		return 1e20
	}
	f := float64(n.mag)
	if n.neg {
		f = -f
	}
	return f
}

// decimalOf returns n as a decimal. big is +1/-1 when |n| is too large for
// any DECIMAL(65), tiny is true when n is non-zero but below 1e-40.
func (n number) decimalOf() (d decimal.Decimal, big int, tiny bool) {
	switch n.kind {
	case numInt:
		if n.over {
			d, _ = decimal.NewFromString(strings.Repeat("9", 21))
		} else {
			d = decimal.NewFromUint(n.mag)
		}
		if n.neg {
			d = d.Neg()
		}
		return d, 0, false
	case numFloat:
		if math.IsInf(n.f, 0) || math.Abs(n.f) >= 1e66 {
			return d, sign(n.f), false
		}
		if n.f != 0 && math.Abs(n.f) < 1e-40 {
			return decZero, 0, true
		}
		return decimal.NewFromFloatMySQL(n.f), 0, false
	}
	f, _ := strconv.ParseFloat(n.dec, 64)
	if math.IsInf(f, 0) || math.Abs(f) >= 1e66 {
		return d, sign(f), false
	}
	if math.Abs(f) < 1e-40 {
		return decZero, 0, f != 0 || !allZeroDigits(n.dec)
	}
	d, err := decimal.NewFromString(n.dec)
	if err != nil {
		return decZero, 0, true
	}
	return d, 0, false
}

func allZeroDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == 'e' || c == 'E' {
			return true
		}
		if c >= '1' && c <= '9' {
			return false
		}
	}
	return true
}

func sign(f float64) int {
	if f < 0 {
		return -1
	}
	return 1
}

var decimalE9 = decimal.New(1, 9)
var decZero = decimal.NewFromInt(0)

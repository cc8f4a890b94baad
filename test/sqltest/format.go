package sqltest

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// FormatValue renders one result value the way scripts spell it: NULL as
// "NULL", text as is (with \0, \t, \n, \r, \\ and bytes that are not UTF-8
// escaped, so a result line stays one line), integers in decimal, floats the
// way MySQL's text protocol prints doubles. v is what the go-sql-driver
// hands back: nil, []byte, string, int64, uint64, float32, float64 or bool.
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return escape(string(x))
	case string:
		return escape(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int:
		return strconv.Itoa(x)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float32:
		return FormatFloat(float64(x), 32)
	case float64:
		return FormatFloat(x, 64)
	case bool:
		if x {
			return "1"
		}
		return "0"
	}
	return "<unsupported value type>"
}

// FormatFloat prints a float like MySQL's text protocol: the shortest
// representation that round-trips at the given bit size, in positional
// notation when the decimal exponent is in [-15, 15), otherwise as
// "<mantissa>e<exp>" (no "+", no leading zeros: 1e15, 1.5e-16).
func FormatFloat(f float64, bitSize int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(f, 'e', -1, bitSize)
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	if exp >= -15 && exp < 15 {
		return strconv.FormatFloat(f, 'f', -1, bitSize)
	}
	return mant + "e" + strconv.Itoa(exp)
}

// escape makes s printable on one line of a script.
func escape(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '\\' || c >= utf8.RuneSelf {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch c {
		case 0:
			b.WriteString(`\0`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\\':
			b.WriteString(`\\`)
		default:
			if c >= utf8.RuneSelf {
				r, size := utf8.DecodeRuneInString(s[i:])
				if r == utf8.RuneError && size == 1 {
					b.WriteString(`\x`)
					b.WriteByte("0123456789abcdef"[c>>4])
					b.WriteByte("0123456789abcdef"[c&15])
				} else {
					b.WriteString(s[i : i+size])
				}
				i += size
				continue
			}
			if c < 0x20 {
				b.WriteString(`\x`)
				b.WriteByte("0123456789abcdef"[c>>4])
				b.WriteByte("0123456789abcdef"[c&15])
			} else {
				b.WriteByte(c)
			}
		}
		i++
	}
	return b.String()
}

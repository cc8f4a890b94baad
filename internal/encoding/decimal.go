package encoding

import (
	"fmt"
)

// Sign bytes of a decimal encoding.
const (
	decimalNeg  = 0x01
	decimalZero = 0x02
	decimalPos  = 0x03
)

const decimalExpBias = 0x8000

// EncodeDecimalAsc appends the order-preserving encoding of the decimal text
// d ("-12.340", "0.00", "123", an optional leading '+' is accepted). Values
// equal in value encode identically whatever their scale. d must be
// well-formed; use AppendDecimalAsc to have malformed text rejected (here it
// is encoded as zero).
func EncodeDecimalAsc(b []byte, d string) []byte {
	out, err := appendDecimal(b, d)
	if err != nil {
		return append(b, decimalZero)
	}
	return out
}

// AppendDecimalAsc is EncodeDecimalAsc for text held in a byte slice; it
// returns ErrBadDecimal for text that is not [-+]digits[.digits].
func AppendDecimalAsc(b []byte, d []byte) ([]byte, error) {
	return appendDecimal(b, d)
}

func appendDecimal[T string | []byte](b []byte, d T) ([]byte, error) {
	neg := false
	s := 0
	if len(d) > 0 && (d[0] == '-' || d[0] == '+') {
		neg = d[0] == '-'
		s = 1
	}
	// point is the index of '.', or len(d) when there is none.
	point := len(d)
	ndigits := 0
	first, last := -1, -1 // indices of the first and last non-zero digits
	for i := s; i < len(d); i++ {
		c := d[i]
		switch {
		case c >= '0' && c <= '9':
			ndigits++
			if c != '0' {
				if first < 0 {
					first = i
				}
				last = i
			}
		case c == '.' && point == len(d):
			point = i
		default:
			return b, fmt.Errorf("decimal %q: %w", string(d), ErrBadDecimal)
		}
	}
	if ndigits == 0 {
		return b, fmt.Errorf("decimal %q: %w", string(d), ErrBadDecimal)
	}
	if first < 0 {
		return append(b, decimalZero), nil
	}
	// |value| = 0.d[first]... * 10^exp.
	exp := point - first
	if first > point {
		exp++ // the '.' lies between point and first
	}
	if exp < -decimalExpBias || exp >= decimalExpBias {
		return b, fmt.Errorf("decimal %q: exponent out of range: %w", string(d), ErrBadDecimal)
	}
	if neg {
		b = append(b, decimalNeg)
	} else {
		b = append(b, decimalPos)
	}
	start := len(b)
	e := uint16(exp + decimalExpBias)
	b = append(b, byte(e>>8), byte(e))
	var pair byte
	half := false
	for i := first; i <= last; i++ {
		c := d[i]
		if c == '.' {
			continue
		}
		if !half {
			pair = 10 * (c - '0')
			half = true
		} else {
			b = append(b, 1+pair+(c-'0'))
			half = false
		}
	}
	if half {
		b = append(b, 1+pair)
	}
	b = append(b, 0x00)
	if neg {
		Invert(b[start:])
	}
	return b, nil
}

// DecodeDecimalAsc decodes a value written by EncodeDecimalAsc into its
// shortest text: no trailing fraction zeros, "0" for zero, "0.05" style for
// |value| < 1. The caller re-applies the column scale.
func DecodeDecimalAsc(b []byte) (rest []byte, digits string, err error) {
	rest, out, err := AppendDecodedDecimal(b, nil, false)
	return rest, string(out), err
}

// SkipDecimalAsc returns b after one value written by EncodeDecimalAsc.
func SkipDecimalAsc(b []byte) ([]byte, error) {
	return skipDecimal(b, 0)
}

// SkipDecimalDesc returns b after the ones' complement of an
// EncodeDecimalAsc value.
func SkipDecimalDesc(b []byte) ([]byte, error) {
	return skipDecimal(b, 0xff)
}

// AppendDecodedDecimal decodes one decimal (the ones' complement of one when
// desc) and appends its shortest text to dst.
func AppendDecodedDecimal(b, dst []byte, desc bool) (rest, out []byte, err error) {
	var mask byte
	if desc {
		mask = 0xff
	}
	if len(b) < 1 {
		return b, dst, fmt.Errorf("decode decimal: %w", ErrShortBuffer)
	}
	switch b[0] ^ mask {
	case decimalZero:
		return b[1:], append(dst, '0'), nil
	case decimalNeg:
		dst = append(dst, '-')
		mask ^= 0xff
	case decimalPos:
	default:
		return b, dst, fmt.Errorf("decode decimal: sign byte 0x%02x: %w", b[0]^mask, ErrCorrupt)
	}
	if len(b) < 3 {
		return b, dst, fmt.Errorf("decode decimal: %w", ErrShortBuffer)
	}
	exp := int(uint16(b[1]^mask)<<8|uint16(b[2]^mask)) - decimalExpBias
	if exp > 96 || exp < -96 {
		// MySQL decimals have at most 65 digits: such an exponent only
		// comes from a corrupt key (and would expand to a huge string).
		return b, dst, fmt.Errorf("decode decimal: exponent %d: %w", exp, ErrCorrupt)
	}
	p := b[3:]
	end := -1
	for i, c := range p {
		if c^mask == 0 {
			end = i
			break
		}
	}
	if end < 0 {
		return b, dst, fmt.Errorf("decode decimal: missing terminator: %w", ErrShortBuffer)
	}
	// Number of significant digits: two per byte, minus a trailing zero
	// that pads an odd count.
	nd := 2 * end
	if end > 0 && (p[end-1]^mask-1)%10 == 0 {
		nd--
	}
	digit := func(i int) byte { // i-th significant digit
		v := p[i/2] ^ mask - 1
		if i%2 == 0 {
			return '0' + v/10
		}
		return '0' + v%10
	}
	for i := 0; i < end; i++ {
		if v := p[i] ^ mask; v < 1 || v > 100 {
			return b, dst, fmt.Errorf("decode decimal: digit byte 0x%02x: %w", v, ErrCorrupt)
		}
	}
	// The encoder writes a non-zero value from its first to its last
	// non-zero digit (zero has its own sign byte): anything else is not a
	// key it wrote (a negative zero would decode as "-0").
	if end == 0 || digit(0) == '0' || p[end-1]^mask == 1 {
		return b, dst, fmt.Errorf("decode decimal: digits not canonical: %w", ErrCorrupt)
	}
	switch {
	case exp <= 0:
		dst = append(dst, '0', '.')
		for i := 0; i < -exp; i++ {
			dst = append(dst, '0')
		}
		for i := 0; i < nd; i++ {
			dst = append(dst, digit(i))
		}
	case exp >= nd:
		for i := 0; i < nd; i++ {
			dst = append(dst, digit(i))
		}
		for i := nd; i < exp; i++ {
			dst = append(dst, '0')
		}
	default:
		for i := 0; i < exp; i++ {
			dst = append(dst, digit(i))
		}
		dst = append(dst, '.')
		for i := exp; i < nd; i++ {
			dst = append(dst, digit(i))
		}
	}
	return p[end+1:], dst, nil
}

func skipDecimal(b []byte, mask byte) ([]byte, error) {
	if len(b) < 1 {
		return b, fmt.Errorf("skip decimal: %w", ErrShortBuffer)
	}
	switch b[0] ^ mask {
	case decimalZero:
		return b[1:], nil
	case decimalNeg:
		mask ^= 0xff
	case decimalPos:
	default:
		return b, fmt.Errorf("skip decimal: sign byte 0x%02x: %w", b[0]^mask, ErrCorrupt)
	}
	if len(b) < 3 {
		return b, fmt.Errorf("skip decimal: %w", ErrShortBuffer)
	}
	for i := 3; i < len(b); i++ {
		if b[i]^mask == 0 {
			return b[i+1:], nil
		}
	}
	return b, fmt.Errorf("skip decimal: missing terminator: %w", ErrShortBuffer)
}

package codec

import (
	"fmt"
	"math"
)

// Integer ranges by byte width.
var (
	intMin  = [9]int64{0, math.MinInt8, math.MinInt16, -1 << 23, math.MinInt32, -1 << 39, -1 << 47, -1 << 55, math.MinInt64}
	intMax  = [9]int64{0, math.MaxInt8, math.MaxInt16, 1<<23 - 1, math.MaxInt32, 1<<39 - 1, 1<<47 - 1, 1<<55 - 1, math.MaxInt64}
	uintMax = [9]uint64{0, math.MaxUint8, math.MaxUint16, 1<<24 - 1, math.MaxUint32, 1<<40 - 1, 1<<48 - 1, 1<<56 - 1, math.MaxUint64}
)

// parseInt parses a canonical signed decimal integer without allocating.
func parseInt(s []byte) (int64, error) {
	neg := false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	u, err := parseUint(s)
	if err != nil {
		return 0, err
	}
	if neg {
		if u > 1<<63 {
			return 0, ErrOutOfRange
		}
		return -int64(u), nil
	}
	if u > math.MaxInt64 {
		return 0, ErrOutOfRange
	}
	return int64(u), nil
}

// parseUint parses a canonical unsigned decimal integer without allocating.
func parseUint(s []byte) (uint64, error) {
	if len(s) == 0 {
		return 0, ErrBadValue
	}
	var u uint64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, ErrBadValue
		}
		d := uint64(c - '0')
		if u > (math.MaxUint64-d)/10 {
			return 0, ErrOutOfRange
		}
		u = u*10 + d
	}
	return u, nil
}

// parseIntWidth parses s and checks it fits a signed integer of width bytes.
func parseIntWidth(s []byte, width int) (int64, error) {
	v, err := parseInt(s)
	if err != nil {
		return 0, err
	}
	if v < intMin[width] || v > intMax[width] {
		return 0, ErrOutOfRange
	}
	return v, nil
}

// parseUintWidth parses s and checks it fits an unsigned integer of width bytes.
func parseUintWidth(s []byte, width int) (uint64, error) {
	if len(s) > 0 && s[0] == '+' {
		s = s[1:]
	}
	v, err := parseUint(s)
	if err != nil {
		return 0, err
	}
	if v > uintMax[width] {
		return 0, ErrOutOfRange
	}
	return v, nil
}

// parseYear parses YEAR text: "0"/"0000" or 1901..2155.
func parseYear(s []byte) (int, error) {
	v, err := parseUint(s)
	if err != nil {
		return 0, err
	}
	if v != 0 && (v < 1901 || v > 2155) {
		return 0, ErrOutOfRange
	}
	return int(v), nil
}

// appendYear formats a year as four digits.
func appendYear(b []byte, y int) []byte {
	return append2(append2(b, y/100), y%100)
}

// bitValue converts BIT raw big-endian bytes into an integer.
func bitValue(s []byte) (uint64, error) {
	var u uint64
	for i, c := range s {
		if len(s)-i > 8 && c != 0 {
			return 0, ErrOutOfRange
		}
		u = u<<8 | uint64(c)
	}
	return u, nil
}

// bitWidth is the byte width of a BIT(n) column's values.
func bitWidth(length int) int {
	return min(max((length+7)/8, 1), 8)
}

func wrapErr(op string, name string, err error) error {
	return fmt.Errorf("%s column %q: %w", op, name, err)
}

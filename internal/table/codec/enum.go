package codec

import (
	"bytes"
	"strings"
	"unsafe"

	"github.com/strata-db/strata/internal/catalog"
)

// enumIndex returns the 1-based member index of an ENUM value; the empty
// string that is not a member is MySQL's error value with index 0.
func enumIndex(col *catalog.Column, s []byte) (uint64, error) {
	for i, m := range col.EnumValues {
		if string(s) == m {
			return uint64(i + 1), nil
		}
	}
	for i, m := range col.EnumValues {
		if strings.EqualFold(bytesToString(s), m) {
			return uint64(i + 1), nil
		}
	}
	if len(s) == 0 {
		return 0, nil
	}
	return 0, ErrBadValue
}

// appendEnum appends the member text of ENUM index i.
func appendEnum(b []byte, col *catalog.Column, i uint64) ([]byte, error) {
	if i == 0 {
		return b, nil
	}
	if i > uint64(len(col.EnumValues)) {
		return b, ErrCorruptRow
	}
	return append(b, col.EnumValues[i-1]...), nil
}

// setBits returns the bitmask of a SET value ("a,c"): bit i for member i.
func setBits(col *catalog.Column, s []byte) (uint64, error) {
	if len(col.EnumValues) > 64 {
		return 0, ErrOutOfRange
	}
	var bits uint64
	for len(s) > 0 {
		var item []byte
		if i := bytes.IndexByte(s, ','); i >= 0 {
			item, s = s[:i], s[i+1:]
		} else {
			item, s = s, nil
		}
		idx, err := enumIndex(col, item)
		if err != nil {
			return 0, err
		}
		if idx == 0 {
			continue // empty item, e.g. from "a,,b"
		}
		bits |= 1 << (idx - 1)
	}
	return bits, nil
}

// appendSet appends the comma-separated members of a SET bitmask in
// declaration order.
func appendSet(b []byte, col *catalog.Column, bits uint64) ([]byte, error) {
	if n := len(col.EnumValues); n < 64 && bits>>uint(n) != 0 {
		return b, ErrCorruptRow
	}
	first := true
	for i, m := range col.EnumValues {
		if bits&(1<<uint(i)) == 0 {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, m...)
	}
	return b, nil
}

// bytesToString views b as a string without copying; the string must not
// outlive a change to b.
func bytesToString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

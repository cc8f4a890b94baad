package coltype

import (
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

// Maximum byte lengths of the TEXT and BLOB kinds.
const (
	maxTiny   = 255
	maxText   = 65535
	maxMedium = 16777215
	maxLong   = 4294967295
)

// intInfo describes one integer type.
type intInfo struct {
	name        string
	signed      sqltypes.Type
	unsigned    sqltypes.Type
	min, max    int64  // signed range
	umax        uint64 // unsigned range
	width, uwid int    // default display widths (signed, unsigned)
}

var intTypes = []intInfo{
	{"tinyint", sqltypes.Int8, sqltypes.Uint8, -128, 127, 255, 4, 3},
	{"smallint", sqltypes.Int16, sqltypes.Uint16, -32768, 32767, 65535, 6, 5},
	{"mediumint", sqltypes.Int24, sqltypes.Uint24, -8388608, 8388607, 16777215, 9, 8},
	{"int", sqltypes.Int32, sqltypes.Uint32, -2147483648, 2147483647, 4294967295, 11, 10},
	{"bigint", sqltypes.Int64, sqltypes.Uint64, -9223372036854775808, 9223372036854775807, 18446744073709551615, 20, 20},
}

// intInfoOf returns the integer description of an integer column, or nil.
func intInfoOf(col *catalog.Column) *intInfo {
	switch col.Type {
	case sqltypes.Int8, sqltypes.Uint8:
		return &intTypes[0]
	case sqltypes.Int16, sqltypes.Uint16:
		return &intTypes[1]
	case sqltypes.Int24, sqltypes.Uint24:
		return &intTypes[2]
	case sqltypes.Int32, sqltypes.Uint32:
		return &intTypes[3]
	case sqltypes.Int64, sqltypes.Uint64:
		return &intTypes[4]
	}
	return nil
}

func intInfoByName(name string) *intInfo {
	for i := range intTypes {
		if intTypes[i].name == name {
			return &intTypes[i]
		}
	}
	return nil
}

// isIntegral reports whether col is one of the integer types.
func isIntegral(col *catalog.Column) bool { return intInfoOf(col) != nil }

// isNumeric reports whether col is an integer, DECIMAL, FLOAT, DOUBLE or
// YEAR column (MySQL's NUM_FLAG).
func isNumeric(col *catalog.Column) bool {
	switch col.Type {
	case sqltypes.Decimal, sqltypes.Float32, sqltypes.Float64, sqltypes.Year:
		return true
	}
	return isIntegral(col)
}

// isBlobKind reports whether col is TEXT, BLOB or JSON (no literal default,
// BLOB_FLAG).
func isBlobKind(col *catalog.Column) bool {
	switch col.Type {
	case sqltypes.Text, sqltypes.Blob, sqltypes.TypeJSON, sqltypes.Geometry:
		return true
	}
	return false
}

// isTemporal reports whether col is DATE, DATETIME, TIMESTAMP or TIME.
func isTemporal(col *catalog.Column) bool {
	switch col.Type {
	case sqltypes.Date, sqltypes.Datetime, sqltypes.Timestamp, sqltypes.Time:
		return true
	}
	return false
}

// textKind picks the TEXT/BLOB kind that holds n bytes.
func textKind(n int, text bool) (string, int) {
	prefix := "blob"
	if text {
		prefix = "text"
	}
	switch {
	case n <= maxTiny:
		return "tiny" + prefix, maxTiny
	case n <= maxText:
		return prefix, maxText
	case n <= maxMedium:
		return "medium" + prefix, maxMedium
	}
	return "long" + prefix, maxLong
}

// blobMax returns the maximum byte length of a TEXT/BLOB kind by name.
func blobMax(name string) int {
	switch name {
	case "tinytext", "tinyblob":
		return maxTiny
	case "text", "blob":
		return maxText
	case "mediumtext", "mediumblob":
		return maxMedium
	}
	return maxLong
}

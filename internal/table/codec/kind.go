package codec

import (
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

// kind is the storage class of a column type: how its values are encoded in
// keys and rows.
type kind uint8

const (
	kindInt      kind = iota // signed integer of width bytes
	kindUint                 // unsigned integer of width bytes
	kindYear                 // YEAR
	kindFloat32              // FLOAT
	kindFloat64              // DOUBLE
	kindDecimal              // DECIMAL
	kindDate                 // DATE
	kindDatetime             // DATETIME, TIMESTAMP
	kindTime                 // TIME
	kindEnum                 // ENUM
	kindSet                  // SET
	kindBit                  // BIT
	kindText                 // CHAR, VARCHAR, TEXT with a collation
	kindBytes                // BINARY, VARBINARY, BLOB, JSON, GEOMETRY, ... (raw bytes)
)

// kindOf classifies a column. width is the byte width of integer types.
func kindOf(col *catalog.Column) (k kind, width int) {
	switch col.Type {
	case sqltypes.Int8:
		return kindInt, 1
	case sqltypes.Uint8:
		return kindUint, 1
	case sqltypes.Int16:
		return kindInt, 2
	case sqltypes.Uint16:
		return kindUint, 2
	case sqltypes.Int24:
		return kindInt, 3
	case sqltypes.Uint24:
		return kindUint, 3
	case sqltypes.Int32:
		return kindInt, 4
	case sqltypes.Uint32:
		return kindUint, 4
	case sqltypes.Int64:
		return kindInt, 8
	case sqltypes.Uint64:
		return kindUint, 8
	case sqltypes.Year:
		return kindYear, 1
	case sqltypes.Float32:
		return kindFloat32, 4
	case sqltypes.Float64:
		return kindFloat64, 8
	case sqltypes.Decimal:
		return kindDecimal, 0
	case sqltypes.Date:
		return kindDate, 3
	case sqltypes.Datetime, sqltypes.Timestamp:
		return kindDatetime, 0
	case sqltypes.Time:
		return kindTime, 0
	case sqltypes.Enum:
		return kindEnum, 2
	case sqltypes.Set:
		return kindSet, 8
	case sqltypes.Bit:
		return kindBit, 8
	case sqltypes.VarChar, sqltypes.Char, sqltypes.Text:
		if col.Collation == collations.CollationBinaryID {
			return kindBytes, 0
		}
		return kindText, 0
	}
	return kindBytes, 0
}

// fsp returns the fractional-second precision of a temporal column, 0..6.
func fsp(col *catalog.Column) int {
	return min(max(col.Scale, 0), 6)
}

package coltype

import (
	"strings"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

// ImplicitDefault is the value MySQL stores for a NOT NULL column that has
// no DEFAULT when a row omits it in non-strict mode: 0 for numbers (with the
// column's scale), "" for strings, BINARY(n) zero bytes, zero dates and
// times, the first ENUM member, the empty SET and JSON null.
func ImplicitDefault(col *catalog.Column) sqltypes.Value {
	mk := func(s string) sqltypes.Value { return sqltypes.MakeTrusted(col.Type, []byte(s)) }
	frac := func(n int) string {
		if n <= 0 {
			return ""
		}
		if n > 9 {
			n = 9
		}
		return "." + strings.Repeat("0", n)
	}
	switch col.Type {
	case sqltypes.Decimal:
		return mk("0" + frac(col.Scale))
	case sqltypes.Year:
		return mk("0000")
	case sqltypes.Bit:
		n := col.Length
		if n < 1 || n > 64 {
			n = 64
		}
		return sqltypes.MakeTrusted(sqltypes.Bit, make([]byte, (n+7)/8))
	case sqltypes.Date:
		return mk("0000-00-00")
	case sqltypes.Datetime, sqltypes.Timestamp:
		return mk("0000-00-00 00:00:00" + frac(col.Scale))
	case sqltypes.Time:
		return mk("00:00:00" + frac(col.Scale))
	case sqltypes.Enum:
		if len(col.EnumValues) > 0 {
			return mk(col.EnumValues[0])
		}
		return mk("")
	case sqltypes.Binary:
		return sqltypes.MakeTrusted(sqltypes.Binary, make([]byte, col.Length))
	case sqltypes.TypeJSON:
		return mk("null")
	}
	if isNumeric(col) {
		return mk("0")
	}
	return mk("")
}

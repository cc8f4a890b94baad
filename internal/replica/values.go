package replica

import (
	"encoding/hex"
	"fmt"
	"unicode/utf8"

	"vitess.io/vitess/go/mysql/binlog"
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/charset"
	"vitess.io/vitess/go/mysql/collations/colldata"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

// Binary log cells become SQL literals of the replica's column: the
// applier's statements then go through strata's store assignment, in
// strict mode, so a value that does not fit its column is an error, never
// a silently changed value.

// checkColumn reports whether a binary log column of type typ (with its
// table-map metadata) can be applied to col: the same type family as
// MySQL requires without slave_type_conversions (integers of the same
// width, DECIMAL to DECIMAL, strings to strings, ...).
func checkColumn(typ byte, meta uint16, col *catalog.Column) error {
	real := typ
	if typ == binlog.TypeString && meta>>8 != 0 {
		// The real type (STRING, ENUM, SET) is the metadata's high byte;
		// a CHAR longer than 255 bytes keeps bits 8-9 of its length in
		// that byte's bits 4-5, inverted (MySQL's Field_string).
		real = byte(meta >> 8)
		if real&0x30 != 0x30 {
			real |= 0x30
		}
	}
	ok := false
	switch col.Type {
	case sqltypes.Int8, sqltypes.Uint8:
		ok = real == binlog.TypeTiny
	case sqltypes.Int16, sqltypes.Uint16:
		ok = real == binlog.TypeShort
	case sqltypes.Int24, sqltypes.Uint24:
		ok = real == binlog.TypeInt24
	case sqltypes.Int32, sqltypes.Uint32:
		ok = real == binlog.TypeLong
	case sqltypes.Int64, sqltypes.Uint64:
		ok = real == binlog.TypeLongLong
	case sqltypes.Float32:
		ok = real == binlog.TypeFloat
	case sqltypes.Float64:
		ok = real == binlog.TypeDouble
	case sqltypes.Decimal:
		ok = real == binlog.TypeNewDecimal
	case sqltypes.Year:
		ok = real == binlog.TypeYear
	case sqltypes.Date:
		ok = real == binlog.TypeDate || real == binlog.TypeNewDate
	case sqltypes.Time:
		ok = real == binlog.TypeTime || real == binlog.TypeTime2
	case sqltypes.Datetime:
		ok = real == binlog.TypeDateTime || real == binlog.TypeDateTime2
	case sqltypes.Timestamp:
		ok = real == binlog.TypeTimestamp || real == binlog.TypeTimestamp2
	case sqltypes.VarChar, sqltypes.Char, sqltypes.VarBinary, sqltypes.Binary:
		ok = real == binlog.TypeVarchar || real == binlog.TypeVarString || real == binlog.TypeString
	case sqltypes.Text, sqltypes.Blob:
		ok = real == binlog.TypeBlob || real == binlog.TypeTinyBlob || real == binlog.TypeMediumBlob || real == binlog.TypeLongBlob
	case sqltypes.TypeJSON:
		// MariaDB writes JSON as LONGTEXT.
		ok = real == binlog.TypeJSON || real == binlog.TypeBlob
	case sqltypes.Enum:
		ok = real == binlog.TypeEnum
	case sqltypes.Set:
		ok = real == binlog.TypeSet
	case sqltypes.Bit:
		ok = real == binlog.TypeBit
	}
	if !ok {
		return fmt.Errorf("cannot be converted from type '%s' to type '%s'", binlogTypeName(real), col.TypeName)
	}
	return nil
}

// appendLiteral appends the SQL literal of value v (decoded by
// binlog.CellValue) for column col.
func appendLiteral(b []byte, v sqltypes.Value, col *catalog.Column) []byte {
	if v.IsNull() {
		return append(b, "NULL"...)
	}
	raw := v.Raw()
	switch col.Type {
	case sqltypes.Int8, sqltypes.Uint8, sqltypes.Int16, sqltypes.Uint16, sqltypes.Int24, sqltypes.Uint24,
		sqltypes.Int32, sqltypes.Uint32, sqltypes.Int64, sqltypes.Uint64,
		sqltypes.Float32, sqltypes.Float64, sqltypes.Decimal, sqltypes.Enum, sqltypes.Set:
		// Numbers as text; an ENUM or SET arrives as its index or bit set.
		return append(b, raw...)
	case sqltypes.Year, sqltypes.Date, sqltypes.Time, sqltypes.Datetime, sqltypes.Timestamp:
		// Digits, '-', ':', '.' and ' ' only; a TIMESTAMP in UTC (the
		// applier's time_zone).
		b = append(b, '\'')
		b = append(b, raw...)
		return append(b, '\'')
	case sqltypes.Bit, sqltypes.VarBinary, sqltypes.Binary, sqltypes.Blob:
		return appendHex(b, raw)
	}
	// Text (and JSON): the source sends the bytes in the column's
	// character set; strata keeps text as UTF-8 in every set. A literal
	// that is not plain text is written in hex with an introducer.
	if col.Type != sqltypes.TypeJSON && col.Collation != collations.CollationBinaryID && col.Collation != 0 {
		if c := colldata.Lookup(col.Collation); c != nil {
			if _, utf8 := c.Charset().(charset.Charset_utf8mb4); !utf8 {
				if _, utf8 = c.Charset().(charset.Charset_utf8mb3); !utf8 {
					conv, err := charset.Convert(nil, charset.Charset_utf8mb4{}, raw, c.Charset())
					if err == nil {
						raw = conv
					}
				}
			}
		}
	}
	if plainText(raw) {
		// As a plain string (the applier's connection character set is
		// utf8mb4): such statements share cached plans.
		b = append(b, '\'')
		b = append(b, raw...)
		return append(b, '\'')
	}
	b = append(b, "_utf8mb4 "...)
	return appendHex(b, raw)
}

// plainText reports whether raw can be written between single quotes as
// it is: valid UTF-8 without quotes, backslashes or control characters.
func plainText(raw []byte) bool {
	for _, c := range raw {
		if c < 0x20 || c == '\'' || c == '\\' || c == 0x7f {
			return false
		}
	}
	return utf8.Valid(raw)
}

func appendHex(b []byte, raw []byte) []byte {
	if len(raw) == 0 {
		return append(b, "''"...)
	}
	b = append(b, "X'"...)
	b = hex.AppendEncode(b, raw)
	return append(b, '\'')
}

func binlogTypeName(t byte) string {
	switch t {
	case binlog.TypeTiny:
		return "tinyint"
	case binlog.TypeShort:
		return "smallint"
	case binlog.TypeInt24:
		return "mediumint"
	case binlog.TypeLong:
		return "int"
	case binlog.TypeLongLong:
		return "bigint"
	case binlog.TypeFloat:
		return "float"
	case binlog.TypeDouble:
		return "double"
	case binlog.TypeNewDecimal, binlog.TypeDecimal:
		return "decimal"
	case binlog.TypeYear:
		return "year"
	case binlog.TypeDate, binlog.TypeNewDate:
		return "date"
	case binlog.TypeTime, binlog.TypeTime2:
		return "time"
	case binlog.TypeDateTime, binlog.TypeDateTime2:
		return "datetime"
	case binlog.TypeTimestamp, binlog.TypeTimestamp2:
		return "timestamp"
	case binlog.TypeVarchar, binlog.TypeVarString:
		return "varchar"
	case binlog.TypeString:
		return "char"
	case binlog.TypeBlob, binlog.TypeTinyBlob, binlog.TypeMediumBlob, binlog.TypeLongBlob:
		return "blob"
	case binlog.TypeJSON:
		return "json"
	case binlog.TypeEnum:
		return "enum"
	case binlog.TypeSet:
		return "set"
	case binlog.TypeBit:
		return "bit"
	case binlog.TypeGeometry:
		return "geometry"
	}
	return fmt.Sprintf("type %d", t)
}

package coltype

import (
	"strconv"
	"strings"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

// QuoteIdent backquotes an identifier, doubling embedded backquotes.
func QuoteIdent(s string) string {
	return string(appendIdent(make([]byte, 0, len(s)+2), s))
}

func appendIdent(b []byte, s string) []byte {
	b = append(b, '`')
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			b = append(b, '`')
		}
		b = append(b, s[i])
	}
	return append(b, '`')
}

// appendString appends s as a single-quoted SQL string the way SHOW CREATE
// TABLE prints defaults, comments and ENUM members.
func appendString(b []byte, s string) []byte {
	b = append(b, '\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'':
			b = append(b, '\'', '\'')
		case '\\':
			b = append(b, '\\', '\\')
		case 0:
			b = append(b, '\\', '0')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case 0x1a:
			b = append(b, '\\', 'Z')
		default:
			b = append(b, c)
		}
	}
	return append(b, '\'')
}

// FormatType returns the column type as MySQL 8.0 prints it in SHOW CREATE
// TABLE and information_schema COLUMN_TYPE ("int unsigned", "tinyint(1)",
// "varchar(255)", "decimal(10,2)", "datetime(6)", "enum('a','b')").
func FormatType(col *catalog.Column) string {
	return string(appendType(make([]byte, 0, 32), col))
}

func appendType(b []byte, col *catalog.Column) []byte {
	b = append(b, col.TypeName...)
	switch {
	case isIntegral(col):
		ii := intInfoOf(col)
		w := col.Length
		if col.Zerofill && w == 0 {
			w = ii.uwid
		}
		if w > 0 && (col.Zerofill || (col.TypeName == "tinyint" && w == 1)) {
			b = appendParen(b, w)
		}
		return appendSign(b, col)
	case col.Type == sqltypes.Decimal:
		b = append(b, '(')
		b = strconv.AppendInt(b, int64(col.Length), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(col.Scale), 10)
		b = append(b, ')')
		return appendSign(b, col)
	case col.Type == sqltypes.Float32 || col.Type == sqltypes.Float64:
		if col.Scale >= 0 && col.Length > 0 {
			b = append(b, '(')
			b = strconv.AppendInt(b, int64(col.Length), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(col.Scale), 10)
			b = append(b, ')')
		}
		return appendSign(b, col)
	case col.Type == sqltypes.Bit, col.Type == sqltypes.Char, col.Type == sqltypes.VarChar,
		col.Type == sqltypes.Binary, col.Type == sqltypes.VarBinary:
		return appendParen(b, col.Length)
	case col.Type == sqltypes.Datetime, col.Type == sqltypes.Timestamp, col.Type == sqltypes.Time:
		if col.Scale > 0 {
			b = appendParen(b, col.Scale)
		}
	case col.Type == sqltypes.Enum, col.Type == sqltypes.Set:
		b = append(b, '(')
		for i, v := range col.EnumValues {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, v)
		}
		b = append(b, ')')
	}
	return b
}

func appendParen(b []byte, n int) []byte {
	b = append(b, '(')
	b = strconv.AppendInt(b, int64(n), 10)
	return append(b, ')')
}

func appendSign(b []byte, col *catalog.Column) []byte {
	if col.Unsigned {
		b = append(b, " unsigned"...)
	}
	if col.Zerofill {
		b = append(b, " zerofill"...)
	}
	return b
}

// formatDefault renders a column's DEFAULT clause value for SHOW CREATE
// TABLE ("'0'", "NULL", "CURRENT_TIMESTAMP", "b'101'", "(rand())").
func formatDefault(col *catalog.Column) string {
	switch {
	case col.DefaultExpr != "":
		return col.DefaultExpr
	case col.DefaultNull:
		return "NULL"
	case col.Type == sqltypes.Bit:
		raw := col.Default.Raw()
		if len(raw) == 0 && col.DefaultText != "" {
			raw = []byte(col.DefaultText)
		}
		var u uint64
		for _, c := range raw {
			u = u<<8 | uint64(c)
		}
		return "b'" + strconv.FormatUint(u, 2) + "'"
	case col.Type == sqltypes.Binary || col.Type == sqltypes.VarBinary:
		text := defaultText(col)
		if strings.IndexFunc(text, func(r rune) bool { return r < 0x20 || r >= 0x7f }) >= 0 {
			return "0x" + strings.ToUpper(hexString(text))
		}
		return string(appendString(nil, text))
	}
	return string(appendString(nil, defaultText(col)))
}

func defaultText(col *catalog.Column) string {
	if !col.Default.IsNull() {
		return col.Default.ToString()
	}
	return col.DefaultText
}

func hexString(s string) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		b = append(b, digits[s[i]>>4], digits[s[i]&15])
	}
	return string(b)
}

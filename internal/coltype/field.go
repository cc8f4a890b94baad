package coltype

import (
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/collation"
)

// Field returns the wire metadata of column i of t as MySQL 8.0 sends it in
// a result set. alias is the column's name in the select list ("" = the
// column name). Table is t.Name; callers with a table alias overwrite it.
func Field(t *catalog.Table, i int, alias string) *querypb.Field {
	col := &t.Columns[i]
	name := alias
	if name == "" {
		name = col.Name
	}
	length, decimals := columnLength(col)
	f := &querypb.Field{
		Name:         name,
		Type:         col.Type,
		Table:        t.Name,
		OrgTable:     t.Name,
		Database:     t.DB,
		OrgName:      col.Name,
		ColumnLength: length,
		Charset:      uint32(collations.CollationBinaryID),
		Decimals:     decimals,
		Flags:        columnFlags(t, i),
		ColumnType:   FormatType(col),
	}
	if col.IsText() || col.Type == sqltypes.Enum || col.Type == sqltypes.Set {
		f.Charset = uint32(collation.EvalCollation(col.Collation))
	}
	return f
}

// columnLength returns MySQL's column length (bytes for strings: characters
// times the charset's maximum character length) and decimals.
func columnLength(col *catalog.Column) (uint32, uint32) {
	mb := uint64(1)
	if col.IsText() || col.Type == sqltypes.Enum || col.Type == sqltypes.Set {
		mb = uint64(MaxCharLen(col.Collation))
	}
	capped := func(n uint64) uint32 {
		if n > maxLong {
			return maxLong
		}
		return uint32(n)
	}
	fsp := func(base uint32) (uint32, uint32) {
		if col.Scale > 0 {
			return base + 1 + uint32(col.Scale), uint32(col.Scale)
		}
		return base, 0
	}
	if ii := intInfoOf(col); ii != nil {
		w := col.Length
		if w == 0 {
			w = ii.width
			if col.Unsigned {
				w = ii.uwid
			}
		}
		return uint32(w), 0
	}
	switch col.Type {
	case sqltypes.Decimal:
		n := col.Length
		if col.Scale > 0 {
			n++
		}
		if !col.Unsigned {
			n++
		}
		return uint32(n), uint32(col.Scale)
	case sqltypes.Float32, sqltypes.Float64:
		if col.Scale >= 0 && col.Length > 0 {
			return uint32(col.Length), uint32(col.Scale)
		}
		if col.Type == sqltypes.Float32 {
			return 12, 31
		}
		return 22, 31
	case sqltypes.Bit:
		return uint32(col.Length), 0
	case sqltypes.Year:
		return 4, 0
	case sqltypes.Date:
		return 10, 0
	case sqltypes.Datetime, sqltypes.Timestamp:
		return fsp(19)
	case sqltypes.Time:
		return fsp(10)
	case sqltypes.TypeJSON:
		return maxLong, 0
	case sqltypes.Enum, sqltypes.Set:
		return capped(uint64(EnumSetChars(col)) * mb), 0
	}
	return capped(uint64(col.Length) * mb), 0
}

// columnFlags computes MySQL's column flags for column i of t.
func columnFlags(t *catalog.Table, i int) uint32 {
	col := &t.Columns[i]
	var fl querypb.MySqlFlag
	if !col.Nullable {
		fl |= querypb.MySqlFlag_NOT_NULL_FLAG
	}
	for k, ix := range t.Indexes {
		if k == 0 && t.HiddenPK {
			continue
		}
		for p, ic := range ix.Columns {
			if ic.Col != i {
				continue
			}
			fl |= querypb.MySqlFlag_PART_KEY_FLAG
			switch {
			case ix.Primary:
				fl |= querypb.MySqlFlag_PRI_KEY_FLAG
			case ix.Unique && len(ix.Columns) == 1:
				fl |= querypb.MySqlFlag_UNIQUE_KEY_FLAG
			case p == 0:
				fl |= querypb.MySqlFlag_MULTIPLE_KEY_FLAG
			}
		}
	}
	if col.Unsigned || col.Type == sqltypes.Bit {
		fl |= querypb.MySqlFlag_UNSIGNED_FLAG
	}
	if col.Zerofill {
		fl |= querypb.MySqlFlag_ZEROFILL_FLAG
	}
	switch col.Type {
	case sqltypes.Year:
		fl |= querypb.MySqlFlag_UNSIGNED_FLAG | querypb.MySqlFlag_ZEROFILL_FLAG
	case sqltypes.Blob, sqltypes.TypeJSON:
		fl |= querypb.MySqlFlag_BLOB_FLAG | querypb.MySqlFlag_BINARY_FLAG
	case sqltypes.Text:
		fl |= querypb.MySqlFlag_BLOB_FLAG
	case sqltypes.Binary, sqltypes.VarBinary, sqltypes.Date, sqltypes.Datetime, sqltypes.Time:
		fl |= querypb.MySqlFlag_BINARY_FLAG
	case sqltypes.Timestamp:
		fl |= querypb.MySqlFlag_BINARY_FLAG | querypb.MySqlFlag_TIMESTAMP_FLAG
	case sqltypes.Enum:
		fl |= querypb.MySqlFlag_ENUM_FLAG
	case sqltypes.Set:
		fl |= querypb.MySqlFlag_SET_FLAG
	}
	if col.IsText() && isBinColl(col.Collation) {
		fl |= querypb.MySqlFlag_BINARY_FLAG
	}
	if col.OnUpdateExpr != "" {
		fl |= querypb.MySqlFlag_ON_UPDATE_NOW_FLAG
	}
	if col.AutoIncrement {
		fl |= querypb.MySqlFlag_AUTO_INCREMENT_FLAG
	}
	if isNumeric(col) {
		fl |= querypb.MySqlFlag_NUM_FLAG
	}
	if !col.Nullable && !col.HasDefault && col.DefaultExpr == "" && !col.AutoIncrement {
		fl |= querypb.MySqlFlag_NO_DEFAULT_VALUE_FLAG
	}
	return uint32(fl)
}

// isBinColl reports whether a text collation compares bytes (MySQL sets
// BINARY_FLAG for such columns).
func isBinColl(id collations.ID) bool {
	name := CollationName(id)
	return len(name) > 4 && name[len(name)-4:] == "_bin"
}

// EnumSetChars is the most characters a value of an ENUM column (its
// longest member) or a SET column (all members, comma-separated) holds.
func EnumSetChars(col *catalog.Column) int {
	n := 0
	for i, v := range col.EnumValues {
		c := len([]rune(v))
		switch {
		case col.Type == sqltypes.Set && i > 0:
			n += 1 + c
		case col.Type == sqltypes.Set:
			n += c
		default:
			n = max(n, c)
		}
	}
	return n
}

package binlog

import (
	"encoding/binary"
	"fmt"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
)

// MySQL column type codes in TABLE_MAP events (field_types.h).
const (
	typeTiny       = 1
	typeShort      = 2
	typeLong       = 3
	typeFloat      = 4
	typeDouble     = 5
	typeLongLong   = 8
	typeInt24      = 9
	typeDate       = 10
	typeYear       = 13
	typeVarchar    = 15
	typeBit        = 16
	typeTimestamp2 = 17
	typeDatetime2  = 18
	typeTime2      = 19
	typeEnum       = 247
	typeSet        = 248
	typeNewDecimal = 246
	typeBlob       = 252
	typeString     = 254
	typeJSON       = 245
)

// Optional metadata field types of TABLE_MAP (binlog_row_metadata=FULL).
const (
	metaSignedness       = 1
	metaColumnCharset    = 3
	metaColumnName       = 4
	metaSetStrValue      = 5
	metaEnumStrValue     = 6
	metaSimplePrimaryKey = 8
	metaEnumSetCharset   = 11
)

// column is how one column is written in TABLE_MAP and row images.
type column struct {
	typ  byte   // type code in the TABLE_MAP
	meta []byte // its metadata
	// lenBytes is the length prefix width of string values (CHAR,
	// VARCHAR, BLOB/TEXT); packLen the width of ENUM/SET values.
	lenBytes int
	packLen  int
	// precision and scale of DECIMAL; fsp of temporal types; bits of BIT.
	precision, scale int
	fsp              int
	bits             int
	unsigned         bool
	col              *catalog.Column
}

// tableInfo is a table's binlog description, built once per definition.
type tableInfo struct {
	def  *catalog.Table
	id   uint64
	cols []column
	// body is the TABLE_MAP event's post-header and body.
	body []byte
}

// newTableInfo describes def, or fails with 1235 for a column type the row
// images cannot carry yet.
func newTableInfo(def *catalog.Table, id uint64) (*tableInfo, error) {
	ti := &tableInfo{def: def, id: id, cols: make([]column, len(def.Columns))}
	for i := range def.Columns {
		c, err := describe(&def.Columns[i])
		if err != nil {
			return nil, err
		}
		ti.cols[i] = c
	}
	ti.body = ti.appendTableMap(nil)
	return ti, nil
}

// describe maps a strata column to its binlog type and metadata.
func describe(col *catalog.Column) (column, error) {
	c := column{col: col, unsigned: col.Unsigned}
	switch col.Type {
	case sqltypes.Int8, sqltypes.Uint8:
		c.typ = typeTiny
	case sqltypes.Int16, sqltypes.Uint16:
		c.typ = typeShort
	case sqltypes.Int24, sqltypes.Uint24:
		c.typ = typeInt24
	case sqltypes.Int32, sqltypes.Uint32:
		c.typ = typeLong
	case sqltypes.Int64, sqltypes.Uint64:
		c.typ = typeLongLong
	case sqltypes.Float32:
		c.typ, c.meta = typeFloat, []byte{4}
	case sqltypes.Float64:
		c.typ, c.meta = typeDouble, []byte{8}
	case sqltypes.Decimal:
		c.precision, c.scale = col.Length, col.Scale
		if c.scale < 0 {
			c.scale = 0
		}
		if c.precision == 0 {
			c.precision = 10
		}
		c.typ, c.meta = typeNewDecimal, []byte{byte(c.precision), byte(c.scale)}
	case sqltypes.Date:
		c.typ = typeDate
	case sqltypes.Datetime:
		c.fsp = fspOf(col)
		c.typ, c.meta = typeDatetime2, []byte{byte(c.fsp)}
	case sqltypes.Timestamp:
		c.fsp = fspOf(col)
		c.typ, c.meta = typeTimestamp2, []byte{byte(c.fsp)}
	case sqltypes.Time:
		c.fsp = fspOf(col)
		c.typ, c.meta = typeTime2, []byte{byte(c.fsp)}
	case sqltypes.Year:
		c.typ = typeYear
	case sqltypes.Bit:
		c.bits = col.Length
		if c.bits == 0 {
			c.bits = 1
		}
		c.typ, c.meta = typeBit, []byte{byte(c.bits % 8), byte(c.bits / 8)}
	case sqltypes.Enum, sqltypes.Set:
		real := byte(typeEnum)
		c.packLen = 1
		if len(col.EnumValues) > 255 {
			c.packLen = 2
		}
		if col.Type == sqltypes.Set {
			real = typeSet
			c.packLen = (len(col.EnumValues) + 7) / 8
			if c.packLen > 4 {
				c.packLen = 8
			} else if c.packLen == 3 {
				c.packLen = 4
			}
			if c.packLen == 0 {
				c.packLen = 1
			}
		}
		c.typ, c.meta = typeString, []byte{real, byte(c.packLen)}
	case sqltypes.Char, sqltypes.Binary:
		maxLen := col.Length * coltype.MaxCharLen(col.Collation)
		c.lenBytes = 1
		if maxLen > 255 {
			c.lenBytes = 2
		}
		c.typ, c.meta = typeString, []byte{byte(typeString ^ ((maxLen & 0x300) >> 4)), byte(maxLen)}
	case sqltypes.VarChar, sqltypes.VarBinary:
		maxLen := col.Length * coltype.MaxCharLen(col.Collation)
		c.lenBytes = 1
		if maxLen > 255 {
			c.lenBytes = 2
		}
		c.typ = typeVarchar
		c.meta = binary.LittleEndian.AppendUint16(nil, uint16(maxLen))
	case sqltypes.Text, sqltypes.Blob:
		switch col.TypeName {
		case "tinytext", "tinyblob":
			c.lenBytes = 1
		case "mediumtext", "mediumblob":
			c.lenBytes = 3
		case "longtext", "longblob":
			c.lenBytes = 4
		default:
			c.lenBytes = 2
		}
		c.typ, c.meta = typeBlob, []byte{byte(c.lenBytes)}
	case sqltypes.TypeJSON:
		c.lenBytes = 4
		c.typ, c.meta = typeJSON, []byte{4}
	default:
		return c, sqlerror.NewSQLError(sqlerror.ERNotSupportedYet, sqlerror.SSClientError,
			fmt.Sprintf("This version of strata doesn't yet support 'binary logging of %s columns (column %s)'", col.TypeName, col.Name))
	}
	return c, nil
}

func fspOf(col *catalog.Column) int {
	if col.Scale > 0 && col.Scale <= 6 {
		return col.Scale
	}
	return 0
}

// isNumeric is MySQL's is_numeric_type for the SIGNEDNESS field.
func (c *column) isNumeric() bool {
	switch c.typ {
	case typeTiny, typeShort, typeInt24, typeLong, typeLongLong, typeFloat, typeDouble, typeNewDecimal:
		return true
	}
	return false
}

func (c *column) isEnumSet() bool {
	return c.typ == typeString && (c.meta[0] == typeEnum || c.meta[0] == typeSet)
}

// isCharacter is MySQL's is_character_type: the COLUMN_CHARSET columns.
func (c *column) isCharacter() bool {
	switch c.typ {
	case typeString:
		return !c.isEnumSet()
	case typeVarchar, typeBlob:
		return true
	}
	return false
}

// appendTableMap appends the TABLE_MAP post-header and body.
func (ti *tableInfo) appendTableMap(b []byte) []byte {
	var id [8]byte
	binary.LittleEndian.PutUint64(id[:], ti.id)
	b = append(b, id[:6]...)
	b = binary.LittleEndian.AppendUint16(b, 1) // TM_BIT_LEN_EXACT_F
	b = append(b, byte(len(ti.def.DB)))
	b = append(b, ti.def.DB...)
	b = append(b, 0, byte(len(ti.def.Name)))
	b = append(b, ti.def.Name...)
	b = append(b, 0)
	n := len(ti.cols)
	b = appendPackedInt(b, uint64(n))
	for i := range ti.cols {
		b = append(b, ti.cols[i].typ)
	}
	var meta []byte
	for i := range ti.cols {
		meta = append(meta, ti.cols[i].meta...)
	}
	b = appendPackedInt(b, uint64(len(meta)))
	b = append(b, meta...)
	nulls := make([]byte, (n+7)/8)
	for i := range ti.cols {
		if ti.cols[i].col.Nullable {
			nulls[i/8] |= 1 << (i % 8)
		}
	}
	b = append(b, nulls...)
	return ti.appendOptionalMeta(b)
}

// appendOptionalMeta appends the optional metadata fields.
func (ti *tableInfo) appendOptionalMeta(b []byte) []byte {
	field := func(b []byte, typ byte, v []byte) []byte {
		b = append(b, typ)
		b = appendPackedInt(b, uint64(len(v)))
		return append(b, v...)
	}
	// SIGNEDNESS: one bit per numeric column, most significant first.
	var sign []byte
	k := 0
	for i := range ti.cols {
		if !ti.cols[i].isNumeric() {
			continue
		}
		if k%8 == 0 {
			sign = append(sign, 0)
		}
		if ti.cols[i].unsigned {
			sign[k/8] |= 0x80 >> (k % 8)
		}
		k++
	}
	if k > 0 {
		b = field(b, metaSignedness, sign)
	}
	var cs, names, enums, sets, esCS, pk []byte
	for i := range ti.cols {
		c := &ti.cols[i]
		if c.isCharacter() {
			cs = appendPackedInt(cs, uint64(c.col.Collation))
		}
		names = appendPackedInt(names, uint64(len(c.col.Name)))
		names = append(names, c.col.Name...)
		if c.isEnumSet() {
			esCS = appendPackedInt(esCS, uint64(c.col.Collation))
			var v []byte
			v = appendPackedInt(v, uint64(len(c.col.EnumValues)))
			for _, m := range c.col.EnumValues {
				v = appendPackedInt(v, uint64(len(m)))
				v = append(v, m...)
			}
			if c.meta[0] == typeEnum {
				enums = append(enums, v...)
			} else {
				sets = append(sets, v...)
			}
		}
	}
	if len(cs) > 0 {
		b = field(b, metaColumnCharset, cs)
	}
	b = field(b, metaColumnName, names)
	if len(sets) > 0 {
		b = field(b, metaSetStrValue, sets)
	}
	if len(enums) > 0 {
		b = field(b, metaEnumStrValue, enums)
	}
	if !ti.def.HiddenPK {
		for _, ic := range ti.def.Primary().Columns {
			pk = appendPackedInt(pk, uint64(ic.Col))
		}
		b = field(b, metaSimplePrimaryKey, pk)
	}
	if len(esCS) > 0 {
		b = field(b, metaEnumSetCharset, esCS)
	}
	return b
}

// errBadValue reports a value the row image cannot represent (a store
// value out of its column's format: a bug, never silently logged).
func errBadValue(col *catalog.Column, v sqltypes.Value) error {
	return fmt.Errorf("binlog: cannot encode %q for column %s (%s)", v.Raw(), col.Name, col.TypeName)
}

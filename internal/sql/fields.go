package sql

import (
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// Result column metadata. MySQL clients decode binary-protocol rows by the
// column's declared type (an 8-byte integer for BIGINT, a length-prefixed
// string for DECIMAL, packed fields for DATETIME with DECIMALS fractional
// digits), while strata's protocol layer encodes each value by its own type:
// the two must agree, or the client reads garbage. Metadata comes from
// static types (table columns, evalengine's and strata's compile-time
// types), and reconcileFields checks every result against the values it
// carries.

// valueField derives metadata from the values of column i.
func valueField(ex *execCtx, name string, rows []Row, i int) *querypb.Field {
	for _, r := range rows {
		if i < len(r) && !r[i].IsNull() {
			t := r[i].Type()
			coll := collations.ID(collations.CollationBinaryID)
			if sqltypes.IsText(t) {
				coll = ex.s.collation()
			}
			var scale int32
			if t == sqltypes.Datetime || t == sqltypes.Timestamp || t == sqltypes.Time || t == sqltypes.Decimal {
				// Fractional digits as the value shows them; drivers use
				// the column's DECIMALS to print fractions.
				if dot := strings.LastIndexByte(r[i].ToString(), '.'); dot >= 0 {
					scale = int32(len(r[i].ToString()) - dot - 1)
				}
			}
			size := int32(0)
			if t == sqltypes.Datetime || t == sqltypes.Timestamp || t == sqltypes.Time {
				size = scale
			}
			return typeField(name, evalengine.NewTypeEx(t, coll, true, size, scale, nil))
		}
	}
	if len(rows) > 0 {
		return &querypb.Field{Name: name, Type: sqltypes.Null, Charset: 63, Flags: uint32(querypb.MySqlFlag_BINARY_FLAG)}
	}
	return &querypb.Field{Name: name, Type: sqltypes.VarChar, Charset: uint32(ex.s.collation()), ColumnLength: 1024}
}

// exprField derives column metadata from an expression's static type.
func exprField(ex *execCtx, e *eval.Expr, name string) *querypb.Field {
	t := e.Static
	if !t.Valid() {
		return nil
	}
	return typeField(name, t)
}

// addVirtual appends to sc the columns of a derived table or CTE, typed by
// the plan that produces them (invalid types stay dynamically typed).
func addVirtual(sc *eval.Scope, t *catalog.Table, alias string, types []evalengine.Type) {
	for i := range t.Columns {
		c := &t.Columns[i]
		var f *querypb.Field
		if types[i].Valid() {
			f = typeField(c.Name, types[i])
			f.Table = alias
		}
		sc.Cols = append(sc.Cols, eval.Column{Table: alias, Name: c.Name, Tbl: t, ColIdx: i, Type: types[i], Field: f})
	}
}

// typeField builds column metadata for an evalengine type.
func typeField(name string, t evalengine.Type) *querypb.Field {
	typ := t.Type()
	f := &querypb.Field{Name: name, Type: typ}
	if typ == sqltypes.Null {
		f.Type = sqltypes.Null
		f.Charset = 63
		f.Flags = uint32(querypb.MySqlFlag_BINARY_FLAG)
		return f
	}
	if sqltypes.IsText(typ) || typ == sqltypes.Enum || typ == sqltypes.Set {
		f.Charset = uint32(t.Collation())
		if f.Charset == 0 || f.Charset == collations.CollationBinaryID {
			f.Charset = 45 // ENUM/SET values typed by evalengine lose their collation
		}
		switch typ {
		case sqltypes.Enum:
			f.Flags |= uint32(querypb.MySqlFlag_ENUM_FLAG)
		case sqltypes.Set:
			f.Flags |= uint32(querypb.MySqlFlag_SET_FLAG)
		}
		size := t.Size()
		if size <= 0 {
			size = 255
		}
		f.ColumnLength = uint32(size) * 4
		if typ == sqltypes.Text {
			f.Type = sqltypes.Text
		}
	} else {
		f.Charset = 63
		if sqltypes.IsBinary(typ) {
			f.Flags |= uint32(querypb.MySqlFlag_BINARY_FLAG)
		}
	}
	switch {
	case sqltypes.IsIntegral(typ):
		f.ColumnLength = 21
		f.Flags |= uint32(querypb.MySqlFlag_NUM_FLAG)
		if sqltypes.IsUnsigned(typ) {
			f.Flags |= uint32(querypb.MySqlFlag_UNSIGNED_FLAG)
		}
	case typ == sqltypes.Decimal:
		f.Decimals = uint32(t.Scale())
		f.ColumnLength = uint32(t.Size()) + 2
		if f.ColumnLength < 3 {
			f.ColumnLength = 67
		}
		f.Flags |= uint32(querypb.MySqlFlag_NUM_FLAG)
	case sqltypes.IsFloat(typ):
		// Fixed decimals when the expression has them (ROUND(x, 2),
		// PI()): the text protocol prints that many (server
		// fixedDecimals); otherwise 31, the shortest form.
		f.Decimals = 31
		if d, ok := t.FixedDecimals(); ok {
			f.Decimals = uint32(d)
		}
		f.ColumnLength = 23
		f.Flags |= uint32(querypb.MySqlFlag_NUM_FLAG)
	case typ == sqltypes.Datetime || typ == sqltypes.Timestamp:
		f.ColumnLength = 19
		f.Decimals = temporalPrecision(t)
		if f.Decimals > 0 {
			f.ColumnLength += 1 + f.Decimals
		}
		f.Flags |= uint32(querypb.MySqlFlag_BINARY_FLAG)
	case typ == sqltypes.Date:
		f.ColumnLength = 10
		f.Flags |= uint32(querypb.MySqlFlag_BINARY_FLAG)
	case typ == sqltypes.Time:
		f.ColumnLength = 10
		f.Decimals = temporalPrecision(t)
		if f.Decimals > 0 {
			f.ColumnLength += 1 + f.Decimals
		}
		f.Flags |= uint32(querypb.MySqlFlag_BINARY_FLAG)
	}
	if !t.Nullable() {
		f.Flags |= uint32(querypb.MySqlFlag_NOT_NULL_FLAG)
	}
	return f
}

// temporalPrecision is the fractional-second digits of a DATETIME,
// TIMESTAMP or TIME type: evalengine keeps them in Size, strata's column
// types in both Size and Scale.
func temporalPrecision(t evalengine.Type) uint32 {
	return uint32(min(max(t.Size(), t.Scale(), 0), 6))
}

// cloneField copies column metadata.
func cloneField(f *querypb.Field) *querypb.Field {
	return &querypb.Field{
		Name: f.Name, Type: f.Type, Table: f.Table, OrgTable: f.OrgTable, Database: f.Database,
		OrgName: f.OrgName, ColumnLength: f.ColumnLength, Charset: f.Charset, Decimals: f.Decimals,
		Flags: f.Flags, ColumnType: f.ColumnType,
	}
}

// wireClass groups types by how the binary protocol encodes a value of
// them: a field of one type decodes every value of a type in its class.
func wireClass(t sqltypes.Type) byte {
	switch t {
	case sqltypes.Int8, sqltypes.Uint8:
		return '1'
	case sqltypes.Int16, sqltypes.Uint16, sqltypes.Year:
		return '2'
	case sqltypes.Int24, sqltypes.Uint24, sqltypes.Int32, sqltypes.Uint32:
		return '4'
	case sqltypes.Int64, sqltypes.Uint64:
		return '8'
	case sqltypes.Float32:
		return 'f'
	case sqltypes.Float64:
		return 'd'
	case sqltypes.Date, sqltypes.Datetime, sqltypes.Timestamp:
		return 't'
	case sqltypes.Time:
		return 'T'
	case sqltypes.Null:
		return 0
	}
	return 's' // length-prefixed bytes: DECIMAL, strings, BIT, ENUM, SET, JSON
}

// fracDigits returns the fractional-second digits of a temporal value.
func fracDigits(raw []byte) uint32 {
	for k := len(raw) - 1; k >= 0; k-- {
		switch raw[k] {
		case '.':
			return uint32(len(raw) - k - 1)
		case ' ', ':', '-':
			return 0
		}
	}
	return 0
}

// reconcileFields checks the columns cols of rows against their metadata
// fields and returns metadata that describes every value: a column whose
// values are of another wire class than its field (a static type that did
// not foresee them) gets the values' type, and if they disagree among
// themselves it becomes text, its values converted to their text form; a
// temporal column gets as many DECIMALS as its values show. fields is not
// modified (it may be a plan's cached metadata): a changed column is
// returned in a copy.
func reconcileFields(ex *execCtx, fields []*querypb.Field, cols []int, rows []Row) []*querypb.Field {
	out := fields
	for _, i := range cols {
		f := fields[i]
		class := wireClass(f.Type)
		var decimals uint32
		var mixed, moved bool
		var firstClass byte
		for _, r := range rows {
			v := r[i]
			if v.IsNull() {
				continue
			}
			c := wireClass(v.Type())
			if firstClass == 0 {
				firstClass = c
			}
			mixed = mixed || c != firstClass
			moved = moved || c != class
			if c == 't' || c == 'T' {
				decimals = max(decimals, fracDigits(v.Raw()))
			}
		}
		if !moved && decimals <= f.Decimals {
			continue
		}
		if &out[0] == &fields[0] {
			out = append([]*querypb.Field(nil), fields...)
		}
		switch {
		case mixed:
			out[i] = textColumn(ex, f.Name, rows, i)
		case moved:
			out[i] = valueField(ex, f.Name, rows, i)
			setTemporalDecimals(out[i], decimals)
		default:
			nf := cloneField(f)
			setTemporalDecimals(nf, decimals)
			out[i] = nf
		}
	}
	return out
}

// setTemporalDecimals gives a DATETIME, TIMESTAMP or TIME field d
// fractional digits (its display length follows).
func setTemporalDecimals(f *querypb.Field, d uint32) {
	if c := wireClass(f.Type); (c != 't' && c != 'T') || d <= f.Decimals {
		return
	}
	if f.Decimals == 0 {
		f.ColumnLength++ // the point
	}
	f.ColumnLength += d - f.Decimals
	f.Decimals = d
}

// textColumn turns column i of rows, whose values are of several wire
// classes, into text (binary when one value is binary) and returns its
// field. Values keep their text form (sqltypes values are stored as text).
func textColumn(ex *execCtx, name string, rows []Row, i int) *querypb.Field {
	t := sqltypes.VarChar
	for _, r := range rows {
		if v := r[i]; !v.IsNull() && (v.IsBinary() || v.Type() == sqltypes.Bit) {
			t = sqltypes.VarBinary
		}
	}
	for _, r := range rows {
		if v := r[i]; !v.IsNull() && v.Type() != t {
			r[i] = sqltypes.MakeTrusted(t, v.Raw())
		}
	}
	coll := collations.ID(collations.CollationBinaryID)
	if t == sqltypes.VarChar {
		coll = ex.s.collation()
	}
	return typeField(name, evalengine.NewTypeEx(t, coll, true, 0, 0, nil))
}

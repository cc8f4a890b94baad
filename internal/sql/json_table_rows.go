package sql

// The rows of a JSON_TABLE, computed per evaluation of its argument, and
// the conversion of the JSON values its columns extract into their types.

import (
	"strings"

	"vitess.io/vitess/go/mysql/json"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// jtFill is the state of one evaluation: the rows produced so far and the
// row being filled.
type jtFill struct {
	out []Row
	row Row
}

// rows evaluates the argument arg over the combined row cur and returns
// the table's rows (none when the argument is NULL).
func (jt *jsonTable) rows(ex *execCtx, arg *eval.Expr, cur Row) ([]Row, error) {
	v, err := ex.Eval(arg, cur)
	if err != nil {
		return nil, err
	}
	if v.IsNull() {
		return nil, nil
	}
	doc, err := jtDocument(v)
	if err != nil {
		return nil, err
	}
	f := &jtFill{row: make(Row, len(jt.def.Columns))}
	for i := range f.row {
		f.row[i] = sqltypes.NULL
	}
	for k, m := range jtMatches(jt.root.path, doc) {
		if _, err := f.nest(jt.root, m, k+1); err != nil {
			return nil, err
		}
	}
	return f.out, nil
}

// jtDocument parses the argument's value: JSON, or a string holding JSON.
func jtDocument(v sqltypes.Value) (*json.Value, error) {
	t := v.Type()
	if t != sqltypes.TypeJSON && !sqltypes.IsText(t) && !sqltypes.IsBinary(t) {
		return nil, sqlerr.New(sqlerr.JSONDataType, "22032", "Invalid data type for JSON data in argument 1 to function json_table; a JSON string or JSON type is required.")
	}
	var p json.Parser
	doc, err := p.ParseBytes(v.Raw())
	if err != nil {
		return nil, sqlerr.New(sqlerr.InvalidJSONText, "22032", "Invalid JSON text in argument 1 to function json_table: \"%s\".", err.Error())
	}
	return doc, nil
}

// jtMatches returns the values path selects in v, in document order.
func jtMatches(path *json.Path, v *json.Value) []*json.Value {
	var out []*json.Value
	path.Match(v, true, func(m *json.Value) { out = append(out, m) })
	return out
}

// nest fills the columns of n for its match v (its ord-th) and emits its
// rows: one per row of its NESTED PATHs — each sibling in turn, the
// others NULL — or one with them all NULL when none matches. It returns
// the number of rows emitted.
func (f *jtFill) nest(n *jtNest, v *json.Value, ord int) (int, error) {
	nested := false
	for _, c := range n.cols {
		if c.kind == jtNested {
			nested = true
			continue
		}
		val, err := c.value(v, ord, len(f.out)+1)
		if err != nil {
			return 0, err
		}
		f.row[c.slot] = val
	}
	emitted := 0
	if nested {
		for _, c := range n.cols {
			if c.kind != jtNested {
				continue
			}
			for k, m := range jtMatches(c.nest.path, v) {
				e, err := f.nest(c.nest, m, k+1)
				if err != nil {
					return 0, err
				}
				emitted += e
			}
			for i := c.nest.first; i < c.nest.end; i++ {
				f.row[i] = sqltypes.NULL
			}
		}
	}
	if emitted == 0 {
		f.out = append(f.out, append(Row(nil), f.row...))
		emitted = 1
	}
	return emitted, nil
}

// value computes a column for the match v (the ord-th of its path) of the
// row numbered row.
func (c *jtCol) value(v *json.Value, ord, row int) (sqltypes.Value, error) {
	switch c.kind {
	case jtOrdinality:
		return sqltypes.NewUint32(uint32(ord)), nil
	case jtExists:
		n := int64(0)
		if len(jtMatches(c.path, v)) > 0 {
			n = 1
		}
		out, _, err := coltype.Convert(c.col, sqltypes.NewInt64(n), true, row)
		if err != nil {
			return c.onError.apply(err)
		}
		return out, nil
	}
	ms := jtMatches(c.path, v)
	switch {
	case len(ms) == 0:
		if c.onEmpty.kind == sqlparser.ErrorJSONType {
			return sqltypes.Value{}, sqlerr.New(sqlerr.JSONTableMissing, "22035", "Missing value for JSON_TABLE column '%s'", c.col.Name)
		}
		return c.onEmpty.val, nil
	case len(ms) > 1:
		if c.col.Type != sqltypes.TypeJSON {
			return c.onError.apply(jtWrongValue(c.col))
		}
		out, err := jtConvert(c.col, json.NewArray(ms), row)
		if err != nil {
			return c.onError.apply(err)
		}
		return out, nil
	}
	out, err := jtConvert(c.col, ms[0], row)
	if err != nil {
		return c.onError.apply(err)
	}
	return out, nil
}

// apply answers a conversion error err as the ON ERROR clause says: the
// error itself, NULL or the DEFAULT value (without warnings, as MySQL).
func (r *jtResponse) apply(err error) (sqltypes.Value, error) {
	if r.kind == sqlparser.ErrorJSONType {
		return sqltypes.Value{}, err
	}
	return r.val, nil
}

func jtWrongValue(col *catalog.Column) error {
	return sqlerr.New(sqlerr.JSONTableWrongValue, "2203F", "Can't store an array or an object in the scalar JSON_TABLE column '%s'", col.Name)
}

// jtConvert converts the JSON value v into col's type as MySQL stores a
// JSON_TABLE column: a JSON column takes any value; a scalar column takes
// scalars (JSON null is NULL) converted strictly — a string must hold a
// whole number, date or time of the column's kind — and rejects values out
// of its range. The error is the one ERROR ON ERROR reports.
func jtConvert(col *catalog.Column, v *json.Value, row int) (sqltypes.Value, error) {
	if col.Type == sqltypes.TypeJSON {
		return sqltypes.MakeTrusted(sqltypes.TypeJSON, v.MarshalTo(nil)), nil
	}
	cast := jtCastName(col.Type)
	var in sqltypes.Value
	switch v.Type() {
	case json.TypeObject, json.TypeArray:
		return sqltypes.Value{}, jtWrongValue(col)
	case json.TypeNull:
		return sqltypes.NULL, nil
	case json.TypeNumber:
		switch {
		case sqltypes.IsText(col.Type):
			in = sqltypes.NewVarChar(string(v.MarshalTo(nil)))
		case v.NumberType() == json.NumberTypeSigned:
			n, _ := v.Int64()
			in = sqltypes.NewInt64(n)
		case v.NumberType() == json.NumberTypeUnsigned:
			n, _ := v.Uint64()
			in = sqltypes.NewUint64(n)
		default:
			f, ok := v.Float64()
			if !ok {
				return sqltypes.Value{}, jtCastError(cast, col, row)
			}
			in = sqltypes.NewFloat64(f)
		}
	case json.TypeBoolean:
		b, _ := v.Bool()
		switch {
		case sqltypes.IsText(col.Type) && b:
			in = sqltypes.NewVarChar("true")
		case sqltypes.IsText(col.Type):
			in = sqltypes.NewVarChar("false")
		case sqltypes.IsIntegral(col.Type) || sqltypes.IsFloat(col.Type) || col.Type == sqltypes.Decimal:
			in = sqltypes.NewInt64(0)
			if b {
				in = sqltypes.NewInt64(1)
			}
		default:
			return sqltypes.Value{}, jtCastError(cast, col, row)
		}
	case json.TypeString:
		s, _ := v.StringBytes()
		if !jtStringFits(col.Type, string(s)) {
			return sqltypes.Value{}, jtCastError(cast, col, row)
		}
		in = sqltypes.NewVarChar(string(s))
	case json.TypeDate, json.TypeDateTime, json.TypeTime:
		if !jtTemporalFits(col.Type, v.Type()) {
			return sqltypes.Value{}, jtCastError(cast, col, row)
		}
		var s string
		switch v.Type() {
		case json.TypeDate:
			s = v.MarshalDate()
		case json.TypeDateTime:
			s = v.MarshalDateTime()
		default:
			s = v.MarshalTime()
		}
		in = sqltypes.NewVarChar(s)
	default: // opaque values (BLOB, BIT)
		return sqltypes.Value{}, jtCastError(cast, col, row)
	}
	out, _, err := coltype.Convert(col, in, true, row)
	if err != nil {
		if se, ok := err.(*sqlerror.SQLError); ok && cast != "" && !jtRangeCode(se.Num) {
			return sqltypes.Value{}, jtCastError(cast, col, row)
		}
		return sqltypes.Value{}, jtOutOfRange(col)
	}
	return out, nil
}

// jtRangeCode tells the store-assignment errors that are a value out of
// the column's range (or length) rather than an unreadable value.
func jtRangeCode(code sqlerror.ErrorCode) bool {
	return code == sqlerror.ERWarnDataOutOfRange || code == sqlerror.ERDataTooLong
}

// jtCastName is the type MySQL's 3156 message names for a column type (""
// for strings, which take any scalar).
func jtCastName(t sqltypes.Type) string {
	switch {
	case sqltypes.IsIntegral(t):
		return "INTEGER"
	case sqltypes.IsFloat(t):
		return "DOUBLE"
	case t == sqltypes.Decimal:
		return "DECIMAL"
	case t == sqltypes.Date:
		return "DATE"
	case t == sqltypes.Time:
		return "TIME"
	case t == sqltypes.Datetime, t == sqltypes.Timestamp:
		return "DATETIME"
	}
	return ""
}

func jtCastError(cast string, col *catalog.Column, row int) error {
	return sqlerr.New(sqlerr.JSONValueForCast, "22018", "Invalid JSON value for CAST to %s from column %s at row %d", cast, col.Name, row)
}

// jtStringFits reports whether a JSON string can convert to a column of
// type t: numbers must be whole literals (MySQL's JSON coercions reject
// "12x" and, for integers, "3.5").
func jtStringFits(t sqltypes.Type, s string) bool {
	s = strings.TrimSpace(s)
	switch {
	case sqltypes.IsIntegral(t):
		if s != "" && (s[0] == '-' || s[0] == '+') {
			s = s[1:]
		}
		return s != "" && strings.Trim(s, "0123456789") == ""
	case sqltypes.IsFloat(t) || t == sqltypes.Decimal:
		return jtNumberLiteral(s)
	}
	return true
}

// jtNumberLiteral reports whether s is a decimal number: [sign] digits
// [. digits] [e [sign] digits], with at least one digit before the
// exponent.
func jtNumberLiteral(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		n := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			n++
		}
		if n == 0 {
			return false
		}
	}
	return i == len(s)
}

// jtTemporalFits reports whether a JSON date, datetime or time value can
// go into a column of type t: a date into a date column, a time into a
// time column (MySQL does not mix them), any of them into text.
func jtTemporalFits(t sqltypes.Type, jt json.Type) bool {
	switch t {
	case sqltypes.Date, sqltypes.Datetime, sqltypes.Timestamp:
		return jt == json.TypeDate || jt == json.TypeDateTime
	case sqltypes.Time:
		return jt == json.TypeTime
	}
	return sqltypes.IsText(t)
}

package vtable

import (
	"strconv"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

// Rows collects the rows of a system table.
type Rows struct {
	def  *catalog.Table
	rows [][]sqltypes.Value
}

// NewRows returns an empty sink for rows of def.
func NewRows(def *catalog.Table) *Rows { return &Rows{def: def} }

// Rows returns the rows added so far.
func (r *Rows) Rows() [][]sqltypes.Value { return r.rows }

// Add appends a row. It takes one value per column (it panics otherwise:
// a generator that disagrees with its definition is a programming error):
// nil is NULL; string, int, int64, uint64, float64 and bool (as 0/1) are converted
// to the column's type.
func (r *Rows) Add(vals ...any) {
	if len(vals) != len(r.def.Columns) {
		panic("vtable: system table " + r.def.Name + ": row has " + strconv.Itoa(len(vals)) + " values, want " + strconv.Itoa(len(r.def.Columns)))
	}
	row := make([]sqltypes.Value, len(vals))
	for i, v := range vals {
		row[i] = value(r.def.Columns[i].Type, v)
	}
	r.rows = append(r.rows, row)
}

// value converts a generator's value to a value of type t.
func value(t sqltypes.Type, v any) sqltypes.Value {
	switch x := v.(type) {
	case nil:
		return sqltypes.NULL
	case string:
		return sqltypes.MakeTrusted(t, []byte(x))
	case int:
		return sqltypes.MakeTrusted(t, strconv.AppendInt(nil, int64(x), 10))
	case int64:
		return sqltypes.MakeTrusted(t, strconv.AppendInt(nil, x, 10))
	case uint64:
		return sqltypes.MakeTrusted(t, strconv.AppendUint(nil, x, 10))
	case float64:
		return sqltypes.MakeTrusted(t, strconv.AppendFloat(nil, x, 'g', -1, 64))
	case bool:
		if x {
			return sqltypes.MakeTrusted(t, []byte("1"))
		}
		return sqltypes.MakeTrusted(t, []byte("0"))
	}
	panic("vtable: unsupported system table value type")
}

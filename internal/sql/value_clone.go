package sql

import "vitess.io/vitess/go/sqltypes"

// cloneValue deep-copies one value (copyRow for a single value): one
// allocation for its bytes, none for NULL or an empty value.
func cloneValue(v sqltypes.Value) sqltypes.Value {
	raw := v.Raw()
	if v.IsNull() || len(raw) == 0 {
		if v.IsNull() {
			return sqltypes.NULL
		}
		return sqltypes.MakeTrusted(v.Type(), nil)
	}
	return sqltypes.MakeTrusted(v.Type(), append([]byte(nil), raw...))
}

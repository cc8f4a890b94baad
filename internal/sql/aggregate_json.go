package sql

import (
	"vitess.io/vitess/go/mysql/json"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// JSON_ARRAYAGG(x) and JSON_OBJECTAGG(k, v): a JSON array of every row's
// value (NULL included, as JSON null; in the order the rows are read) and
// a JSON object of every row's key and value (a later duplicate key
// replaces the earlier value, as MySQL 8.0; a NULL key is error 3158).
// Values convert as JSON_ARRAY's arguments do: JSON values as themselves,
// numbers as numbers, text as strings, temporal values as JSON dates and
// times, binary strings as opaque blobs. Over no rows the result is NULL.
// The rows are kept (copied) in aggState.concat until the group ends.

// addJSONAgg adds one row's arguments.
func (a *aggSpec) addJSONAgg(ex *execCtx, st *aggState, row Row) error {
	vals := make(Row, len(a.args))
	for i, e := range a.args {
		v, err := ex.Eval(e, row)
		if err != nil {
			return err
		}
		vals[i] = v
	}
	if a.name == "json_objectagg" && vals[0].IsNull() {
		return sqlerr.New(sqlerr.JSONNullKey, sqlerr.StateJSON, "JSON documents may not contain NULL member names.")
	}
	st.count++
	st.concat = append(st.concat, copyRow(nil, vals))
	return nil
}

// jsonAggResult builds the group's document.
func (a *aggSpec) jsonAggResult(st *aggState) (sqltypes.Value, error) {
	if len(st.concat) == 0 {
		return sqltypes.NULL, nil
	}
	if a.name == "json_arrayagg" {
		elems := make([]*json.Value, len(st.concat))
		for i, r := range st.concat {
			v, err := jsonOf(r[0])
			if err != nil {
				return sqltypes.NULL, err
			}
			elems[i] = v
		}
		return sqltypes.MakeTrusted(sqltypes.TypeJSON, json.NewArray(elems).MarshalTo(nil)), nil
	}
	var obj json.Object
	for _, r := range st.concat {
		v, err := jsonOf(r[1])
		if err != nil {
			return sqltypes.NULL, err
		}
		obj.Set(r[0].ToString(), v, json.Set)
	}
	return sqltypes.MakeTrusted(sqltypes.TypeJSON, json.NewObject(obj).MarshalTo(nil)), nil
}

// jsonOf converts one SQL value to JSON (NULL is JSON null; a type JSON
// has no conversion for, such as YEAR, as its text).
func jsonOf(v sqltypes.Value) (*json.Value, error) {
	if v.IsNull() {
		return json.ValueNull, nil
	}
	j, err := json.NewFromSQL(v)
	if err != nil {
		if v.Type() == sqltypes.TypeJSON {
			return nil, sqlerr.New(sqlerr.InvalidJSONText, sqlerr.StateJSON, "Invalid JSON text: %v", err)
		}
		return json.NewString(v.ToString()), nil
	}
	return j, nil
}

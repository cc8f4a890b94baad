package builtins

import (
	"strings"

	"vitess.io/vitess/go/sqltypes"
)

// EnumIndex is the name of strata's internal function
// strata_enum_index(col, 'm1', 'm2', ...): the 1-based number of the
// member col holds (0 when none). internal/sql rewrites ENUM columns in
// numeric contexts into calls of it, because evalengine numbers ENUM
// members from 0 and MySQL from 1.
const EnumIndex = "strata_enum_index"

func init() {
	register(EnumIndex, &Func{MinArgs: 1, MaxArgs: -1, Type: typeOf(sqltypes.Int64), Eval: func(_ Env, a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].IsNull() {
			return sqltypes.NULL, nil
		}
		v := a[0].ToString()
		for i, m := range a[1:] {
			if strings.EqualFold(m.ToString(), v) {
				return sqltypes.NewInt64(int64(i + 1)), nil
			}
		}
		return sqltypes.NewInt64(0), nil
	}})
}

// IsNumber is the name of strata's internal function strata_is_number(v):
// 1 when v has a numeric type, else 0 (also for NULL).
const IsNumber = "strata_is_number"

func init() {
	register(IsNumber, &Func{MinArgs: 1, MaxArgs: 1, Type: typeOf(sqltypes.Int64), Eval: func(_ Env, a []sqltypes.Value) (sqltypes.Value, error) {
		v := a[0]
		if v.IsIntegral() || v.IsFloat() || v.IsDecimal() {
			return sqltypes.NewInt64(1), nil
		}
		return sqltypes.NewInt64(0), nil
	}})
}

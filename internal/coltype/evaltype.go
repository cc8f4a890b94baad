package coltype

import (
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/collation"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// EvalType returns the evalengine type of a column (type, collation,
// nullability, size, scale and ENUM/SET members), for
// evalengine.Config.ResolveType.
func EvalType(col *catalog.Column) evalengine.Type {
	coll := collations.ID(collations.CollationBinaryID)
	if col.IsText() || col.Type == sqltypes.Enum || col.Type == sqltypes.Set {
		coll = collation.EvalCollation(col.Collation)
	}
	var size, scale int32
	switch col.Type {
	case sqltypes.Decimal:
		size, scale = int32(col.Length), int32(col.Scale)
	case sqltypes.Float32, sqltypes.Float64:
		if col.Scale > 0 && col.Scale <= 30 && col.Length > 0 {
			// FLOAT(M,D): expressions over it print D decimals, as
			// MySQL's (x + 1 is 2.50).
			return evalengine.NewFixedFloatType(col.Type, col.Nullable, int32(col.Scale))
		}
		if col.Scale >= 0 && col.Length > 0 {
			size, scale = int32(col.Length), int32(col.Scale)
		}
	case sqltypes.Datetime, sqltypes.Timestamp, sqltypes.Time:
		// evalengine reads a temporal type's fractional digits from its
		// size (and strata's own code from its scale).
		size, scale = int32(col.Scale), int32(col.Scale)
	default:
		size = int32(col.Length)
	}
	var values *evalengine.EnumSetValues
	if len(col.EnumValues) > 0 {
		vs := make(evalengine.EnumSetValues, len(col.EnumValues))
		for i, v := range col.EnumValues {
			vs[i] = sqltypes.EncodeStringSQL(v)
		}
		values = &vs
	}
	return evalengine.NewTypeEx(col.Type, coll, col.Nullable, size, scale, values)
}

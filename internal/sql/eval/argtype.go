package eval

import (
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/sysvar"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// argType returns the compile-time type of a bind variable strata fills:
// a slot of out, or a session value (rewriteSessionVars). Invalid when unknown
// (user variables hold any type).
func (c *Compiler) argType(name string, out *Expr) evalengine.Type {
	for i := range out.Slots {
		if out.Slots[i].Name == name {
			return out.Slots[i].Type
		}
	}
	utf8mb3 := collations.ID(33) // utf8mb3_general_ci: MySQL's system character set
	switch name {
	case BVLastInsertID, BVConnID, BVFoundRows:
		return evalengine.NewTypeEx(sqltypes.Uint64, collations.CollationBinaryID, false, 21, 0, nil)
	case BVRowCount:
		return evalengine.NewTypeEx(sqltypes.Int64, collations.CollationBinaryID, false, 21, 0, nil)
	case BVDatabase:
		return evalengine.NewTypeEx(sqltypes.VarChar, utf8mb3, true, 64, 0, nil)
	case BVUser:
		return evalengine.NewTypeEx(sqltypes.VarChar, utf8mb3, false, 288, 0, nil)
	}
	if !strings.HasPrefix(name, BVSysVar) {
		return evalengine.Type{}
	}
	v := name[len(BVSysVar):]
	if _, ok := sysvar.Lookup(v); !ok {
		v = strings.TrimPrefix(v, "global_")
	}
	switch v {
	case "identity", "last_insert_id", "warning_count", "error_count":
		return evalengine.NewTypeEx(sqltypes.Uint64, collations.CollationBinaryID, false, 21, 0, nil)
	}
	d, ok := sysvar.Lookup(v)
	if !ok {
		return evalengine.Type{}
	}
	switch d.Kind {
	case sysvar.Int, sysvar.Bool:
		return evalengine.NewTypeEx(sqltypes.Int64, collations.CollationBinaryID, true, 21, 0, nil)
	case sysvar.String:
		return evalengine.NewTypeEx(sqltypes.VarChar, utf8mb3, true, 0, 0, nil)
	case sysvar.Double:
		return evalengine.NewTypeEx(sqltypes.Float64, collations.CollationBinaryID, false, 23, 6, nil)
	}
	return evalengine.Type{}
}

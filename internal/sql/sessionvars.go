package sql

import (
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/sysvar"
)

// collation is the connection collation used for literals.
func (s *Session) collation() collations.ID {
	v, _ := s.sysVar("collation_connection")
	if id := s.eng.Env.CollationEnv().LookupByName(v.ToString()); id != collations.Unknown {
		return id
	}
	return collations.ID(45)
}

// bindSessionVars fills the bind variables eval.Compile introduced for
// session values (names under eval.BVPrefix). Only names with the strata
// prefix are touched; bv may be nil on input.
func (s *Session) bindSessionVars(names []string, bv map[string]*querypb.BindVariable) map[string]*querypb.BindVariable {
	if len(names) == 0 {
		return bv
	}
	if bv == nil {
		bv = make(map[string]*querypb.BindVariable, len(names))
	}
	for _, n := range names {
		bv[n] = sqltypes.ValueBindVariable(s.sessionValue(n))
	}
	return bv
}

// sessionValue returns the value of a strata bind variable.
func (s *Session) sessionValue(n string) sqltypes.Value {
	switch n {
	case eval.BVLastInsertID:
		return sqltypes.NewUint64(s.lastInsertID)
	case eval.BVConnID:
		return sqltypes.NewUint64(uint64(s.ConnID))
	case eval.BVDatabase:
		if s.DB == "" {
			return sqltypes.NULL
		}
		return sqltypes.NewVarChar(s.DB)
	case eval.BVUser:
		return sqltypes.NewVarChar(s.User + "@" + s.Host)
	case eval.BVRowCount:
		return sqltypes.NewInt64(s.rowCount)
	case eval.BVFoundRows:
		return sqltypes.NewUint64(s.foundRows)
	}
	if strings.HasPrefix(n, eval.BVUserVar) {
		if v, ok := s.userVars[n[len(eval.BVUserVar):]]; ok {
			return v
		}
		return sqltypes.NULL
	}
	if strings.HasPrefix(n, eval.BVSysVar) {
		name := n[len(eval.BVSysVar):]
		global := false
		if strings.HasPrefix(name, "global_") {
			if _, ok := sysvar.Lookup(name); !ok {
				name, global = name[len("global_"):], true
			}
		}
		switch name {
		case "identity", "last_insert_id":
			return sqltypes.NewUint64(s.lastInsertID)
		case "warning_count":
			return sqltypes.NewUint64(uint64(len(s.prevWarnings)))
		case "error_count":
			return sqltypes.NewUint64(uint64(s.errorCount))
		case "timestamp":
			return s.timestampValue()
		case "gtid_executed", "gtid_purged":
			return s.gtidVar(name)
		}
		var v sqltypes.Value
		if global {
			v, _ = s.eng.Globals.Get(name)
		} else {
			v, _ = s.sysVar(name)
		}
		if d, ok := sysvar.Lookup(name); ok && d.Kind == sysvar.Bool {
			// MySQL returns booleans as integers from SELECT @@var.
			return v
		}
		return v
	}
	return sqltypes.NULL
}

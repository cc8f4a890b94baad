package eval

import (
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/sql/sysvar"
)

// Bind variable names of session-dependent values. Compile replaces
// variables and the functions that read the session (LAST_INSERT_ID(),
// DATABASE(), ...) by these bind variables, listed in Compiler.Names; the
// executor fills them from the session before it evaluates (internal/sql's
// bindSessionVars). Slots and outer references are named under BVPrefix too.
const (
	BVPrefix       = "__strata_"
	BVLastInsertID = BVPrefix + "last_insert_id"
	BVConnID       = BVPrefix + "connection_id"
	BVDatabase     = BVPrefix + "database"
	BVUser         = BVPrefix + "user"
	BVRowCount     = BVPrefix + "row_count"
	BVFoundRows    = BVPrefix + "found_rows"
	BVSysVar       = BVPrefix + "sv_"
	BVUserVar      = BVPrefix + "uv_"
)

// rewriteSessionVars replaces session-dependent expressions (variables
// and functions evalengine lacks) with bind variables filled at execution
// time, adding their names to names (when not nil).
func rewriteSessionVars(e sqlparser.Expr, names *[]string) (sqlparser.Expr, error) {
	var rerr error
	arg := func(name string) *sqlparser.Argument {
		if names != nil {
			found := false
			for _, x := range *names {
				if x == name {
					found = true
					break
				}
			}
			if !found {
				*names = append(*names, name)
			}
		}
		return sqlparser.NewArgument(name)
	}
	out := sqlparser.Rewrite(e, nil, func(cur *sqlparser.Cursor) bool {
		switch n := cur.Node().(type) {
		case *sqlparser.Variable:
			name := strings.ToLower(n.Name.String())
			switch n.Scope {
			case sqlparser.VariableScope:
				cur.Replace(arg(BVUserVar + name))
			case sqlparser.GlobalScope:
				d, ok := sysvar.Lookup(name)
				if !ok {
					rerr = sqlerr.UnknownSysVar(name)
					return false
				}
				if d.Scope == sysvar.Session {
					rerr = sqlerr.New(sqlerror.ERIncorrectGlobalLocalVar, sqlerror.SSUnknownSQLState, "Variable '%s' is a SESSION variable", name)
					return false
				}
				cur.Replace(arg(BVSysVar + "global_" + name))
			default:
				if _, ok := sysvar.Lookup(name); !ok && name != "identity" && name != "last_insert_id" && name != "warning_count" && name != "error_count" {
					rerr = sqlerr.UnknownSysVar(name)
					return false
				}
				cur.Replace(arg(BVSysVar + name))
			}
		case *sqlparser.FuncExpr:
			name := n.Name.Lowered()
			switch name {
			case "last_insert_id":
				if len(n.Exprs) == 0 {
					cur.Replace(arg(BVLastInsertID))
				}
			case "connection_id":
				cur.Replace(arg(BVConnID))
			case "database", "schema":
				cur.Replace(arg(BVDatabase))
			case "user", "current_user", "session_user", "system_user":
				cur.Replace(arg(BVUser))
			case "row_count":
				cur.Replace(arg(BVRowCount))
			case "found_rows":
				cur.Replace(arg(BVFoundRows))
			}
		}
		return true
	})
	if rerr != nil {
		return nil, rerr
	}
	return out.(sqlparser.Expr), nil
}

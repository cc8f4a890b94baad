package builtins

import (
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// Func is a SQL function strata implements itself because evalengine
// lacks it (or gets it wrong). Its arguments are evaluated by evalengine;
// the function runs in Go and its result is handed back to evalengine as a
// bind variable (see the package documentation).
type Func struct {
	// MinArgs and MaxArgs bound the number of arguments; MaxArgs < 0 is
	// variadic.
	MinArgs, MaxArgs int
	// Eval computes the result from the argument values. args is owned by
	// the caller, who reuses it for every call of one compiled expression;
	// Eval must not keep it (its address may identify the call site, see
	// State) nor write into the values' bytes.
	Eval func(env Env, args []sqltypes.Value) (sqltypes.Value, error)
	// Type is the static result type (column metadata at PREPARE and
	// before any row); nil, or an invalid Type, means it is known only
	// from the values. See types.go.
	Type TypeFunc
	// Volatile functions (RAND, UUID_SHORT, GET_LOCK, SLEEP) give a
	// different result, or have an effect, on every call: nothing may
	// fold or cache them.
	Volatile bool
}

// TypeFunc computes a function's result type from its arguments: their
// AST (to read constant formats and literals) and compile-time types.
type TypeFunc func(env TypeEnv, args []sqlparser.Expr, types []evalengine.Type) evalengine.Type

// registry maps lower-case function names to implementations. Every file
// of the package adds its functions in init; it is read-only afterwards,
// so lookups need no lock.
var registry = map[string]*Func{}

func register(name string, f *Func) { registry[name] = f }

// Lookup returns the function called name (lower case).
func Lookup(name string) (*Func, bool) {
	f, ok := registry[name]
	return f, ok
}

// CheckArity returns MySQL's error 1582 when a call of the function, by
// the given name, with n arguments has too few or too many.
func (f *Func) CheckArity(name string, n int) error {
	if n < f.MinArgs || (f.MaxArgs >= 0 && n > f.MaxArgs) {
		return sqlerr.New(sqlerror.ERWrongParamcountToNativeFct, sqlerror.SSClientError, "Incorrect parameter count in the call to native function '%s'", name)
	}
	return nil
}

package eval

import (
	"sync"

	"vitess.io/vitess/go/mysql/collations"
	vtrpcpb "vitess.io/vitess/go/vt/proto/vtrpc"
	"vitess.io/vitess/go/vt/sqlparser"
	"vitess.io/vitess/go/vt/vtenv"
	"vitess.io/vitess/go/vt/vterrors"

	"github.com/strata-db/strata/internal/sql/builtins"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// RoutinePlanner is a Planner that knows stored functions: a call of one
// compiles into a slot that runs it (the planner resolves the name: a
// qualified name, or an unqualified one that is no built-in function).
type RoutinePlanner interface {
	// StoredFunction returns the slot of a stored-function call, found
	// false when fe names no stored function.
	StoredFunction(c *Compiler, fe *sqlparser.FuncExpr) (sl *Slot, found bool, err error)
}

// builtinNames caches IsBuiltinFunction's answers by lower-case name.
var builtinNames sync.Map

var (
	defaultEnvOnce sync.Once
	defaultEnv     *vtenv.Environment
)

// MaybeStoredCall reports whether fe may call a stored function: a
// qualified name, or one that is no built-in function. The planner treats
// such calls as non-deterministic (evaluated per row, never at planning).
func MaybeStoredCall(fe *sqlparser.FuncExpr) bool {
	return !fe.Qualifier.IsEmpty() || !IsBuiltinFunction(fe.Name.Lowered(), nil)
}

// IsBuiltinFunction reports whether name (lower case) is a built-in
// function: one of strata's own, or one evalengine translates (a call
// with no arguments is either translated or refused for its arity).
//
// env may be nil (a default environment then: the answer depends on the
// name only).
func IsBuiltinFunction(name string, env *vtenv.Environment) bool {
	if _, ok := builtins.Lookup(name); ok {
		return true
	}
	if v, ok := builtinNames.Load(name); ok {
		return v.(bool)
	}
	if env == nil {
		defaultEnvOnce.Do(func() { defaultEnv, _ = vtenv.New(vtenv.Options{}) })
		env = defaultEnv
	}
	known := true
	fe := &sqlparser.FuncExpr{Name: sqlparser.NewIdentifierCI(name)}
	func() {
		defer func() { _ = recover() }()
		_, err := evalengine.Translate(fe, &evalengine.Config{Environment: env, Collation: collations.CollationUtf8mb4ID, NoConstantFolding: true})
		if err != nil && vterrors.Code(err) == vtrpcpb.Code_UNIMPLEMENTED && !evalengine.IsArgCountError(err) {
			known = false
		}
	}()
	builtinNames.Store(name, known)
	return known
}

package sql

import (
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// builtin is a SQL function strata implements itself because evalengine
// lacks it (or gets it wrong). Its arguments are evaluated by evalengine;
// the function runs in Go and its result is handed back to evalengine as a
// bind variable (see cexpr slots).
type builtin struct {
	minArgs, maxArgs int // maxArgs < 0: variadic
	fn               func(ex *execCtx, args []sqltypes.Value) (sqltypes.Value, error)
	// typ is the static result type (column metadata at PREPARE and before
	// any row); nil, or an invalid Type, means it is known only from the
	// values. See functions_types.go.
	typ builtinType
	// volatile functions (RAND, UUID, GET_LOCK, SLEEP) are never folded.
	volatile bool
}

// builtinFuncs maps lower-case function names to implementations. Files
// functions_*.go add entries in init.
var builtinFuncs = map[string]*builtin{}

func registerBuiltin(name string, b *builtin) { builtinFuncs[name] = b }

func init() {
	upper := &builtin{minArgs: 1, maxArgs: 1, fn: func(ex *execCtx, a []sqltypes.Value) (sqltypes.Value, error) {
		return changeCase(a[0], strings.ToUpper), nil
	}, typ: caseType}
	lower := &builtin{minArgs: 1, maxArgs: 1, fn: func(ex *execCtx, a []sqltypes.Value) (sqltypes.Value, error) {
		return changeCase(a[0], strings.ToLower), nil
	}, typ: caseType}
	registerBuiltin("upper", upper)
	registerBuiltin("ucase", upper)
	registerBuiltin("lower", lower)
	registerBuiltin("lcase", lower)
	registerBuiltin("any_value", &builtin{minArgs: 1, maxArgs: 1, fn: func(ex *execCtx, a []sqltypes.Value) (sqltypes.Value, error) {
		return a[0], nil
	}, typ: argType0})
}

// changeCase maps the case of text; binary strings are returned unchanged,
// as in MySQL.
func changeCase(v sqltypes.Value, f func(string) string) sqltypes.Value {
	if v.IsNull() {
		return v
	}
	if v.IsBinary() {
		return v
	}
	t := v.Type()
	if !v.IsText() {
		t = sqltypes.VarChar
	}
	return sqltypes.MakeTrusted(t, []byte(f(v.ToString())))
}

func paramCountErr(name string) error {
	return sqlerr.New(sqlerror.ERWrongParamcountToNativeFct, sqlerror.SSClientError, "Incorrect parameter count in the call to native function '%s'", name)
}

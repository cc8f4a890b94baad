package eval

import (
	"context"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/colldata"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/vtenv"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/builtins"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// Row is one row flowing between operators; an expression reads its
// columns by their offsets in the Scope it was compiled in.
type Row = []sqltypes.Value

// Host is what evaluation needs of the session running the statement.
// internal/sql's execution context implements it; slots reach the session
// only through it.
type Host interface {
	// Warn adds a warning (level Warning) to the session's warnings.
	Warn(code sqlerror.ErrorCode, msg string)
	// StrictMode reports whether sql_mode is strict.
	StrictMode() bool
	// NoZeroDates reports whether sql_mode rejects zero dates or zero
	// date parts.
	NoZeroDates() bool
	// SysVar returns the session's value of a system variable.
	SysVar(name string) (sqltypes.Value, bool)
	// ConnID is the session's connection id.
	ConnID() uint32
	// UserLocks is the lock table of the server the session belongs to.
	UserLocks() *builtins.UserLocks
	// ConnCollation is the connection collation (collation_connection).
	ConnCollation() collations.ID
	// SetUserVar assigns the user variable name (@name := v) and returns
	// the value stored, which the expression reads (a copy: v may alias
	// the row).
	SetUserVar(name string, v sqltypes.Value) sqltypes.Value
	// ColumnDefault evaluates the DEFAULT expression of a column
	// (DEFAULT(col) of a column whose default is an expression), or gives
	// a TIMESTAMP column's constant default (an instant) in session time.
	ColumnDefault(c *catalog.Column) (sqltypes.Value, error)
}

// Ctx is the evaluation state of one statement execution: the bind
// variables, the evalengine environment, the builtin functions' state and
// the Host. internal/sql's execution context embeds it, so evaluating
// costs no indirection; Init prepares it. Ctx is the builtins.Env of the
// functions its slots call.
type Ctx struct {
	ctx context.Context
	// BV are the bind variables of the execution (slots write theirs).
	BV map[string]*querypb.BindVariable
	// Env evaluates; its BindVars are BV (SetBV keeps them together).
	Env *evalengine.ExpressionEnv
	// Host is the session running the statement.
	Host Host
	venv *vtenv.Environment
	// argColls are the argument collations of the strata function being
	// called (see ArgCollation).
	argColls []collations.TypedCollation
	// builtins is the builtin functions' state for this execution
	// (builtins.Env.State).
	builtins builtins.State
}

// Init prepares x for an execution under ctx with bind variables bv, vc
// giving evalengine the session (time zone, SQL mode, environment) and
// host the rest.
func (x *Ctx) Init(ctx context.Context, bv map[string]*querypb.BindVariable, vc evalengine.VCursor, host Host) {
	x.ctx, x.BV, x.Host = ctx, bv, host
	x.venv = vc.Environment()
	x.Env = evalengine.NewExpressionEnv(ctx, bv, vc)
}

// SetBV installs the bind variables of the execution.
func (x *Ctx) SetBV(bv map[string]*querypb.BindVariable) {
	x.BV = bv
	x.Env.BindVars = bv
}

// prepare computes the slots of e (functions and subqueries evalengine
// lacks) into bind variables before e itself is evaluated.
func (x *Ctx) prepare(e *Expr, row Row) error {
	if len(e.Slots) == 0 {
		return nil
	}
	if x.BV == nil {
		x.SetBV(map[string]*querypb.BindVariable{})
	}
	for i := range e.Slots {
		sl := &e.Slots[i]
		v, err := sl.Fn(x, row)
		if err != nil {
			return err
		}
		x.BV[sl.Name] = sqltypes.ValueBindVariable(v)
	}
	return nil
}

// Eval evaluates e over row. evalengine panics on a few inputs; those become
// errors instead of crashing the server.
func (x *Ctx) Eval(e *Expr, row Row) (v sqltypes.Value, err error) {
	v, _, err = x.EvalColl(e, row)
	return v, err
}

// EvalColl evaluates and also returns the result collation.
func (x *Ctx) EvalColl(e *Expr, row Row) (sqltypes.Value, collations.ID, error) {
	v, tc, err := x.EvalTyped(e, row)
	return v, tc.Collation, err
}

// EvalTyped evaluates and also returns the result's collation with its
// coercibility.
func (x *Ctx) EvalTyped(e *Expr, row Row) (v sqltypes.Value, tc collations.TypedCollation, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = sqlerr.New(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState, "expression evaluation failed: %v", r)
		}
	}()
	if e.arg != "" {
		if b, ok := x.BV[e.arg]; ok {
			if v, err := sqltypes.BindVariableToValue(b); err == nil {
				tc := collations.TypedCollation{Collation: collations.CollationBinaryID, Coercibility: collations.CoerceCoercible}
				if v.IsText() {
					tc.Collation = x.Host.ConnCollation()
				}
				return v, tc, nil
			}
		}
	}
	if err := x.prepare(e, row); err != nil {
		return sqltypes.NULL, collations.TypedCollation{}, err
	}
	x.Env.Row = row
	res, err := x.Env.Evaluate(e.e)
	if err != nil {
		return sqltypes.NULL, collations.TypedCollation{}, evalErr(err)
	}
	tc = res.TypedCollation()
	return res.Value(tc.Collation), tc, nil
}

// ArgCollation implements builtins.Env: the collation MySQL derives from
// the text arguments of the strata function being called (x.argColls, set
// by its slot): the strongest coercibility wins, a _bin collation between
// equals; the connection collation when no argument is text.
func (x *Ctx) ArgCollation(args []sqltypes.Value) collations.ID {
	var (
		out   collations.TypedCollation
		found bool
	)
	env := x.venv.CollationEnv()
	for i, v := range args {
		if i >= len(x.argColls) || !(v.IsText() || v.IsBinary()) {
			continue
		}
		tc := x.argColls[i]
		if !found {
			out, found = tc, true
			continue
		}
		if m, _, _, err := colldata.Merge(env, out, tc, colldata.CoercionOptions{ConvertToSuperset: true, ConvertWithCoercion: true}); err == nil {
			out = m
		}
	}
	if !found {
		return x.Host.ConnCollation()
	}
	return out.Collation
}

// EvalBool evaluates a condition; NULL is false.
func (x *Ctx) EvalBool(e *Expr, row Row) (bool, error) {
	res, err := x.evalResult(e, row)
	if err != nil {
		return false, err
	}
	return res.ToBoolean(), nil
}

// EvalFalse evaluates a condition and reports whether it is FALSE (NULL is
// not), the test of a CHECK constraint.
func (x *Ctx) EvalFalse(e *Expr, row Row) (bool, error) {
	res, err := x.evalResult(e, row)
	if err != nil {
		return false, err
	}
	return res.IsFalse(), nil
}

// evalResult evaluates e over row, a panic in the evaluator becoming the
// statement's error.
func (x *Ctx) evalResult(e *Expr, row Row) (res evalengine.EvalResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = sqlerr.New(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState, "expression evaluation failed: %v", r)
		}
	}()
	if err := x.prepare(e, row); err != nil {
		return res, err
	}
	x.Env.Row = row
	res, err = x.Env.Evaluate(e.e)
	if err != nil {
		return res, evalErr(err)
	}
	return res, nil
}

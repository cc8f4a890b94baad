package builtins

import (
	"context"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
)

// Env is what a function may use of the statement execution calling it.
// internal/sql/eval's execution context (eval.Ctx) implements it, reaching
// the session through eval.Host; Eval is never called with a nil Env.
type Env interface {
	// Context is the statement's context: SLEEP and GET_LOCK stop waiting
	// when it is done.
	Context() context.Context
	// Warn adds a warning (level Warning) to the session's warnings.
	Warn(code sqlerror.ErrorCode, msg string)
	// StrictMode reports whether sql_mode is strict (STRICT_TRANS_TABLES
	// or STRICT_ALL_TABLES).
	StrictMode() bool
	// NoZeroDates reports whether sql_mode rejects zero dates or zero
	// date parts (NO_ZERO_DATE, NO_ZERO_IN_DATE).
	NoZeroDates() bool
	// ArgCollation is the collation MySQL derives from the text arguments
	// of the call (args are the values Eval received); the connection
	// collation when none is text.
	ArgCollation(args []sqltypes.Value) collations.ID
	// SysVar returns the session's value of a system variable (the
	// global value when the session has none).
	SysVar(name string) (sqltypes.Value, bool)
	// ConnID is the session's connection id (the owner of user locks).
	ConnID() uint32
	// UserLocks is the lock table of the server the session belongs to.
	UserLocks() *UserLocks
	// State is the functions' storage for this statement execution.
	State() *State
}

// TypeEnv is what a TypeFunc may use of the session compiling the call.
type TypeEnv interface {
	// ConnCollation is the connection collation (collation_connection),
	// the collation of text results that derive none from an argument.
	ConnCollation() collations.ID
}

// State holds what functions keep for the length of one statement
// execution. The executor keeps one per execution and returns it from
// Env.State; the zero value is ready to use.
type State struct {
	// rand holds RAND(seed)'s generators per call site (misc.go).
	rand map[*sqltypes.Value]*seededGen
}

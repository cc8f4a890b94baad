package builtins

import (
	"context"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
)

// testEnv is an Env for unit tests: the default sql_mode's strictness and
// zero-date rules unless set, utf8mb4 text, and the warnings it got.
type testEnv struct {
	ctx         context.Context
	strict      bool
	zeroDatesOK bool
	coll        collations.ID
	vars        map[string]sqltypes.Value
	connID      uint32
	locks       *UserLocks
	state       State
	warnings    []testWarning
}

func (e *testEnv) Context() context.Context {
	if e.ctx == nil {
		return context.Background()
	}
	return e.ctx
}

// testWarning is one warning a testEnv got.
type testWarning struct {
	code sqlerror.ErrorCode
	msg  string
}

func (e *testEnv) Warn(code sqlerror.ErrorCode, msg string) {
	e.warnings = append(e.warnings, testWarning{code, msg})
}

func (e *testEnv) StrictMode() bool  { return e.strict }
func (e *testEnv) NoZeroDates() bool { return !e.zeroDatesOK }

func (e *testEnv) ArgCollation([]sqltypes.Value) collations.ID {
	if e.coll == collations.Unknown {
		return collations.CollationUtf8mb4ID
	}
	return e.coll
}

func (e *testEnv) SysVar(name string) (sqltypes.Value, bool) {
	v, ok := e.vars[name]
	return v, ok
}

func (e *testEnv) ConnID() uint32 { return e.connID }

func (e *testEnv) UserLocks() *UserLocks {
	if e.locks == nil {
		e.locks = NewUserLocks()
	}
	return e.locks
}

func (e *testEnv) State() *State { return &e.state }

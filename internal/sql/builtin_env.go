package sql

import (
	"context"
	"strings"
	"sync"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/builtins"
)

// The execution context is the builtins.Env of the builtin functions it
// calls (slots.go, builtinSlot), and the compiler their builtins.TypeEnv.
var (
	_ builtins.Env     = (*execCtx)(nil)
	_ builtins.TypeEnv = (*compiler)(nil)
)

// Context implements builtins.Env.
func (ex *execCtx) Context() context.Context {
	if ex.ctx != nil {
		return ex.ctx
	}
	return context.Background()
}

// Warn implements builtins.Env.
func (ex *execCtx) Warn(code sqlerror.ErrorCode, msg string) {
	ex.s.warn("Warning", uint16(code), msg)
}

// StrictMode implements builtins.Env.
func (ex *execCtx) StrictMode() bool { return ex.s.strict() }

// NoZeroDates implements builtins.Env.
func (ex *execCtx) NoZeroDates() bool {
	m := ex.s.sqlMode
	return m.noZeroDate || strings.Contains(strings.ToUpper(m.raw), "NO_ZERO_IN_DATE")
}

// ArgCollation implements builtins.Env (argCollation).
func (ex *execCtx) ArgCollation(args []sqltypes.Value) collations.ID {
	return ex.argCollation(args)
}

// SysVar implements builtins.Env.
func (ex *execCtx) SysVar(name string) (sqltypes.Value, bool) { return ex.s.sysVar(name) }

// ConnID implements builtins.Env.
func (ex *execCtx) ConnID() uint32 { return ex.s.ConnID }

// UserLocks implements builtins.Env: the lock table of the session's
// engine.
func (ex *execCtx) UserLocks() *builtins.UserLocks { return userLocksOf(ex.s.eng) }

// State implements builtins.Env.
func (ex *execCtx) State() *builtins.State { return &ex.builtins }

// ConnCollation implements builtins.TypeEnv.
func (c *compiler) ConnCollation() collations.ID { return c.s.plan().collation }

// engineUserLocks maps each Engine to its table of user-level locks
// (GET_LOCK; Engine has no field for it).
var engineUserLocks struct {
	sync.Mutex
	m map[*Engine]*builtins.UserLocks
}

func userLocksOf(e *Engine) *builtins.UserLocks {
	engineUserLocks.Lock()
	defer engineUserLocks.Unlock()
	if engineUserLocks.m == nil {
		engineUserLocks.m = map[*Engine]*builtins.UserLocks{}
	}
	ul := engineUserLocks.m[e]
	if ul == nil {
		ul = builtins.NewUserLocks()
		engineUserLocks.m[e] = ul
	}
	return ul
}

// releaseUserLocks releases the user-level locks of the session; call it
// when the session closes.
func (s *Session) releaseUserLocks() {
	userLocksOf(s.eng).ReleaseAll(s.ConnID)
}

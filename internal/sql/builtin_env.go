package sql

import (
	"strings"
	"sync"
	"time"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/builtins"
	"github.com/strata-db/strata/internal/sql/eval"
)

// The execution context is the eval.Host of its expressions: slots reach
// the session through it (and builtin functions through eval.Ctx, the
// builtins.Env that forwards to it).
var _ eval.Host = (*execCtx)(nil)

// Warn implements eval.Host.
func (ex *execCtx) Warn(code sqlerror.ErrorCode, msg string) {
	ex.s.warn("Warning", uint16(code), msg)
}

// StrictMode implements eval.Host.
func (ex *execCtx) StrictMode() bool { return ex.s.strict() }

// NoZeroDates implements eval.Host.
func (ex *execCtx) NoZeroDates() bool {
	m := ex.s.sqlMode
	return m.noZeroDate || strings.Contains(strings.ToUpper(m.raw), "NO_ZERO_IN_DATE")
}

// SysVar implements eval.Host.
func (ex *execCtx) SysVar(name string) (sqltypes.Value, bool) { return ex.s.sysVar(name) }

// ConnID implements eval.Host.
func (ex *execCtx) ConnID() uint32 { return ex.s.ConnID }

// UserLocks implements eval.Host: the lock table of the session's
// engine.
func (ex *execCtx) UserLocks() *builtins.UserLocks { return userLocksOf(ex.s.eng) }

// ConnCollation implements eval.Host.
func (ex *execCtx) ConnCollation() collations.ID { return ex.s.collation() }

// SetUserVar implements eval.Host: the value is copied, it may alias the
// row.
func (ex *execCtx) SetUserVar(name string, v sqltypes.Value) sqltypes.Value {
	v = copyRow(nil, Row{v})[0]
	ex.s.userVars[name] = v
	return v
}

// ColumnDefault implements eval.Host.
func (ex *execCtx) ColumnDefault(c *catalog.Column) (sqltypes.Value, error) {
	if c.DefaultExpr == "" {
		return ex.s.constDefault(c), nil // a TIMESTAMP's, in session time
	}
	return ex.s.evalDefaultExpr(ex, c, time.Now())
}

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

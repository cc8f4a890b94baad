package eval

import (
	"context"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/builtins"
)

// The execution context is the builtins.Env of the builtin functions its
// slots call (slots.go, builtinSlot), and the compiler their
// builtins.TypeEnv.
var (
	_ builtins.Env     = (*Ctx)(nil)
	_ builtins.TypeEnv = (*Compiler)(nil)
)

// Context implements builtins.Env.
func (x *Ctx) Context() context.Context {
	if x.ctx != nil {
		return x.ctx
	}
	return context.Background()
}

// Warn implements builtins.Env.
func (x *Ctx) Warn(code sqlerror.ErrorCode, msg string) { x.Host.Warn(code, msg) }

// StrictMode implements builtins.Env.
func (x *Ctx) StrictMode() bool { return x.Host.StrictMode() }

// NoZeroDates implements builtins.Env.
func (x *Ctx) NoZeroDates() bool { return x.Host.NoZeroDates() }

// SysVar implements builtins.Env.
func (x *Ctx) SysVar(name string) (sqltypes.Value, bool) { return x.Host.SysVar(name) }

// ConnID implements builtins.Env.
func (x *Ctx) ConnID() uint32 { return x.Host.ConnID() }

// UserLocks implements builtins.Env.
func (x *Ctx) UserLocks() *builtins.UserLocks { return x.Host.UserLocks() }

// State implements builtins.Env.
func (x *Ctx) State() *builtins.State { return &x.builtins }

// ConnCollation implements builtins.TypeEnv.
func (c *Compiler) ConnCollation() collations.ID { return c.Settings.Collation }

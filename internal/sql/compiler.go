package sql

import (
	"context"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
)

// compiler is the session's expression compiler: eval.Compiler, whose
// Planner it is (subqueries in expressions are planned here), plus the
// planning state of the statement it compiles for.
type compiler struct {
	eval.Compiler
	s   *Session
	ctx context.Context
	// subs, when set, collects the plans of the subqueries compiled
	// (EXPLAIN lists them).
	subs *[]subPlan
	// vc is the compiler's evalengine.VCursor (Settings.VCursor).
	vc vcursor
}

var _ eval.Planner = (*compiler)(nil)

// newCompiler returns a compiler for expressions over sc under the
// session's current plan settings; names (may be nil) collects the
// session values they read, outer (nil at top level) is the enclosing
// scope of a subquery.
func (s *Session) newCompiler(ctx context.Context, sc *eval.Scope, names *[]string, outer *eval.Outer) *compiler {
	set := s.plan()
	c := &compiler{s: s, ctx: ctx, vc: vcursor{s: s}}
	c.Compiler = eval.Compiler{
		Scope: sc, Names: names, Outer: outer, Planner: c,
		Settings: eval.Settings{
			Collation:    set.Collation,
			SQLMode:      set.SQLModeVal,
			DivPrecision: set.DivPrecision,
			Env:          s.eng.Env,
			VCursor:      &c.vc,
		},
	}
	return c
}

// NextSeq implements eval.Planner.
func (c *compiler) NextSeq() uint64 { return c.s.nextSeq() }

// Subquery implements eval.Planner: ec is c's compiler or a copy of it
// with other options.
func (c *compiler) Subquery(ec *eval.Compiler, sub *sqlparser.Subquery, kind eval.SubqueryKind, left sqlparser.Expr, op sqlparser.ComparisonExprOperator) (*eval.Slot, error) {
	if ec == &c.Compiler {
		return c.subquerySlot(sub, kind, left, op)
	}
	cc := *c
	cc.Compiler = *ec
	return cc.subquerySlot(sub, kind, left, op)
}

func (c *compiler) context() context.Context {
	if c.ctx != nil {
		return c.ctx
	}
	return context.Background()
}

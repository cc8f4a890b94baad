package sql

import (
	"context"
	"time"

	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/vtenv"

	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/txn"
)

// Row is one row flowing between operators.
type Row = eval.Row

// lockMode of a read.
type lockMode uint8

const (
	lockNone lockMode = iota
	lockShared
	lockExclusive
)

// execCtx is the state of one statement execution: the evaluation state
// of its expressions (eval.Ctx, whose Host it is) and the planner's.
type execCtx struct {
	eval.Ctx
	s  *Session
	tx *txn.Txn
	// subCache holds results of uncorrelated subqueries for this statement.
	subCache map[queryPlan]*sqltypes.Result
	// decor is the statement's state of its decorrelated subqueries
	// (subquery_decorrelate.go), shared with its subqueries' contexts;
	// created by the first subquery run.
	decor map[*decorrelated]*decorState
	// analyze, for EXPLAIN ANALYZE, collects the join's counts of the
	// statement's plan (explain_tree.go).
	analyze *analyzeRun
}

func (s *Session) newExecCtx(ctx context.Context, tx *txn.Txn, bv map[string]*querypb.BindVariable) *execCtx {
	ex := &execCtx{s: s, tx: tx, subCache: map[queryPlan]*sqltypes.Result{}}
	ex.Init(ctx, bv, &vcursor{s: s}, ex)
	if !s.fixedTime.IsZero() {
		ex.Env.SetTime(s.fixedTime) // SET timestamp (timestamp.go)
	}
	return ex
}

// execOf is the execution context of a slot's evaluation.
func execOf(x *eval.Ctx) *execCtx { return x.Host.(*execCtx) }

// vcursor gives evalengine the session context.
type vcursor struct{ s *Session }

// TimeZone is the session's time zone (resolved at SET time_zone).
func (v *vcursor) TimeZone() *time.Location        { return v.s.zone().Location() }
func (v *vcursor) GetKeyspace() string             { return v.s.DB }
func (v *vcursor) SQLMode() string                 { return v.s.sqlMode.raw }
func (v *vcursor) Environment() *vtenv.Environment { return v.s.eng.Env }
func (v *vcursor) SetLastInsertID(id uint64)       { v.s.lastInsertID = id }

// copyRow deep-copies a row so it survives iterator movement, with one
// allocation for all value bytes.
func copyRow(dst Row, src Row) Row {
	n := 0
	for _, v := range src {
		n += len(v.Raw())
	}
	buf := make([]byte, 0, n)
	if cap(dst) < len(src) {
		dst = make(Row, len(src))
	}
	dst = dst[:len(src)]
	for i, v := range src {
		if v.IsNull() {
			dst[i] = sqltypes.NULL
			continue
		}
		start := len(buf)
		buf = append(buf, v.Raw()...)
		dst[i] = sqltypes.MakeTrusted(v.Type(), buf[start:len(buf):len(buf)])
	}
	return dst
}

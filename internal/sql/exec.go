package sql

import (
	"context"
	"fmt"
	"strings"
	"time"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/colldata"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/vtenv"
	"vitess.io/vitess/go/vt/vterrors"

	"github.com/strata-db/strata/internal/sql/builtins"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/third_party/evalengine"
	"github.com/strata-db/strata/internal/txn"
)

// Row is one row flowing between operators.
type Row = []sqltypes.Value

// lockMode of a read.
type lockMode uint8

const (
	lockNone lockMode = iota
	lockShared
	lockExclusive
)

// execCtx is the state of one statement execution.
type execCtx struct {
	ctx context.Context
	s   *Session
	tx  *txn.Txn
	bv  map[string]*querypb.BindVariable
	env *evalengine.ExpressionEnv
	// argColls are the argument collations of the strata function being
	// called (see argCollation).
	argColls []collations.TypedCollation
	// builtins is the builtin functions' state for this execution
	// (builtins.Env.State).
	builtins builtins.State
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
	ex := &execCtx{ctx: ctx, s: s, tx: tx, bv: bv, subCache: map[queryPlan]*sqltypes.Result{}}
	ex.env = evalengine.NewExpressionEnv(ctx, bv, &vcursor{s: s})
	return ex
}

// setBV installs the bind variables of the execution.
func (ex *execCtx) setBV(bv map[string]*querypb.BindVariable) {
	ex.bv = bv
	ex.env.BindVars = bv
}

// prepare computes the slots of e (functions and subqueries evalengine
// lacks) into bind variables before e itself is evaluated.
func (ex *execCtx) prepare(e *cexpr, row Row) error {
	if len(e.slots) == 0 {
		return nil
	}
	if ex.bv == nil {
		ex.setBV(map[string]*querypb.BindVariable{})
	}
	for i := range e.slots {
		sl := &e.slots[i]
		v, err := sl.fn(ex, row)
		if err != nil {
			return err
		}
		ex.bv[sl.name] = sqltypes.ValueBindVariable(v)
	}
	return nil
}

// eval evaluates e over row. evalengine panics on a few inputs; those become
// errors instead of crashing the server.
func (ex *execCtx) eval(e *cexpr, row Row) (v sqltypes.Value, err error) {
	v, _, err = ex.evalColl(e, row)
	return v, err
}

// evalColl evaluates and also returns the result collation.
func (ex *execCtx) evalColl(e *cexpr, row Row) (sqltypes.Value, collations.ID, error) {
	v, tc, err := ex.evalTyped(e, row)
	return v, tc.Collation, err
}

// evalTyped evaluates and also returns the result's collation with its
// coercibility.
func (ex *execCtx) evalTyped(e *cexpr, row Row) (v sqltypes.Value, tc collations.TypedCollation, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = sqlerr.New(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState, "expression evaluation failed: %v", r)
		}
	}()
	if e.arg != "" {
		if b, ok := ex.bv[e.arg]; ok {
			if v, err := sqltypes.BindVariableToValue(b); err == nil {
				tc := collations.TypedCollation{Collation: collations.CollationBinaryID, Coercibility: collations.CoerceCoercible}
				if v.IsText() {
					tc.Collation = ex.s.collation()
				}
				return v, tc, nil
			}
		}
	}
	if err := ex.prepare(e, row); err != nil {
		return sqltypes.NULL, collations.TypedCollation{}, err
	}
	ex.env.Row = row
	res, err := ex.env.Evaluate(e.e)
	if err != nil {
		return sqltypes.NULL, collations.TypedCollation{}, evalErr(err)
	}
	tc = res.TypedCollation()
	return res.Value(tc.Collation), tc, nil
}

// argCollation is the collation MySQL derives from the text arguments of
// the strata function being called (ex.argColls, set by its slot): the
// strongest coercibility wins, a _bin collation between equals; the
// connection collation when no argument is text.
func (ex *execCtx) argCollation(args []sqltypes.Value) collations.ID {
	var (
		out   collations.TypedCollation
		found bool
	)
	env := ex.s.eng.Env.CollationEnv()
	for i, v := range args {
		if i >= len(ex.argColls) || !(v.IsText() || v.IsBinary()) {
			continue
		}
		tc := ex.argColls[i]
		if !found {
			out, found = tc, true
			continue
		}
		if m, _, _, err := colldata.Merge(env, out, tc, colldata.CoercionOptions{ConvertToSuperset: true, ConvertWithCoercion: true}); err == nil {
			out = m
		}
	}
	if !found {
		return ex.s.collation()
	}
	return out.Collation
}

// evalBool evaluates a condition; NULL is false.
func (ex *execCtx) evalBool(e *cexpr, row Row) (bool, error) {
	res, err := ex.evalResult(e, row)
	if err != nil {
		return false, err
	}
	return res.ToBoolean(), nil
}

// evalFalse evaluates a condition and reports whether it is FALSE (NULL is
// not), the test of a CHECK constraint.
func (ex *execCtx) evalFalse(e *cexpr, row Row) (bool, error) {
	res, err := ex.evalResult(e, row)
	if err != nil {
		return false, err
	}
	return res.IsFalse(), nil
}

// evalResult evaluates e over row, a panic in the evaluator becoming the
// statement's error.
func (ex *execCtx) evalResult(e *cexpr, row Row) (res evalengine.EvalResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = sqlerr.New(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState, "expression evaluation failed: %v", r)
		}
	}()
	if err := ex.prepare(e, row); err != nil {
		return res, err
	}
	ex.env.Row = row
	res, err = ex.env.Evaluate(e.e)
	if err != nil {
		return res, evalErr(err)
	}
	return res, nil
}

func evalErr(err error) error {
	if vterrors.ErrState(err) == vterrors.DataOutOfRange {
		msg := err.Error()
		if i := strings.Index(msg, "BIGINT"); i >= 0 {
			msg = msg[i:]
		}
		return sqlerr.New(sqlerror.ERDataOutOfRange, sqlerror.SSDataOutOfRange, "%s", msg)
	}
	if se, ok := err.(*sqlerror.SQLError); ok {
		return se
	}
	return sqlerror.NewSQLErrorFromError(err)
}

// vcursor gives evalengine the session context.
type vcursor struct{ s *Session }

func (v *vcursor) TimeZone() *time.Location {
	tz, _ := v.s.sysVar("time_zone")
	switch name := tz.ToString(); name {
	case "SYSTEM", "":
		return time.Local
	case "+00:00", "UTC":
		return time.UTC
	default:
		if loc, err := time.LoadLocation(name); err == nil {
			return loc
		}
		var h, m int
		sign := 1
		if len(name) == 6 && (name[0] == '+' || name[0] == '-') {
			if name[0] == '-' {
				sign = -1
			}
			if _, err := fmt.Sscanf(name[1:], "%d:%d", &h, &m); err == nil {
				return time.FixedZone(name, sign*(h*3600+m*60))
			}
		}
		return time.Local
	}
}
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

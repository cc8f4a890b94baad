package sql

import (
	"context"
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Execution of stored routines (MySQL 8.0 semantics).
//
// A routine runs in a frame: its variables' values (also kept as bind
// variables, which the bound statements and expressions read), its
// cursors and its active handlers. A procedure called by CALL as a
// statement runs at top level: each statement of its body is a statement
// of its own (under autocommit it commits on its own, as in MySQL), and a
// SELECT sends its result set to the client. A function, and a procedure
// called from one, runs nested inside the statement that called it: its
// statements run in that statement's transaction.
//
// Expressions are compiled once per session and program (spExprCache) and
// evaluated in the frame's evaluation context, so SET i = i + 1 costs an
// evaluation, not a planned SELECT. SQL statements are cloned from the
// program and planned at each execution.
//
// Handlers: a statement's error (or, for SQLWARNING and NOT FOUND
// handlers, its warning) goes to the innermost block with a handler for
// it (within a block, the most specific: error number, then SQLSTATE,
// then SQLWARNING / NOT FOUND / SQLEXCEPTION). CONTINUE resumes after the
// statement, EXIT leaves the block that declared the handler. While a
// handler runs, its block's handlers are inactive; an error a handler does
// not handle leaves the routine.

// spState is a session's state of stored routines.
type spState struct {
	// exprs are the routines' expressions compiled for the session, for
	// catalog version exprsVersion.
	exprs        map[*sqlparser.Expr]*spCompiled
	exprsVersion uint64
	// active counts the running routines (recursion rules).
	active routineActive
	// last is the last result set of a CALL run without a client
	// (Session.Query), which the CALL answers.
	last *sqltypes.Result
	// as, while a SQL SECURITY DEFINER routine runs, is the account its
	// statements are checked as (subject).
	as *routineSubject
}

// spFlow is how a statement ends.
type spFlow uint8

const (
	flowNext    spFlow = iota
	flowLeave          // LEAVE (or an EXIT handler) of target
	flowIterate        // ITERATE of target
	flowReturn         // RETURN
)

// spFrame is one execution of a routine.
type spFrame struct {
	p    *spProgram
	ctx  context.Context
	vals []Value
	bv   map[string]*querypb.BindVariable
	// ex evaluates expressions; outer is the calling statement's context
	// of a nested routine (nil at top level).
	ex    *execCtx
	outer *execCtx
	// cursors are the cursors' states.
	cursors []spCursor
	// blocks are the blocks entered, innermost last (their handlers).
	blocks []*spOp
	// handling are the conditions of the handlers running, innermost
	// last (RESIGNAL, GET DIAGNOSTICS).
	handling []*sqlerror.SQLError
	// ret is a function's RETURN value.
	ret Value
	// row and trg are a trigger's NEW row and program (routine_trigger.go).
	row Row
	trg *trgProgram
}

// Value is a SQL value.
type Value = sqltypes.Value

// spCursor is a cursor's state in a frame.
type spCursor struct {
	open bool
	rows []Row
	pos  int
	cols int
}

// spUnhandled wraps an error that escaped a handler: enclosing statement
// lists must not handle it again.
type spUnhandled struct{ err error }

func (u *spUnhandled) Error() string { return u.err.Error() }

// unwrapSP returns the error a routine's caller sees.
func unwrapSP(err error) error {
	if u, ok := err.(*spUnhandled); ok {
		return u.err
	}
	return err
}

// newFrame prepares a frame for p.
func (s *Session) newFrame(ctx context.Context, p *spProgram, outer *execCtx) *spFrame {
	f := &spFrame{p: p, ctx: ctx, outer: outer, vals: make([]Value, len(p.slots)),
		bv: make(map[string]*querypb.BindVariable, len(p.slots)+4), cursors: make([]spCursor, len(p.cursors))}
	for _, n := range p.bvNames {
		f.bv[n] = sqltypes.NullBindVariable
	}
	var tx = s.tx
	if outer != nil {
		tx = outer.tx
	}
	f.ex = s.newExecCtx(ctx, tx, f.bv)
	return f
}

// setVar stores v, converted to the slot's type, into a slot.
func (s *Session) spSetVar(f *spFrame, slot int, v Value) error {
	col := f.p.slots[slot]
	if !v.IsNull() {
		cv, w, err := coltype.Convert(col, v, s.strict(), 1)
		if err != nil {
			return err
		}
		if w != nil {
			s.warn(w.Level, w.Code, w.Message)
		}
		v = cloneValue(cv)
	}
	f.vals[slot] = v
	f.bv[f.p.bvNames[slot]] = sqltypes.ValueBindVariable(v)
	return nil
}

// assign stores v into a target.
func (s *Session) spAssign(f *spFrame, t spTarget, v Value) error {
	if t.slot >= 0 {
		return s.spSetVar(f, t.slot, v)
	}
	if t.slot == spNewCol {
		return s.assignNew(f, t.col, v)
	}
	s.userVars[t.user] = cloneValue(v)
	return nil
}

// spCompiled is an expression compiled for a session.
type spCompiled struct {
	x      *eval.Expr
	names  []string
	needTx bool
	// version and set are the catalog version and the plan settings
	// (collation, sql_mode, time zone, ...) it was compiled under.
	version uint64
	set     *planSettings
	busy    bool
}

// spEval evaluates the expression at xp (an element of an op's exprs).
func (s *Session) spEval(f *spFrame, xp *sqlparser.Expr) (Value, error) {
	v := s.eng.Cat.Version()
	if s.routines.exprsVersion != v {
		// Programs of an older catalog version are unreachable: forget
		// their expressions.
		s.routines.exprs, s.routines.exprsVersion = nil, v
	}
	c := s.routines.exprs[xp]
	set := s.plan()
	if c == nil || c.version != v || c.set != set || c.busy {
		var names []string
		comp := s.newCompiler(f.ctx, &eval.Scope{}, &names, nil)
		x, err := comp.Compile(*xp)
		if err != nil {
			return sqltypes.NULL, err
		}
		nc := &spCompiled{x: x, names: names, version: v, set: set, needTx: eval.HasSubquery(*xp) || s.callsStored(*xp)}
		// An expression that plans a subquery or calls a stored function
		// is compiled again at each evaluation (its plans were made under
		// the statement context of their compilation); the others are
		// kept for the session.
		if !nc.needTx && (c == nil || !c.busy) {
			if s.routines.exprs == nil {
				s.routines.exprs = map[*sqlparser.Expr]*spCompiled{}
			}
			s.routines.exprs[xp] = nc
		}
		c = nc
	}
	c.busy = true
	defer func() { c.busy = false }()
	s.bindSessionVars(c.names, f.bv)
	if !c.needTx {
		return f.ex.Eval(c.x, nil)
	}
	if f.outer != nil {
		ex := s.newExecCtx(f.ctx, f.outer.tx, f.bv)
		return ex.Eval(c.x, nil)
	}
	tx := s.txnForStatement(f.ctx)
	tx.BeginStatement()
	ex := s.newExecCtx(f.ctx, tx, f.bv)
	val, err := ex.Eval(c.x, nil)
	if err == nil {
		val = cloneValue(val)
	}
	return val, s.endStatement(err)
}

// callsStored reports whether x calls a stored function.
func (s *Session) callsStored(x sqlparser.Expr) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if fe, ok := n.(*sqlparser.FuncExpr); ok && s.storedFunction(fe) != nil {
			found = true
		}
		return !found, nil
	}, x)
	return found
}

// spList runs a statement list.
func (s *Session) spList(f *spFrame, ops []*spOp) (spFlow, *spOp, error) {
	for _, op := range ops {
		fl, tgt, err := s.spRun(f, op)
		if err != nil {
			if fl, tgt, err = s.spHandle(f, err); err != nil {
				return flowNext, nil, err
			}
		}
		if fl != flowNext {
			return fl, tgt, nil
		}
	}
	return flowNext, nil, nil
}

// spHandle finds and runs the handler of err.
func (s *Session) spHandle(f *spFrame, err error) (spFlow, *spOp, error) {
	if _, ok := err.(*spUnhandled); ok {
		return flowNext, nil, err
	}
	se := sqlerr.From(err)
	if se.Num == sqlerror.ERQueryInterrupted || se.Num == sqlerror.ERQueryTimeout || f.ctx.Err() != nil {
		return flowNext, nil, err
	}
	h, depth := f.findHandler(se.Num, se.State)
	if h == nil {
		return flowNext, nil, err
	}
	return s.spRunHandler(f, h, depth, se)
}

// spRunHandler runs handler h (declared by the block at f.blocks[depth])
// for condition se.
func (s *Session) spRunHandler(f *spFrame, h *spHandler, depth int, se *sqlerror.SQLError) (spFlow, *spOp, error) {
	saved := f.blocks
	f.blocks = append([]*spOp(nil), saved[:depth]...)
	f.handling = append(f.handling, se)
	fl, tgt, err := s.spRun(f, h.body)
	if err != nil {
		fl, tgt, err = s.spHandle(f, err)
	}
	f.handling = f.handling[:len(f.handling)-1]
	f.blocks = saved
	if err != nil {
		return flowNext, nil, &spUnhandled{err: err}
	}
	if fl != flowNext {
		return fl, tgt, nil
	}
	if h.exit {
		return flowLeave, h.block, nil
	}
	return flowNext, nil, nil
}

// findHandler returns the handler of a condition and the index of its
// block in f.blocks.
func (f *spFrame) findHandler(num sqlerror.ErrorCode, state string) (*spHandler, int) {
	for i := len(f.blocks) - 1; i >= 0; i-- {
		var best *spHandler
		bestRank := 0
		for _, h := range f.blocks[i].handlers {
			for _, c := range h.conds {
				if r := condRank(c, num, state); r > bestRank {
					best, bestRank = h, r
				}
			}
		}
		if best != nil {
			return best, i
		}
	}
	return nil, 0
}

// condRank is how specifically c matches a condition: 0 not at all, 3 by
// error number, 2 by SQLSTATE, 1 by class.
func condRank(c parse.SPCond, num sqlerror.ErrorCode, state string) int {
	class := ""
	if len(state) >= 2 {
		class = state[:2]
	}
	switch c.Kind {
	case "ERRNO":
		if int(num) == c.Errno {
			return 3
		}
	case "SQLSTATE":
		if c.State == state {
			return 2
		}
	case "SQLWARNING":
		if class == "01" {
			return 1
		}
	case "NOT FOUND":
		if class == "02" {
			return 1
		}
	case "SQLEXCEPTION":
		if class != "00" && class != "01" && class != "02" {
			return 1
		}
	}
	return 0
}

// warnState is the SQLSTATE of a warning.
func warnState(w Warning) string {
	if w.Code == uint16(sqlerr.NoDataFetched) {
		return "02000"
	}
	return "01000"
}

// spWarnings gives the warnings a statement added (from index from) to
// the handlers: the first one a handler takes is removed and handled.
func (s *Session) spWarnings(f *spFrame, from int) (spFlow, *spOp, error) {
	if len(s.warnings) <= from || !f.hasHandlers() {
		return flowNext, nil, nil
	}
	for i := from; i < len(s.warnings); i++ {
		w := s.warnings[i]
		if w.Level == "Note" || w.Level == "Error" {
			continue
		}
		st := warnState(w)
		h, depth := f.findHandler(sqlerror.ErrorCode(w.Code), st)
		if h == nil {
			continue
		}
		s.warnings = append(s.warnings[:i], s.warnings[i+1:]...)
		return s.spRunHandler(f, h, depth, sqlerror.NewSQLError(sqlerror.ErrorCode(w.Code), st, w.Message))
	}
	return flowNext, nil, nil
}

func (f *spFrame) hasHandlers() bool {
	for _, b := range f.blocks {
		if len(b.handlers) > 0 {
			return true
		}
	}
	return false
}

// spRun runs one statement.
func (s *Session) spRun(f *spFrame, op *spOp) (spFlow, *spOp, error) {
	switch op.kind {
	case parse.SPBlock:
		f.blocks = append(f.blocks, op)
		fl, tgt, err := s.spList(f, op.body)
		f.blocks = f.blocks[:len(f.blocks)-1]
		for _, c := range op.cursors {
			f.cursors[c] = spCursor{}
		}
		if err != nil {
			return flowNext, nil, err
		}
		if fl == flowLeave && tgt == op {
			return flowNext, nil, nil
		}
		return fl, tgt, nil
	case parse.SPDeclareVar:
		v := sqltypes.NULL
		if len(op.exprs) > 0 {
			var err error
			if v, err = s.spEval(f, &op.exprs[0]); err != nil {
				return flowNext, nil, err
			}
		}
		for _, slot := range op.slots {
			if err := s.spSetVar(f, slot, v); err != nil {
				return flowNext, nil, err
			}
		}
	case parse.SPSet:
		before := len(s.warnings)
		for i := range op.exprs {
			v, err := s.spEval(f, &op.exprs[i])
			if err != nil {
				return flowNext, nil, err
			}
			if err := s.spAssign(f, op.targets[i], v); err != nil {
				return flowNext, nil, err
			}
		}
		for _, se := range op.setSys {
			if err := s.spSetSys(f, se); err != nil {
				return flowNext, nil, err
			}
		}
		return s.spWarnings(f, before)
	case parse.SPIf, parse.SPCase:
		for i := range op.exprs {
			v, err := s.spEval(f, &op.exprs[i])
			if err != nil {
				return flowNext, nil, err
			}
			if valueTrue(v) {
				return s.spList(f, op.branches[i])
			}
		}
		if op.hasElse {
			return s.spList(f, op.els)
		}
		if op.kind == parse.SPCase {
			return flowNext, nil, sqlerr.New(sqlerr.SPCaseNotFound, "20000", "Case not found for CASE statement")
		}
	case parse.SPLoop, parse.SPWhile, parse.SPRepeat:
		return s.spLoop(f, op)
	case parse.SPLeave:
		return flowLeave, op.target, nil
	case parse.SPIterate:
		return flowIterate, op.target, nil
	case parse.SPReturn:
		v, err := s.spEval(f, &op.exprs[0])
		if err != nil {
			return flowNext, nil, err
		}
		f.ret = cloneValue(v)
		return flowReturn, nil, nil
	case parse.SPOpen:
		return s.spOpen(f, op)
	case parse.SPFetch:
		return s.spFetch(f, op)
	case parse.SPClose:
		c := &f.cursors[op.cursor]
		if !c.open {
			return flowNext, nil, sqlerr.New(sqlerr.SPCursorNotOpen, "24000", "Cursor is not open")
		}
		*c = spCursor{}
	case parse.SPSignal, parse.SPResignal:
		return flowNext, nil, s.spSignal(f, op)
	case parse.SPCall:
		before := len(s.warnings)
		if err := s.spCallStmt(f, op); err != nil {
			return flowNext, nil, err
		}
		return s.spWarnings(f, before)
	case parse.SPGetDiag:
		return flowNext, nil, s.spGetDiag(f, op)
	default:
		before := len(s.warnings)
		if err := s.spStatement(f, op); err != nil {
			return flowNext, nil, err
		}
		return s.spWarnings(f, before)
	}
	return flowNext, nil, nil
}

// valueTrue is a condition's truth: NULL is false.
func valueTrue(v Value) bool {
	if v.IsNull() {
		return false
	}
	if v.IsIntegral() {
		n, err := v.ToInt64()
		if err == nil {
			return n != 0
		}
		u, _ := v.ToUint64()
		return u != 0
	}
	if v.IsText() || v.IsBinary() {
		// A string is true when its numeric prefix is not zero
		// ('1abc' is true, 'abc' false), as MySQL converts it.
		return numericPrefix(v.ToString()) != 0
	}
	fl, err := v.ToFloat64()
	if err != nil {
		return false
	}
	return fl != 0
}

// numericPrefix is the number a string's leading numeric text stands
// for (0 without one).
func numericPrefix(s string) float64 {
	s = strings.TrimLeft(s, " \t\n\r")
	end, digits, dot, exp := 0, false, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case (c == '+' || c == '-') && (i == 0 || s[i-1] == 'e' || s[i-1] == 'E'):
		case c == '.' && !dot && !exp:
			dot = true
		case (c == 'e' || c == 'E') && digits && !exp:
			exp = true
		default:
			i = len(s)
			continue
		}
		if digits {
			end = i + 1
		}
	}
	for end > 0 {
		if f, err := strconv.ParseFloat(s[:end], 64); err == nil {
			return f
		}
		end--
	}
	return 0
}

// spLoop runs LOOP, WHILE and REPEAT.
func (s *Session) spLoop(f *spFrame, op *spOp) (spFlow, *spOp, error) {
	for {
		if err := f.ctx.Err(); err != nil {
			return flowNext, nil, &spUnhandled{err: sqlerr.From(err)}
		}
		if op.kind == parse.SPWhile {
			v, err := s.spEval(f, &op.exprs[0])
			if err != nil {
				return flowNext, nil, err
			}
			if !valueTrue(v) {
				return flowNext, nil, nil
			}
		}
		fl, tgt, err := s.spList(f, op.body)
		if err != nil {
			return flowNext, nil, err
		}
		switch {
		case fl == flowLeave && tgt == op:
			return flowNext, nil, nil
		case fl == flowIterate && tgt == op:
			continue
		case fl != flowNext:
			return fl, tgt, nil
		}
		if op.kind == parse.SPRepeat {
			v, err := s.spEval(f, &op.exprs[0])
			if err != nil {
				return flowNext, nil, err
			}
			if valueTrue(v) {
				return flowNext, nil, nil
			}
		}
	}
}

// spSetSys runs a SET item on a system variable.
func (s *Session) spSetSys(f *spFrame, se *sqlparser.SetExpr) error {
	x := se.Expr
	switch x.(type) {
	case *sqlparser.Default, sqlparser.BoolVal, *sqlparser.ColName:
	default:
		if hasArgument(x) {
			v, err := s.spEval(f, &se.Expr)
			if err != nil {
				return err
			}
			se = &sqlparser.SetExpr{Var: se.Var, Expr: spLiteral(v)}
		}
	}
	return s.setOne(f.ctx, se)
}

// hasArgument reports whether x reads a bind variable (a declared
// variable).
func hasArgument(x sqlparser.SQLNode) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if _, ok := n.(*sqlparser.Argument); ok {
			found = true
		}
		return !found, nil
	}, x)
	return found
}

// spStatement runs an ordinary SQL statement of a body.
func (s *Session) spStatement(f *spFrame, op *spOp) error {
	if op.special != "" {
		return s.spSpecial(f, op)
	}
	stmt := sqlparser.Clone(op.stmt)
	if op.into != nil {
		res, err := s.spQuery(f, stmt)
		if err != nil {
			return err
		}
		if len(res.Rows) > 0 && len(res.Rows[0]) != len(op.into) {
			return sqlerr.New(sqlerror.ERWrongNumberOfColumnsInSelect, sqlerror.SSWrongNumberOfColumns, "The used SELECT statements have a different number of columns")
		}
		if len(res.Rows) == 0 {
			s.warn("Warning", uint16(sqlerr.NoDataFetched), "No data - zero rows fetched, selected, or processed")
			return nil
		}
		if len(res.Rows) > 1 {
			return sqlerr.New(sqlerror.ERTooManyRows, "42000", "Result consisted of more than one row")
		}
		for i, t := range op.into {
			if err := s.spAssign(f, t, res.Rows[0][i]); err != nil {
				return err
			}
		}
		return nil
	}
	if f.outer != nil {
		return s.spNested(f, stmt)
	}
	if op.resultSet {
		if err := s.spBeginResult(f.p); err != nil {
			return err
		}
		res, err := s.execStmt(f.ctx, stmt, "", f.bv)
		if err != nil {
			return err
		}
		if op.maybeRows && (res == nil || len(res.Fields) == 0) && s.out.fields == nil {
			return nil
		}
		return s.spSendResult(res)
	}
	_, err := s.execStmt(f.ctx, stmt, "", f.bv)
	return err
}

// spSpecial runs a statement of a body from its text (specialText).
func (s *Session) spSpecial(f *spFrame, op *spOp) error {
	if f.outer != nil {
		return sqlerr.Unsupported("%s in a procedure a stored function or trigger calls", firstWords(op.special, 2))
	}
	res, handled, err := s.specialStatement(f.ctx, op.special)
	if !handled {
		return sqlerr.Unsupported("%s in a stored procedure", firstWords(op.special, 2))
	}
	if err != nil {
		return err
	}
	if res == nil || len(res.Fields) == 0 {
		return nil
	}
	// (These statements build their result whole: nothing was sent yet.)
	if err := s.spBeginResult(f.p); err != nil {
		return err
	}
	return s.spSendResult(res)
}

// spQuery runs a query whose rows the routine reads (SELECT ... INTO, a
// cursor): at top level as a statement of its own, nested in the calling
// statement's transaction. The rows are copies.
func (s *Session) spQuery(f *spFrame, stmt sqlparser.Statement) (*sqltypes.Result, error) {
	ts, ok := stmt.(sqlparser.TableStatement)
	if !ok {
		return nil, sqlerr.Unsupported("%s as a routine query", firstWords(sqlparser.String(stmt), 2))
	}
	var res *sqltypes.Result
	var err error
	if f.outer != nil {
		qp, perr := s.planQuery(f.ctx, ts, nil)
		if perr != nil {
			return nil, perr
		}
		ex := s.newExecCtx(f.ctx, f.outer.tx, s.bindSessionVars(qp.bindVars(), f.bv))
		res, err = qp.run(ex)
	} else {
		if err := s.authorize(stmt, ""); err != nil {
			return nil, err
		}
		qp, perr := s.planQuery(f.ctx, ts, nil)
		if perr != nil {
			s.releaseIfIdle()
			return nil, perr
		}
		saved := s.out
		s.out.begin(nil)
		res, err = s.runSelect(f.ctx, qp, f.bv)
		s.out = saved
	}
	if err != nil {
		return nil, err
	}
	rows := make([]Row, len(res.Rows))
	for i, r := range res.Rows {
		c := make(Row, len(r))
		for j, v := range r {
			c[j] = cloneValue(v)
		}
		rows[i] = c
	}
	return &sqltypes.Result{Fields: res.Fields, Rows: rows}, nil
}

// spNested runs a DML or SET statement of a routine running inside
// another statement (a function, a procedure a function calls).
func (s *Session) spNested(f *spFrame, stmt sqlparser.Statement) error {
	switch x := stmt.(type) {
	case *sqlparser.Set:
		_, err := s.execSet(f.ctx, x)
		return err
	case *sqlparser.Insert, *sqlparser.Update, *sqlparser.Delete:
		if err := s.authorize(stmt, ""); err != nil {
			return err
		}
		if err := s.refuseTriggeringTable(stmt); err != nil {
			return err
		}
		ex := s.newExecCtx(f.ctx, f.outer.tx, f.bv)
		var res *sqltypes.Result
		var err error
		switch x := stmt.(type) {
		case *sqlparser.Insert:
			res, err = s.execInsert(ex, x)
		case *sqlparser.Update:
			res, err = s.execUpdate(ex, x)
		case *sqlparser.Delete:
			res, err = s.execDelete(ex, x)
		}
		if err == nil {
			s.rowCount = int64(res.RowsAffected)
		}
		return err
	case *sqlparser.Select, *sqlparser.Union, *sqlparser.Show:
		return sqlerr.New(sqlerr.SPBadSelect, "0A000", "PROCEDURE %s can't return a result set in the given context", f.p.name)
	case *sqlparser.Begin, *sqlparser.Commit, *sqlparser.Rollback, sqlparser.DDLStatement, sqlparser.DBDDLStatement:
		return sqlerr.New(sqlerr.CommitNotAllowedSF, sqlerror.SSUnknownSQLState, "Explicit or implicit commit is not allowed in stored function or trigger.")
	}
	return sqlerr.Unsupported("%s in a stored function or a procedure it calls", firstWords(sqlparser.String(stmt), 2))
}

// spOpen opens a cursor: its query runs now and its rows are kept.
func (s *Session) spOpen(f *spFrame, op *spOp) (spFlow, *spOp, error) {
	c := &f.cursors[op.cursor]
	if c.open {
		return flowNext, nil, sqlerr.New(sqlerr.SPCursorAlreadyOpen, "24000", "Cursor is already open")
	}
	res, err := s.spQuery(f, sqlparser.Clone(f.p.cursors[op.cursor].stmt))
	if err != nil {
		return flowNext, nil, err
	}
	*c = spCursor{open: true, rows: res.Rows, cols: len(res.Fields)}
	return flowNext, nil, nil
}

// spFetch reads a cursor's next row into variables.
func (s *Session) spFetch(f *spFrame, op *spOp) (spFlow, *spOp, error) {
	c := &f.cursors[op.cursor]
	if !c.open {
		return flowNext, nil, sqlerr.New(sqlerr.SPCursorNotOpen, "24000", "Cursor is not open")
	}
	if c.cols != len(op.targets) {
		return flowNext, nil, sqlerr.New(sqlerr.SPWrongNoOfFetch, sqlerror.SSUnknownSQLState, "Incorrect number of FETCH variables")
	}
	if c.pos >= len(c.rows) {
		return flowNext, nil, sqlerr.New(sqlerr.NoDataFetched, "02000", "No data - zero rows fetched, selected, or processed")
	}
	row := c.rows[c.pos]
	c.pos++
	for i, t := range op.targets {
		if err := s.spAssign(f, t, row[i]); err != nil {
			return flowNext, nil, err
		}
	}
	return flowNext, nil, nil
}

// spSignal raises SIGNAL's condition, or RESIGNAL's (the handled one,
// with its items changed).
func (s *Session) spSignal(f *spFrame, op *spOp) error {
	var base *sqlerror.SQLError
	if op.kind == parse.SPResignal {
		if len(f.handling) == 0 {
			return sqlerr.New(sqlerr.ResignalWithoutHdlr, "0K000", "RESIGNAL when handler not active")
		}
		base = f.handling[len(f.handling)-1]
	}
	sig := parse.Signal{}
	if op.cond != nil {
		if op.cond.Kind == "ERRNO" {
			// RESIGNAL of a condition declared by error number.
			sig.Errno = op.cond.Errno
			sig.State = "HY000"
			if base != nil {
				sig.State = base.State
			}
		} else {
			sig.State = op.cond.State
		}
	} else if base != nil {
		sig.State, sig.Errno, sig.Message = base.State, int(base.Num), base.Message
	}
	for i, name := range op.items {
		v, err := s.spEval(f, &op.exprs[i])
		if err != nil {
			return err
		}
		switch name {
		case "MESSAGE_TEXT":
			sig.Message = v.ToString()
		case "MYSQL_ERRNO":
			n, err := v.ToInt64()
			if err != nil || n <= 0 || n > 65535 {
				return sqlerr.New(1231, "42000", "Variable 'MYSQL_ERRNO' can't be set to the value of '%s'", v.ToString())
			}
			sig.Errno = int(n)
		}
	}
	if base != nil && op.cond == nil && len(op.items) == 0 {
		return base
	}
	return s.signal(sig)
}

// spGetDiag runs GET DIAGNOSTICS: statement information (NUMBER,
// ROW_COUNT) or a condition's (MESSAGE_TEXT, MYSQL_ERRNO,
// RETURNED_SQLSTATE). Inside a handler the condition area holds the
// handled condition; elsewhere the warnings of the last statement.
func (s *Session) spGetDiag(f *spFrame, op *spOp) error {
	d := op.diag
	type cond struct {
		num   int64
		state string
		msg   string
	}
	var conds []cond
	if len(f.handling) > 0 {
		h := f.handling[len(f.handling)-1]
		conds = append(conds, cond{int64(h.Num), h.State, h.Message})
	} else {
		for _, w := range s.warnings {
			conds = append(conds, cond{int64(w.Code), warnState(w), w.Message})
		}
	}
	var c *cond
	if d.cond != nil {
		v, err := s.spEval(f, &d.cond)
		if err != nil {
			return err
		}
		n, err := v.ToInt64()
		if err != nil || n < 1 || int(n) > len(conds) {
			return sqlerr.New(1758, "35000", "Invalid condition number")
		}
		c = &conds[n-1]
	}
	for i, item := range d.items {
		var v Value
		switch {
		case c == nil && item == "NUMBER":
			v = sqltypes.NewInt64(int64(len(conds)))
		case c == nil && item == "ROW_COUNT":
			v = sqltypes.NewInt64(s.rowCount)
		case c != nil && item == "MESSAGE_TEXT":
			v = sqltypes.NewVarChar(c.msg)
		case c != nil && item == "MYSQL_ERRNO":
			v = sqltypes.NewInt64(c.num)
		case c != nil && item == "RETURNED_SQLSTATE":
			v = sqltypes.NewVarChar(c.state)
		case c != nil && (item == "CLASS_ORIGIN" || item == "SUBCLASS_ORIGIN"):
			v = sqltypes.NewVarChar("MySQL")
		case c != nil:
			v = sqltypes.NewVarChar("")
		default:
			return spSyntax(nil, item)
		}
		if err := s.spAssign(f, d.targets[i], v); err != nil {
			return err
		}
	}
	return nil
}

// spLiteral returns a literal expression of v.
func spLiteral(v Value) sqlparser.Expr {
	switch {
	case v.IsNull():
		return &sqlparser.NullVal{}
	case v.IsIntegral():
		return sqlparser.NewIntLiteral(v.ToString())
	case v.Type() == sqltypes.Decimal:
		return sqlparser.NewDecimalLiteral(v.ToString())
	case v.IsFloat():
		return sqlparser.NewFloatLiteral(v.ToString())
	}
	return sqlparser.NewStrLiteral(v.ToString())
}

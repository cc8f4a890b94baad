package sql

import (
	"context"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// CALL and stored-function calls.
//
// CALL as a statement (text protocol): each result set a SELECT of the
// procedure produces goes to the client as it is produced, followed by the
// CALL's own OK packet; the protocol layer's OnNextResult hook marks the
// boundary between results (SERVER_MORE_RESULTS_EXISTS). OUT and INOUT
// arguments must be user variables (1414), assigned when the procedure
// ends. Through the binary protocol (COM_STMT_EXECUTE) Vitess can send one
// result only: a procedure that produces result sets answers 1235 there.

// routineActive counts a session's running routines by definition, for
// the recursion rules (functions: never, 1424; procedures: up to
// max_sp_recursion_depth, 1456).
type routineActive map[*catalog.Routine]int

// lookupRoutine returns the routine typ (PROCEDURE or FUNCTION) named by
// db and name in the session's current database when db is "".
func (s *Session) lookupRoutine(typ, db, name string) (*catalog.Routine, error) {
	db, err := s.schemaOrCurrent(db)
	if err != nil {
		return nil, err
	}
	r := s.eng.Cat.Routine(db, typ, name)
	if r == nil {
		return nil, sqlerr.New(sqlerr.SPDoesNotExist, "42000", "%s %s.%s does not exist", typ, db, name)
	}
	return r, nil
}

// checkExecute checks the EXECUTE privilege on a routine.
func (s *Session) checkExecute(r *catalog.Routine) error {
	sub := s.subject()
	if sub == nil {
		return nil
	}
	n := privilege.Need{Level: privilege.Database, Privs: privilege.Execute, DB: r.DB, Deny: privilege.DenyDB}
	if err := checkNeeds(sub, []privilege.Need{n}); err != nil {
		return sqlerr.New(1370, "42000", "execute command denied to user '%s'@'%s' for routine '%s.%s'", s.User, s.Host, r.DB, r.Name)
	}
	return nil
}

// execCallText runs CALL from its text (the forms Vitess's parser does not
// take: CALL p without parentheses).
func (s *Session) execCallText(ctx context.Context, sql string) (*sqltypes.Result, error) {
	db, name, args, err := parse.ParseCall(sql)
	if err != nil {
		return nil, sqlerr.Syntax("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '" + firstWords(sql, 3) + "' at line 1")
	}
	var exprs []sqlparser.Expr
	for _, a := range args {
		x, err := s.eng.Parser.ParseExpr(a)
		if err != nil {
			return nil, parseErr(err)
		}
		exprs = append(exprs, x)
	}
	return s.execCall(ctx, db, name, exprs, nil)
}

// execCallProc runs a parsed CALL statement.
func (s *Session) execCallProc(ctx context.Context, st *sqlparser.CallProc, bv map[string]*querypb.BindVariable) (*sqltypes.Result, error) {
	return s.execCall(ctx, st.Name.Qualifier.String(), st.Name.Name.String(), st.Params, bv)
}

// execCall runs CALL as a statement.
func (s *Session) execCall(ctx context.Context, db, name string, args []sqlparser.Expr, bv map[string]*querypb.BindVariable) (*sqltypes.Result, error) {
	r, err := s.lookupRoutine("PROCEDURE", db, name)
	if err != nil {
		return nil, err
	}
	if err := s.checkExecute(r); err != nil {
		return nil, err
	}
	p, err := s.eng.routineProgram(r)
	if err != nil {
		return nil, err
	}
	if len(args) != len(p.params) {
		return nil, sqlerr.New(sqlerr.SPWrongNoOfArgs, "42000", "Incorrect number of arguments for PROCEDURE %s; expected %d, got %d", p.name, len(p.params), len(args))
	}
	if p.results {
		if err := s.spResultsAllowed(); err != nil {
			return nil, err
		}
	}
	vals := make([]Value, len(args))
	outs := make([]string, len(args))
	for i, a := range args {
		prm := p.params[i]
		if prm.mode != "IN" {
			v, ok := a.(*sqlparser.Variable)
			if !ok || v.Scope != sqlparser.VariableScope {
				return nil, sqlerr.New(sqlerr.SPNotVarArg, "42000", "OUT or INOUT argument %d for routine %s is not a variable or NEW pseudo-variable in BEFORE trigger", i+1, p.name)
			}
			outs[i] = strings.ToLower(v.Name.String())
		}
		if prm.mode == "OUT" {
			vals[i] = sqltypes.NULL
			continue
		}
		v, err := s.evalCallArg(ctx, a, bv)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	s.rowCount = 0
	f, err := s.runProcedure(ctx, p, vals, nil)
	if err != nil {
		return nil, err
	}
	for i, name := range outs {
		if name != "" {
			s.userVars[name] = f.vals[p.params[i].slot]
		}
	}
	res := &sqltypes.Result{}
	if s.rowCount > 0 {
		res.RowsAffected = uint64(s.rowCount)
	}
	if last := s.routines.last; last != nil {
		s.routines.last = nil
		return last, nil
	}
	return res, nil
}

// evalCallArg evaluates a CALL argument of the statement (bv: a prepared
// statement's parameters).
func (s *Session) evalCallArg(ctx context.Context, a sqlparser.Expr, bv map[string]*querypb.BindVariable) (Value, error) {
	var names []string
	c := s.newCompiler(ctx, &eval.Scope{}, &names, nil)
	x, err := c.Compile(a)
	if err != nil {
		return sqltypes.NULL, err
	}
	m := make(map[string]*querypb.BindVariable, len(bv)+len(names))
	for k, v := range bv {
		m[k] = v
	}
	s.bindSessionVars(names, m)
	var tx = s.tx
	needTx := eval.HasSubquery(a) || s.callsStored(a)
	if needTx {
		tx = s.txnForStatement(ctx)
		tx.BeginStatement()
	}
	ex := s.newExecCtx(ctx, tx, m)
	v, err := ex.Eval(x, nil)
	if err == nil {
		v = cloneValue(v)
	}
	if needTx {
		err = s.endStatement(err)
	}
	return v, err
}

// runProcedure runs procedure p with its parameters' values (outer: the
// calling statement of a nested call, nil at top level) and returns its
// frame (OUT values).
func (s *Session) runProcedure(ctx context.Context, p *spProgram, vals []Value, outer *execCtx) (*spFrame, error) {
	if n := s.routines.active[p.def]; n > 0 {
		max := int64(0)
		if v, ok := s.sysVar("max_sp_recursion_depth"); ok {
			max, _ = v.ToInt64()
		}
		if int64(n) > max {
			return nil, sqlerr.New(sqlerr.SPRecursionLimit, sqlerror.SSUnknownSQLState, "Recursive limit %d (as set by the max_sp_recursion_depth variable) was exceeded for routine %s", max, p.def.Name)
		}
	}
	f := s.newFrame(ctx, p, outer)
	for i, prm := range p.params {
		if err := s.spSetVar(f, prm.slot, vals[i]); err != nil {
			return nil, err
		}
	}
	restore, err := s.enterRoutine(p)
	if err != nil {
		return nil, err
	}
	defer restore()
	if _, _, err = s.spRun(f, p.body); err != nil {
		if _, _, err = s.spHandle(f, err); err != nil {
			return nil, unwrapSP(err)
		}
	}
	return f, nil
}

// enterRoutine switches the session to a routine's database, sql_mode
// and (SQL SECURITY DEFINER) privileges and counts it active; the
// returned function switches back.
func (s *Session) enterRoutine(p *spProgram) (func(), error) {
	savedAs := s.routines.as
	if !p.def.SecurityInvoker {
		sub, err := s.routineDefiner(p.def)
		if err != nil {
			return nil, err
		}
		s.routines.as = &routineSubject{sub: sub}
	}
	if s.routines.active == nil {
		s.routines.active = routineActive{}
	}
	s.routines.active[p.def]++
	savedDB, savedMode := s.DB, s.sqlMode
	s.DB, s.sqlMode = p.def.DB, p.sqlMode
	modeChanged := savedMode.raw != p.sqlMode.raw
	if modeChanged {
		s.planOK = false // plans and expressions compile under the routine's sql_mode
	}
	return func() {
		s.DB, s.sqlMode, s.routines.as = savedDB, savedMode, savedAs
		if modeChanged {
			s.planOK = false
		}
		if s.routines.active[p.def]--; s.routines.active[p.def] == 0 {
			delete(s.routines.active, p.def)
		}
	}, nil
}

// routineSubject is the account a SQL SECURITY DEFINER routine's
// statements run as (sub nil: root, every privilege).
type routineSubject struct {
	sub *privilege.Subject
}

// routineDefiner returns the privileges of a routine's definer; a definer
// that no longer exists is 1449.
func (s *Session) routineDefiner(r *catalog.Routine) (*privilege.Subject, error) {
	i := strings.LastIndexByte(r.Definer, '@')
	if i < 0 {
		return nil, nil
	}
	user, host := r.Definer[:i], r.Definer[i+1:]
	if user == "root" || user == "" {
		return nil, nil
	}
	u := s.eng.Cat.User(user, host)
	if u == nil {
		return nil, sqlerr.New(sqlerr.NoSuchUser, sqlerror.SSUnknownSQLState, "The user specified as a definer ('%s'@'%s') does not exist", user, host)
	}
	return &privilege.Subject{User: user, Host: host, AccountHost: host, Password: u.HasPassword(), Grants: privilege.FromUser(u)}, nil
}

// spCallStmt runs a CALL inside a routine.
func (s *Session) spCallStmt(f *spFrame, op *spOp) error {
	r, err := s.lookupRoutine("PROCEDURE", op.callDB, op.callName)
	if err != nil {
		return err
	}
	if err := s.checkExecute(r); err != nil {
		return err
	}
	p, err := s.eng.routineProgram(r)
	if err != nil {
		return err
	}
	if len(op.exprs) != len(p.params) {
		return sqlerr.New(sqlerr.SPWrongNoOfArgs, "42000", "Incorrect number of arguments for PROCEDURE %s; expected %d, got %d", p.name, len(p.params), len(op.exprs))
	}
	vals := make([]Value, len(op.exprs))
	for i := range op.exprs {
		prm := p.params[i]
		if prm.mode != "IN" && op.targets[i].slot == -2 {
			return sqlerr.New(sqlerr.SPNotVarArg, "42000", "OUT or INOUT argument %d for routine %s is not a variable or NEW pseudo-variable in BEFORE trigger", i+1, p.name)
		}
		if prm.mode == "OUT" {
			vals[i] = sqltypes.NULL
			continue
		}
		v, err := s.spEval(f, &op.exprs[i])
		if err != nil {
			return err
		}
		vals[i] = cloneValue(v)
	}
	cf, err := s.runProcedure(f.ctx, p, vals, f.outer)
	if err != nil {
		return err
	}
	for i, prm := range p.params {
		if prm.mode != "IN" {
			if err := s.spAssign(f, op.targets[i], cf.vals[prm.slot]); err != nil {
				return err
			}
		}
	}
	return nil
}

// storedFunction returns the stored function a call names, or nil: a
// qualified name, or an unqualified one that is not a built-in function
// (built-ins win, as in MySQL).
func (s *Session) storedFunction(fe *sqlparser.FuncExpr) *catalog.Routine {
	if !s.eng.Cat.HasRoutines() {
		return nil
	}
	db := fe.Qualifier.String()
	if db == "" {
		db = s.DB
		if db == "" || eval.IsBuiltinFunction(fe.Name.Lowered(), s.eng.Env) {
			return nil
		}
	}
	return s.eng.Cat.Routine(db, "FUNCTION", fe.Name.String())
}

// storedCallName returns the quoted name of the first stored function x
// calls ("" when none): generated columns and CHECK constraints may not
// call one (3757, 3814).
func (s *Session) storedCallName(x sqlparser.Expr) string {
	name := ""
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if fe, ok := n.(*sqlparser.FuncExpr); ok && name == "" && s.storedFunction(fe) != nil {
			name = "`" + fe.Name.Lowered() + "`"
		}
		return name == "", nil
	}, x)
	return name
}

// StoredFunction implements eval.RoutinePlanner: a slot that calls a
// stored function.
func (c *compiler) StoredFunction(ec *eval.Compiler, fe *sqlparser.FuncExpr) (*eval.Slot, bool, error) {
	s := c.s
	r := s.storedFunction(fe)
	if r == nil {
		return nil, false, nil
	}
	p, err := s.eng.routineProgram(r)
	if err != nil {
		return nil, true, err
	}
	if len(fe.Exprs) != len(p.params) {
		return nil, true, sqlerr.New(sqlerr.SPWrongNoOfArgs, "42000", "Incorrect number of arguments for FUNCTION %s; expected %d, got %d", p.name, len(p.params), len(fe.Exprs))
	}
	args := make([]*eval.Expr, len(fe.Exprs))
	for i, a := range fe.Exprs {
		x, err := ec.Compile(a)
		if err != nil {
			return nil, true, err
		}
		args[i] = x
	}
	vals := make([]Value, len(args))
	return &eval.Slot{Name: ec.NextSlotName(), Type: coltype.EvalType(p.ret), Fn: func(ex *eval.Ctx, row eval.Row) (sqltypes.Value, error) {
		for i, a := range args {
			v, err := ex.Eval(a, row)
			if err != nil {
				return sqltypes.NULL, err
			}
			vals[i] = v
		}
		return execOf(ex).s.callFunction(execOf(ex), p, vals)
	}}, true, nil
}

// callFunction runs stored function p inside the statement ex.
func (s *Session) callFunction(ex *execCtx, p *spProgram, args []Value) (Value, error) {
	if err := s.checkExecute(p.def); err != nil {
		return sqltypes.NULL, err
	}
	if s.routines.active[p.def] > 0 {
		return sqltypes.NULL, sqlerr.New(sqlerr.SPNoRecursion, sqlerror.SSUnknownSQLState, "Recursive stored functions and triggers are not allowed.")
	}
	ctx := ex.Context()
	f := s.newFrame(ctx, p, ex)
	restore, err := s.enterRoutine(p)
	if err != nil {
		return sqltypes.NULL, err
	}
	defer restore()
	s.tl.sub++
	defer func() { s.tl.sub-- }()
	for i, prm := range p.params {
		if err := s.spSetVar(f, prm.slot, args[i]); err != nil {
			return sqltypes.NULL, err
		}
	}
	savedID := s.lastInsertID
	defer func() { s.lastInsertID = savedID }()
	fl, _, err := s.spRun(f, p.body)
	if err != nil {
		if fl, _, err = s.spHandle(f, err); err != nil {
			return sqltypes.NULL, unwrapSP(err)
		}
	}
	if fl != flowReturn {
		return sqltypes.NULL, sqlerr.New(sqlerr.SPNoReturnEnd, sqlerror.SSUnknownSQLState, "FUNCTION %s ended without RETURN", p.name)
	}
	v := f.ret
	if v.IsNull() {
		return v, nil
	}
	cv, w, err := coltype.Convert(p.ret, v, s.strict(), 1)
	if err != nil {
		return sqltypes.NULL, err
	}
	if w != nil {
		s.warn(w.Level, w.Code, w.Message)
	}
	return cloneValue(cv), nil
}

// spResultsAllowed reports whether the client can receive a procedure's
// result sets (not through COM_STMT_EXECUTE).
func (s *Session) spResultsAllowed() error {
	if s.OnNextResult != nil && s.out.send != nil {
		return s.OnNextResult(true)
	}
	return nil
}

// spBeginResult prepares for one more result set of a procedure: the
// client must be able to receive it.
func (s *Session) spBeginResult(p *spProgram) error {
	if s.OnNextResult != nil && s.out.send != nil {
		if err := s.OnNextResult(true); err != nil {
			return err
		}
	}
	s.out.begin(s.out.send)
	return nil
}

// spSendResult sends the rest of a procedure's result set and ends it:
// what the client gets next (another result, an error, the CALL's OK)
// starts a new result. Without a client (internal callers) the CALL
// answers its last result set.
func (s *Session) spSendResult(res *sqltypes.Result) error {
	if res == nil {
		res = &sqltypes.Result{}
	}
	if s.out.send == nil {
		s.routines.last = res
		return nil
	}
	if s.OnNextResult == nil {
		return sqlerr.Unsupported("result sets of a procedure here")
	}
	err := s.out.send(res)
	s.out.begin(s.out.send)
	if err != nil {
		return err
	}
	return s.OnNextResult(false)
}

// isCallNoArgs reports whether sql is CALL name without parentheses,
// which Vitess's parser does not take.
func isCallNoArgs(sql string) bool {
	i := skipSpace(sql, 0)
	if len(sql)-i < 5 || !strings.EqualFold(sql[i:i+4], "call") || sql[i+4] != ' ' && sql[i+4] != '\t' && sql[i+4] != '\n' {
		return false
	}
	return !strings.Contains(sql, "(")
}

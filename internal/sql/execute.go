package sql

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// cachedPlan is a parsed and planned statement, kept in the engine's plan
// cache (plancache.go) and reusable while the catalog version is unchanged.
// One execution at a time uses it: it is checked out of the cache for the
// statement and returned afterwards.
type cachedPlan struct {
	// key is the cache key (text, current database, plan settings) the
	// statement was planned under; version the catalog version before
	// planning began.
	key     planKey
	version uint64
	stmt    sqlparser.Statement
	params  int
	sel     *selectPlan
	tables  []mdlRef
	// dml is the UPDATE/DELETE plan, built at the first execution.
	dml *dmlPlan
	// normChecked: normCheck ran on the statement; normOK: it passed, so
	// text statements may bind their constants to its parameters
	// (normkey.go).
	normChecked, normOK bool
}

// newCachedPlan starts a cache entry for sql, before it is parsed and
// planned (so a DDL racing with the planning makes the plan stale).
func (s *Session) newCachedPlan(sql string) *cachedPlan {
	return &cachedPlan{key: s.planKey(sql), version: s.eng.Cat.Version()}
}

// parse parses one statement, mapping parser errors to 1064.
func (s *Session) parse(sql string) (stmt sqlparser.Statement, params int, err error) {
	// Vitess's parser panics on a few inputs (a statement that starts with
	// a comment before SHOW GRANTS FOR ...): a syntax error, not a dropped
	// connection.
	defer func() {
		if r := recover(); r != nil {
			stmt, params = nil, 0
			err = sqlerr.Syntax(fmt.Sprintf("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s' at line 1", firstWords(sql, 3)))
		}
	}()
	// DDL forms Vitess's grammar lacks (it would parse them partially):
	// column-level CHECK constraints where it takes none, ALTER CONSTRAINT.
	sql, _, _ = parse.MoveColumnChecks(s.eng.Parser, sql)
	sql, _, _ = parse.AlterConstraint(s.eng.Parser, sql)
	stmt, bv, err := s.eng.Parser.Parse2(sql)
	if err != nil {
		// MySQL syntax the parser lacks: repair the text and try again,
		// reporting the original error if that fails too.
		fixed, ok := parse.Repair(s.eng.Parser, sql)
		if !ok {
			return nil, 0, parseErr(err)
		}
		var err2 error
		if stmt, bv, err2 = s.eng.Parser.Parse2(fixed); err2 != nil {
			return nil, 0, parseErr(err)
		}
	}
	stmt = parse.FunctionCalls(stmt, sql)
	if ddl, ok := stmt.(sqlparser.DDLStatement); ok && !ddl.IsFullyParsed() {
		if _, err := s.eng.Parser.ParseStrictDDL(sql); err != nil {
			if fixed, ok := parse.Repair(s.eng.Parser, sql); ok {
				if stmt, err2 := s.eng.Parser.ParseStrictDDL(fixed); err2 == nil {
					return stmt, 0, nil
				}
			}
			return nil, 0, parseErr(err)
		}
		return nil, 0, sqlerr.Unsupported("%s", firstWords(sql, 4))
	}
	return stmt, len(bv), nil
}

func parseErr(err error) error {
	msg := err.Error()
	if se, ok := err.(*sqlerror.SQLError); ok {
		msg = se.Message
	}
	// Vitess: "syntax error at position 7 near 'x'" -> MySQL's wording.
	if i := strings.Index(msg, "near '"); i >= 0 {
		near := msg[i+len("near '"):]
		near = strings.TrimSuffix(near, "'")
		return sqlerr.Syntax(fmt.Sprintf("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s' at line 1", near))
	}
	return sqlerr.Syntax("You have an error in your SQL syntax; " + msg)
}

func firstWords(sql string, n int) string {
	// It runs on every text statement (userStatement): it reads only the
	// words it returns, where strings.Fields would split all of a
	// mysqldump INSERT of thousands of rows.
	var b strings.Builder
	b.Grow(min(len(sql), 48))
	i := 0
	for words := 0; words < n; words++ {
		i = skipSpace(sql, i)
		if i == len(sql) {
			break
		}
		j := i
		for j < len(sql) {
			r, size := utf8.DecodeRuneInString(sql[j:])
			if unicode.IsSpace(r) {
				break
			}
			j += size
		}
		if words > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(sql[i:j])
		i = j
	}
	return b.String()
}

// skipSpace returns the index of the first non-space rune of sql at or
// after i (len(sql) when there is none).
func skipSpace(sql string, i int) int {
	for i < len(sql) {
		r, size := utf8.DecodeRuneInString(sql[i:])
		if !unicode.IsSpace(r) {
			return i
		}
		i += size
	}
	return i
}

// query executes one statement received over the text protocol (see
// QueryStream).
func (s *Session) query(ctx context.Context, sql string) (*sqltypes.Result, error) {
	s.countQuestion()
	s.setStatementText(sql)
	ctx, cancel := s.statementContext(ctx, sql)
	defer s.endStatementContext(cancel)
	s.slowStart()
	defer s.leaveWrite()
	for attempt := 0; ; attempt++ {
		res, err := s.queryOnce(ctx, sql)
		if !s.retryStale(err, attempt) {
			s.slowEnd(sql, res)
			return res, err
		}
	}
}

// queryOnce runs a text statement once (query).
func (s *Session) queryOnce(ctx context.Context, sql string) (*sqltypes.Result, error) {
	if res, handled, err := s.specialStatement(ctx, sql); handled {
		return res, s.noteError(err)
	}
	if res, handled, err := s.queryNormalized(ctx, sql); handled {
		return res, s.noteError(err)
	}
	if cp := s.checkoutPlan(sql); cp != nil {
		s.beginStatementWarnings(cp.stmt)
		res, err := s.execCached(ctx, cp, nil)
		s.returnPlan(cp)
		return res, s.noteError(err)
	}
	stmt, _, err := s.parse(sql)
	if err != nil {
		s.warnings = s.warnings[:0]
		return nil, s.noteError(err)
	}
	s.beginStatementWarnings(stmt)
	res, err := s.execStmt(ctx, stmt, sql, nil)
	return res, s.noteError(err)
}

// Prepare parses a statement for the binary protocol and returns its
// parameter count and result columns (when known before execution).
func (s *Session) Prepare(ctx context.Context, sql string) (uint16, []*querypb.Field, error) {
	s.countCom(comStmtPrepare)
	return s.prepareText(ctx, sql)
}

// prepareText prepares a statement for Prepare and SQL-level PREPARE
// (prepare_sql.go).
func (s *Session) prepareText(ctx context.Context, sql string) (uint16, []*querypb.Field, error) {
	if reShowCount.MatchString(sql) || reNamesCollate.MatchString(sql) || reShowCreateDBIfNotExists.MatchString(sql) {
		return 0, nil, nil
	}
	if _, ok := parse.ParseRoutine(sql); ok || isAnalyze(sql) || isSignal(sql) || isCallNoArgs(sql) {
		return 0, nil, nil // answered at execution (specialStatement)
	}
	s.setStatementText(sql)
	if cp := s.checkoutPlan(sql); cp != nil {
		// Another session (or this one) planned the text already: check
		// this session's privileges and describe the plan.
		err := s.authorize(cp.stmt, sql)
		var fields []*querypb.Field
		if err == nil && cp.sel != nil {
			fields = cp.sel.fields(s.newExecCtx(ctx, nil, nil), nil)
		}
		n := cp.params
		s.returnPlan(cp)
		if err != nil {
			return 0, nil, s.noteError(err)
		}
		return uint16(n), fields, nil
	}
	cp := s.newCachedPlan(sql)
	stmt, n, err := s.parse(sql)
	if err != nil {
		return 0, nil, s.noteError(err)
	}
	if err := notPreparable(stmt); err != nil {
		return 0, nil, s.noteError(err)
	}
	// MySQL checks privileges when a statement is prepared (and again at
	// every execution): a refused statement reveals no result columns.
	if err := s.authorize(stmt, sql); err != nil {
		return 0, nil, s.noteError(err)
	}
	cp.stmt, cp.params = stmt, n
	var fields []*querypb.Field
	if sel, ok := stmt.(*sqlparser.Select); ok && sel.Into == nil {
		if p, err := s.planSelect(ctx, sel); err == nil {
			ex := s.newExecCtx(ctx, nil, nil)
			fields = p.fields(ex, nil)
			if !p.private {
				cp.sel, cp.tables = p, planTables(p)
				s.returnPlan(cp)
			}
		} else {
			s.releaseIfIdle()
			return 0, nil, s.noteError(err)
		}
		s.releaseIfIdle()
	}
	switch stmt.(type) {
	case *sqlparser.Insert, *sqlparser.Update, *sqlparser.Delete:
		// DML: keep the parsed statement; planning is at the first
		// execution.
		s.returnPlan(cp)
	}
	return uint16(n), fields, nil
}

// executePrepared runs a prepared statement with bound parameters (see
// ExecutePreparedStream).
func (s *Session) executePrepared(ctx context.Context, sql string, bv map[string]*querypb.BindVariable) (*sqltypes.Result, error) {
	s.countQuestion()
	s.countCom(comStmtExecute)
	s.setStatementText(sql)
	ctx, cancel := s.statementContext(ctx, sql)
	defer s.endStatementContext(cancel)
	s.slowStart()
	defer s.leaveWrite()
	for attempt := 0; ; attempt++ {
		res, err := s.runPrepared(ctx, sql, bv)
		if !s.retryStale(err, attempt) {
			s.slowEnd(sql, res)
			return res, err
		}
	}
}

// runPrepared executes a prepared statement's text with its parameters
// bound, for executePrepared and SQL-level EXECUTE (prepare_sql.go).
func (s *Session) runPrepared(ctx context.Context, sql string, bv map[string]*querypb.BindVariable) (*sqltypes.Result, error) {
	if cp := s.checkoutPlan(sql); cp != nil {
		s.beginStatementWarnings(cp.stmt)
		res, err := s.execCached(ctx, cp, bv)
		s.returnPlan(cp)
		return res, s.noteError(err)
	}
	if res, handled, err := s.specialStatement(ctx, sql); handled {
		return res, s.noteError(err)
	}
	cp := s.newCachedPlan(sql)
	stmt, n, err := s.parse(sql)
	if err != nil {
		return nil, s.noteError(err)
	}
	s.beginStatementWarnings(stmt)
	switch stmt.(type) {
	case *sqlparser.Insert, *sqlparser.Update, *sqlparser.Delete:
		// Re-planned after a DDL or a SET (or first run on this key):
		// cache it again, as Prepare did.
		cp.stmt, cp.params = stmt, n
		res, err := s.execCached(ctx, cp, bv)
		s.returnPlan(cp)
		return res, s.noteError(err)
	}
	res, err := s.execStmt(ctx, stmt, sql, bv)
	return res, s.noteError(err)
}

func (s *Session) releaseIfIdle() {
	if s.tx == nil {
		s.releaseMDL()
	}
}

func (s *Session) noteError(err error) error {
	if err == nil {
		s.errorCount = 0
		return nil
	}
	se := sqlerr.From(err)
	s.errorCount = 1
	s.warnings = append(s.warnings[:0], Warning{Level: "Error", Code: uint16(se.Num), Message: se.Message})
	return se
}

// beginStatementWarnings clears the warnings of the previous statement,
// except for statements that read them.
//
// It is the start of every parsed statement, so it also counts the
// statement's Com_xxx status counter.
func (s *Session) beginStatementWarnings(stmt sqlparser.Statement) {
	if _, ok := stmt.(*sqlparser.OtherAdmin); ok && s.stmtTexts != nil {
		s.countCom(otherAdminCom(s.stmtTexts.SQL()))
	} else {
		s.countCom(comOf(stmt))
	}
	if sh, ok := stmt.(*sqlparser.Show); ok {
		if b, ok := sh.Internal.(*sqlparser.ShowBasic); ok && (b.Command == sqlparser.Warnings || b.Command == sqlparser.Errors) {
			return
		}
	}
	if sel, ok := stmt.(*sqlparser.Select); ok && len(sel.From) == 0 {
		str := strings.ToLower(sqlparser.String(sel))
		if strings.Contains(str, "warning_count") || strings.Contains(str, "error_count") {
			s.prevWarnings = s.warnings
			return
		}
	}
	s.prevWarnings = s.warnings
	s.warnings = nil
}

func planTables(p *selectPlan) []mdlRef {
	var out []mdlRef
	for _, src := range p.srcs {
		if src.tbl != nil {
			out = append(out, mdlRef{db: src.def.DB, table: src.def.Name})
		}
	}
	return out
}

// execCached runs a cached plan.
func (s *Session) execCached(ctx context.Context, cp *cachedPlan, bv map[string]*querypb.BindVariable) (*sqltypes.Result, error) {
	if cp.sel == nil {
		s.running = cp
		defer func() { s.running = nil }()
		return s.execStmt(ctx, cp.stmt, "", bv)
	}
	if err := s.authorize(cp.stmt, ""); err != nil {
		return nil, err
	}
	for _, r := range cp.tables {
		t := s.tableDef(r.db, r.table)
		if t == nil {
			return nil, sqlerr.NoTable(r.db, r.table)
		}
		if err := s.useTable(ctx, t, false); err != nil {
			return nil, err
		}
	}
	return s.runSelect(ctx, cp.sel, bv)
}

// runSelect executes a planned query inside the statement's transaction.
func (s *Session) runSelect(ctx context.Context, p queryPlan, bv map[string]*querypb.BindVariable) (*sqltypes.Result, error) {
	fresh := s.tx == nil && s.autocommit
	tx := s.txnForStatement(ctx)
	tx.BeginStatement()
	if fresh {
		if sp, ok := p.(*selectPlan); ok && sp.singleRead {
			tx.SetSingleRead(true)
		}
	}
	bv = s.bindSessionVars(p.bindVars(), bv)
	ex := s.newExecCtx(ctx, tx, bv)
	var res *sqltypes.Result
	var err error
	if sp, ok := p.(*selectPlan); ok {
		// The only query whose rows may reach the client while it runs.
		res, err = sp.runTo(ex, &s.out)
	} else if up, ok := p.(*unionPlan); ok {
		// A UNION ALL chain streams its parts (union_stream.go).
		res, err = up.runTo(ex, &s.out)
	} else {
		res, err = p.run(ex)
	}
	if err != nil {
		return nil, s.endStatement(err)
	}
	s.rowCount = -1
	s.foundRows = s.out.rows + uint64(len(res.Rows))
	if sp, ok := p.(*selectPlan); ok && sp.calcFound != nil {
		n, err := s.runFoundRows(ex, sp.calcFound)
		if err != nil {
			return nil, s.endStatement(err)
		}
		s.foundRows = n
	}
	return res, s.endStatement(nil)
}

// execStmt executes a parsed statement.
func (s *Session) execStmt(ctx context.Context, stmt sqlparser.Statement, sql string, bv map[string]*querypb.BindVariable) (*sqltypes.Result, error) {
	if err := s.authorize(stmt, sql); err != nil {
		return nil, err
	}
	if isWriteStatement(stmt) {
		if err := s.readOnlyDenied(nil); err != nil {
			return nil, err
		}
	}
	switch st := stmt.(type) {
	case *sqlparser.Select:
		if st.Into != nil {
			return s.execSelectInto(ctx, st, bv)
		}
		var cp *cachedPlan
		if sql != "" {
			cp = s.newCachedPlan(sql)
		}
		p, err := s.planSelect(ctx, st)
		if err != nil {
			s.releaseIfIdle()
			return nil, err
		}
		res, err := s.runSelect(ctx, p, bv)
		if cp != nil && !p.private {
			// Cached once this execution is over (never while it runs).
			cp.stmt, cp.sel, cp.tables, cp.params = stmt, p, planTables(p), countParams(stmt)
			s.returnPlan(cp)
		}
		return res, err
	case *sqlparser.Union:
		if unionInto(st) {
			return s.execSelectInto(ctx, st, bv)
		}
		if first, _ := sqlparser.GetFirstSelect(st); first != nil && first.SQLCalcFoundRows && st.Limit != nil {
			return nil, sqlerr.Unsupported("SQL_CALC_FOUND_ROWS with UNION and LIMIT")
		}
		p, err := s.planQuery(ctx, st, nil)
		if err != nil {
			s.releaseIfIdle()
			return nil, err
		}
		return s.runSelect(ctx, p, bv)
	case *sqlparser.Insert:
		return s.dmlOf(ctx, st, bv, func(ex *execCtx) (*sqltypes.Result, error) { return s.execInsert(ex, st) })
	case *sqlparser.Update:
		return s.dmlOf(ctx, st, bv, func(ex *execCtx) (*sqltypes.Result, error) { return s.execUpdate(ex, st) })
	case *sqlparser.Delete:
		return s.dmlOf(ctx, st, bv, func(ex *execCtx) (*sqltypes.Result, error) { return s.execDelete(ex, st) })
	case *sqlparser.Begin:
		if err := s.commit(); err != nil {
			return nil, err
		}
		s.unlockTables() // MySQL: a transaction's start releases table locks
		s.tx = s.eng.DB.Begin(ctx, s.takeIso(), s.lockTimeout)
		s.binlogTxn(s.tx)
		s.explicit = true
		s.publishTxn()
		for _, c := range st.TxAccessModes {
			if c == sqlparser.ReadOnly {
				s.readOnlyTx = true
			}
			if c == sqlparser.WithConsistentSnapshot {
				_, _, _ = s.tx.Get([]byte{0, 0, 0, 0})
			}
		}
		return &sqltypes.Result{}, nil
	case *sqlparser.Commit:
		return &sqltypes.Result{}, s.commit()
	case *sqlparser.Rollback:
		s.rollback()
		return &sqltypes.Result{}, nil
	case *sqlparser.Savepoint:
		if s.tx == nil {
			if s.autocommit {
				return &sqltypes.Result{}, nil
			}
			s.txnForStatement(ctx)
		}
		s.tx.Savepoint(st.Name.String())
		return &sqltypes.Result{}, nil
	case *sqlparser.SRollback:
		if s.tx == nil || s.tx.RollbackToSavepoint(st.Name.String()) != nil {
			return nil, sqlerr.New(sqlerror.ERSPDoesNotExist, sqlerror.SSClientError, "SAVEPOINT %s does not exist", st.Name.String())
		}
		return &sqltypes.Result{}, nil
	case *sqlparser.Release:
		if s.tx == nil || s.tx.ReleaseSavepoint(st.Name.String()) != nil {
			return nil, sqlerr.New(sqlerror.ERSPDoesNotExist, sqlerror.SSClientError, "SAVEPOINT %s does not exist", st.Name.String())
		}
		return &sqltypes.Result{}, nil
	case *sqlparser.Set:
		return s.execSet(ctx, st)
	case *sqlparser.Use:
		name := st.DBName.String()
		if name == "" {
			s.setDB("")
			return &sqltypes.Result{}, nil
		}
		if s.eng.Cat.Database(name) == nil && !isSystemSchema(name) {
			return nil, sqlerr.New(sqlerror.ERBadDb, sqlerror.SSClientError, "Unknown database '%s'", name)
		}
		s.setDB(name)
		return &sqltypes.Result{}, nil
	case *sqlparser.Show:
		return s.execShow(ctx, st)
	case *sqlparser.ExplainTab:
		var f *sqlparser.ShowFilter
		if st.Wild != "" {
			f = &sqlparser.ShowFilter{Like: st.Wild}
		}
		return s.execShow(ctx, &sqlparser.Show{Internal: &sqlparser.ShowBasic{Command: sqlparser.Column, Tbl: st.Table, Filter: f}})
	case *sqlparser.ExplainStmt:
		return s.execExplain(ctx, st)
	case *sqlparser.Flush:
		return s.execFlush(ctx, st)
	case *sqlparser.OtherAdmin:
		return &sqltypes.Result{}, nil
	case *sqlparser.LockTables:
		return s.execLockTables(ctx, st)
	case *sqlparser.UnlockTables:
		return s.execUnlockTables()
	case *sqlparser.Analyze:
		return s.execAnalyze(ctx, st)
	case sqlparser.DDLStatement, sqlparser.DBDDLStatement:
		// CREATE and DROP TEMPORARY TABLE do not commit (MySQL).
		if !tempTableDDL(stmt) {
			if noop, err := s.checkLockedDDL(stmt); err != nil || noop {
				return &sqltypes.Result{}, err
			}
			if err := s.enterWrite(ctx); err != nil {
				return nil, err
			}
			if err := s.commit(); err != nil {
				return nil, err
			}
		}
		s.rowCount = 0
		return s.execDDLCommitted(ctx, stmt, sql)
	case *sqlparser.PurgeBinaryLogs:
		return s.purgeBinaryLogs(st)
	case *sqlparser.Load:
		return nil, sqlerr.Unsupported("LOAD DATA")
	case *sqlparser.CallProc:
		return s.execCallProc(ctx, st, bv)
	case *sqlparser.PrepareStmt:
		return s.execPrepareSQL(ctx, st)
	case *sqlparser.ExecuteStmt:
		return s.execExecuteSQL(ctx, st)
	case *sqlparser.DeallocateStmt:
		return s.execDeallocateSQL(st)
	case *sqlparser.Kill:
		var target *Session
		if st.ProcesslistID <= math.MaxUint32 {
			target = s.eng.session(uint32(st.ProcesslistID))
		}
		if target == nil {
			return nil, sqlerr.New(sqlerror.ERNoSuchThread, sqlerror.SSUnknownSQLState, "Unknown thread id: %d", st.ProcesslistID)
		}
		if err := s.checkKill(target, st.ProcesslistID); err != nil {
			return nil, err
		}
		target.Kill(st.Type != sqlparser.QueryType)
		return &sqltypes.Result{}, nil
	}
	return nil, sqlerr.Unsupported("%s", firstWords(sqlparser.String(stmt), 3))
}

// dml runs a data-changing statement inside the statement's transaction.
func (s *Session) dml(ctx context.Context, bv map[string]*querypb.BindVariable, f func(ex *execCtx) (*sqltypes.Result, error)) (*sqltypes.Result, error) {
	return s.dmlOf(ctx, nil, bv, f)
}

// dmlOf is dml for statement stmt, which a READ ONLY transaction may run
// when it writes only to a temporary table (writesOnlyTemporary).
func (s *Session) dmlOf(ctx context.Context, stmt sqlparser.Statement, bv map[string]*querypb.BindVariable, f func(ex *execCtx) (*sqltypes.Result, error)) (*sqltypes.Result, error) {
	if s.readOnlyTx && !s.writesOnlyTemporary(stmt) {
		return nil, sqlerr.New(sqlerr.ReadOnlyTxn, sqlerr.StateReadOnlyTxn, "Cannot execute statement in a READ ONLY transaction.")
	}
	if err := s.readOnlyDenied(stmt); err != nil {
		return nil, err
	}
	tx := s.txnForStatement(ctx)
	tx.BeginStatement()
	ex := s.newExecCtx(ctx, tx, bv)
	res, err := f(ex)
	if err != nil {
		s.releaseIfIdle()
		return nil, s.endStatement(err)
	}
	s.rowCount = int64(res.RowsAffected)
	if err := s.endStatement(nil); err != nil {
		return nil, err
	}
	return res, nil
}

var (
	// SHOW CREATE DATABASE IF NOT EXISTS db, which Vitess's parser lacks
	// (vttablet's GetSchema sends it): group 1 is the rest, the name.
	reShowCreateDBIfNotExists = regexp.MustCompile(`(?is)^\s*SHOW\s+CREATE\s+(?:DATABASE|SCHEMA)\s+IF\s+NOT\s+EXISTS\s+(.*?)\s*;?\s*$`)
	reShowCount               = regexp.MustCompile(`(?is)^\s*SHOW\s+COUNT\s*\(\s*\*\s*\)\s+(WARNINGS|ERRORS)\s*;?\s*$`)
	reNamesCollate            = regexp.MustCompile(`(?is)^\s*SET\s+NAMES\s+'?"?([A-Za-z0-9_]+)'?"?\s+COLLATE\s+'?"?([A-Za-z0-9_]+)'?"?\s*;?\s*$`)
)

// specialStatement handles statements Vitess's parser does not know. Each
// checks its privilege rule once parsed (account statements, CHECK TABLE,
// CHECKSUM TABLE, ANALYZE TABLE); SHOW COUNT(*) WARNINGS and SET NAMES … COLLATE are
// KindShowPublic and KindSet, which need nothing.
func (s *Session) specialStatement(ctx context.Context, sql string) (*sqltypes.Result, bool, error) {
	if len(sql) < 4 {
		return nil, false, nil
	}
	if res, handled, err := s.userStatement(ctx, sql); handled {
		return res, true, err
	}
	if res, handled, err := s.execCheckTable(ctx, sql); handled {
		return res, true, err
	}
	if res, handled, err := s.execChecksumTable(ctx, sql); handled {
		return res, true, err
	}
	if res, handled, err := s.execAnalyzeSQL(ctx, sql); handled {
		return res, true, err
	}
	if res, handled, err := s.execClone(ctx, sql); handled {
		return res, true, err
	}
	if res, handled, err := s.execReplica(ctx, sql); handled {
		return res, true, err
	}
	if res, handled, err := s.execBinlogStatement(ctx, sql); handled {
		return res, true, err
	}
	if res, handled, err := s.loadStatement(ctx, sql); handled {
		return res, true, err
	}
	if r, ok := parse.ParseRoutine(sql); ok {
		s.beginStatementWarnings(nil)
		s.countCom(routineCom(r.Verb, r.Kind))
		if err := s.readOnlyDenied(nil); err != nil {
			return nil, true, err
		}
		// CREATE/ALTER/DROP PROCEDURE, FUNCTION and TRIGGER are logged as
		// MySQL logs them, their text as a QUERY event in the change that
		// makes them take effect (EVENT statements fail: never logged).
		text := ""
		if s.logsBin() {
			text = sql
		}
		res, err := s.execLogged(text, func() (*sqltypes.Result, error) { return s.execRoutine(ctx, sql, r) })
		return res, true, err
	}
	if isCallNoArgs(sql) {
		s.beginStatementWarnings(&sqlparser.CallProc{})
		res, err := s.execCallText(ctx, sql)
		return res, true, err
	}
	if sig, ok, err := parse.ParseSignal(sql); ok {
		s.beginStatementWarnings(nil)
		if err != nil {
			return nil, true, sqlerr.Unsupported("%v", err)
		}
		return &sqltypes.Result{}, true, s.signal(sig)
	}
	switch sql[0] | 0x20 {
	case 's':
	default:
		return nil, false, nil
	}
	if m := reShowCreateDBIfNotExists.FindStringSubmatch(sql); m != nil {
		res, err := s.showCreateDatabaseIfNotExists(ctx, m[1])
		return res, true, err
	}
	if m := reShowCount.FindStringSubmatch(sql); m != nil {
		s.countCom(comShowWarnings)
		n := len(s.warnings)
		name := "@@session.warning_count"
		if strings.EqualFold(m[1], "ERRORS") {
			name = "@@session.error_count"
			n = s.errorCount
		}
		return &sqltypes.Result{
			Fields: []*querypb.Field{{Name: name, Type: sqltypes.Int64, Charset: 63, ColumnLength: 21}},
			Rows:   []Row{{sqltypes.NewInt64(int64(n))}},
		}, true, nil
	}
	if m := reNamesCollate.FindStringSubmatch(sql); m != nil {
		s.beginStatementWarnings(nil)
		s.countCom(comSetOption)
		cs, coll := strings.ToLower(m[1]), strings.ToLower(m[2])
		if err := checkCharsetName("character_set_client", cs); err != nil {
			return nil, true, err
		}
		cs = canonicalCharset(cs)
		env := collations.MySQL8()
		id := env.LookupByName(coll)
		if id == collations.Unknown {
			return nil, true, sqlerr.New(sqlerror.ERUnknownCollation, sqlerror.SSUnknownSQLState, "Unknown collation: '%s'", m[2])
		}
		if env.LookupCharsetName(id) != cs {
			return nil, true, sqlerr.New(sqlerror.ERCollationCharsetMismatch, sqlerror.SSClientError, "COLLATION '%s' is not valid for CHARACTER SET '%s'", m[2], m[1])
		}
		for _, n := range []string{"character_set_client", "character_set_connection", "character_set_results"} {
			s.setVar(n, sqltypes.NewVarChar(cs))
		}
		s.setVar("collation_connection", sqltypes.NewVarChar(coll))
		s.loadConnCharsets()
		return &sqltypes.Result{}, true, nil
	}
	return nil, false, nil
}

// looksLikeSelect reports whether a statement starts with SELECT (for
// max_execution_time, which applies to read-only SELECTs only).
func looksLikeSelect(sql string) bool {
	for i := 0; i < len(sql); i++ {
		switch sql[i] {
		case ' ', '\t', '\n', '\r', '(':
			continue
		}
		return len(sql)-i >= 6 && strings.EqualFold(sql[i:i+6], "select")
	}
	return false
}

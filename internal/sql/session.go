package sql

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/txn"
)

// Warning is one entry of SHOW WARNINGS.
type Warning struct {
	Level   string
	Code    uint16
	Message string
}

// Session is the state of one client connection.
type Session struct {
	eng *Engine
	// com counts the session's statements (Com_xxx, Questions).
	com    comCounts
	ConnID uint32
	User   string
	Host   string

	// DB is the current database ("" when none).
	DB string

	// stmtTexts finds the text of select expressions in the statement being
	// planned (column names; see exprName).
	stmtTexts *parse.ExprTexts

	vars     map[string]sqltypes.Value // session overrides of system variables
	userVars map[string]sqltypes.Value
	// sqlStmts are the SQL-level prepared statements by lower-case name
	// (prepare_sql.go).
	sqlStmts map[string]*sqlPrepared
	// fixedTime is SET timestamp's time (zero: the clock; timestamp.go).
	fixedTime time.Time
	// tz is the session's time zone, resolved from time_zone (timezone.go).
	tz sessionZone

	// Transaction state.
	tx         *txn.Txn
	explicit   bool // BEGIN/START TRANSACTION, or autocommit=0
	mdl        []mdlRef
	readOnlyTx bool
	// tl: LOCK TABLES and the global read lock (locktables.go).
	tl sessionLocks

	// Cached variable values (kept in sync by setVar).
	autocommit bool
	iso        txn.Isolation
	sqlMode    sqlMode
	// conv: character_set_client and _results conversion (conncharset.go).
	conv connCharsets
	// stage: the running statement's PROCESSLIST state, when it sets one
	// (setStage; read by other sessions' goroutines).
	stage atomic.Pointer[string]
	// staleDef: the statement met a replaced table definition (useTable).
	staleDef    bool
	lockTimeout time.Duration
	mdlTimeout  time.Duration

	// Statement results visible to the next statement.
	lastInsertID    uint64
	rowCount        int64
	foundRows       uint64
	warnings        []Warning
	prevWarnings    []Warning
	errorCount      int
	clientFoundRows bool
	// binlogStmt is the state BINLOG statements keep between them (their
	// format description and table maps; Engine.BinlogStatements').
	binlogStmt any

	// slowExamined is the rows read before the statement began, while the
	// slow query log is on (slowlog.go).
	slowExamined uint64
	// shownTxn and shownTxnStart publish the open transaction's id (0:
	// none) and start for INNODB_TRX (transactions.go).
	shownTxn      atomic.Uint64
	shownTxnStart atomic.Int64

	// planSet caches the settings plans depend on (plan()); valid while
	// planOK and the globals are at version planGlobals.
	planSet     *planSettings
	planOK      bool
	planGlobals uint64

	// subj is the session's privilege subject, valid while the catalog
	// version is subjVersion (see subject).
	subj        *privilege.Subject
	subjVersion uint64

	// KILL support.
	killMu sync.Mutex
	cancel context.CancelFunc
	killed atomic.Bool
	// OnKill closes the connection (set by the protocol layer).
	OnKill func()
	// OnNextResult is the protocol layer's hook between the result sets
	// of a CALL (routine_call.go): with probe it only reports whether the
	// client can receive several.
	OnNextResult func(probe bool) error
	// routines is the state of the stored routines the session runs.
	routines spState
	// lastActive is the UnixNano time the last statement ended (or the
	// session started), for wait_timeout.
	lastActive atomic.Int64
	busy       atomic.Bool
	// current is what PROCESSLIST shows of the statement being run (nil
	// between statements), shownDB the current database: both read by
	// other sessions.
	current runningStmt
	shownDB atomic.Pointer[string]
	// load is the LOAD DATA state: the client's files, the running load's
	// progress (load_data.go).
	load loadState
	// trgActive is the tables whose triggers are running, innermost
	// last (trigger_exec.go: their statements may not change them).
	trgActive []*catalog.Table
	// shownID is the account the session acts as (change_user.go).
	shownID atomic.Pointer[identity]

	// nextIso: SET TRANSACTION ISOLATION LEVEL (no scope) applies to the
	// next transaction only.
	nextIso      *txn.Isolation
	nextReadOnly *bool

	// Planning state.
	slotSeq uint64
	// statsUsed is set while planning when a join order was chosen from
	// table statistics (planSelect records it in the plan).
	statsUsed bool
	// planPrivate is set while planning when the plan captures this
	// session (information_schema rows): it is not shared (plancache.go).
	planPrivate bool
	// running is the cached statement being executed (its UPDATE/DELETE
	// plan is kept there).
	running *cachedPlan
	ctes    []map[string]*cteDef
	// viewStack names the views being expanded (view.go), to catch recursion.
	viewStack []string
	// viewChecks are the WITH CHECK OPTION conditions of the view a DML
	// statement writes through, while it runs (view_dml.go).
	viewChecks *viewCheck
	// noMerge: plan views as derived tables only (view_merge.go).
	noMerge bool
	// inView counts the views being expanded: their queries read base
	// tables only (temporary tables do not shadow them).
	inView int

	// handler counts the session's Handler_read_* status.
	handler handlerStatus
	// sorts counts the session's Sort_merge_passes (sort.go).
	sorts sortStatus

	// out receives the result of the statement being executed (stream.go).
	out resultSink
	// norm is the scratch of literal-normalised text statements
	// (normkey.go).
	norm normState
	// insertSource: the rows the running INSERT … SELECT inserts, already
	// computed (CREATE TABLE … SELECT, ctas.go); nil otherwise.
	insertSource *sqltypes.Result
	// temps holds the session's temporary tables (temporary.go).
	temps tempTables
	// ddl: the running DDL statement's commit hook state, nextDDLHook
	// the caller's hook for the next one (SetDDLCommitHook; ddlcommit.go).
	ddl         ddlCommit
	nextDDLHook catalog.CommitHook
	// replicaApplier: the replica's applier, which read_only does not
	// stop; ro, sro cache read_only and super_read_only as of the global
	// variables' version roVersion (replica.go).
	replicaApplier, roLoaded, ro, sro bool
	roVersion                         uint64
}

// mdlRef is a shared metadata lock the transaction holds (write: the
// SHARED_WRITE mode, taken by a statement that writes the table).
type mdlRef struct {
	db, table string
	write     bool
}

// NewSession creates a session.
func (e *Engine) NewSession(user, host string) *Session {
	s := &Session{
		eng:      e,
		ConnID:   e.nextConnID.Add(1),
		User:     user,
		Host:     host,
		vars:     map[string]sqltypes.Value{},
		userVars: map[string]sqltypes.Value{},
	}
	s.loadVarCaches()
	s.publishIdentity()
	s.lastActive.Store(time.Now().UnixNano())
	e.register(s, true)
	return s
}

// SetConnID overrides the connection id (the protocol layer owns ids).
func (s *Session) SetConnID(id uint32) {
	s.eng.unregister(s)
	s.ConnID = id
	s.eng.register(s, false)
}

// SetClientFoundRows sets the CLIENT_FOUND_ROWS capability (affected rows of
// UPDATE count matched rather than changed rows).
func (s *Session) SetClientFoundRows(v bool) { s.clientFoundRows = v }

// Engine returns the session's engine.
func (s *Session) Engine() *Engine { return s.eng }

// Autocommit reports the autocommit setting.
func (s *Session) Autocommit() bool { return s.autocommit }

// InTransaction reports whether an explicit transaction is open.
func (s *Session) InTransaction() bool { return s.tx != nil && s.explicit }

// WarningCount is the number of warnings of the last statement.
func (s *Session) WarningCount() uint16 { return uint16(len(s.warnings)) }

// LastInsertID returns LAST_INSERT_ID().
func (s *Session) LastInsertID() uint64 { return s.lastInsertID }

func (s *Session) warn(level string, code uint16, msg string) {
	if len(s.warnings) < 65535 {
		s.warnings = append(s.warnings, Warning{Level: level, Code: code, Message: msg})
	}
}

// Warnings returns the warnings of the last statement.
func (s *Session) Warnings() []Warning { return s.warnings }

// sysVar returns the session value of a system variable, falling back to
// the global value.
func (s *Session) sysVar(name string) (sqltypes.Value, bool) {
	if v, ok := s.vars[name]; ok {
		return v, true
	}
	return s.eng.Globals.Get(name)
}

func (s *Session) loadVarCaches() {
	get := func(n string) sqltypes.Value { v, _ := s.sysVar(n); return v }
	ac, _ := get("autocommit").ToInt64()
	s.autocommit = ac != 0
	switch get("transaction_isolation").ToString() {
	case "READ-COMMITTED", "READ-UNCOMMITTED":
		s.iso = txn.ReadCommitted
	default:
		s.iso = txn.RepeatableRead
	}
	s.sqlMode = parseSQLMode(get("sql_mode").ToString())
	s.loadConnCharsets()
	lt, _ := get("innodb_lock_wait_timeout").ToInt64()
	s.lockTimeout = time.Duration(lt) * time.Second
	mt, _ := get("lock_wait_timeout").ToInt64()
	s.mdlTimeout = time.Duration(mt) * time.Second
}

// sqlMode holds the sql_mode flags strata acts on.
type sqlMode struct {
	strictTrans, strictAll bool
	noAutoValueOnZero      bool
	ansiQuotes             bool
	pipesAsConcat          bool
	noZeroDate             bool
	onlyFullGroupBy        bool
	errorForDivByZero      bool
	noBackslashEscapes     bool
	raw                    string
}

func parseSQLMode(s string) sqlMode {
	m := sqlMode{raw: s}
	for _, p := range strings.Split(strings.ToUpper(s), ",") {
		switch strings.TrimSpace(p) {
		case "STRICT_TRANS_TABLES":
			m.strictTrans = true
		case "STRICT_ALL_TABLES":
			m.strictAll = true
		case "NO_AUTO_VALUE_ON_ZERO":
			m.noAutoValueOnZero = true
		case "ANSI_QUOTES":
			m.ansiQuotes = true
		case "PIPES_AS_CONCAT":
			m.pipesAsConcat = true
		case "NO_ZERO_DATE":
			m.noZeroDate = true
		case "ONLY_FULL_GROUP_BY":
			m.onlyFullGroupBy = true
		case "ERROR_FOR_DIVISION_BY_ZERO":
			m.errorForDivByZero = true
		case "NO_BACKSLASH_ESCAPES":
			m.noBackslashEscapes = true
		}
	}
	return m
}

// strict reports whether conversion problems are errors (strict mode; all
// strata tables are transactional, so STRICT_TRANS_TABLES suffices).
func (s *Session) strict() bool { return s.sqlMode.strictTrans || s.sqlMode.strictAll }

// --- transactions ---

// txnForStatement returns the transaction a statement runs in, starting one
// when needed. It also marks the statement start for statement rollback.
func (s *Session) txnForStatement(ctx context.Context) *txn.Txn {
	if s.tx == nil {
		s.tx = s.eng.DB.Begin(ctx, s.takeIso(), s.lockTimeout)
		s.binlogTxn(s.tx)
		s.explicit = !s.autocommit
		s.publishTxn()
	}
	s.tx.SetContext(ctx)
	s.tx.LockTimeout = s.lockTimeout
	return s.tx
}

// useTable takes the shared metadata lock on a table for the transaction
// (the write mode when the statement writes it, with the global write
// intention). Under LOCK TABLES it checks the table was locked instead.
func (s *Session) useTable(ctx context.Context, t *catalog.Table, write bool) error {
	if s.temps.defs != nil && s.isTemporary(t) {
		return nil
	}
	var held *tableLock
	if s.tl.locked {
		held = s.lockedEntry(t.DB, t.Name)
		if held == nil && s.tl.sub == 0 {
			return errNotLocked(t.Name)
		}
		if held != nil && write && !held.write {
			return errLockedRead(t.Name)
		}
	}
	if write {
		if err := s.enterWrite(ctx); err != nil {
			return err
		}
	}
	if held != nil {
		return nil // the table lock covers the statement
	}
	for i := range s.mdl {
		if r := &s.mdl[i]; r.db == t.DB && r.table == t.Name {
			if write && !r.write {
				if err := s.eng.Cat.UpgradeShared(ctx, t.DB, t.Name, s.mdlTimeout); err != nil {
					return sqlerr.LockWaitTimeout()
				}
				r.write = true
			}
			return nil
		}
	}
	lock := s.eng.Cat.LockShared
	if write {
		lock = s.eng.Cat.LockSharedWrite
	}
	if err := lock(ctx, t.DB, t.Name, s.mdlTimeout); err != nil {
		return sqlerr.LockWaitTimeout()
	}
	s.mdl = append(s.mdl, mdlRef{t.DB, t.Name, write})
	if t.Replaced() {
		// A schema change committed between reading the definition and
		// taking the lock (often: this statement waited for it). The
		// statement plans again (see retryStale); the lock now held keeps
		// the new definition.
		s.staleDef = true
		return errDefChanged
	}
	return nil
}

// errDefChanged is MySQL's ER_TABLE_DEF_CHANGED, answered when a
// statement keeps meeting replaced definitions.
var errDefChanged = sqlerr.New(1412, "HY000", "Table definition has changed, please retry transaction")

// retryStale reports whether a statement that ended with err (its
// attempt-th run) is to run again: it failed because a definition it
// planned with was replaced before it locked the table (useTable), and it
// ran fewer than three times. The next run plans with the current
// definitions.
func (s *Session) retryStale(err error, attempt int) bool {
	stale := s.staleDef
	s.staleDef = false
	return err != nil && stale && attempt < 2
}

func (s *Session) releaseMDL() {
	for _, r := range s.mdl {
		if r.write {
			s.eng.Cat.UnlockSharedWrite(r.db, r.table)
		} else {
			s.eng.Cat.UnlockShared(r.db, r.table)
		}
	}
	s.mdl = s.mdl[:0]
}

// endStatement finishes a statement: in autocommit mode the transaction
// commits (or rolls back on error).
func (s *Session) endStatement(err error) error {
	if s.tx == nil {
		if !s.explicit {
			s.releaseMDL()
		}
		return err
	}
	if err != nil {
		if sqlerr.IsDeadlock(err) {
			// InnoDB rolls back the whole transaction on deadlock.
			s.rollback()
			return err
		}
		s.tx.RollbackStatement()
		if !s.explicit {
			s.rollback()
		}
		return err
	}
	s.tx.EndStatement()
	if !s.explicit {
		return s.commit()
	}
	return nil
}

// commit commits the open transaction, if any.
func (s *Session) commit() error {
	gated, err := s.commitGate()
	if err != nil {
		// MySQL's ha_commit_trans rolls back when it cannot take the
		// commit lock.
		s.rollback()
		return err
	}
	if s.tx != nil {
		err = s.tx.Commit()
		s.tx = nil
		s.shownTxn.Store(0)
	}
	if gated {
		s.eng.Cat.LeaveCommit()
	}
	s.explicit = false
	s.readOnlyTx = false
	s.releaseMDL()
	if s.temps.dropped != nil {
		s.releaseDroppedTemps()
	}
	if err != nil {
		return sqlerr.New(sqlerror.ERErrorDuringCommit, sqlerror.SSUnknownSQLState, "Got error during COMMIT: %v", err)
	}
	return nil
}

// rollback rolls back the open transaction, if any.
func (s *Session) rollback() {
	if s.tx != nil {
		s.tx.Rollback()
		s.tx = nil
		s.shownTxn.Store(0)
	}
	s.explicit = false
	s.readOnlyTx = false
	s.releaseMDL()
	if s.temps.dropped != nil {
		s.releaseDroppedTemps()
	}
}

// Close ends the session, rolling back any open transaction.
func (s *Session) Close() {
	s.eng.unregister(s)
	s.dropSQLPrepared()
	s.flushStatus()
	s.rollback()
	s.releaseAllLocks()
	s.dropAllTemps()
	s.releaseUserLocks()
}

// ResetConnection implements COM_RESET_CONNECTION.
func (s *Session) ResetConnection() {
	s.rollback()
	s.releaseAllLocks()
	s.dropAllTemps()
	s.vars = map[string]sqltypes.Value{}
	s.planOK = false
	s.userVars = map[string]sqltypes.Value{}
	s.dropSQLPrepared()
	s.fixedTime = time.Time{}
	s.lastInsertID = 0
	s.warnings = nil
	s.loadVarCaches()
}

// takeIso returns the isolation level of a new transaction, consuming a
// one-shot SET TRANSACTION.
func (s *Session) takeIso() txn.Isolation {
	iso := s.iso
	if s.nextIso != nil {
		iso = *s.nextIso
		s.nextIso = nil
	}
	if s.nextReadOnly != nil {
		s.readOnlyTx = *s.nextReadOnly
		s.nextReadOnly = nil
	}
	return iso
}

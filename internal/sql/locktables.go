package sql

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// LOCK TABLES, UNLOCK TABLES and FLUSH TABLES … WITH READ LOCK, with
// MySQL 8.0's semantics on top of the metadata locks (catalog/mdl.go):
//
//   - LOCK TABLES commits the session's transaction, releases the table
//     locks it holds, then takes each table's lock in (database, name)
//     order — so two sessions never deadlock on them — waiting at most
//     lock_wait_timeout in all (1205, nothing held). READ is MySQL's
//     SHARED_READ_ONLY (others read, their writes wait), WRITE its
//     SHARED_NO_READ_WRITE (others wait for everything). A view locks
//     itself and, in the same mode, the tables its query reads.
//   - While it holds them the session may use those tables only (1100
//     for another, 1099 for a write to one locked READ); temporary
//     tables and the system schemas stay usable. A table is matched by its
//     database and name; the alias it was locked under is not checked.
//   - UNLOCK TABLES, START TRANSACTION / BEGIN (table locks only) and the
//     session's end release them.
//   - FLUSH TABLES WITH READ LOCK takes the global read lock: it waits for
//     writes under way in other sessions, then holds back their writes,
//     DDL and the commit of transactions that wrote; the holder's own
//     writes answer 1223. UNLOCK TABLES or the session's end releases it.
//
// Statements that write take the global write intention (enterWrite) when
// they first write a table and keep it to the statement's end
// (leaveWrite, at the end of query and executePrepared); the commit of a
// transaction that wrote takes the commit intention (commitGate).

// tableLock is one table (or view) a session holds with LOCK TABLES.
type tableLock struct {
	db, name string
	write    bool
	view     bool // no lock of its own: its tables are locked
}

// sessionLocks is a session's LOCK TABLES and global read lock state.
type sessionLocks struct {
	tables []tableLock // sorted by (db, name), one entry per table
	locked bool        // LOCK TABLES is in force (tables may be empty only for views)
	global bool        // holds the global read lock
	// stmtIX: the running statement holds the global write intention;
	// lockIX: LOCK TABLES … WRITE holds it until UNLOCK TABLES.
	stmtIX, lockIX bool
	// sub counts the triggers and stored functions running: MySQL locks
	// the tables they use with the tables named (prelocking); strata
	// takes their metadata locks as it does outside LOCK TABLES instead
	// of answering 1100.
	sub int
}

func errNotLocked(name string) error {
	return sqlerr.New(sqlerror.ERTableNotLocked, sqlerror.SSUnknownSQLState, "Table '%s' was not locked with LOCK TABLES", name)
}

func errLockedRead(name string) error {
	return sqlerr.New(sqlerror.ERTableNotLockedForWrite, sqlerror.SSUnknownSQLState, "Table '%s' was locked with a READ lock and can't be updated", name)
}

func errLockOrActive() error {
	return sqlerr.New(sqlerror.ERLockOrActiveTransaction, sqlerror.SSUnknownSQLState, "Can't execute the given command because you have active locked tables or an active transaction")
}

func errReadLock() error {
	return sqlerr.New(sqlerror.ERCantUpdateWithReadLock, sqlerror.SSUnknownSQLState, "Can't execute the query because you have a conflicting read lock")
}

// lockedEntry returns the session's LOCK TABLES entry of db.name, or nil.
func (s *Session) lockedEntry(db, name string) *tableLock {
	for i := range s.tl.tables {
		if l := &s.tl.tables[i]; l.db == db && l.name == name {
			return l
		}
	}
	return nil
}

// checkLocked answers whether the session, under LOCK TABLES, may use
// db.name (to write it when write).
func (s *Session) checkLocked(db, name string, write bool) error {
	l := s.lockedEntry(db, name)
	if l == nil {
		return errNotLocked(name)
	}
	if write && !l.write {
		return errLockedRead(name)
	}
	return nil
}

// enterWrite takes the global write intention for the running statement:
// it waits while another session holds the global read lock, and answers
// 1223 when this one does.
func (s *Session) enterWrite(ctx context.Context) error {
	if s.tl.stmtIX || s.tl.lockIX {
		return nil
	}
	if s.tl.global {
		return errReadLock()
	}
	if err := s.eng.Cat.EnterWrite(ctx, s.mdlTimeout); err != nil {
		return sqlerr.LockWaitTimeout()
	}
	s.tl.stmtIX = true
	return nil
}

// leaveWrite releases the statement's global write intention.
func (s *Session) leaveWrite() {
	if s.tl.stmtIX {
		s.tl.stmtIX = false
		s.eng.Cat.LeaveWrite()
	}
}

// commitGate is taken before a commit: a transaction that wrote waits
// while another session holds the global read lock. It needs no gate when
// the running statement (autocommit, DDL) or LOCK TABLES … WRITE holds
// the write intention, which the global read lock waits for. gated: the
// caller calls LeaveCommit after the commit.
func (s *Session) commitGate() (gated bool, err error) {
	if s.tx == nil || s.tl.global || s.tl.stmtIX || s.tl.lockIX || !s.tx.HasWrites() {
		return false, nil
	}
	if err := s.eng.Cat.EnterCommit(context.Background(), s.mdlTimeout); err != nil {
		return false, sqlerr.LockWaitTimeout()
	}
	return true, nil
}

// execLockTables runs LOCK TABLES.
func (s *Session) execLockTables(ctx context.Context, st *sqlparser.LockTables) (*sqltypes.Result, error) {
	if err := s.commit(); err != nil {
		return nil, err
	}
	s.unlockTables()
	var want []tableLock
	for _, tl := range st.Tables {
		ate, ok := tl.Table.(*sqlparser.AliasedTableExpr)
		if !ok {
			return nil, sqlerr.Unsupported("LOCK TABLES of %s", sqlparser.String(tl.Table))
		}
		tn, ok := ate.Expr.(sqlparser.TableName)
		if !ok {
			return nil, sqlerr.Unsupported("LOCK TABLES of %s", sqlparser.String(tl.Table))
		}
		db, err := s.schemaOrCurrent(tn.Qualifier.String())
		if err != nil {
			return nil, err
		}
		name := tn.Name.String()
		write := tl.Lock == sqlparser.Write || tl.Lock == sqlparser.LowPriorityWrite
		if isSystemSchema(db) {
			if strings.EqualFold(db, "mysql") || strings.EqualFold(db, "sys") {
				return nil, sqlerr.Unsupported("LOCK TABLES of %s.%s", db, name)
			}
			// MySQL: information_schema and performance_schema need no lock.
			if write {
				return nil, sqlerr.New(sqlerr.DBAccessDenied, sqlerror.SSClientError, "Access denied for user '%s'@'%s' to database '%s'", s.User, s.Host, strings.ToLower(db))
			}
			continue
		}
		if s.tempTable(db, name) != nil {
			continue // MySQL permits and ignores locks on temporary tables
		}
		if want, err = s.wantLock(want, db, name, write, 0); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(want, func(a, b tableLock) int {
		return cmp.Or(cmp.Compare(a.db, b.db), cmp.Compare(a.name, b.name))
	})
	// One entry per table, the strongest mode asked for.
	out := want[:0]
	for _, l := range want {
		if n := len(out); n > 0 && out[n-1].db == l.db && out[n-1].name == l.name {
			out[n-1].write = out[n-1].write || l.write
			continue
		}
		out = append(out, l)
	}
	want = out
	writes := slices.ContainsFunc(want, func(l tableLock) bool { return l.write && !l.view })
	if writes {
		if s.tl.global {
			return nil, errReadLock()
		}
		if err := s.eng.Cat.EnterWrite(ctx, s.mdlTimeout); err != nil {
			return nil, sqlerr.LockWaitTimeout()
		}
		s.tl.lockIX = true
	}
	s.setStage("Waiting for table metadata lock")
	defer s.stage.Store(nil)
	deadline := time.Now().Add(s.mdlTimeout)
	for i, l := range want {
		if l.view {
			continue
		}
		var err error
		left := deadline.Sub(time.Now())
		if left <= 0 {
			err = catalog.ErrMDLTimeout
		} else if l.write {
			err = s.eng.Cat.LockTableWrite(ctx, l.db, l.name, left)
		} else {
			err = s.eng.Cat.LockTableRead(ctx, l.db, l.name, left)
		}
		if err != nil {
			s.tl.tables = want[:i]
			s.tl.locked = true
			s.unlockTables()
			return nil, sqlerr.LockWaitTimeout()
		}
	}
	s.tl.tables = want
	s.tl.locked = true
	return &sqltypes.Result{}, nil
}

// wantLock adds db.name, a table or a view (with the tables its query
// reads, in the same mode), to want; an unknown name is 1146.
func (s *Session) wantLock(want []tableLock, db, name string, write bool, depth int) ([]tableLock, error) {
	if s.eng.Cat.Table(db, name) != nil {
		return append(want, tableLock{db: db, name: name, write: write}), nil
	}
	v := s.eng.Cat.View(db, name)
	if v == nil {
		return nil, sqlerr.NoTable(db, name)
	}
	if depth >= maxViewDepth {
		return nil, sqlerr.New(sqlerr.ViewRecursive, sqlerror.SSUnknownSQLState, "`%s`.`%s` contains view recursion", v.DB, v.Name)
	}
	want = append(want, tableLock{db: v.DB, name: v.Name, write: write, view: true})
	sel, err := s.parseViewQuery(v)
	if err != nil {
		return nil, err
	}
	var werr error
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		tn, ok := n.(sqlparser.TableName)
		if !ok || werr != nil || tn.Name.IsEmpty() {
			return werr == nil, nil
		}
		tdb := tn.Qualifier.String()
		if tdb == "" {
			tdb = v.DB
		}
		if isSystemSchema(tdb) {
			return false, nil
		}
		if s.eng.Cat.Table(tdb, tn.Name.String()) == nil && s.eng.Cat.View(tdb, tn.Name.String()) == nil {
			return false, nil // a CTE's name, or a column qualifier
		}
		want, werr = s.wantLock(want, tdb, tn.Name.String(), write, depth+1)
		return false, nil
	}, sel)
	return want, werr
}

// unlockTables releases the session's LOCK TABLES locks (not the global
// read lock).
func (s *Session) unlockTables() {
	if !s.tl.locked {
		return
	}
	for i := len(s.tl.tables) - 1; i >= 0; i-- {
		l := s.tl.tables[i]
		switch {
		case l.view:
		case l.write:
			s.eng.Cat.UnlockTableWrite(l.db, l.name)
		default:
			s.eng.Cat.UnlockTableRead(l.db, l.name)
		}
	}
	s.tl.tables = nil
	s.tl.locked = false
	if s.tl.lockIX {
		s.tl.lockIX = false
		s.eng.Cat.LeaveWrite()
	}
}

// execUnlockTables runs UNLOCK TABLES: it commits the transaction when
// LOCK TABLES was in force (MySQL), then releases the table locks and the
// global read lock.
func (s *Session) execUnlockTables() (*sqltypes.Result, error) {
	if s.tl.locked {
		if err := s.commit(); err != nil {
			return nil, err
		}
		s.unlockTables()
	}
	s.unlockGlobal()
	return &sqltypes.Result{}, nil
}

func (s *Session) unlockGlobal() {
	if s.tl.global {
		s.tl.global = false
		s.eng.Cat.UnlockGlobalRead()
	}
}

// releaseAllLocks releases everything at the session's end.
func (s *Session) releaseAllLocks() {
	s.unlockTables()
	s.unlockGlobal()
	s.leaveWrite()
}

// execFlush runs FLUSH.
func (s *Session) execFlush(ctx context.Context, st *sqlparser.Flush) (*sqltypes.Result, error) {
	if st.ForExport {
		return nil, sqlerr.Unsupported("FLUSH TABLES ... FOR EXPORT")
	}
	if st.WithLock {
		if len(st.TableNames) > 0 {
			// FLUSH TABLES t, … WITH READ LOCK is LOCK TABLES t READ, ….
			lt := &sqlparser.LockTables{}
			for _, tn := range st.TableNames {
				lt.Tables = append(lt.Tables, &sqlparser.TableAndLockType{Table: &sqlparser.AliasedTableExpr{Expr: tn}, Lock: sqlparser.Read})
			}
			// MySQL: RELOAD (checked for FLUSH) and LOCK TABLES with SELECT
			// on each table.
			if err := s.authorize(lt, ""); err != nil {
				return nil, err
			}
			return s.execLockTables(ctx, lt)
		}
		if s.tl.locked || s.tl.lockIX {
			return nil, errLockOrActive()
		}
		if err := s.commit(); err != nil {
			return nil, err
		}
		if s.tl.global {
			return &sqltypes.Result{}, nil
		}
		s.leaveWrite()
		s.setStage("Waiting for global read lock")
		defer s.stage.Store(nil)
		if err := s.eng.Cat.LockGlobalRead(ctx, s.mdlTimeout); err != nil {
			return nil, sqlerr.LockWaitTimeout()
		}
		s.tl.global = true
		return &sqltypes.Result{}, nil
	}
	for _, o := range st.FlushOptions {
		if strings.EqualFold(o, "status") {
			s.flushStatus()
		}
	}
	return &sqltypes.Result{}, nil
}

// checkLockedDDL answers whether a DDL statement may run under LOCK
// TABLES: MySQL's rules (1100 for a table not locked, 1099 for one locked
// READ), and 1235 for a schema change of a table locked WRITE, except
// ALTER TABLE … DISABLE/ENABLE KEYS (mysqldump's output has it inside
// LOCK TABLES … WRITE), which changes nothing here: noop is true.
func (s *Session) checkLockedDDL(stmt sqlparser.Statement) (noop bool, err error) {
	if !s.tl.locked || tempTableDDL(stmt) {
		return false, nil
	}
	ddl, ok := stmt.(sqlparser.DDLStatement)
	if !ok {
		return false, errLockOrActive()
	}
	allTemp := true
	for _, tn := range ddl.AffectedTables() {
		db := tn.Qualifier.String()
		if db == "" {
			db = s.DB
		}
		if s.tempTable(db, tn.Name.String()) != nil {
			continue
		}
		allTemp = false
		if err := s.checkLocked(db, tn.Name.String(), true); err != nil {
			return false, err
		}
	}
	if allTemp {
		return false, nil
	}
	if at, ok := stmt.(*sqlparser.AlterTable); ok && len(at.AlterOptions) > 0 {
		keysOnly := true
		for _, o := range at.AlterOptions {
			if _, ok := o.(*sqlparser.KeyState); !ok {
				keysOnly = false
			}
		}
		if keysOnly {
			return true, nil
		}
	}
	return false, sqlerr.Unsupported("%s under LOCK TABLES", firstWords(sqlparser.String(stmt), 2))
}

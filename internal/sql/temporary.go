package sql

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/schemachange"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Temporary tables (CREATE TEMPORARY TABLE), as MySQL 8.0 has them.
//
// A temporary table belongs to the session that created it: its
// definition (a *catalog.Table built as CREATE TABLE builds one) lives in
// the session only and is never published in the catalog, so no other
// session, SHOW TABLES or information_schema sees it. Every statement of
// the session resolves a name to its temporary table first (tableDef), so
// a temporary table shadows a base table of the same name until it is
// dropped. Its rows are ordinary index entries written through the
// session's transactions (they reach the WAL, and ROLLBACK undoes them)
// under index ids reserved with catalog.Catalog.ReserveTemporary: each id
// carries a durable pending mark, and the catalog deletes the data of
// marked ids when it loads, so a crash never leaks temporary rows.
// Dropping the table (DROP [TEMPORARY] TABLE, or the session's end)
// range-deletes its data and clears the marks.
//
// Plans are cached engine-wide (plancache.go). The plan-cache key carries
// the session's temporary set id (tempTables.setID): 0 while the session
// has no temporary table, else a number drawn from a process-wide counter
// (tempSetSeq: unique across sessions and engines) each time the session's
// set of temporary definitions changes. A plan
// built by a session with temporary tables is thus reachable by no other
// session, and none built before a change of the set (a new table that
// shadows a name, a dropped or altered one) by the session itself.
//
// Temporary tables take no metadata locks and, once created, need no
// privilege (MySQL: CREATE TEMPORARY TABLES is checked at creation only).
// CREATE TEMPORARY TABLE and DROP TEMPORARY TABLE do not commit the open
// transaction; ALTER and TRUNCATE do, as in MySQL. A READ ONLY transaction
// may change a temporary table (writesOnlyTemporary).
//
// CREATE TEMPORARY TABLE ... SELECT is CREATE TABLE ... SELECT (ctas.go)
// without the commits, outside a transaction only.
//
// Not supported (1235): CREATE TEMPORARY TABLE ... SELECT inside a
// transaction, FOREIGN KEY clauses on a temporary table, RENAME TABLE of a
// temporary table (MySQL refuses it too; ALTER TABLE ... RENAME works).

// tempName is a temporary table's database and name.
type tempName struct{ db, name string }

// tempTables is a session's set of temporary tables.
type tempTables struct {
	// defs holds the definitions; nil when there are none.
	defs map[tempName]*catalog.Table
	// setID identifies defs in plan-cache keys: 0 when defs is empty.
	setID uint64
	// dropped holds the index ids of tables dropped while a transaction
	// was open: their data is deleted when it ends, since its uncommitted
	// rows under those ids would otherwise be committed after the delete.
	dropped []uint32
}

// tempSetSeq numbers the sets of temporary tables (tempTables.setID).
var tempSetSeq atomic.Uint64

// tableDef resolves db.name for a statement of the session: its temporary
// table of that name, else the catalog's table (nil when neither exists).
func (s *Session) tableDef(db, name string) *catalog.Table {
	if s.temps.defs != nil {
		if t := s.temps.defs[tempName{db, name}]; t != nil {
			return t
		}
	}
	return s.eng.Cat.Table(db, name)
}

// tempTable returns the session's temporary table db.name, or nil.
func (s *Session) tempTable(db, name string) *catalog.Table {
	if s.temps.defs == nil {
		return nil
	}
	return s.temps.defs[tempName{db, name}]
}

// isTemporary reports whether t is one of the session's temporary tables.
func (s *Session) isTemporary(t *catalog.Table) bool {
	return s.temps.defs != nil && s.temps.defs[tempName{t.DB, t.Name}] == t
}

// putTemp adds or replaces a temporary definition.
func (s *Session) putTemp(t *catalog.Table) {
	t.Temporary = true
	if s.temps.defs == nil {
		s.temps.defs = map[tempName]*catalog.Table{}
	}
	s.temps.defs[tempName{t.DB, t.Name}] = t
	s.tempSetChanged()
}

// removeTemp forgets a temporary definition (its data is the caller's).
func (s *Session) removeTemp(t *catalog.Table) {
	delete(s.temps.defs, tempName{t.DB, t.Name})
	s.tempSetChanged()
}

func (s *Session) tempSetChanged() {
	if len(s.temps.defs) == 0 {
		s.temps.defs = nil
		s.temps.setID = 0
		return
	}
	s.temps.setID = tempSetSeq.Add(1)
}

func indexIDs(t *catalog.Table) []uint32 {
	ids := make([]uint32, len(t.Indexes))
	for i, ix := range t.Indexes {
		ids[i] = ix.ID
	}
	return ids
}

// releaseTempData deletes the data of a temporary table's index ids, or,
// while a transaction is open, when it ends (releaseDroppedTemps). A
// failure leaves the pending marks, whose data the next start deletes.
func (s *Session) releaseTempData(ids []uint32) {
	if s.tx != nil {
		s.temps.dropped = append(s.temps.dropped, ids...)
		return
	}
	_ = s.eng.Cat.DropTemporaryData(ids)
}

// releaseDroppedTemps deletes the data of temporary tables dropped during
// the transaction that just ended.
func (s *Session) releaseDroppedTemps() {
	ids := s.temps.dropped
	s.temps.dropped = nil
	_ = s.eng.Cat.DropTemporaryData(ids)
}

// dropAllTemps drops every temporary table of the session (its end, COM_RESET_CONNECTION);
// the caller has ended the transaction.
func (s *Session) dropAllTemps() {
	if s.temps.dropped != nil {
		s.releaseDroppedTemps()
	}
	if s.temps.defs == nil {
		return
	}
	var ids []uint32
	for _, t := range s.temps.defs {
		s.eng.Store.Forget(t, true)
		ids = append(ids, indexIDs(t)...)
	}
	s.temps.defs = nil
	s.tempSetChanged()
	_ = s.eng.Cat.DropTemporaryData(ids)
}

// createTemporaryTable runs CREATE TEMPORARY TABLE db.name (the caller
// checked the database and the name).
func (s *Session) createTemporaryTable(ctx context.Context, st *sqlparser.CreateTable, db, name string, checkCols []string) (*sqltypes.Result, error) {
	if s.tempTable(db, name) != nil {
		if st.IfNotExists {
			s.warn("Note", uint16(sqlerr.TableExists), fmt.Sprintf("Table '%s' already exists", name))
			return &sqltypes.Result{}, nil
		}
		return nil, sqlerr.New(sqlerr.TableExists, sqlerr.StateTableExists, "Table '%s' already exists", name)
	}
	if st.TableSpec != nil {
		for _, c := range st.TableSpec.Constraints {
			if _, ok := c.Details.(*sqlparser.ForeignKeyDefinition); ok {
				return nil, sqlerr.Unsupported("FOREIGN KEY on a TEMPORARY table")
			}
		}
	}
	var def *catalog.Table
	switch {
	case st.Select != nil:
		// Whether ROLLBACK undoes the rows it copied differs between
		// servers (MariaDB keeps them): only outside a transaction.
		if s.explicit || !s.autocommit {
			return nil, sqlerr.Unsupported("CREATE TEMPORARY TABLE ... SELECT inside a transaction")
		}
		return s.createTableSelect(ctx, st, db, name, checkCols) // ctas.go
	case st.OptLike != nil:
		sdb := mustDB(st.OptLike.LikeTable.Qualifier.String(), db)
		sname := st.OptLike.LikeTable.Name.String()
		src := s.tableDef(sdb, sname)
		if src == nil {
			return nil, sqlerr.NoTable(sdb, sname)
		}
		def = src.Clone()
		def.DB, def.Name = db, name
		def.AutoIncStart = 0
		// LIKE copies no foreign key (MySQL).
		def.ForeignKeys = nil
		def.Checks = schemachange.LikeChecks(src.Checks, name)
		if err := schemachange.CheckGeneratedNameLengths(def.Checks); err != nil {
			return nil, err
		}
	default:
		if st.TableSpec == nil {
			return nil, sqlerr.Syntax("You have an error in your SQL syntax; missing table definition")
		}
		if len(withoutKeysOnly(st.TableSpec.Columns)) < len(st.TableSpec.Columns) {
			return nil, sqlerr.New(sqlerror.ERTableMustHaveColumns, sqlerror.SSClientError, "A table must have at least 1 column")
		}
		var err error
		if def, err = s.buildTableDef(db, name, st.TableSpec, checkCols); err != nil {
			return nil, err
		}
	}
	if err := s.putTemporary(def); err != nil {
		return nil, err
	}
	return &sqltypes.Result{}, nil
}

// putTemporary creates the temporary table def (CREATE TEMPORARY TABLE's
// last step): index ids reserved, the definition the session's.
func (s *Session) putTemporary(def *catalog.Table) error {
	def.CreateTime = time.Now().Unix()
	if err := s.schemaEnv().ReserveTemporaryIDs(def); err != nil {
		return err
	}
	s.putTemp(def)
	return nil
}

// dropTemporary drops one of the session's temporary tables.
func (s *Session) dropTemporary(t *catalog.Table) {
	s.removeTemp(t)
	s.eng.Store.Forget(t, true)
	s.releaseTempData(indexIDs(t))
}

// truncateTemporary empties a temporary table: the same definition under
// new index ids, the old ids' data dropped (the caller committed first).
func (s *Session) truncateTemporary(t *catalog.Table) (*sqltypes.Result, error) {
	nt := t.Clone()
	if err := s.schemaEnv().ReserveTemporaryIDs(nt); err != nil {
		return nil, err
	}
	s.putTemp(nt)
	s.eng.Store.Forget(t, true)
	s.releaseTempData(indexIDs(t))
	return &sqltypes.Result{}, nil
}

// alterTemporary carries out the physical part of ALTER TABLE on a
// temporary table (the caller committed first and built plan): new
// indexes are back-filled under reserved ids, the definition replaced,
// replaced indexes' data dropped.
func (s *Session) alterTemporary(ctx context.Context, plan *schemachange.AlterPlan) error {
	if r := plan.RenameTo; r != nil && (r.DB != plan.Old.DB || r.Name != plan.Old.Name) {
		if s.tempTable(r.DB, r.Name) != nil {
			return sqlerr.New(sqlerr.TableExists, sqlerr.StateTableExists, "Table '%s' already exists", r.Name)
		}
		if s.eng.Cat.Database(r.DB) == nil {
			return sqlerr.New(sqlerror.ERBadDb, sqlerror.SSClientError, "Unknown database '%s'", r.DB)
		}
	}
	drop, err := s.schemaEnv().AlterTemporary(ctx, plan)
	if err != nil {
		return err
	}
	s.removeTemp(plan.Old)
	s.putTemp(plan.New)
	s.releaseTempData(drop)
	return nil
}

// showCreateTemporary turns SHOW CREATE TABLE's text for a temporary table
// into MySQL's CREATE TEMPORARY TABLE form.
func showCreateTemporary(text string) string {
	return "CREATE TEMPORARY TABLE " + strings.TrimPrefix(text, "CREATE TABLE ")
}

// tempTableDDL reports whether stmt is CREATE TEMPORARY TABLE or DROP
// TEMPORARY TABLE, which do not commit the open transaction (MySQL; ALTER
// and TRUNCATE of a temporary table do).
func tempTableDDL(stmt sqlparser.Statement) bool {
	switch st := stmt.(type) {
	case *sqlparser.CreateTable:
		return st.Temp
	case *sqlparser.DropTable:
		return st.Temp
	}
	return false
}

// writesOnlyTemporary reports whether stmt (INSERT, REPLACE, UPDATE or
// DELETE) changes one of the session's temporary tables and nothing else:
// MySQL permits that in a READ ONLY transaction.
func (s *Session) writesOnlyTemporary(stmt sqlparser.Statement) bool {
	if s.temps.defs == nil {
		return false
	}
	var target sqlparser.TableExpr
	switch st := stmt.(type) {
	case *sqlparser.Insert:
		target = st.Table
	case *sqlparser.Update:
		if len(st.TableExprs) != 1 {
			return false
		}
		target = st.TableExprs[0]
	case *sqlparser.Delete:
		if len(st.Targets) > 0 || len(st.TableExprs) != 1 {
			return false
		}
		target = st.TableExprs[0]
	default:
		return false
	}
	_, db, name, ok := s.namedTable(target)
	return ok && s.tempTable(db, name) != nil
}

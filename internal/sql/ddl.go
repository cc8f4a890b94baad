package sql

import (
	"context"
	"fmt"
	"strings"
	"time"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/schemachange"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

func isSystemSchema(db string) bool {
	switch strings.ToLower(db) {
	case "information_schema", "performance_schema", "mysql", "sys":
		return true
	}
	return false
}

// execDDL runs a data-definition statement (after the implicit commit).
// sql is the statement's text, where CREATE and ALTER TABLE find which of
// their CHECK constraints were written on a column.
func (s *Session) execDDL(ctx context.Context, stmt sqlparser.Statement, sql string) (*sqltypes.Result, error) {
	switch st := stmt.(type) {
	case *sqlparser.CreateDatabase:
		return s.createDatabase(st)
	case *sqlparser.DropDatabase:
		return s.dropDatabase(ctx, st)
	case *sqlparser.AlterDatabase:
		return s.alterDatabase(st)
	case *sqlparser.CreateTable:
		return s.createTable(ctx, st, s.columnChecks(sql))
	case *sqlparser.DropTable:
		return s.dropTables(ctx, st)
	case *sqlparser.TruncateTable:
		return s.truncateTable(ctx, st)
	case *sqlparser.AlterTable:
		_, viaConstraint, _ := parse.AlterConstraint(s.eng.Parser, sql)
		return s.alterTable(ctx, st, s.columnChecks(sql), viaConstraint)
	case *sqlparser.RenameTable:
		return s.renameTables(ctx, st)
	case *sqlparser.CreateView:
		return s.createView(ctx, st)
	case *sqlparser.AlterView:
		return s.alterView(ctx, st)
	case *sqlparser.DropView:
		return s.dropViews(st)
	}
	return nil, sqlerr.Unsupported("%s", firstWords(sqlparser.String(stmt), 3))
}

func (s *Session) dbOrCurrent(q sqlparser.IdentifierCS) (string, error) {
	return s.schemaOrCurrent(q.String())
}

// schemaOrCurrent is the database a statement names (schema), or the
// current one; error 1046 without either.
func (s *Session) schemaOrCurrent(schema string) (string, error) {
	if schema == "" {
		schema = s.DB
	}
	if schema == "" {
		return "", sqlerr.NoDB()
	}
	return schema, nil
}

func (s *Session) createDatabase(st *sqlparser.CreateDatabase) (*sqltypes.Result, error) {
	name := st.DBName.String()
	if isSystemSchema(name) || s.eng.Cat.Database(name) != nil {
		if st.IfNotExists {
			s.warn("Note", uint16(sqlerror.ERDbCreateExists), fmt.Sprintf("Can't create database '%s'; database exists", name))
			return &sqltypes.Result{RowsAffected: 1}, nil
		}
		return nil, sqlerr.New(sqlerror.ERDbCreateExists, sqlerror.SSUnknownSQLState, "Can't create database '%s'; database exists", name)
	}
	if err := schemachange.CheckIdent(name, "database"); err != nil {
		return nil, err
	}
	db := &catalog.Database{Name: name, Charset: "utf8mb4", Collation: collations.ID(45)}
	if err := schemachange.ApplyDBOptions(db, st.CreateOptions); err != nil {
		return nil, err
	}
	if err := schemachange.Apply(s.eng.Cat, s.ddlHook(), func(d *catalog.DDL) error { return d.PutDatabase(db) }); err != nil {
		return nil, err
	}
	return &sqltypes.Result{RowsAffected: 1}, nil
}

func (s *Session) alterDatabase(st *sqlparser.AlterDatabase) (*sqltypes.Result, error) {
	name := st.DBName.String()
	if name == "" {
		name = s.DB
	}
	old := s.eng.Cat.Database(name)
	if old == nil {
		return nil, sqlerr.New(sqlerror.ERBadDb, sqlerror.SSClientError, "Unknown database '%s'", name)
	}
	db := *old
	if err := schemachange.ApplyDBOptions(&db, st.AlterOptions); err != nil {
		return nil, err
	}
	if err := schemachange.Apply(s.eng.Cat, s.ddlHook(), func(d *catalog.DDL) error { return d.PutDatabase(&db) }); err != nil {
		return nil, err
	}
	return &sqltypes.Result{RowsAffected: 1}, nil
}

func (s *Session) dropDatabase(ctx context.Context, st *sqlparser.DropDatabase) (*sqltypes.Result, error) {
	name := st.DBName.String()
	if isSystemSchema(name) {
		return nil, sqlerr.New(sqlerr.DBAccessDenied, sqlerror.SSClientError, "Access denied for user '%s'@'%s' to database '%s'", s.User, s.Host, name)
	}
	if s.eng.Cat.Database(name) == nil {
		if st.IfExists {
			s.warn("Note", uint16(sqlerror.ERDbDropExists), fmt.Sprintf("Can't drop database '%s'; database doesn't exist", name))
			return &sqltypes.Result{}, nil
		}
		return nil, sqlerr.New(sqlerror.ERDbDropExists, sqlerror.SSUnknownSQLState, "Can't drop database '%s'; database doesn't exist", name)
	}
	n, err := s.schemaEnv().DropDatabase(ctx, name)
	if err != nil {
		return nil, err
	}
	if s.DB == name {
		s.setDB("")
	}
	return &sqltypes.Result{RowsAffected: uint64(n)}, nil
}

// tableDefaults returns the default collation for a new table in db.
func (s *Session) tableDefaults(db string) collations.ID {
	if d := s.eng.Cat.Database(db); d != nil && d.Collation != 0 {
		return d.Collation
	}
	return collations.ID(45)
}

// columnChecks returns, for each CHECK constraint of a CREATE or ALTER TABLE
// statement in order, the column it was written on ("" for table-level
// ones); nil when none was written on a column.
func (s *Session) columnChecks(sql string) []string {
	_, cols, _ := parse.MoveColumnChecks(s.eng.Parser, sql)
	return cols
}

func (s *Session) createTable(ctx context.Context, st *sqlparser.CreateTable, checkCols []string) (*sqltypes.Result, error) {
	db, name, err := s.newTableName(st.Table)
	if err != nil {
		return nil, err
	}
	if st.Temp {
		return s.createTemporaryTable(ctx, st, db, name, checkCols)
	}
	if s.eng.Cat.Exists(db, name) {
		if st.IfNotExists {
			s.warn("Note", uint16(sqlerr.TableExists), fmt.Sprintf("Table '%s' already exists", name))
			return &sqltypes.Result{}, nil
		}
		return nil, sqlerr.New(sqlerr.TableExists, sqlerr.StateTableExists, "Table '%s' already exists", name)
	}
	var def *catalog.Table
	if st.OptLike != nil {
		src := s.tableDef(mustDB(st.OptLike.LikeTable.Qualifier.String(), db), st.OptLike.LikeTable.Name.String())
		if src == nil && s.eng.Cat.View(mustDB(st.OptLike.LikeTable.Qualifier.String(), db), st.OptLike.LikeTable.Name.String()) != nil {
			return nil, sqlerr.New(sqlerr.WrongObject, "HY000", "'%s.%s' is not BASE TABLE", mustDB(st.OptLike.LikeTable.Qualifier.String(), db), st.OptLike.LikeTable.Name.String())
		}
		if src == nil {
			return nil, sqlerr.NoTable(mustDB(st.OptLike.LikeTable.Qualifier.String(), db), st.OptLike.LikeTable.Name.String())
		}
		def = src.Clone()
		def.DB, def.Name = db, name
		def.AutoIncStart = 0
		def.Triggers = nil // CREATE TABLE ... LIKE copies no triggers
		def.Checks = schemachange.LikeChecks(src.Checks, name)
		if err := schemachange.CheckGeneratedNameLengths(def.Checks); err != nil {
			return nil, err
		}
		if err := s.checkNamesFree(db, name, def.Checks); err != nil {
			return nil, err
		}
	} else {
		if st.Select != nil {
			return s.createTableSelect(ctx, st, db, name, checkCols) // ctas.go
		}
		if st.TableSpec == nil {
			return nil, sqlerr.Syntax("You have an error in your SQL syntax; missing table definition")
		}
		if len(withoutKeysOnly(st.TableSpec.Columns)) < len(st.TableSpec.Columns) {
			return nil, sqlerr.New(sqlerror.ERTableMustHaveColumns, sqlerror.SSClientError, "A table must have at least 1 column")
		}
		def, err = s.buildTableDef(db, name, st.TableSpec, checkCols)
		if err != nil {
			return nil, err
		}
	}
	if err := s.putTable(db, name, def); err != nil {
		return nil, err
	}
	return &sqltypes.Result{}, nil
}

// newTableName resolves the name a CREATE TABLE or VIEW gives its new
// object: the database (current by default) must exist and not be a
// system schema (1044), the name must be a valid identifier.
func (s *Session) newTableName(tn sqlparser.TableName) (db, name string, err error) {
	if db, err = s.dbOrCurrent(tn.Qualifier); err != nil {
		return "", "", err
	}
	name = tn.Name.String()
	if isSystemSchema(db) {
		return "", "", sqlerr.New(sqlerr.DBAccessDenied, sqlerror.SSClientError, "Access denied for user '%s'@'%s' to database '%s'", s.User, s.Host, db)
	}
	if s.eng.Cat.Database(db) == nil {
		return "", "", sqlerr.New(sqlerror.ERBadDb, sqlerror.SSClientError, "Unknown database '%s'", db)
	}
	if err := schemachange.CheckIdent(name, "table"); err != nil {
		return "", "", err
	}
	return db, name, nil
}

func mustDB(q, def string) string {
	if q == "" {
		return def
	}
	return q
}

// buildTableDef turns a parsed table spec into a definition (index ids not
// yet assigned): schemachange.BuildTable, then the CHECK constraints, which
// compile expressions. checkCols names the column of each column-level
// CHECK constraint (see columnChecks).
func (s *Session) buildTableDef(db, name string, spec *sqlparser.TableSpec, checkCols []string) (*catalog.Table, error) {
	t, err := schemachange.BuildTable(db, name, spec, s.tableDefaults(db), s.coltypeMode())
	if err != nil {
		return nil, err
	}
	if err := s.timestampDefaultsToUTC(t); err != nil {
		return nil, err
	}
	if err := s.finishGenerated(t); err != nil {
		return nil, err
	}
	if err := s.fkCheckNew(t, nil); err != nil {
		return nil, err
	}
	specs, err := schemachange.CheckSpecsOfTable(spec, checkCols)
	if err != nil {
		return nil, err
	}
	if len(specs) > 0 {
		if t.Checks, err = s.addChecks(t, db, name, nil, specs, false); err != nil {
			return nil, err
		}
		if err := s.checkFKActions(t); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (s *Session) coltypeMode() coltype.Mode {
	if s.strict() {
		return coltype.ModeDefault
	}
	return 0
}

func (s *Session) dropTables(ctx context.Context, st *sqlparser.DropTable) (*sqltypes.Result, error) {
	var defs, temps []*catalog.Table
	var missing []string
	for i, tn := range st.FromTables {
		db, err := s.dbOrCurrent(tn.Qualifier)
		if err != nil {
			return nil, err
		}
		// A table named twice is MySQL's 1066 (it used to wait for its
		// own metadata lock).
		for _, prev := range st.FromTables[:i] {
			if pdb, _ := s.dbOrCurrent(prev.Qualifier); pdb == db && prev.Name.String() == tn.Name.String() {
				return nil, sqlerr.New(sqlerror.ERNonUniqTable, sqlerror.SSClientError, "Not unique table/alias: '%s'", tn.Name.String())
			}
		}
		// A temporary table first (temporary.go); DROP TEMPORARY TABLE
		// drops only those.
		if t := s.tempTable(db, tn.Name.String()); t != nil {
			temps = append(temps, t)
			continue
		}
		t := s.eng.Cat.Table(db, tn.Name.String())
		if t == nil || st.Temp {
			missing = append(missing, db+"."+tn.Name.String())
			continue
		}
		defs = append(defs, t)
	}
	if len(missing) > 0 && !st.IfExists {
		return nil, sqlerr.New(sqlerror.ERBadTable, sqlerror.SSUnknownTable, "Unknown table '%s'", strings.Join(missing, ","))
	}
	for _, m := range missing {
		s.warn("Note", uint16(sqlerror.ERBadTable), fmt.Sprintf("Unknown table '%s'", m))
	}
	if err := s.fkCheckDrop(defs); err != nil {
		return nil, err
	}
	// Base tables first: their drop can fail (a metadata lock wait), a
	// temporary table's cannot.
	if len(defs) > 0 {
		if err := s.schemaEnv().DropTables(ctx, tableNames(defs), nil); err != nil {
			return nil, err
		}
	}
	for _, t := range temps {
		s.dropTemporary(t)
	}
	return &sqltypes.Result{}, nil
}

func (s *Session) truncateTable(ctx context.Context, st *sqlparser.TruncateTable) (*sqltypes.Result, error) {
	db, err := s.dbOrCurrent(st.Table.Qualifier)
	if err != nil {
		return nil, err
	}
	if t := s.tempTable(db, st.Table.Name.String()); t != nil {
		return s.truncateTemporary(t)
	}
	t := s.eng.Cat.Table(db, st.Table.Name.String())
	if t == nil {
		return nil, sqlerr.NoTable(db, st.Table.Name.String())
	}
	if err := s.fkCheckTruncate(t); err != nil {
		return nil, err
	}
	if err := s.schemaEnv().Truncate(ctx, schemachange.TableName{DB: t.DB, Name: t.Name}); err != nil {
		return nil, err
	}
	return &sqltypes.Result{}, nil
}

func (s *Session) renameTables(ctx context.Context, st *sqlparser.RenameTable) (*sqltypes.Result, error) {
	pairs := make([]schemachange.RenamePair, len(st.TablePairs))
	for i, p := range st.TablePairs {
		fdb, err := s.dbOrCurrent(p.FromTable.Qualifier)
		if err != nil {
			return nil, err
		}
		if s.tempTable(fdb, p.FromTable.Name.String()) != nil {
			return nil, sqlerr.Unsupported("RENAME TABLE of a TEMPORARY table (ALTER TABLE ... RENAME renames one)")
		}
		if s.eng.Cat.View(fdb, p.FromTable.Name.String()) != nil {
			return s.renameViews(st)
		}
		// An unresolved target database is 1046 when its pair is reached.
		tdb, _ := s.dbOrCurrent(p.ToTable.Qualifier)
		pairs[i] = schemachange.RenamePair{
			From: schemachange.TableName{DB: fdb, Name: p.FromTable.Name.String()},
			To:   schemachange.TableName{DB: tdb, Name: p.ToTable.Name.String()},
		}
	}
	if err := s.schemaEnv().RenameTables(ctx, pairs); err != nil {
		return nil, err
	}
	return &sqltypes.Result{}, nil
}

// rebuildConverter returns the conversion of a table rebuild (ALTER TABLE
// that changes the rows' layout): each row of the old definition becomes a
// row of nt, columns taken through mapping (new ordinal -> old ordinal, -1
// = new column: its default, or the row number for a new AUTO_INCREMENT
// column), converted by store assignment under the session's sql_mode
// (warnings go to the session), then checked against checks (nt's
// enforced CHECK constraints, nil for none). ex evaluates default
// expressions and constraints.
func (s *Session) rebuildConverter(ex *execCtx, nt *catalog.Table, mapping []int, checks *checkSet) schemachange.ConvertFunc {
	now := time.Now()
	return func(row Row, rowNum int, nrow Row) error {
		for i := range nt.Columns {
			c := &nt.Columns[i]
			if c.Generated != "" {
				// Computed with the CHECK constraints (generated.go).
				nrow[i] = sqltypes.NULL
				continue
			}
			oi := mapping[i]
			var v sqltypes.Value
			if oi < 0 {
				switch {
				case c.DefaultExpr != "":
					var err error
					v, err = s.evalDefaultExpr(ex, c, now)
					if err != nil {
						return err
					}
				case c.HasDefault:
					v = s.constDefault(c)
				case c.AutoIncrement:
					v = sqltypes.NewUint64(uint64(rowNum))
				case !c.Nullable:
					v = coltype.ImplicitDefault(c)
				default:
					v = sqltypes.NULL
				}
			} else {
				v = row[oi]
			}
			if !v.IsNull() {
				cv, w, err := coltype.ConvertIn(c, v, s.strict(), rowNum, s.zoneOf(c))
				if err != nil {
					return err
				}
				if w != nil {
					s.warn(w.Level, w.Code, w.Message)
				}
				v = cv
			} else if !c.Nullable {
				if s.strict() {
					return sqlerr.New(sqlerror.ERInvalidUseOfNull, sqlerr.StateNullValue, "Invalid use of NULL value")
				}
				v = coltype.ImplicitDefault(c)
			}
			nrow[i] = v
		}
		_, err := s.checkRow(ex, checks, nrow, false)
		return err
	}
}

// schemaEnv is what schemachange uses of the engine, with the session's
// lock wait.
func (s *Session) schemaEnv() *schemachange.Env {
	return &schemachange.Env{Cat: s.eng.Cat, DB: s.eng.DB, Store: s.eng.Store, LockTimeout: s.lockTimeout, MDLTimeout: s.mdlTimeout,
		TmpDir: s.eng.tmpDir(), SortMemory: s.eng.bulkMemory(), Stage: s.setStage, Commit: s.ddlHook()}
}

// tableNames names tables for schemachange.
func tableNames(tables []*catalog.Table) []schemachange.TableName {
	names := make([]schemachange.TableName, len(tables))
	for i, t := range tables {
		names[i] = schemachange.TableName{DB: t.DB, Name: t.Name}
	}
	return names
}

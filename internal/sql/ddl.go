package sql

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/encoding"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/txn"
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
	case *sqlparser.CreateView, *sqlparser.AlterView, *sqlparser.DropView:
		return nil, sqlerr.Unsupported("views")
	}
	return nil, sqlerr.Unsupported("%s", firstWords(sqlparser.String(stmt), 3))
}

func (s *Session) dbOrCurrent(q sqlparser.IdentifierCS) (string, error) {
	db := q.String()
	if db == "" {
		db = s.DB
	}
	if db == "" {
		return "", sqlerr.NoDB()
	}
	return db, nil
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
	if err := checkIdent(name, "database"); err != nil {
		return nil, err
	}
	db := &catalog.Database{Name: name, Charset: "utf8mb4", Collation: collations.ID(45)}
	if err := applyDBOptions(db, st.CreateOptions); err != nil {
		return nil, err
	}
	d := s.eng.Cat.BeginDDL()
	if err := d.PutDatabase(db); err != nil {
		d.Abort()
		return nil, err
	}
	if err := d.Commit(); err != nil {
		return nil, err
	}
	return &sqltypes.Result{RowsAffected: 1}, nil
}

func applyDBOptions(db *catalog.Database, opts []sqlparser.DatabaseOption) error {
	for _, o := range opts {
		switch o.Type {
		case sqlparser.CharacterSetType:
			cs := strings.ToLower(o.Value)
			id := defaultCollationForCharset(cs)
			if id == collations.Unknown {
				return sqlerr.New(sqlerror.ERUnknownCharacterSet, sqlerror.SSClientError, "Unknown character set: '%s'", o.Value)
			}
			db.Charset, db.Collation = coltype.CharsetName(id), id
		case sqlparser.CollateType:
			id := collations.MySQL8().LookupByName(strings.ToLower(o.Value))
			if id == collations.Unknown {
				return sqlerr.New(sqlerror.ERUnknownCollation, sqlerror.SSUnknownSQLState, "Unknown collation: '%s'", o.Value)
			}
			db.Collation, db.Charset = id, coltype.CharsetName(id)
		}
	}
	return nil
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
	if err := applyDBOptions(&db, st.AlterOptions); err != nil {
		return nil, err
	}
	d := s.eng.Cat.BeginDDL()
	if err := d.PutDatabase(&db); err != nil {
		d.Abort()
		return nil, err
	}
	return &sqltypes.Result{RowsAffected: 1}, d.Commit()
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
	tables := s.eng.Cat.Tables(name)
	if err := s.dropTableDefs(ctx, tables, func(d *catalog.DDL) error { return d.DropDatabase(name) }); err != nil {
		return nil, err
	}
	if s.DB == name {
		s.DB = ""
	}
	return &sqltypes.Result{RowsAffected: uint64(len(tables))}, nil
}

func checkIdent(name, what string) error {
	if name == "" || len(name) > 64 || strings.HasSuffix(name, " ") {
		return sqlerr.New(sqlerror.ERWrongTableName, sqlerror.SSClientError, "Incorrect %s name '%s'", what, name)
	}
	return nil
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
	db, err := s.dbOrCurrent(st.Table.Qualifier)
	if err != nil {
		return nil, err
	}
	name := st.Table.Name.String()
	if isSystemSchema(db) {
		return nil, sqlerr.New(sqlerr.DBAccessDenied, sqlerror.SSClientError, "Access denied for user '%s'@'%s' to database '%s'", s.User, s.Host, db)
	}
	if s.eng.Cat.Database(db) == nil {
		return nil, sqlerr.New(sqlerror.ERBadDb, sqlerror.SSClientError, "Unknown database '%s'", db)
	}
	if err := checkIdent(name, "table"); err != nil {
		return nil, err
	}
	if st.Temp {
		// Temporary tables are created as ordinary tables private by name
		// convention; strata does not yet isolate them per session.
		return nil, sqlerr.Unsupported("CREATE TEMPORARY TABLE")
	}
	if s.eng.Cat.Table(db, name) != nil {
		if st.IfNotExists {
			s.warn("Note", uint16(sqlerr.TableExists), fmt.Sprintf("Table '%s' already exists", name))
			return &sqltypes.Result{}, nil
		}
		return nil, sqlerr.New(sqlerr.TableExists, sqlerr.StateTableExists, "Table '%s' already exists", name)
	}
	var def *catalog.Table
	if st.OptLike != nil {
		src := s.eng.Cat.Table(mustDB(st.OptLike.LikeTable.Qualifier.String(), db), st.OptLike.LikeTable.Name.String())
		if src == nil {
			return nil, sqlerr.NoTable(mustDB(st.OptLike.LikeTable.Qualifier.String(), db), st.OptLike.LikeTable.Name.String())
		}
		def = src.Clone()
		def.DB, def.Name = db, name
		def.AutoIncStart = 0
		def.Checks = likeChecks(src.Checks, name)
		if err := checkGeneratedNameLengths(def.Checks); err != nil {
			return nil, err
		}
		if err := s.checkNamesFree(db, name, def.Checks); err != nil {
			return nil, err
		}
	} else {
		if st.Select != nil {
			return nil, sqlerr.Unsupported("CREATE TABLE ... SELECT")
		}
		if st.TableSpec == nil {
			return nil, sqlerr.Syntax("You have an error in your SQL syntax; missing table definition")
		}
		def, err = s.buildTableDef(db, name, st.TableSpec, checkCols)
		if err != nil {
			return nil, err
		}
	}
	def.CreateTime = time.Now().Unix()
	d := s.eng.Cat.BeginDDL()
	for _, ix := range def.Indexes {
		ix.ID = d.NewIndexID()
	}
	if err := d.PutTable(def); err != nil {
		d.Abort()
		return nil, err
	}
	if err := d.Commit(); err != nil {
		return nil, err
	}
	return &sqltypes.Result{}, nil
}

func mustDB(q, def string) string {
	if q == "" {
		return def
	}
	return q
}

// buildTableDef turns a parsed table spec into a definition (index ids not
// yet assigned). checkCols names the column of each column-level CHECK
// constraint (see columnChecks).
func (s *Session) buildTableDef(db, name string, spec *sqlparser.TableSpec, checkCols []string) (*catalog.Table, error) {
	t := &catalog.Table{DB: db, Name: name, AutoIncCol: -1, Collation: s.tableDefaults(db)}
	t.Charset = coltype.CharsetName(t.Collation)
	// Table options first: they set the default collation of columns.
	for _, o := range spec.Options {
		switch strings.ToLower(o.Name) {
		case "charset", "character set", "default charset", "default character set":
			id := defaultCollationForCharset(strings.ToLower(o.String))
			if o.String == "" {
				id = defaultCollationForCharset(strings.ToLower(o.Value.Val))
			}
			if id == collations.Unknown {
				return nil, sqlerr.New(sqlerror.ERUnknownCharacterSet, sqlerror.SSClientError, "Unknown character set: '%s'", o.String)
			}
			t.Collation, t.Charset = id, coltype.CharsetName(id)
		case "collate", "default collate":
			v := o.String
			if v == "" && o.Value != nil {
				v = o.Value.Val
			}
			id := collations.MySQL8().LookupByName(strings.ToLower(v))
			if id == collations.Unknown {
				return nil, sqlerr.New(sqlerror.ERUnknownCollation, sqlerror.SSUnknownSQLState, "Unknown collation: '%s'", v)
			}
			t.Collation, t.Charset = id, coltype.CharsetName(id)
		case "auto_increment":
			if o.Value != nil {
				n, _ := strconv.ParseUint(o.Value.Val, 10, 64)
				t.AutoIncStart = n
			}
		case "comment":
			if o.Value != nil {
				t.Comment = o.Value.Val
			}
		}
	}
	var pkCols []sqlparser.IdentifierCI
	var colUnique []string
	for _, cd := range spec.Columns {
		col, err := coltype.FromASTMode(cd, t.Collation, s.coltypeMode())
		if err != nil {
			return nil, err
		}
		if t.ColumnIndex(col.Name) >= 0 {
			return nil, sqlerr.New(sqlerror.ERDupFieldName, sqlerror.SSDupFieldName, "Duplicate column name '%s'", col.Name)
		}
		if err := checkIdent(col.Name, "column"); err != nil {
			return nil, err
		}
		switch cd.Type.Options.KeyOpt {
		case sqlparser.ColKeyPrimary:
			pkCols = append(pkCols, cd.Name)
			col.Nullable = false
		case sqlparser.ColKeyUnique, sqlparser.ColKeyUniqueKey:
			colUnique = append(colUnique, col.Name)
		}
		if col.AutoIncrement {
			if t.AutoIncCol >= 0 {
				return nil, sqlerr.New(sqlerror.ERWrongAutoKey, sqlerror.SSClientError, "Incorrect table definition; there can be only one auto column and it must be defined as a key")
			}
			t.AutoIncCol = len(t.Columns)
		}
		t.Columns = append(t.Columns, col)
	}
	if len(t.Columns) == 0 {
		return nil, sqlerr.New(sqlerror.ERTableMustHaveColumns, sqlerror.SSClientError, "A table must have at least 1 column")
	}
	if len(pkCols) > 1 {
		return nil, sqlerr.New(sqlerror.ERMultiplePriKey, sqlerror.SSClientError, "Multiple primary key defined")
	}
	var primary *catalog.Index
	var secondaries []*catalog.Index
	if len(pkCols) == 1 {
		primary = &catalog.Index{Name: "PRIMARY", Primary: true, Unique: true, Columns: []catalog.IndexColumn{{Col: t.ColumnIndex(pkCols[0].String())}}}
	}
	for _, idx := range spec.Indexes {
		ix, err := indexFromAST(t, idx)
		if err != nil {
			return nil, err
		}
		if ix.Primary {
			if primary != nil {
				return nil, sqlerr.New(sqlerror.ERMultiplePriKey, sqlerror.SSClientError, "Multiple primary key defined")
			}
			primary = ix
			continue
		}
		secondaries = append(secondaries, ix)
	}
	for _, cn := range colUnique {
		ci := t.ColumnIndex(cn)
		secondaries = append(secondaries, &catalog.Index{Unique: true, Columns: []catalog.IndexColumn{{Col: ci}}})
	}
	for _, c := range spec.Constraints {
		if fk, ok := c.Details.(*sqlparser.ForeignKeyDefinition); ok {
			t.ForeignKeys = append(t.ForeignKeys, formatForeignKey(t, c.Name.String(), fk))
			// MySQL creates an index for the referencing columns when none
			// starts with them.
			var cols []catalog.IndexColumn
			for _, col := range fk.Source {
				ci := t.ColumnIndex(col.String())
				if ci < 0 {
					return nil, sqlerr.New(sqlerror.ERKeyColumnDoesNotExist, sqlerror.SSClientError, "Key column '%s' doesn't exist in table", col.String())
				}
				cols = append(cols, catalog.IndexColumn{Col: ci})
			}
			if !hasIndexPrefix(primary, secondaries, cols) {
				name := c.Name.String()
				if name == "" {
					name = t.Columns[cols[0].Col].Name
				}
				secondaries = append(secondaries, &catalog.Index{Name: name, Columns: cols})
			}
		}
	}
	if primary != nil {
		for _, ic := range primary.Columns {
			t.Columns[ic.Col].Nullable = false
		}
		t.Indexes = append(t.Indexes, primary)
	} else {
		t.HiddenPK = true
		t.Indexes = append(t.Indexes, &catalog.Index{Name: "PRIMARY", Primary: true, Unique: true})
	}
	for _, ix := range secondaries {
		if ix.Name == "" {
			ix.Name = uniqueIndexName(t, secondaries, t.Columns[ix.Columns[0].Col].Name)
		}
		if t.IndexByName(ix.Name) != nil {
			return nil, sqlerr.New(sqlerror.ERDupKeyName, sqlerror.SSClientError, "Duplicate key name '%s'", ix.Name)
		}
		t.Indexes = append(t.Indexes, ix)
	}
	if t.AutoIncCol >= 0 && !columnIsKeyStart(t, t.AutoIncCol) {
		return nil, sqlerr.New(sqlerror.ERWrongAutoKey, sqlerror.SSClientError, "Incorrect table definition; there can be only one auto column and it must be defined as a key")
	}
	specs, err := checkSpecsOfTable(spec, checkCols)
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

func hasIndexPrefix(primary *catalog.Index, secondaries []*catalog.Index, cols []catalog.IndexColumn) bool {
	all := secondaries
	if primary != nil {
		all = append([]*catalog.Index{primary}, secondaries...)
	}
	for _, ix := range all {
		if len(ix.Columns) < len(cols) {
			continue
		}
		ok := true
		for i, c := range cols {
			if ix.Columns[i].Col != c.Col {
				ok = false
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func columnIsKeyStart(t *catalog.Table, col int) bool {
	for i, ix := range t.Indexes {
		if i == 0 && t.HiddenPK {
			continue
		}
		if len(ix.Columns) > 0 && ix.Columns[0].Col == col {
			return true
		}
	}
	return false
}

func uniqueIndexName(t *catalog.Table, pending []*catalog.Index, base string) string {
	taken := func(n string) bool {
		if t.IndexByName(n) != nil || strings.EqualFold(n, "PRIMARY") {
			return true
		}
		for _, ix := range pending {
			if strings.EqualFold(ix.Name, n) {
				return true
			}
		}
		return false
	}
	if !taken(base) {
		return base
	}
	for i := 2; ; i++ {
		n := fmt.Sprintf("%s_%d", base, i)
		if !taken(n) {
			return n
		}
	}
}

// indexFromAST converts an index definition.
func indexFromAST(t *catalog.Table, idx *sqlparser.IndexDefinition) (*catalog.Index, error) {
	ix := &catalog.Index{Name: idx.Info.Name.String()}
	switch idx.Info.Type {
	case sqlparser.IndexTypePrimary:
		ix.Primary, ix.Unique, ix.Name = true, true, "PRIMARY"
	case sqlparser.IndexTypeUnique:
		ix.Unique = true
	case sqlparser.IndexTypeFullText, sqlparser.IndexTypeSpatial:
		// Accepted as ordinary indexes (no full-text search yet).
	}
	for _, o := range idx.Options {
		if strings.EqualFold(o.Name, "comment") && o.Value != nil {
			ix.Comment = o.Value.Val
		}
	}
	for _, c := range idx.Columns {
		if c.Expression != nil {
			return nil, sqlerr.Unsupported("functional index key parts")
		}
		ci := t.ColumnIndex(c.Column.String())
		if ci < 0 {
			return nil, sqlerr.New(sqlerror.ERKeyColumnDoesNotExist, sqlerror.SSClientError, "Key column '%s' doesn't exist in table", c.Column.String())
		}
		ic := catalog.IndexColumn{Col: ci, Desc: c.Direction == sqlparser.DescOrder}
		if col := &t.Columns[ci]; c.Length == nil && (col.Type == sqltypes.Text || col.Type == sqltypes.Blob) {
			return nil, sqlerr.New(sqlerror.ERBlobKeyWithoutLength, sqlerror.SSClientError, "BLOB/TEXT column '%s' used in key specification without a key length", col.Name)
		}
		if c.Length != nil {
			ic.Prefix = *c.Length
			col := &t.Columns[ci]
			if !(col.IsText() || col.Type == sqltypes.VarBinary || col.Type == sqltypes.Binary || col.Type == sqltypes.Blob) {
				return nil, sqlerr.New(sqlerror.ERWrongSubKey, sqlerror.SSUnknownSQLState, "Incorrect prefix key; the used key part isn't a string, the used length is longer than the key part, or the storage engine doesn't support unique prefix keys")
			}
		}
		for _, prev := range ix.Columns {
			if prev.Col == ci {
				return nil, sqlerr.New(sqlerror.ERDupFieldName, sqlerror.SSDupFieldName, "Duplicate column name '%s'", c.Column.String())
			}
		}
		ix.Columns = append(ix.Columns, ic)
	}
	if len(ix.Columns) == 0 {
		return nil, sqlerr.Syntax("You have an error in your SQL syntax; index without columns")
	}
	return ix, nil
}

func (s *Session) dropTables(ctx context.Context, st *sqlparser.DropTable) (*sqltypes.Result, error) {
	var defs []*catalog.Table
	var missing []string
	for _, tn := range st.FromTables {
		db, err := s.dbOrCurrent(tn.Qualifier)
		if err != nil {
			return nil, err
		}
		t := s.eng.Cat.Table(db, tn.Name.String())
		if t == nil {
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
	if err := s.dropTableDefs(ctx, defs, nil); err != nil {
		return nil, err
	}
	return &sqltypes.Result{}, nil
}

func (s *Session) truncateTable(ctx context.Context, st *sqlparser.TruncateTable) (*sqltypes.Result, error) {
	db, err := s.dbOrCurrent(st.Table.Qualifier)
	if err != nil {
		return nil, err
	}
	t := s.eng.Cat.Table(db, st.Table.Name.String())
	if t == nil {
		return nil, sqlerr.NoTable(db, st.Table.Name.String())
	}
	if err := s.eng.Cat.LockExclusive(ctx, t.DB, t.Name, s.mdlTimeout); err != nil {
		return nil, sqlerr.LockWaitTimeout()
	}
	defer s.eng.Cat.UnlockExclusive(t.DB, t.Name)
	d := s.eng.Cat.BeginDDL()
	nt := t.Clone()
	for _, ix := range t.Indexes {
		if err := d.DropIndexData(ix.ID); err != nil {
			d.Abort()
			return nil, err
		}
	}
	// New index ids: the old ids' range tombstones can never hide new rows.
	for _, ix := range nt.Indexes {
		ix.ID = d.NewIndexID()
	}
	if err := d.PutTable(nt); err != nil {
		d.Abort()
		return nil, err
	}
	if err := d.Commit(); err != nil {
		return nil, err
	}
	s.eng.Store.Forget(t, true)
	return &sqltypes.Result{}, nil
}

func (s *Session) renameTables(ctx context.Context, st *sqlparser.RenameTable) (*sqltypes.Result, error) {
	var locked [][2]string
	defer func() {
		for _, l := range locked {
			s.eng.Cat.UnlockExclusive(l[0], l[1])
		}
	}()
	// Metadata locks first, so a wait does not hold up other DDL.
	for _, p := range st.TablePairs {
		fdb, err := s.dbOrCurrent(p.FromTable.Qualifier)
		if err != nil {
			return nil, err
		}
		if t := s.eng.Cat.Table(fdb, p.FromTable.Name.String()); t != nil {
			if err := s.eng.Cat.LockExclusive(ctx, t.DB, t.Name, s.mdlTimeout); err != nil {
				return nil, sqlerr.LockWaitTimeout()
			}
			locked = append(locked, [2]string{t.DB, t.Name})
		}
	}
	d := s.eng.Cat.BeginDDL()
	// Track the effect of earlier pairs (RENAME a TO b, b TO c).
	cur := map[string]*catalog.Table{}
	gone := map[string]bool{}
	get := func(db, name string) *catalog.Table {
		k := db + "." + name
		if t, ok := cur[k]; ok {
			return t
		}
		if gone[k] {
			return nil
		}
		return s.eng.Cat.Table(db, name)
	}
	for _, p := range st.TablePairs {
		fdb, err := s.dbOrCurrent(p.FromTable.Qualifier)
		if err != nil {
			d.Abort()
			return nil, err
		}
		tdb, err := s.dbOrCurrent(p.ToTable.Qualifier)
		if err != nil {
			d.Abort()
			return nil, err
		}
		from := get(fdb, p.FromTable.Name.String())
		if from == nil {
			d.Abort()
			return nil, sqlerr.NoTable(fdb, p.FromTable.Name.String())
		}
		if get(tdb, p.ToTable.Name.String()) != nil {
			d.Abort()
			return nil, sqlerr.New(sqlerr.TableExists, sqlerr.StateTableExists, "Table '%s' already exists", p.ToTable.Name.String())
		}
		if s.eng.Cat.Database(tdb) == nil {
			d.Abort()
			return nil, sqlerr.New(sqlerror.ERBadDb, sqlerror.SSClientError, "Unknown database '%s'", tdb)
		}
		nt := from.Clone()
		nt.DB, nt.Name = tdb, p.ToTable.Name.String()
		catalog.RenameGeneratedChecks(nt.Checks, from.Name, nt.Name)
		if err := checkGeneratedNameLengths(nt.Checks); err != nil {
			d.Abort()
			return nil, err
		}
		if err := d.RemoveTableEntry(from.DB, from.Name); err != nil {
			d.Abort()
			return nil, err
		}
		if err := d.PutTable(nt); err != nil {
			d.Abort()
			return nil, err
		}
		gone[from.DB+"."+from.Name] = true
		delete(cur, from.DB+"."+from.Name)
		cur[tdb+"."+nt.Name] = nt
	}
	// CHECK constraint names stay unique per database once every pair has
	// moved (RENAME TABLE a TO b, b TO a swaps generated names).
	for _, nt := range cur {
		for _, other := range s.eng.Cat.Tables(nt.DB) {
			k := other.DB + "." + other.Name
			if _, moved := cur[k]; moved || gone[k] {
				continue
			}
			if err := checkNameClash(nt, other); err != nil {
				d.Abort()
				return nil, err
			}
		}
		for _, other := range cur {
			if other != nt && other.DB == nt.DB {
				if err := checkNameClash(nt, other); err != nil {
					d.Abort()
					return nil, err
				}
			}
		}
	}
	if err := d.Commit(); err != nil {
		return nil, err
	}
	return &sqltypes.Result{}, nil
}

// buildIndexEntries writes the entries of new secondary indexes for every row
// of the table into the DDL batch, checking uniqueness.
func (s *Session) buildIndexEntries(ctx context.Context, d *catalog.DDL, old *catalog.Table, nt *catalog.Table, newIdx []*catalog.Index) error {
	if len(newIdx) == 0 {
		return nil
	}
	tx := s.eng.DB.Begin(ctx, txn.ReadCommitted, s.lockTimeout)
	defer tx.Rollback()
	src := s.eng.Store.Open(old)
	dst := s.eng.Store.Open(nt)
	sc, err := src.NewScan(tx, old.Primary(), nil, nil, false, true)
	if err != nil {
		return err
	}
	defer sc.Close()
	seen := make([]map[string]bool, len(newIdx))
	for i, ix := range newIdx {
		if ix.Unique {
			seen[i] = map[string]bool{}
		}
	}
	b := d.Batch()
	var kb []byte
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		row, pk, ok, err := sc.Next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		for i, ix := range newIdx {
			if kb, err = putSecondaryEntry(b, dst, ix, row, pk, seen[i], kb); err != nil {
				return err
			}
		}
	}
}

// putSecondaryEntry writes row's entry of secondary index ix into a DDL
// batch; seen (nil for non-unique indexes) holds the unique prefixes
// written so far, for the 1062 check. kb is a reusable key buffer.
func putSecondaryEntry(b *txn.Batch, t *table.Table, ix *catalog.Index, row Row, pk []byte, seen map[string]bool, kb []byte) ([]byte, error) {
	kb, n, hasNull, err := t.SecondaryKey(kb[:0], ix, row, pk)
	if err != nil {
		return kb, err
	}
	if seen != nil && !hasNull {
		p := string(kb[:n])
		if seen[p] {
			return kb, (&table.DupKeyError{Table: t.Def.Name, Index: ix, Entry: dupEntryText(t.Def, ix, row)}).SQLError()
		}
		seen[p] = true
	}
	return kb, b.Set(kb, nil)
}

func dupEntryText(t *catalog.Table, ix *catalog.Index, row Row) string {
	parts := make([]string, 0, len(ix.Columns))
	for _, ic := range ix.Columns {
		parts = append(parts, row[ic.Col].ToString())
	}
	return strings.Join(parts, "-")
}

// rebuildTable copies every row of old into nt (new index ids), converting
// columns through mapping (new ordinal -> old ordinal, -1 = new column), and
// checks each new row against checks (nt's enforced CHECK constraints, nil
// for none).
func (s *Session) rebuildTable(ctx context.Context, d *catalog.DDL, old, nt *catalog.Table, mapping []int, checks *checkSet) error {
	tx := s.eng.DB.Begin(ctx, txn.ReadCommitted, s.lockTimeout)
	defer tx.Rollback()
	src := s.eng.Store.Open(old)
	dst := s.eng.Store.Open(nt)
	sc, err := src.NewScan(tx, old.Primary(), nil, nil, false, true)
	if err != nil {
		return err
	}
	defer sc.Close()
	b := d.Batch()
	seen := make([]map[string]bool, len(nt.Indexes))
	for i, ix := range nt.Indexes {
		if ix.Unique && !(i == 0 && nt.HiddenPK) {
			seen[i] = map[string]bool{}
		}
	}
	ex := s.newExecCtx(ctx, tx, nil)
	nrow := make(Row, len(nt.Columns))
	var rowID uint64
	var kb, vb []byte
	rowNum := 0
	now := time.Now()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		row, _, ok, err := sc.Next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		rowNum++
		for i := range nt.Columns {
			c := &nt.Columns[i]
			oi := mapping[i]
			var v sqltypes.Value
			if oi < 0 {
				switch {
				case c.DefaultExpr != "":
					v, err = s.evalDefaultExpr(ex, c, now)
					if err != nil {
						return err
					}
				case c.HasDefault:
					v = c.Default
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
				cv, w, err := coltype.Convert(c, v, s.strict(), rowNum)
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
		if _, err := s.checkRow(ex, checks, nrow, false); err != nil {
			return err
		}
		rowID++
		pk, err := dst.PKKey(kb[:0], nrow, rowID)
		if err != nil {
			return err
		}
		pk = append([]byte(nil), pk...)
		if seen[0] != nil {
			if seen[0][string(pk)] {
				return (&table.DupKeyError{Table: nt.Name, Index: nt.Primary(), Entry: dupEntryText(nt, nt.Primary(), nrow)}).SQLError()
			}
			seen[0][string(pk)] = true
		}
		vb, err = dst.EncodeValue(vb[:0], nrow)
		if err != nil {
			return err
		}
		if err := b.Set(pk, vb); err != nil {
			return err
		}
		for i, ix := range nt.Indexes[1:] {
			if kb, err = putSecondaryEntry(b, dst, ix, nrow, pk, seen[i+1], kb); err != nil {
				return err
			}
		}

	}
}

var _ = encoding.PrefixEnd

// defaultCollationForCharset maps a charset name to its default collation
// (utf8mb4 defaults to utf8mb4_general_ci, as in MariaDB and MySQL 5.7).
func defaultCollationForCharset(cs string) collations.ID {
	cs = strings.ToLower(strings.TrimSpace(cs))
	switch cs {
	case "utf8mb4":
		return collations.ID(45)
	case "utf8", "utf8mb3":
		return collations.ID(33)
	}
	return collations.MySQL8().DefaultCollationForCharset(cs)
}

// dropTableDefs drops tables in one atomic DDL change, under exclusive
// metadata locks (taken before the change so a wait blocks no other DDL);
// extra adds more to the same change (DROP DATABASE's entry).
func (s *Session) dropTableDefs(ctx context.Context, tables []*catalog.Table, extra func(*catalog.DDL) error) error {
	for _, t := range tables {
		if err := s.eng.Cat.LockExclusive(ctx, t.DB, t.Name, s.mdlTimeout); err != nil {
			return sqlerr.LockWaitTimeout()
		}
		defer s.eng.Cat.UnlockExclusive(t.DB, t.Name)
	}
	d := s.eng.Cat.BeginDDL()
	for _, t := range tables {
		if err := d.DropTable(t); err != nil {
			d.Abort()
			return err
		}
	}
	if extra != nil {
		if err := extra(d); err != nil {
			d.Abort()
			return err
		}
	}
	if err := d.Commit(); err != nil {
		return err
	}
	for _, t := range tables {
		s.eng.Store.Forget(t, true)
	}
	return nil
}

// formatForeignKey renders a FOREIGN KEY constraint as MySQL's SHOW CREATE
// TABLE does, naming an unnamed one <table>_ibfk_<n>. Foreign keys are kept
// (SHOW CREATE TABLE, information_schema) but not enforced.
func formatForeignKey(t *catalog.Table, name string, fk *sqlparser.ForeignKeyDefinition) string {
	if name == "" {
		n := 1
		for _, f := range t.ForeignKeys {
			if strings.HasPrefix(f, "CONSTRAINT "+coltype.QuoteIdent(t.Name + "_ibfk_")[:len(t.Name)+7]) {
				n++
			}
		}
		name = fmt.Sprintf("%s_ibfk_%d", t.Name, n)
	}
	cols := func(cs sqlparser.Columns) string {
		parts := make([]string, len(cs))
		for i, c := range cs {
			parts[i] = coltype.QuoteIdent(c.String())
		}
		return strings.Join(parts, ", ")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CONSTRAINT %s FOREIGN KEY (%s)", coltype.QuoteIdent(name), cols(fk.Source))
	if ref := fk.ReferenceDefinition; ref != nil {
		tbl := coltype.QuoteIdent(ref.ReferencedTable.Name.String())
		if q := ref.ReferencedTable.Qualifier.String(); q != "" && q != t.DB {
			tbl = coltype.QuoteIdent(q) + "." + tbl
		}
		fmt.Fprintf(&b, " REFERENCES %s (%s)", tbl, cols(ref.ReferencedColumns))
		action := func(a sqlparser.ReferenceAction) string {
			switch a {
			case sqlparser.Restrict:
				return "RESTRICT"
			case sqlparser.Cascade:
				return "CASCADE"
			case sqlparser.NoAction:
				return "NO ACTION"
			case sqlparser.SetNull:
				return "SET NULL"
			case sqlparser.SetDefault:
				return "SET DEFAULT"
			}
			return ""
		}
		if a := action(ref.OnDelete); a != "" {
			b.WriteString(" ON DELETE " + a)
		}
		if a := action(ref.OnUpdate); a != "" {
			b.WriteString(" ON UPDATE " + a)
		}
	}
	return b.String()
}

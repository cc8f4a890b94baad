package sql

import (
	"sort"
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// System schemas (information_schema, performance_schema, mysql, sys) are
// virtual: each table is a definition (columns in MySQL 8.0's order, names
// and types) plus a function that computes the rows from the catalog and the
// session when the statement runs. Table and schema names match
// case-insensitively.

// sysTable is one virtual table of a system schema.
type sysTable struct {
	def *catalog.Table
	// rows computes the rows; each row has one value per column, built with
	// sysRows.add.
	rows func(s *Session, ex *execCtx, out *sysRows) error
}

// sysSchema is a system schema's tables in listing order, and by lower-case
// name.
type sysSchema struct {
	name   string
	tables []*sysTable
	byName map[string]*sysTable
}

// Collation of the name and text columns of system tables
// (utf8mb3_general_ci).
const sysColl collations.ID = 33

// sysNameColl is the collation of columns holding schema and table names
// (utf8mb3_bin): strata's names are case-sensitive (lower_case_table_names
// = 0), so, as in MySQL 8.0 on Linux, TABLE_NAME = 'T' does not match 't'.
const sysNameColl collations.ID = 83

// isObjectNameColumn reports whether an information_schema column holds a
// schema or table name.
func isObjectNameColumn(name string) bool {
	switch name {
	case "SCHEMA_NAME", "TABLE_NAME", "REFERENCED_TABLE_NAME", "EVENT_OBJECT_TABLE":
		return true
	}
	return strings.HasSuffix(name, "_SCHEMA")
}

// sysSchemas maps a lower-case schema name to its tables.
var sysSchemas = map[string]*sysSchema{}

// defineSys registers a system table. spec lists the columns as
// "NAME type" pairs (see sysColumn).
func defineSys(schema, name string, cols []string, rows func(s *Session, ex *execCtx, out *sysRows) error) {
	sc := sysSchemas[schema]
	if sc == nil {
		sc = &sysSchema{name: schema, byName: map[string]*sysTable{}}
		sysSchemas[schema] = sc
	}
	t := &catalog.Table{
		DB:         schema,
		Name:       name,
		Indexes:    []*catalog.Index{{Name: "PRIMARY", Primary: true}},
		HiddenPK:   true,
		AutoIncCol: -1,
		Collation:  sysColl,
	}
	for _, spec := range cols {
		c := sysColumn(spec)
		if schema == "information_schema" && c.Type == sqltypes.VarChar && isObjectNameColumn(c.Name) {
			c.Collation = sysNameColl
		}
		t.Columns = append(t.Columns, c)
	}
	st := &sysTable{def: t, rows: rows}
	sc.tables = append(sc.tables, st)
	sc.byName[strings.ToLower(name)] = st
}

// sysColumn builds a column from "NAME type[?]". Types: sN varchar(N),
// t text, lt longtext, i int, iu int unsigned, b bigint, bu bigint unsigned,
// dt datetime, bin0 binary(0). A trailing ? makes the column nullable.
func sysColumn(spec string) catalog.Column {
	name, typ, _ := strings.Cut(spec, " ")
	c := catalog.Column{Name: name, Collation: collations.CollationBinaryID}
	if strings.HasSuffix(typ, "?") {
		c.Nullable = true
		typ = typ[:len(typ)-1]
	}
	switch {
	case typ == "t":
		c.Type, c.TypeName, c.Length, c.Collation = sqltypes.Text, "text", 65535, sysColl
	case typ == "lt":
		c.Type, c.TypeName, c.Length, c.Collation = sqltypes.Text, "longtext", 4294967295, sysColl
	case typ == "i":
		c.Type, c.TypeName = sqltypes.Int32, "int"
	case typ == "iu":
		c.Type, c.TypeName, c.Unsigned = sqltypes.Uint32, "int", true
	case typ == "b":
		c.Type, c.TypeName = sqltypes.Int64, "bigint"
	case typ == "bu":
		c.Type, c.TypeName, c.Unsigned = sqltypes.Uint64, "bigint", true
	case typ == "dt":
		c.Type, c.TypeName = sqltypes.Datetime, "datetime"
	case typ == "bin0":
		c.Type, c.TypeName = sqltypes.Binary, "binary"
	case strings.HasPrefix(typ, "s"):
		n, err := strconv.Atoi(typ[1:])
		if err != nil {
			panic("sql: bad system column spec " + spec)
		}
		c.Type, c.TypeName, c.Length, c.Collation = sqltypes.VarChar, "varchar", n, sysColl
	default:
		panic("sql: bad system column spec " + spec)
	}
	return c
}

// sysRows collects the rows of a system table.
type sysRows struct {
	def  *catalog.Table
	rows []Row
}

// add appends a row. Values: nil is NULL; string, int, int64, uint64 and
// bool (as 0/1) are converted to the column's type.
func (r *sysRows) add(vals ...any) {
	if len(vals) != len(r.def.Columns) {
		panic("sql: system table " + r.def.Name + ": row has " + strconv.Itoa(len(vals)) + " values, want " + strconv.Itoa(len(r.def.Columns)))
	}
	row := make(Row, len(vals))
	for i, v := range vals {
		row[i] = sysValue(r.def.Columns[i].Type, v)
	}
	r.rows = append(r.rows, row)
}

func sysValue(t sqltypes.Type, v any) sqltypes.Value {
	switch x := v.(type) {
	case nil:
		return sqltypes.NULL
	case string:
		return sqltypes.MakeTrusted(t, []byte(x))
	case int:
		return sqltypes.MakeTrusted(t, strconv.AppendInt(nil, int64(x), 10))
	case int64:
		return sqltypes.MakeTrusted(t, strconv.AppendInt(nil, x, 10))
	case uint64:
		return sqltypes.MakeTrusted(t, strconv.AppendUint(nil, x, 10))
	case bool:
		if x {
			return sqltypes.MakeTrusted(t, []byte("1"))
		}
		return sqltypes.MakeTrusted(t, []byte("0"))
	}
	panic("sql: unsupported system table value type")
}

// systemTable returns the definition and row source of a table in a system
// schema (information_schema, mysql, performance_schema, sys).
func (s *Session) systemTable(db, name string) (*catalog.Table, func(ex *execCtx) ([]Row, error), error) {
	lower := strings.ToLower(db)
	sc := sysSchemas[lower]
	var st *sysTable
	if sc != nil {
		st = sc.byName[strings.ToLower(name)]
	}
	if st == nil {
		if lower == "information_schema" {
			return nil, nil, sqlerr.New(sqlerror.ERUnknownTable, sqlerror.SSUnknownTable, "Unknown table '%s' in information_schema", name)
		}
		return nil, nil, sqlerr.NoTable(db, name)
	}
	// The rows are computed once per statement execution: an inner table
	// of a join is reopened for every outer row.
	var (
		lastEx *execCtx
		cached []Row
	)
	// The rows are this session's view (its privileges, its processes):
	// the plan is not shared with other sessions.
	s.planPrivate = true
	return st.def, func(ex *execCtx) ([]Row, error) {
		if ex == lastEx {
			return cached, nil
		}
		out := &sysRows{def: st.def}
		if err := st.rows(s, ex, out); err != nil {
			return nil, err
		}
		lastEx, cached = ex, out.rows
		return out.rows, nil
	}, nil
}

// systemTables lists the tables of a system schema.
func (s *Session) systemTables(db string) []*catalog.Table {
	sc := sysSchemas[strings.ToLower(db)]
	if sc == nil {
		return nil
	}
	out := make([]*catalog.Table, len(sc.tables))
	for i, st := range sc.tables {
		out[i] = st.def
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// noRows is the row source of tables that are always empty in strata
// (VIEWS, ROUTINES, TRIGGERS, ...).
func noRows(*Session, *execCtx, *sysRows) error { return nil }

// schemaNames lists the schemas the session sees in information_schema
// and SHOW DATABASES.
func (s *Session) schemaNames() []string {
	out := []string{"information_schema"}
	for _, db := range s.eng.Cat.Databases() {
		if s.canSeeDB(db) {
			out = append(out, db)
		}
	}
	return out
}

// tablesForSchema returns the tables of a schema listed in
// information_schema (the system views for information_schema itself) that
// the session may see.
func (s *Session) tablesForSchema(db string) []*catalog.Table {
	if strings.EqualFold(db, "information_schema") {
		return s.systemTables(db)
	}
	var out []*catalog.Table
	for _, t := range s.eng.Cat.Tables(db) {
		if s.canSeeTable(db, t.Name) {
			out = append(out, t)
		}
	}
	return out
}

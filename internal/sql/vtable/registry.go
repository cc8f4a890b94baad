package vtable

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

// The registry of system tables: every table is a definition (columns in
// MySQL 8.0's order, names and types) plus a Generator that computes the
// rows from a Source when the statement runs. Table and schema names match
// case-insensitively.

// Generator computes the rows of a system table into out, one value per
// column each (see Rows.Add).
type Generator func(src Source, out *Rows) error

// Table is one virtual table of a system schema.
type Table struct {
	// Def is the table's definition: DB and Name as MySQL spells them, the
	// columns with their MySQL types, a hidden primary key and no
	// auto-increment column. It is shared and must not be modified.
	Def  *catalog.Table
	rows Generator
}

// Rows computes the table's rows as src sees them.
func (t *Table) Rows(src Source) ([][]sqltypes.Value, error) {
	out := NewRows(t.Def)
	if err := t.rows(src, out); err != nil {
		return nil, err
	}
	return out.rows, nil
}

// schema is a system schema's tables in definition order, and by
// lower-case name.
type schema struct {
	name   string
	tables []*Table
	byName map[string]*Table
}

// Collation of the name and text columns of system tables
// (utf8mb3_general_ci).
const textColl collations.ID = 33

// nameColl is the collation of information_schema columns holding schema
// and table names (utf8mb3_bin): strata's names are case-sensitive
// (lower_case_table_names = 0), so, as in MySQL 8.0 on Linux,
// TABLE_NAME = 'T' does not match 't'.
const nameColl collations.ID = 83

// isObjectNameColumn reports whether an information_schema column holds a
// schema or table name.
func isObjectNameColumn(name string) bool {
	switch name {
	case "SCHEMA_NAME", "TABLE_NAME", "REFERENCED_TABLE_NAME", "EVENT_OBJECT_TABLE":
		return true
	}
	return strings.HasSuffix(name, "_SCHEMA")
}

// schemas maps a lower-case schema name to its tables. It is filled by the
// package's init functions and read-only afterwards.
var schemas = map[string]*schema{}

// define registers a system table. cols lists the columns as "NAME type"
// pairs (see column).
func define(schemaName, name string, cols []string, rows Generator) {
	sc := schemas[schemaName]
	if sc == nil {
		sc = &schema{name: schemaName, byName: map[string]*Table{}}
		schemas[schemaName] = sc
	}
	t := &catalog.Table{
		DB:         schemaName,
		Name:       name,
		Indexes:    []*catalog.Index{{Name: "PRIMARY", Primary: true}},
		HiddenPK:   true,
		AutoIncCol: -1,
		Collation:  textColl,
	}
	for _, spec := range cols {
		c := column(spec)
		if schemaName == InformationSchema && c.Type == sqltypes.VarChar && isObjectNameColumn(c.Name) {
			c.Collation = nameColl
		}
		t.Columns = append(t.Columns, c)
	}
	st := &Table{Def: t, rows: rows}
	sc.tables = append(sc.tables, st)
	sc.byName[strings.ToLower(name)] = st
}

// column builds a column from "NAME type[?]". Types: sN varchar(N),
// t text, lt longtext, i int, iu int unsigned, b bigint, bu bigint unsigned,
// f double, dt datetime, dt2 datetime(2), bin0 binary(0). A trailing ? makes the column nullable.
func column(spec string) catalog.Column {
	name, typ, _ := strings.Cut(spec, " ")
	c := catalog.Column{Name: name, Collation: collations.CollationBinaryID}
	if strings.HasSuffix(typ, "?") {
		c.Nullable = true
		typ = typ[:len(typ)-1]
	}
	switch {
	case typ == "t":
		c.Type, c.TypeName, c.Length, c.Collation = sqltypes.Text, "text", 65535, textColl
	case typ == "lt":
		c.Type, c.TypeName, c.Length, c.Collation = sqltypes.Text, "longtext", 4294967295, textColl
	case typ == "i":
		c.Type, c.TypeName = sqltypes.Int32, "int"
	case typ == "iu":
		c.Type, c.TypeName, c.Unsigned = sqltypes.Uint32, "int", true
	case typ == "b":
		c.Type, c.TypeName = sqltypes.Int64, "bigint"
	case typ == "bu":
		c.Type, c.TypeName, c.Unsigned = sqltypes.Uint64, "bigint", true
	case typ == "f":
		c.Type, c.TypeName = sqltypes.Float64, "double"
	case typ == "dt":
		c.Type, c.TypeName = sqltypes.Datetime, "datetime"
	case typ == "dt2":
		c.Type, c.TypeName, c.Scale = sqltypes.Datetime, "datetime", 2
	case typ == "bin0":
		c.Type, c.TypeName = sqltypes.Binary, "binary"
	case strings.HasPrefix(typ, "s"):
		n, err := strconv.Atoi(typ[1:])
		if err != nil {
			panic("vtable: bad system column spec " + spec)
		}
		c.Type, c.TypeName, c.Length, c.Collation = sqltypes.VarChar, "varchar", n, textColl
	default:
		panic("vtable: bad system column spec " + spec)
	}
	return c
}

// InformationSchema is the name of the information_schema database.
const InformationSchema = "information_schema"

// Lookup returns a table of a system schema (information_schema, mysql,
// performance_schema, sys), or MySQL's error for a missing one: 1109 in
// information_schema, 1146 elsewhere.
func Lookup(db, name string) (*Table, error) {
	lower := strings.ToLower(db)
	var st *Table
	if sc := schemas[lower]; sc != nil {
		st = sc.byName[strings.ToLower(name)]
	}
	if st == nil {
		if lower == InformationSchema {
			return nil, sqlerr.New(sqlerror.ERUnknownTable, sqlerror.SSUnknownTable, "Unknown table '%s' in information_schema", name)
		}
		return nil, sqlerr.NoTable(db, name)
	}
	return st, nil
}

// Tables lists the table definitions of a system schema, sorted by name.
func Tables(db string) []*catalog.Table {
	sc := schemas[strings.ToLower(db)]
	if sc == nil {
		return nil
	}
	out := make([]*catalog.Table, len(sc.tables))
	for i, st := range sc.tables {
		out[i] = st.Def
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// noRows is the generator of tables that are always empty in strata
// (VIEWS, ROUTINES, TRIGGERS, ...).
func noRows(Source, *Rows) error { return nil }

// SchemaNames lists the schemas src sees in information_schema and SHOW
// DATABASES: information_schema first, then the catalog's databases src may
// see.
func SchemaNames(src Source) []string {
	out := []string{InformationSchema}
	for _, db := range src.Catalog().Databases() {
		if src.CanSeeDB(db) {
			out = append(out, db)
		}
	}
	return out
}

// tablesForSchema returns the tables of a schema listed in
// information_schema (the system views for information_schema itself) that
// src may see.
func tablesForSchema(src Source, db string) []*catalog.Table {
	if strings.EqualFold(db, InformationSchema) {
		return Tables(db)
	}
	var out []*catalog.Table
	for _, t := range src.Catalog().Tables(db) {
		if src.CanSeeTable(db, t.Name) {
			out = append(out, t)
		}
	}
	return out
}

// userTables calls fn for every table of every user database src may see.
func userTables(src Source, fn func(db string, t *catalog.Table)) {
	cat := src.Catalog()
	for _, db := range cat.Databases() {
		for _, t := range cat.Tables(db) {
			if src.CanSeeTable(db, t.Name) {
				fn(db, t)
			}
		}
	}
}

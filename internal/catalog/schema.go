// Package catalog holds strata's schema objects (databases, tables, columns,
// indexes, CHECK constraints) and the data dictionary that persists them.
//
// The catalog is read by the sql and table layers and persists itself through
// txn; it never imports table. Definitions are immutable once published: a DDL
// statement builds a new *Table and swaps it in atomically.
package catalog

import (
	"strings"
	"sync/atomic"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
)

// Column is one column of a table.
type Column struct {
	// Name as written in CREATE TABLE (case preserved; lookups are
	// case-insensitive).
	Name string `json:"name"`
	// Type is the wire/evaluation type: sqltypes.Int32, sqltypes.VarChar,
	// sqltypes.Decimal, sqltypes.Datetime, ...
	Type sqltypes.Type `json:"type"`
	// TypeName is the SQL type keyword in lower case as MySQL prints it
	// ("int", "bigint", "varchar", "char", "text", "mediumtext", "blob",
	// "datetime", "decimal", "enum", ...).
	TypeName string `json:"type_name"`
	// Length is the declared length: characters for CHAR/VARCHAR, bytes for
	// BINARY/VARBINARY, the maximum length for TEXT/BLOB kinds, precision M
	// for DECIMAL, display width for integers (0 when not given).
	Length int `json:"length,omitempty"`
	// Scale is D for DECIMAL(M,D) and FLOAT(M,D)/DOUBLE(M,D) (-1 = not
	// given), and the fractional-second precision for TIME/DATETIME/TIMESTAMP.
	Scale    int  `json:"scale,omitempty"`
	Unsigned bool `json:"unsigned,omitempty"`
	Zerofill bool `json:"zerofill,omitempty"`
	Nullable bool `json:"nullable"`
	// Default is the column default as a value of the column's type (already
	// coerced). HasDefault is false for columns without DEFAULT; a NULL
	// default is HasDefault with Default.IsNull().
	HasDefault bool           `json:"has_default,omitempty"`
	Default    sqltypes.Value `json:"-"`
	// DefaultText is Default's text form, used for persistence and SHOW.
	DefaultText string `json:"default_text,omitempty"`
	DefaultNull bool   `json:"default_null,omitempty"`
	// DefaultExpr is a non-literal default such as CURRENT_TIMESTAMP(6),
	// evaluated at insert time.
	DefaultExpr   string `json:"default_expr,omitempty"`
	OnUpdateExpr  string `json:"on_update_expr,omitempty"`
	AutoIncrement bool   `json:"auto_increment,omitempty"`
	// Collation of a text column; collations.CollationBinaryID (63) for
	// binary strings and non-string types.
	Collation collations.ID `json:"collation"`
	// EnumValues are the members of an ENUM or SET, in declaration order.
	EnumValues []string `json:"enum_values,omitempty"`
	Comment    string   `json:"comment,omitempty"`
	// Generated is a generated column's expression as MySQL prints it
	// (GENERATION_EXPRESSION; SHOW CREATE TABLE wraps it in parentheses),
	// "" for an ordinary column. GeneratedStored is STORED (else VIRTUAL).
	// strata computes both kinds on write and stores them: a VIRTUAL
	// column reads as MySQL's does and can be indexed.
	Generated       string `json:"generated,omitempty"`
	GeneratedStored bool   `json:"generated_stored,omitempty"`
}

// IsText reports whether the column holds character data with a collation.
func (c *Column) IsText() bool {
	switch c.Type {
	case sqltypes.VarChar, sqltypes.Char, sqltypes.Text:
		return true
	}
	return false
}

// IndexColumn is one key part of an index.
type IndexColumn struct {
	// Col is the ordinal of the column in Table.Columns.
	Col int `json:"col"`
	// Prefix is the key-part prefix length in characters (0 = whole value).
	Prefix int  `json:"prefix,omitempty"`
	Desc   bool `json:"desc,omitempty"`
}

// Index is a primary or secondary index. Every index has an id that is never
// reused; all keys of the index start with that id.
type Index struct {
	ID      uint32        `json:"id"`
	Name    string        `json:"name"`
	Primary bool          `json:"primary,omitempty"`
	Unique  bool          `json:"unique,omitempty"`
	Columns []IndexColumn `json:"columns"`
	Comment string        `json:"comment,omitempty"`
	// Implicit marks the index MySQL creates for a foreign key's columns
	// when no index starts with them; another index that can serve the
	// key replaces it (it is dropped), as in MySQL.
	Implicit bool `json:"implicit,omitempty"`
	// DeltaID, for an index being built online (Table.Building), is the
	// id under which writes record their changes to its entries.
	DeltaID uint32 `json:"delta_id,omitempty"`
}

// Table is a table definition.
type Table struct {
	DB   string `json:"db"`
	Name string `json:"name"`
	// Columns in table order.
	Columns []Column `json:"columns"`
	// Indexes[0] is always the primary index. When the table has no primary
	// key, Indexes[0] is a hidden primary index (HiddenPK) over a hidden
	// 8-byte row id that is not one of Columns.
	Indexes  []*Index `json:"indexes"`
	HiddenPK bool     `json:"hidden_pk,omitempty"`
	// AutoIncCol is the ordinal of the AUTO_INCREMENT column, or -1.
	AutoIncCol int `json:"auto_inc_col"`
	// AutoIncStart is the AUTO_INCREMENT=N table option (the first value
	// handed out when the table holds no larger value).
	AutoIncStart uint64        `json:"auto_inc_start,omitempty"`
	Charset      string        `json:"charset,omitempty"`
	Collation    collations.ID `json:"collation,omitempty"`
	Comment      string        `json:"comment,omitempty"`
	// ForeignKeys are kept as written (parsed, not enforced).
	ForeignKeys []string `json:"foreign_keys,omitempty"`
	// Checks are the CHECK constraints in MySQL's order (by name; see
	// SortChecks).
	Checks []CheckConstraint `json:"checks,omitempty"`
	// CreateTime is the Unix time the table was created.
	CreateTime int64 `json:"create_time,omitempty"`
	// Triggers in action order (trigger.go).
	Triggers []Trigger `json:"triggers,omitempty"`
	// Building are secondary indexes being built online (building.go):
	// writes maintain them through their delta ids; nothing reads them.
	Building []*Index `json:"building,omitempty"`
	// Temporary marks a session's temporary table (never persisted; its
	// rows are not binlogged).
	Temporary bool `json:"-"`

	// replaced is set (atomically) once a committed change replaced or
	// dropped this definition (Replaced).
	replaced int32
}

// Replaced reports whether a committed schema change has replaced or
// dropped the definition: a statement that planned with it before it took
// the table's metadata lock must plan again.
func (t *Table) Replaced() bool { return atomic.LoadInt32(&t.replaced) != 0 }

func (t *Table) markReplaced() { atomic.StoreInt32(&t.replaced, 1) }

// HasGenerated reports whether t has generated columns.
func (t *Table) HasGenerated() bool {
	for i := range t.Columns {
		if t.Columns[i].Generated != "" {
			return true
		}
	}
	return false
}

// Primary returns the primary index.
func (t *Table) Primary() *Index { return t.Indexes[0] }

// ColumnIndex returns the ordinal of the named column (case-insensitive), or -1.
func (t *Table) ColumnIndex(name string) int {
	for i := range t.Columns {
		if strings.EqualFold(t.Columns[i].Name, name) {
			return i
		}
	}
	return -1
}

// IndexByName returns the named index (case-insensitive), or nil.
func (t *Table) IndexByName(name string) *Index {
	for _, ix := range t.Indexes {
		if strings.EqualFold(ix.Name, name) {
			return ix
		}
	}
	return nil
}

// Database is a schema (database).
type Database struct {
	Name      string        `json:"name"`
	Charset   string        `json:"charset,omitempty"`
	Collation collations.ID `json:"collation,omitempty"`
}

// restore rebuilds derived fields after loading a definition from JSON.
func (t *Table) restore() error {
	for i := range t.Columns {
		c := &t.Columns[i]
		switch {
		case !c.HasDefault || c.DefaultExpr != "":
			c.Default = sqltypes.NULL
		case c.DefaultNull:
			c.Default = sqltypes.NULL
		default:
			c.Default = sqltypes.MakeTrusted(c.Type, []byte(c.DefaultText))
		}
	}
	return nil
}

// MakeNotNull makes the column NOT NULL, as a primary key makes its
// columns, dropping a NULL default (MySQL and MariaDB: `a int DEFAULT NULL,
// PRIMARY KEY (a)` and CREATE TABLE … SELECT's columns under a PRIMARY KEY
// become `a int NOT NULL`, without a default).
func (c *Column) MakeNotNull() {
	c.Nullable = false
	if c.HasDefault && c.DefaultNull && c.DefaultExpr == "" {
		c.HasDefault, c.DefaultNull, c.DefaultText = false, false, ""
		c.Default = sqltypes.NULL
	}
}

// SetDefault sets a literal default (v already converted to the column type).
func (c *Column) SetDefault(v sqltypes.Value) {
	c.HasDefault = true
	c.DefaultExpr = ""
	c.Default = v
	c.DefaultNull = v.IsNull()
	c.DefaultText = ""
	if !v.IsNull() {
		c.DefaultText = v.ToString()
	}
}

// Clone returns a deep copy of the definition, for DDL to modify.
func (t *Table) Clone() *Table {
	n := *t
	n.Columns = make([]Column, len(t.Columns))
	copy(n.Columns, t.Columns)
	for i := range n.Columns {
		n.Columns[i].EnumValues = append([]string(nil), t.Columns[i].EnumValues...)
	}
	n.Indexes = make([]*Index, len(t.Indexes))
	for i, ix := range t.Indexes {
		c := *ix
		c.Columns = append([]IndexColumn(nil), ix.Columns...)
		n.Indexes[i] = &c
	}
	n.ForeignKeys = append([]string(nil), t.ForeignKeys...)
	n.Triggers = append([]Trigger(nil), t.Triggers...)
	// An index build belongs to the definition it runs on: a copy (the
	// start of another definition) does not inherit it.
	n.Building = nil
	n.replaced = 0
	if t.Checks != nil {
		n.Checks = make([]CheckConstraint, len(t.Checks))
		for i, c := range t.Checks {
			c.Columns = append([]string(nil), c.Columns...)
			n.Checks[i] = c
		}
	}
	return &n
}

// ColumnCount returns the number of columns.
func (t *Table) ColumnCount() int { return len(t.Columns) }

package schemachange

import (
	"fmt"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// IndexFromAST converts an index definition of CREATE or ALTER TABLE
// against t's columns (the index id is assigned when the change commits).
func IndexFromAST(t *catalog.Table, idx *sqlparser.IndexDefinition) (*catalog.Index, error) {
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

// UniqueIndexName returns base, or base_2, base_3, ... : the first name
// no index of t or of pending (indexes about to be added) has, as MySQL
// names an unnamed index after its first column.
func UniqueIndexName(t *catalog.Table, pending []*catalog.Index, base string) string {
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

// ColumnIsKeyStart reports whether column col leads an index of t (an
// AUTO_INCREMENT column must).
func ColumnIsKeyStart(t *catalog.Table, col int) bool {
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

// hasIndexPrefix reports whether an index among primary and secondaries
// starts with cols (a foreign key needs one).
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

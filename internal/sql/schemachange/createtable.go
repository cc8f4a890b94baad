package schemachange

import (
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// BuildTable turns the table spec of CREATE TABLE into a definition of
// db.name: columns (types through coltype under mode), the primary key
// (a hidden one when none is declared), secondary indexes named as MySQL
// names them, foreign keys (kept, not enforced, each with an index on its
// columns), table options; collation is the database's default. Index ids
// are assigned when the change commits, CHECK constraints are the
// session's (they compile expressions). Errors carry MySQL's codes.
func BuildTable(db, name string, spec *sqlparser.TableSpec, collation collations.ID, mode coltype.Mode) (*catalog.Table, error) {
	t := &catalog.Table{DB: db, Name: name, AutoIncCol: -1, Collation: collation}
	t.Charset = coltype.CharsetName(t.Collation)
	// Table options first: they set the default collation of columns.
	for _, o := range spec.Options {
		switch strings.ToLower(o.Name) {
		case "charset", "character set", "default charset", "default character set":
			id := DefaultCollation(strings.ToLower(o.String))
			if o.String == "" {
				id = DefaultCollation(strings.ToLower(o.Value.Val))
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
		col, err := coltype.FromASTMode(cd, t.Collation, mode)
		if err != nil {
			return nil, err
		}
		if t.ColumnIndex(col.Name) >= 0 {
			return nil, sqlerr.New(sqlerror.ERDupFieldName, sqlerror.SSDupFieldName, "Duplicate column name '%s'", col.Name)
		}
		if err := CheckIdent(col.Name, "column"); err != nil {
			return nil, err
		}
		switch cd.Type.Options.KeyOpt {
		case sqlparser.ColKeyPrimary:
			pkCols = append(pkCols, cd.Name)
			col.MakeNotNull()
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
		ix, err := IndexFromAST(t, idx)
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
			t.ForeignKeys = append(t.ForeignKeys, FormatForeignKey(t, c.Name.String(), fk))
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
				secondaries = append(secondaries, &catalog.Index{Name: name, Columns: cols, Implicit: true})
			}
		}
	}
	if primary != nil {
		for _, ic := range primary.Columns {
			if declaredNull(spec.Columns, t.Columns[ic.Col].Name) {
				return nil, sqlerr.New(sqlerror.ERPrimaryCantHaveNull, sqlerror.SSClientError, "All parts of a PRIMARY KEY must be NOT NULL; if you need NULL in a key, use UNIQUE instead")
			}
			t.Columns[ic.Col].MakeNotNull()
		}
		t.Indexes = append(t.Indexes, primary)
	} else {
		t.HiddenPK = true
		t.Indexes = append(t.Indexes, &catalog.Index{Name: "PRIMARY", Primary: true, Unique: true})
	}
	for _, ix := range secondaries {
		if ix.Name == "" {
			ix.Name = UniqueIndexName(t, secondaries, t.Columns[ix.Columns[0].Col].Name)
		}
		if t.IndexByName(ix.Name) != nil {
			return nil, sqlerr.New(sqlerror.ERDupKeyName, sqlerror.SSClientError, "Duplicate key name '%s'", ix.Name)
		}
		t.Indexes = append(t.Indexes, ix)
	}
	if t.AutoIncCol >= 0 && !ColumnIsKeyStart(t, t.AutoIncCol) {
		return nil, sqlerr.New(sqlerror.ERWrongAutoKey, sqlerror.SSClientError, "Incorrect table definition; there can be only one auto column and it must be defined as a key")
	}
	return t, nil
}

// declaredNull reports whether the column named name is declared with an
// explicit NULL attribute (`a INT NULL`), which MySQL 8.0 refuses in a
// primary key (1171) where it makes an unmarked column NOT NULL.
func declaredNull(cols []*sqlparser.ColumnDefinition, name string) bool {
	for _, cd := range cols {
		if cd.Name.EqualString(name) {
			return cd.Type.Options != nil && cd.Type.Options.Null != nil && *cd.Type.Options.Null
		}
	}
	return false
}

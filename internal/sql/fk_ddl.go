package sql

import (
	"context"

	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/sql/vtable"
	"github.com/strata-db/strata/internal/txn"
)

// The DDL rules of enforced foreign keys (with foreign_key_checks = 1, as
// MySQL 8.0): a table another table's foreign key references cannot be
// dropped (3730) or truncated (1701); a new foreign key needs its parent
// table (1824) and an index on the referenced columns (1822), and the
// referencing columns' values must already have their parents (1452).

// fkCheckDrop refuses to drop tables another remaining table's foreign key
// references.
func (s *Session) fkCheckDrop(defs []*catalog.Table) error {
	if !s.fkChecks() {
		return nil
	}
	r := s.eng.foreignKeys()
	dropped := map[*catalog.Table]bool{}
	for _, t := range defs {
		dropped[t] = true
	}
	for _, t := range defs {
		for _, ref := range r.in[t] {
			if !dropped[ref.child] {
				return sqlerr.New(sqlerr.FKCannotDropParent, sqlerror.SSUnknownSQLState, "Cannot drop table '%s' referenced by a foreign key constraint '%s' on table '%s'.", t.Name, ref.name, ref.child.Name)
			}
		}
	}
	return nil
}

// fkCheckTruncate refuses to truncate a table another table's foreign key
// references.
func (s *Session) fkCheckTruncate(t *catalog.Table) error {
	if !s.fkChecks() {
		return nil
	}
	for _, ref := range s.eng.foreignKeys().in[t] {
		if ref.child != t {
			return sqlerr.New(sqlerr.TruncateIllegalFK, sqlerror.SSUnknownSQLState, "Cannot truncate a table referenced in a foreign key constraint (%s, CONSTRAINT `%s`)", qualified(ref.child), ref.name)
		}
	}
	return nil
}

// fkCheckNew checks the foreign keys of definition t that old (nil for
// CREATE TABLE) does not have: parent table, index on the referenced
// columns, compatible column types.
func (s *Session) fkCheckNew(t, old *catalog.Table) error {
	if !s.fkChecks() || len(t.ForeignKeys) == 0 {
		return nil
	}
	had := map[string]bool{}
	if old != nil {
		for _, text := range old.ForeignKeys {
			had[text] = true
		}
	}
	for _, text := range t.ForeignKeys {
		if had[text] {
			continue
		}
		parsed := vtable.ForeignKeys(s.eng.Parser, &catalog.Table{DB: t.DB, Name: t.Name, ForeignKeys: []string{text}})
		if len(parsed) != 1 {
			continue
		}
		fk := parsed[0]
		parent := s.eng.Cat.Table(fk.RefDB, fk.RefTable)
		if fk.RefDB == t.DB && fk.RefTable == t.Name {
			parent = t
		}
		if parent == nil {
			return sqlerr.New(sqlerr.FKCannotOpenParent, sqlerror.SSUnknownSQLState, "Failed to open the referenced table '%s'", fk.RefTable)
		}
		var pcols []int
		for i, name := range fk.RefCols {
			p := parent.ColumnIndex(name)
			if p < 0 {
				return sqlerr.New(sqlerr.FKNoIndexParent, sqlerror.SSUnknownSQLState, "Failed to add the foreign key constraint. Missing index for constraint '%s' in the referenced table '%s'", fk.Name, fk.RefTable)
			}
			pcols = append(pcols, p)
			if c := t.ColumnIndex(fk.Cols[i]); c >= 0 && !fkCompatible(&t.Columns[c], &parent.Columns[p]) {
				return sqlerr.New(sqlerr.FKIncompatibleColumn, sqlerror.SSUnknownSQLState, "Referencing column '%s' and referenced column '%s' in foreign key constraint '%s' are incompatible.", fk.Cols[i], name, fk.Name)
			}
		}
		if leadingIndex(parent, pcols) == nil {
			return sqlerr.New(sqlerr.FKNoIndexParent, sqlerror.SSUnknownSQLState, "Failed to add the foreign key constraint. Missing index for constraint '%s' in the referenced table '%s'", fk.Name, fk.RefTable)
		}
	}
	return nil
}

// fkCompatible reports whether a referencing column may reference a
// column, as InnoDB requires: integers with integers of any width and the
// same signedness, decimals of the same precision and scale, strings of
// the same character set, and otherwise the same type.
func fkCompatible(c, p *catalog.Column) bool {
	switch {
	case isIntegerType(c) && isIntegerType(p):
		return c.Unsigned == p.Unsigned
	case c.IsText() && p.IsText():
		return coltype.CharsetName(c.Collation) == coltype.CharsetName(p.Collation)
	}
	if c.Type != p.Type {
		return false
	}
	if c.TypeName == "decimal" {
		return c.Length == p.Length && c.Scale == p.Scale
	}
	return true
}

func isIntegerType(c *catalog.Column) bool {
	switch c.TypeName {
	case "tinyint", "smallint", "mediumint", "int", "bigint":
		return true
	}
	return false
}

// fkValidateNew checks that the rows of old (the table an ALTER TABLE is
// changing, under its exclusive metadata lock) satisfy the foreign keys of
// nt that old does not have (1452 otherwise).
func (s *Session) fkValidateNew(ctx context.Context, old, nt *catalog.Table) error {
	if !s.fkChecks() || len(nt.ForeignKeys) == 0 {
		return nil
	}
	had := map[string]bool{}
	for _, text := range old.ForeignKeys {
		had[text] = true
	}
	for _, text := range nt.ForeignKeys {
		if had[text] {
			continue
		}
		// Resolved against the old definition: the rows are read in its
		// layout (a key column the ALTER adds holds no value yet).
		ref := s.eng.resolveFK(old, text)
		if ref == nil {
			continue
		}
		if err := s.fkValidateRows(ctx, ref); err != nil {
			return err
		}
	}
	return nil
}

func (s *Session) fkValidateRows(ctx context.Context, ref *fkRef) error {
	tx := s.eng.DB.Begin(ctx, txn.ReadCommitted, s.lockTimeout)
	defer tx.Rollback()
	ex := s.newExecCtx(ctx, tx, nil)
	tbl := s.eng.Store.Open(ref.child)
	sc, err := tbl.NewScan(tx, ref.child.Primary(), nil, nil, false, true)
	if err != nil {
		return err
	}
	var rows []Row
	for {
		if err := ctx.Err(); err != nil {
			sc.Close()
			return err
		}
		row, _, ok, err := sc.Next()
		if err != nil {
			sc.Close()
			return err
		}
		if !ok {
			break
		}
		rows = append(rows, copyRow(nil, s.fromStore(tbl, row)))
		if len(rows) == 1024 {
			if err := s.fkCheckRows(ex, ref, rows); err != nil {
				sc.Close()
				return err
			}
			rows = rows[:0]
		}
	}
	if err := sc.Close(); err != nil {
		return err
	}
	return s.fkCheckRows(ex, ref, rows)
}

func (s *Session) fkCheckRows(ex *execCtx, ref *fkRef, rows []Row) error {
	for _, row := range rows {
		if err := s.fkParentExists(ex, ref, row); err != nil {
			return err
		}
	}
	return nil
}

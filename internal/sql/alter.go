package sql

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/schemachange"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/txn"
)

// alterState is a table definition being altered. Index key parts refer to
// columns by name until the end, so columns can move.
type alterState struct {
	t        *catalog.Table // working copy
	mapping  []int          // new column ordinal -> old ordinal (-1 new)
	idxCols  map[*catalog.Index][]string
	rebuild  bool
	newIdx   []*catalog.Index
	dropIdx  []*catalog.Index
	renameTo *sqlparser.TableName
	// orig is the table as it was; checks the CHECK constraint changes.
	orig   *catalog.Table
	checks schemachange.AlterChecks
}

// alterTable runs ALTER TABLE; checkCols names the column of each
// column-level CHECK constraint it adds (see columnChecks), viaConstraint
// the constraints named in ALTER CONSTRAINT (not ALTER CHECK) clauses.
func (s *Session) alterTable(ctx context.Context, st *sqlparser.AlterTable, checkCols, viaConstraint []string) (*sqltypes.Result, error) {
	db, err := s.dbOrCurrent(st.Table.Qualifier)
	if err != nil {
		return nil, err
	}
	old := s.eng.Cat.Table(db, st.Table.Name.String())
	if old == nil {
		return nil, sqlerr.NoTable(db, st.Table.Name.String())
	}
	if st.PartitionSpec != nil || st.PartitionOption != nil {
		return nil, sqlerr.Unsupported("partitioning")
	}
	release, err := schemachange.LockTables(ctx, s.eng.Cat, s.mdlTimeout, schemachange.TableName{DB: old.DB, Name: old.Name})
	if err != nil {
		return nil, err
	}
	defer release()
	old = s.eng.Cat.Table(db, st.Table.Name.String())
	if old == nil {
		return nil, sqlerr.NoTable(db, st.Table.Name.String())
	}
	a := &alterState{t: old.Clone(), idxCols: map[*catalog.Index][]string{}, orig: old}
	a.checks.Cols = checkCols
	a.checks.ViaConstraint = viaConstraint
	for i := range a.t.Columns {
		a.mapping = append(a.mapping, i)
	}
	for _, ix := range a.t.Indexes {
		var names []string
		for _, ic := range ix.Columns {
			names = append(names, a.t.Columns[ic.Col].Name)
		}
		a.idxCols[ix] = names
	}
	for _, opt := range st.AlterOptions {
		if err := s.applyAlter(a, opt); err != nil {
			return nil, err
		}
	}
	if err := a.finish(); err != nil {
		return nil, err
	}
	nt := a.t
	newDB, newName := old.DB, old.Name
	if a.renameTo != nil {
		if q := a.renameTo.Qualifier.String(); q != "" {
			newDB = q
		}
		newName = a.renameTo.Name.String()
	}
	if err := s.finishAlterChecks(&a.checks, old, nt, newDB, newName); err != nil {
		return nil, err
	}
	// A rebuilt table and a table given a new or newly enforced constraint
	// have their rows checked against every enforced constraint.
	var checks *checkSet
	if a.rebuild || a.checks.Validate {
		var err error
		if checks, err = s.compileChecks(nt); err != nil {
			return nil, err
		}
	}
	plan := &schemachange.AlterPlan{Old: old, New: nt, Rebuild: a.rebuild, NewIndexes: a.newIdx, DropIndexes: a.dropIdx}
	if a.rebuild {
		// The conversion's expressions (defaults, constraints) read no
		// table: their transaction only carries the evaluation context.
		tx := s.eng.DB.Begin(ctx, txn.ReadCommitted, s.lockTimeout)
		defer tx.Rollback()
		plan.Convert = s.rebuildConverter(s.newExecCtx(ctx, tx, nil), nt, a.mapping, checks)
	} else if a.checks.Validate {
		plan.Validate = func(ctx context.Context) error { return s.validateRows(ctx, old, checks) }
	}
	if a.renameTo != nil {
		tdb := a.renameTo.Qualifier.String()
		if tdb == "" {
			tdb = old.DB
		}
		plan.RenameTo = &schemachange.TableName{DB: tdb, Name: a.renameTo.Name.String()}
	}
	if _, err := s.schemaEnv().Alter(ctx, plan); err != nil {
		return nil, err
	}
	return &sqltypes.Result{}, nil
}

func (a *alterState) colIndex(name string) int { return a.t.ColumnIndex(name) }

// placeColumn inserts col at the position FIRST/AFTER gives (or the end),
// with mapping value m.
func (a *alterState) placeColumn(col catalog.Column, m int, first bool, after *sqlparser.ColName) error {
	pos := len(a.t.Columns)
	if first {
		pos = 0
	} else if after != nil {
		i := a.colIndex(after.Name.String())
		if i < 0 {
			return sqlerr.BadField(after.Name.String(), a.t.Name)
		}
		pos = i + 1
	}
	a.t.Columns = append(a.t.Columns, catalog.Column{})
	copy(a.t.Columns[pos+1:], a.t.Columns[pos:])
	a.t.Columns[pos] = col
	a.mapping = append(a.mapping, 0)
	copy(a.mapping[pos+1:], a.mapping[pos:])
	a.mapping[pos] = m
	return nil
}

func (a *alterState) removeColumn(i int) {
	a.t.Columns = append(a.t.Columns[:i], a.t.Columns[i+1:]...)
	a.mapping = append(a.mapping[:i], a.mapping[i+1:]...)
}

func sameStorage(x, y *catalog.Column) bool {
	if x.Type != y.Type || x.Length != y.Length || x.Scale != y.Scale || x.Unsigned != y.Unsigned || x.Collation != y.Collation || x.Nullable != y.Nullable {
		return false
	}
	if len(x.EnumValues) != len(y.EnumValues) {
		return false
	}
	for i := range x.EnumValues {
		if x.EnumValues[i] != y.EnumValues[i] {
			return false
		}
	}
	return true
}

func (s *Session) applyAlter(a *alterState, opt sqlparser.AlterOption) error {
	t := a.t
	switch o := opt.(type) {
	case *sqlparser.AddColumns:
		for i, cd := range o.Columns {
			col, err := coltype.FromASTMode(cd, t.Collation, s.coltypeMode())
			if err != nil {
				return err
			}
			if a.colIndex(col.Name) >= 0 {
				return sqlerr.New(sqlerror.ERDupFieldName, sqlerror.SSDupFieldName, "Duplicate column name '%s'", col.Name)
			}
			first, after := o.First, o.After
			if i > 0 && (first || after != nil) {
				first, after = false, sqlparser.NewColName(o.Columns[i-1].Name.String())
			}
			if err := a.placeColumn(col, -1, first, after); err != nil {
				return err
			}
			if err := a.columnKeyOpt(cd, col.Name); err != nil {
				return err
			}
			a.rebuild = true
		}
	case *sqlparser.DropColumn:
		i := a.colIndex(o.Name.Name.String())
		if i < 0 {
			return sqlerr.New(sqlerror.ERCantDropFieldOrKey, sqlerror.SSClientError, "Can't DROP '%s'; check that column/key exists", o.Name.Name.String())
		}
		name := t.Columns[i].Name
		a.checks.DropCols = append(a.checks.DropCols, o.Name.Name.String())
		a.removeColumn(i)
		if len(t.Columns) == 0 {
			return sqlerr.New(sqlerror.ERCantRemoveAllFields, sqlerror.SSClientError, "You can't delete all columns with ALTER TABLE; use DROP TABLE instead")
		}
		// Remove the column from indexes; drop indexes left empty.
		var keep []*catalog.Index
		for _, ix := range t.Indexes {
			cols := a.idxCols[ix]
			var nc []string
			var nic []catalog.IndexColumn
			for k, c := range cols {
				if !strings.EqualFold(c, name) {
					nc = append(nc, c)
					nic = append(nic, ix.Columns[k])
				}
			}
			a.idxCols[ix] = nc
			ix.Columns = nic
			if len(nc) == 0 && !(ix.Primary && t.HiddenPK) {
				if ix.Primary {
					t.HiddenPK = true
					keep = append(keep, ix)
					continue
				}
				a.dropIdx = append(a.dropIdx, ix)
				continue
			}
			keep = append(keep, ix)
		}
		t.Indexes = keep
		a.rebuild = true
	case *sqlparser.ChangeColumn, *sqlparser.ModifyColumn:
		a.checks.ColumnsChanged = true
		var oldName string
		var cd *sqlparser.ColumnDefinition
		var first bool
		var after *sqlparser.ColName
		if c, ok := o.(*sqlparser.ChangeColumn); ok {
			oldName, cd, first, after = c.OldColumn.Name.String(), c.NewColDefinition, c.First, c.After
		} else {
			m := o.(*sqlparser.ModifyColumn)
			oldName, cd, first, after = m.NewColDefinition.Name.String(), m.NewColDefinition, m.First, m.After
		}
		i := a.colIndex(oldName)
		if i < 0 {
			return sqlerr.BadField(oldName, t.Name)
		}
		col, err := coltype.FromASTMode(cd, t.Collation, s.coltypeMode())
		if err != nil {
			return err
		}
		if j := a.colIndex(col.Name); j >= 0 && j != i {
			return sqlerr.New(sqlerror.ERDupFieldName, sqlerror.SSDupFieldName, "Duplicate column name '%s'", col.Name)
		}
		if !strings.EqualFold(oldName, col.Name) {
			a.checks.Renamed = append(a.checks.Renamed, oldName)
		}
		// A primary key column stays NOT NULL.
		if a.inPrimary(oldName) {
			col.Nullable = false
		}
		oldCol := t.Columns[i]
		m := a.mapping[i]
		if !sameStorage(&oldCol, &col) || first || after != nil {
			a.rebuild = true
		}
		if col.AutoIncrement {
			t.AutoIncCol = -2 // recomputed in finish
		} else if t.AutoIncCol >= 0 && strings.EqualFold(t.Columns[t.AutoIncCol].Name, oldName) {
			t.AutoIncCol = -2
		}
		if first || after != nil {
			a.removeColumn(i)
			if err := a.placeColumn(col, m, first, after); err != nil {
				return err
			}
		} else {
			t.Columns[i] = col
		}
		a.renameInIndexes(oldName, col.Name)
		if err := a.columnKeyOpt(cd, col.Name); err != nil {
			return err
		}
	case *sqlparser.RenameColumn:
		i := a.colIndex(o.OldName.Name.String())
		if i < 0 {
			return sqlerr.BadField(o.OldName.Name.String(), t.Name)
		}
		nn := o.NewName.Name.String()
		if j := a.colIndex(nn); j >= 0 && j != i {
			return sqlerr.New(sqlerror.ERDupFieldName, sqlerror.SSDupFieldName, "Duplicate column name '%s'", nn)
		}
		if !strings.EqualFold(o.OldName.Name.String(), nn) {
			a.checks.Renamed = append(a.checks.Renamed, o.OldName.Name.String())
		}
		a.renameInIndexes(t.Columns[i].Name, nn)
		t.Columns[i].Name = nn
	case *sqlparser.AlterColumn:
		a.checks.ColumnsChanged = true
		i := a.colIndex(o.Column.Name.String())
		if i < 0 {
			return sqlerr.BadField(o.Column.Name.String(), t.Name)
		}
		c := &t.Columns[i]
		if o.DropDefault {
			c.HasDefault, c.DefaultExpr, c.DefaultText, c.DefaultNull = false, "", "", false
			c.Default = sqltypes.NULL
		} else if o.DefaultVal != nil {
			v, ok := literalValue(o.DefaultVal, nil)
			if !ok {
				if _, isFn := o.DefaultVal.(*sqlparser.CurTimeFuncExpr); isFn {
					c.HasDefault, c.DefaultExpr = true, sqlparser.String(o.DefaultVal)
					return nil
				}
				return sqlerr.New(sqlerror.ERInvalidDefault, sqlerror.SSClientError, "Invalid default value for '%s'", c.Name)
			}
			if v.IsNull() {
				if !c.Nullable {
					return sqlerr.New(sqlerror.ERInvalidDefault, sqlerror.SSClientError, "Invalid default value for '%s'", c.Name)
				}
				c.SetDefault(sqltypes.NULL)
				return nil
			}
			cv, _, err := coltype.Convert(c, v, true, 1)
			if err != nil {
				return sqlerr.New(sqlerror.ERInvalidDefault, sqlerror.SSClientError, "Invalid default value for '%s'", c.Name)
			}
			c.SetDefault(cv)
		}
	case *sqlparser.AddIndexDefinition:
		ix, err := schemachange.IndexFromAST(t, o.IndexDefinition)
		if err != nil {
			return err
		}
		var names []string
		for _, ic := range ix.Columns {
			names = append(names, t.Columns[ic.Col].Name)
		}
		if ix.Primary {
			if !t.HiddenPK {
				return sqlerr.New(sqlerror.ERMultiplePriKey, sqlerror.SSClientError, "Multiple primary key defined")
			}
			t.HiddenPK = false
			t.Indexes[0].Columns = ix.Columns
			a.idxCols[t.Indexes[0]] = names
			for _, ic := range ix.Columns {
				t.Columns[ic.Col].Nullable = false
			}
			a.rebuild = true
			return nil
		}
		if ix.Name == "" {
			ix.Name = schemachange.UniqueIndexName(t, nil, names[0])
		}
		if t.IndexByName(ix.Name) != nil {
			return sqlerr.New(sqlerror.ERDupKeyName, sqlerror.SSClientError, "Duplicate key name '%s'", ix.Name)
		}
		t.Indexes = append(t.Indexes, ix)
		a.idxCols[ix] = names
		a.newIdx = append(a.newIdx, ix)
	case *sqlparser.DropKey:
		if o.Type == sqlparser.ConstraintType {
			dk, isCheck, err := s.dropConstraint(a.orig, o.Name.String())
			if err != nil {
				return err
			}
			if isCheck {
				a.checks.Drop = append(a.checks.Drop, o.Name.String())
				return nil
			}
			return s.applyAlter(a, dk)
		}
		switch o.Type {
		case sqlparser.PrimaryKeyType:
			if t.HiddenPK {
				return sqlerr.New(sqlerror.ERCantDropFieldOrKey, sqlerror.SSClientError, "Can't DROP 'PRIMARY'; check that column/key exists")
			}
			t.HiddenPK = true
			t.Indexes[0].Columns = nil
			a.idxCols[t.Indexes[0]] = nil
			a.rebuild = true
		case sqlparser.ForeignKeyType:
			name := o.Name.String()
			var keep []string
			for _, fk := range t.ForeignKeys {
				if !strings.Contains(fk, "`"+name+"`") && !strings.Contains(fk, " "+name+" ") {
					keep = append(keep, fk)
				}
			}
			t.ForeignKeys = keep
		case sqlparser.CheckKeyType:
			a.checks.Drop = append(a.checks.Drop, o.Name.String())
		default:
			name := o.Name.String()
			for k, ix := range t.Indexes {
				if k == 0 {
					continue
				}
				if strings.EqualFold(ix.Name, name) {
					t.Indexes = append(t.Indexes[:k], t.Indexes[k+1:]...)
					isNew := false
					for n, x := range a.newIdx {
						if x == ix {
							a.newIdx = append(a.newIdx[:n], a.newIdx[n+1:]...)
							isNew = true
						}
					}
					if !isNew {
						a.dropIdx = append(a.dropIdx, ix)
					}
					return nil
				}
			}
			return sqlerr.New(sqlerror.ERCantDropFieldOrKey, sqlerror.SSClientError, "Can't DROP '%s'; check that column/key exists", name)
		}
	case *sqlparser.RenameIndex:
		ix := t.IndexByName(o.OldName.String())
		if ix == nil || ix.Primary {
			return sqlerr.New(sqlerror.ERKeyDoesNotExist, sqlerror.SSClientError, "Key '%s' doesn't exist in table '%s'", o.OldName.String(), t.Name)
		}
		if other := t.IndexByName(o.NewName.String()); other != nil && other != ix {
			return sqlerr.New(sqlerror.ERDupKeyName, sqlerror.SSClientError, "Duplicate key name '%s'", o.NewName.String())
		}
		ix.Name = o.NewName.String()
	case sqlparser.TableOptions:
		for _, to := range o {
			switch strings.ToLower(to.Name) {
			case "auto_increment":
				if to.Value != nil {
					n, _ := strconv.ParseUint(to.Value.Val, 10, 64)
					t.AutoIncStart = n
					s.eng.Store.Open(s.eng.Cat.Table(t.DB, t.Name)).ResetAutoInc()
				}
			case "comment":
				if to.Value != nil {
					t.Comment = to.Value.Val
				}
			case "charset", "character set", "default charset", "default character set":
				if id := schemachange.DefaultCollation(strings.ToLower(to.String)); id != collations.Unknown {
					t.Collation, t.Charset = id, coltype.CharsetName(id)
				}
			case "collate", "default collate":
				if id := collations.MySQL8().LookupByName(strings.ToLower(to.String)); id != collations.Unknown {
					t.Collation, t.Charset = id, coltype.CharsetName(id)
				}
			}
		}
	case *sqlparser.AlterCharset:
		cs := strings.ToLower(o.CharacterSet)
		id := schemachange.DefaultCollation(cs)
		if o.Collate != "" {
			id = collations.MySQL8().LookupByName(strings.ToLower(o.Collate))
		}
		if id == collations.Unknown {
			return sqlerr.New(sqlerror.ERUnknownCharacterSet, sqlerror.SSClientError, "Unknown character set: '%s'", o.CharacterSet)
		}
		t.Collation, t.Charset = id, coltype.CharsetName(id)
		for i := range t.Columns {
			if t.Columns[i].IsText() {
				t.Columns[i].Collation = id
				a.rebuild = true
			}
		}
	case *sqlparser.RenameTableName:
		tn := o.Table
		a.renameTo = &tn
	case *sqlparser.AddConstraintDefinition:
		switch cd := o.ConstraintDefinition.Details.(type) {
		case *sqlparser.ForeignKeyDefinition:
			t.ForeignKeys = append(t.ForeignKeys, schemachange.FormatForeignKey(t, o.ConstraintDefinition.Name.String(), cd))
		case *sqlparser.CheckConstraintDefinition:
			return a.checks.AddSpec(o.ConstraintDefinition.Name.String(), cd)
		default:
			return sqlerr.Unsupported("ALTER TABLE %s", sqlparser.String(opt))
		}
	case *sqlparser.AlterCheck:
		a.checks.Enforce = append(a.checks.Enforce, schemachange.EnforceCheck{Name: o.Name.String(), Enforced: o.Enforced})
	case sqlparser.AlgorithmValue, *sqlparser.LockOption, *sqlparser.Force, *sqlparser.Validation, *sqlparser.KeyState, *sqlparser.OrderByOption:
		// Accepted; strata's ALTER is always a consistent copy or in place.
	default:
		return sqlerr.Unsupported("ALTER TABLE %s", sqlparser.String(opt))
	}
	return nil
}

// columnKeyOpt handles PRIMARY KEY / UNIQUE written on a column in ALTER.
func (a *alterState) columnKeyOpt(cd *sqlparser.ColumnDefinition, name string) error {
	t := a.t
	i := a.colIndex(name)
	switch cd.Type.Options.KeyOpt {
	case sqlparser.ColKeyPrimary:
		if !t.HiddenPK {
			return sqlerr.New(sqlerror.ERMultiplePriKey, sqlerror.SSClientError, "Multiple primary key defined")
		}
		t.HiddenPK = false
		t.Columns[i].Nullable = false
		t.Indexes[0].Columns = []catalog.IndexColumn{{Col: i}}
		a.idxCols[t.Indexes[0]] = []string{name}
		a.rebuild = true
	case sqlparser.ColKeyUnique, sqlparser.ColKeyUniqueKey:
		ix := &catalog.Index{Name: schemachange.UniqueIndexName(t, nil, name), Unique: true, Columns: []catalog.IndexColumn{{Col: i}}}
		t.Indexes = append(t.Indexes, ix)
		a.idxCols[ix] = []string{name}
		a.newIdx = append(a.newIdx, ix)
	}
	return nil
}

func (a *alterState) inPrimary(name string) bool {
	if a.t.HiddenPK {
		return false
	}
	for _, c := range a.idxCols[a.t.Indexes[0]] {
		if strings.EqualFold(c, name) {
			return true
		}
	}
	return false
}

func (a *alterState) renameInIndexes(oldName, newName string) {
	for ix, cols := range a.idxCols {
		for k, c := range cols {
			if strings.EqualFold(c, oldName) {
				cols[k] = newName
			}
		}
		a.idxCols[ix] = cols
	}
}

// finish re-resolves index columns and the auto-increment column.
func (a *alterState) finish() error {
	t := a.t
	for _, ix := range t.Indexes {
		names := a.idxCols[ix]
		for k, n := range names {
			ci := t.ColumnIndex(n)
			if ci < 0 {
				return sqlerr.New(sqlerror.ERKeyColumnDoesNotExist, sqlerror.SSClientError, "Key column '%s' doesn't exist in table", n)
			}
			ix.Columns[k].Col = ci
		}
	}
	if a.rebuild {
		// Secondary indexes are rebuilt too: they are not "new" separately.
		a.newIdx = nil
		a.dropIdx = nil
	}
	t.AutoIncCol = -1
	for i := range t.Columns {
		if t.Columns[i].AutoIncrement {
			if t.AutoIncCol >= 0 {
				return sqlerr.New(sqlerror.ERWrongAutoKey, sqlerror.SSClientError, "Incorrect table definition; there can be only one auto column and it must be defined as a key")
			}
			t.AutoIncCol = i
		}
	}
	if t.AutoIncCol >= 0 && !schemachange.ColumnIsKeyStart(t, t.AutoIncCol) {
		return sqlerr.New(sqlerror.ERWrongAutoKey, sqlerror.SSClientError, "Incorrect table definition; there can be only one auto column and it must be defined as a key")
	}
	if !t.HiddenPK {
		for _, ic := range t.Indexes[0].Columns {
			t.Columns[ic.Col].Nullable = false
		}
	}
	return nil
}

var _ = fmt.Sprintf

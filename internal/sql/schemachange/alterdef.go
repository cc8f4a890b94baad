package schemachange

import (
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// AlterSession is what ALTER TABLE's definition changes ask of the SQL
// session.
type AlterSession interface {
	// ColumnMode is the mode new column definitions are read in (strict
	// sql_mode or not).
	ColumnMode() coltype.Mode
	// Literal evaluates a literal DEFAULT value; false when e is not one.
	Literal(e sqlparser.Expr) (sqltypes.Value, bool)
	// DropConstraint resolves DROP CONSTRAINT name against old, the table
	// as it was: the specific clause to apply, or isCheck for a CHECK
	// constraint.
	DropConstraint(old *catalog.Table, name string) (dk *sqlparser.DropKey, isCheck bool, err error)
	// ResetAutoInc makes db.table's auto-increment counter reload (a new
	// AUTO_INCREMENT table option).
	ResetAutoInc(db, table string)
}

// AlterDef is a table definition being altered by the clauses of one ALTER
// TABLE, applied in order (Apply), then completed (Finish). Index key parts
// refer to columns by name until Finish, so columns can move.
type AlterDef struct {
	// Table is the working copy: the altered definition once finished.
	Table *catalog.Table
	// Mapping maps new column ordinals to old ones (-1: a new column).
	Mapping []int
	// Rebuild: the rows' layout changes and every row is copied.
	Rebuild bool
	// NewIndexes are the secondary indexes to back-fill, DropIndexes the
	// old ones to drop (both empty with Rebuild).
	NewIndexes  []*catalog.Index
	DropIndexes []*catalog.Index
	// RenameTo is RENAME TO's new name (nil without one).
	RenameTo *sqlparser.TableName
	// Checks gathers the CHECK constraint changes; the session applies
	// them once every clause is read.
	Checks AlterChecks

	idxCols map[*catalog.Index][]string
	// orig is the table as it was.
	orig *catalog.Table
	sess AlterSession
}

// NewAlterDef starts altering old (which stays unchanged).
func NewAlterDef(old *catalog.Table, sess AlterSession) *AlterDef {
	a := &AlterDef{Table: old.Clone(), idxCols: map[*catalog.Index][]string{}, orig: old, sess: sess}
	for i := range a.Table.Columns {
		a.Mapping = append(a.Mapping, i)
	}
	for _, ix := range a.Table.Indexes {
		var names []string
		for _, ic := range ix.Columns {
			names = append(names, a.Table.Columns[ic.Col].Name)
		}
		a.idxCols[ix] = names
	}
	return a
}

func (a *AlterDef) colIndex(name string) int { return a.Table.ColumnIndex(name) }

// placeColumn inserts col at the position FIRST/AFTER gives (or the end),
// with mapping value m.
func (a *AlterDef) placeColumn(col catalog.Column, m int, first bool, after *sqlparser.ColName) error {
	pos := len(a.Table.Columns)
	if first {
		pos = 0
	} else if after != nil {
		i := a.colIndex(after.Name.String())
		if i < 0 {
			return sqlerr.BadField(after.Name.String(), a.Table.Name)
		}
		pos = i + 1
	}
	a.Table.Columns = append(a.Table.Columns, catalog.Column{})
	copy(a.Table.Columns[pos+1:], a.Table.Columns[pos:])
	a.Table.Columns[pos] = col
	a.Mapping = append(a.Mapping, 0)
	copy(a.Mapping[pos+1:], a.Mapping[pos:])
	a.Mapping[pos] = m
	return nil
}

func (a *AlterDef) removeColumn(i int) {
	a.Table.Columns = append(a.Table.Columns[:i], a.Table.Columns[i+1:]...)
	a.Mapping = append(a.Mapping[:i], a.Mapping[i+1:]...)
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

// Apply applies one clause of the statement.
func (a *AlterDef) Apply(opt sqlparser.AlterOption) error {
	t := a.Table
	switch o := opt.(type) {
	case *sqlparser.AddColumns:
		for i, cd := range o.Columns {
			col, err := coltype.FromASTMode(cd, t.Collation, a.sess.ColumnMode())
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
			a.Rebuild = true
		}
	case *sqlparser.DropColumn:
		i := a.colIndex(o.Name.Name.String())
		if i < 0 {
			return sqlerr.New(sqlerror.ERCantDropFieldOrKey, sqlerror.SSClientError, "Can't DROP '%s'; check that column/key exists", o.Name.Name.String())
		}
		name := t.Columns[i].Name
		a.Checks.DropCols = append(a.Checks.DropCols, o.Name.Name.String())
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
				a.DropIndexes = append(a.DropIndexes, ix)
				continue
			}
			keep = append(keep, ix)
		}
		t.Indexes = keep
		a.Rebuild = true
	case *sqlparser.ChangeColumn, *sqlparser.ModifyColumn:
		a.Checks.ColumnsChanged = true
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
		col, err := coltype.FromASTMode(cd, t.Collation, a.sess.ColumnMode())
		if err != nil {
			return err
		}
		if j := a.colIndex(col.Name); j >= 0 && j != i {
			return sqlerr.New(sqlerror.ERDupFieldName, sqlerror.SSDupFieldName, "Duplicate column name '%s'", col.Name)
		}
		if !strings.EqualFold(oldName, col.Name) {
			a.Checks.Renamed = append(a.Checks.Renamed, oldName)
		}
		// A primary key column stays NOT NULL.
		if a.inPrimary(oldName) {
			col.MakeNotNull()
		}
		oldCol := t.Columns[i]
		m := a.Mapping[i]
		if !sameStorage(&oldCol, &col) || first || after != nil {
			a.Rebuild = true
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
			a.Checks.Renamed = append(a.Checks.Renamed, o.OldName.Name.String())
		}
		a.renameInIndexes(t.Columns[i].Name, nn)
		t.Columns[i].Name = nn
	case *sqlparser.AlterColumn:
		a.Checks.ColumnsChanged = true
		i := a.colIndex(o.Column.Name.String())
		if i < 0 {
			return sqlerr.BadField(o.Column.Name.String(), t.Name)
		}
		c := &t.Columns[i]
		if o.DropDefault {
			c.HasDefault, c.DefaultExpr, c.DefaultText, c.DefaultNull = false, "", "", false
			c.Default = sqltypes.NULL
		} else if o.DefaultVal != nil {
			v, ok := a.sess.Literal(o.DefaultVal)
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
		ix, err := IndexFromAST(t, o.IndexDefinition)
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
				t.Columns[ic.Col].MakeNotNull()
			}
			a.Rebuild = true
			return nil
		}
		if ix.Name == "" {
			ix.Name = UniqueIndexName(t, nil, names[0])
		}
		if t.IndexByName(ix.Name) != nil {
			return sqlerr.New(sqlerror.ERDupKeyName, sqlerror.SSClientError, "Duplicate key name '%s'", ix.Name)
		}
		t.Indexes = append(t.Indexes, ix)
		a.idxCols[ix] = names
		a.NewIndexes = append(a.NewIndexes, ix)
	case *sqlparser.DropKey:
		if o.Type == sqlparser.ConstraintType {
			dk, isCheck, err := a.sess.DropConstraint(a.orig, o.Name.String())
			if err != nil {
				return err
			}
			if isCheck {
				a.Checks.Drop = append(a.Checks.Drop, o.Name.String())
				return nil
			}
			return a.Apply(dk)
		}
		switch o.Type {
		case sqlparser.PrimaryKeyType:
			if t.HiddenPK {
				return sqlerr.New(sqlerror.ERCantDropFieldOrKey, sqlerror.SSClientError, "Can't DROP 'PRIMARY'; check that column/key exists")
			}
			t.HiddenPK = true
			t.Indexes[0].Columns = nil
			a.idxCols[t.Indexes[0]] = nil
			a.Rebuild = true
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
			a.Checks.Drop = append(a.Checks.Drop, o.Name.String())
		default:
			name := o.Name.String()
			for k, ix := range t.Indexes {
				if k == 0 {
					continue
				}
				if strings.EqualFold(ix.Name, name) {
					t.Indexes = append(t.Indexes[:k], t.Indexes[k+1:]...)
					isNew := false
					for n, x := range a.NewIndexes {
						if x == ix {
							a.NewIndexes = append(a.NewIndexes[:n], a.NewIndexes[n+1:]...)
							isNew = true
						}
					}
					if !isNew {
						a.DropIndexes = append(a.DropIndexes, ix)
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
					a.sess.ResetAutoInc(t.DB, t.Name)
				}
			case "comment":
				if to.Value != nil {
					t.Comment = to.Value.Val
				}
			case "charset", "character set", "default charset", "default character set":
				if id := DefaultCollation(strings.ToLower(to.String)); id != collations.Unknown {
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
		id := DefaultCollation(cs)
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
				a.Rebuild = true
			}
		}
	case *sqlparser.RenameTableName:
		tn := o.Table
		a.RenameTo = &tn
	case *sqlparser.AddConstraintDefinition:
		switch cd := o.ConstraintDefinition.Details.(type) {
		case *sqlparser.ForeignKeyDefinition:
			t.ForeignKeys = append(t.ForeignKeys, FormatForeignKey(t, o.ConstraintDefinition.Name.String(), cd))
			return a.addForeignKeyIndex(o.ConstraintDefinition.Name.String(), cd)
		case *sqlparser.CheckConstraintDefinition:
			return a.Checks.AddSpec(o.ConstraintDefinition.Name.String(), cd)
		default:
			return sqlerr.Unsupported("ALTER TABLE %s", sqlparser.String(opt))
		}
	case *sqlparser.AlterCheck:
		a.Checks.Enforce = append(a.Checks.Enforce, EnforceCheck{Name: o.Name.String(), Enforced: o.Enforced})
	case sqlparser.AlgorithmValue, *sqlparser.LockOption, *sqlparser.Force, *sqlparser.Validation, *sqlparser.KeyState, *sqlparser.OrderByOption:
		// Accepted; strata's ALTER is always a consistent copy or in place.
	default:
		return sqlerr.Unsupported("ALTER TABLE %s", sqlparser.String(opt))
	}
	return nil
}

// columnKeyOpt handles PRIMARY KEY / UNIQUE written on a column in ALTER.
func (a *AlterDef) columnKeyOpt(cd *sqlparser.ColumnDefinition, name string) error {
	t := a.Table
	i := a.colIndex(name)
	switch cd.Type.Options.KeyOpt {
	case sqlparser.ColKeyPrimary:
		if !t.HiddenPK {
			return sqlerr.New(sqlerror.ERMultiplePriKey, sqlerror.SSClientError, "Multiple primary key defined")
		}
		t.HiddenPK = false
		t.Columns[i].MakeNotNull()
		t.Indexes[0].Columns = []catalog.IndexColumn{{Col: i}}
		a.idxCols[t.Indexes[0]] = []string{name}
		a.Rebuild = true
	case sqlparser.ColKeyUnique, sqlparser.ColKeyUniqueKey:
		ix := &catalog.Index{Name: UniqueIndexName(t, nil, name), Unique: true, Columns: []catalog.IndexColumn{{Col: i}}}
		t.Indexes = append(t.Indexes, ix)
		a.idxCols[ix] = []string{name}
		a.NewIndexes = append(a.NewIndexes, ix)
	}
	return nil
}

func (a *AlterDef) inPrimary(name string) bool {
	if a.Table.HiddenPK {
		return false
	}
	for _, c := range a.idxCols[a.Table.Indexes[0]] {
		if strings.EqualFold(c, name) {
			return true
		}
	}
	return false
}

func (a *AlterDef) renameInIndexes(oldName, newName string) {
	for ix, cols := range a.idxCols {
		for k, c := range cols {
			if strings.EqualFold(c, oldName) {
				cols[k] = newName
			}
		}
		a.idxCols[ix] = cols
	}
}

// Finish re-resolves index columns and the auto-increment column once
// every clause is applied.
func (a *AlterDef) Finish() error {
	t := a.Table
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
	a.dropReplacedImplicit()
	if a.Rebuild {
		// Secondary indexes are rebuilt too: they are not "new" separately.
		a.NewIndexes = nil
		a.DropIndexes = nil
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
	if t.AutoIncCol >= 0 && !ColumnIsKeyStart(t, t.AutoIncCol) {
		return sqlerr.New(sqlerror.ERWrongAutoKey, sqlerror.SSClientError, "Incorrect table definition; there can be only one auto column and it must be defined as a key")
	}
	if !t.HiddenPK {
		for _, ic := range t.Indexes[0].Columns {
			t.Columns[ic.Col].MakeNotNull()
		}
	}
	return nil
}

// addForeignKeyIndex adds the index MySQL creates for a foreign key added
// by ALTER TABLE when no index starts with its columns (named after the
// constraint, else its first column).
func (a *AlterDef) addForeignKeyIndex(name string, fk *sqlparser.ForeignKeyDefinition) error {
	t := a.Table
	var cols []catalog.IndexColumn
	var names []string
	for _, c := range fk.Source {
		ci := t.ColumnIndex(c.String())
		if ci < 0 {
			return sqlerr.New(sqlerror.ERKeyColumnDoesNotExist, sqlerror.SSClientError, "Key column '%s' doesn't exist in table", c.String())
		}
		cols = append(cols, catalog.IndexColumn{Col: ci})
		names = append(names, t.Columns[ci].Name)
	}
	if len(cols) == 0 || hasIndexPrefix(t.Indexes[0], t.Indexes[1:], cols) {
		return nil
	}
	if name == "" || t.IndexByName(name) != nil {
		name = UniqueIndexName(t, nil, names[0])
	}
	ix := &catalog.Index{Name: name, Columns: cols, Implicit: true}
	t.Indexes = append(t.Indexes, ix)
	a.idxCols[ix] = names
	a.NewIndexes = append(a.NewIndexes, ix)
	return nil
}

// dropReplacedImplicit drops the implicit foreign-key indexes another
// index now starts with the columns of (MySQL drops them silently when an
// index that can serve the key is added).
func (a *AlterDef) dropReplacedImplicit() {
	t := a.Table
	for k := 1; k < len(t.Indexes); k++ {
		ix := t.Indexes[k]
		if !ix.Implicit {
			continue
		}
		replaced := false
		for j, other := range t.Indexes {
			if j == k || other.Implicit || (j == 0 && t.HiddenPK) || len(other.Columns) < len(ix.Columns) {
				continue
			}
			same := true
			for c := range ix.Columns {
				if other.Columns[c].Col != ix.Columns[c].Col || other.Columns[c].Prefix != 0 {
					same = false
					break
				}
			}
			if same {
				replaced = true
				break
			}
		}
		if !replaced {
			continue
		}
		t.Indexes = append(t.Indexes[:k], t.Indexes[k+1:]...)
		k--
		isNew := false
		for n, x := range a.NewIndexes {
			if x == ix {
				a.NewIndexes = append(a.NewIndexes[:n], a.NewIndexes[n+1:]...)
				isNew = true
				break
			}
		}
		if !isNew {
			a.DropIndexes = append(a.DropIndexes, ix)
		}
	}
}

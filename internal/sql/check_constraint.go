package sql

import (
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/schemachange"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/sql/vtable"
)

// CHECK constraints in DDL, the part that needs the session: resolving and
// compiling a constraint against its table, names unique per database,
// foreign keys' referential actions, and applying an ALTER TABLE's changes.
// The session-free rules are in schemachange (check.go), enforcement on
// rows in check_enforce.go, the printed form in check_format.go.

// addChecks validates the CHECK constraints specs written for table t (its
// final columns; db and name are the table's final schema and name), names
// the unnamed ones after the highest generated number among kept (the
// constraints the table keeps), and returns kept and the new ones in
// MySQL's order. inAlter selects ALTER TABLE's error for an unknown column.
func (s *Session) addChecks(t *catalog.Table, db, name string, kept []catalog.CheckConstraint, specs []schemachange.CheckSpec, inAlter bool) ([]catalog.CheckConstraint, error) {
	next := catalog.MaxGeneratedCheckNumber(name, kept)
	for i := range specs {
		if specs[i].Name == "" {
			next++
			specs[i].Name = catalog.GeneratedCheckName(name, next)
		}
	}
	// The rules MySQL checks on each constraint first, in its order.
	for i := range specs {
		if err := schemachange.PreValidateCheck(&specs[i]); err != nil {
			return nil, err
		}
	}
	charset := coltype.CharsetName(s.collation())
	out := append([]catalog.CheckConstraint(nil), kept...)
	for i := range specs {
		sp := &specs[i]
		if fn := s.storedCallName(sp.Expr); fn != "" {
			return nil, sqlerr.New(sqlerr.CheckNamedFunctionNotAllowed, sqlerror.SSUnknownSQLState, "An expression of a check constraint '%s' contains disallowed function: %s.", sp.Name, fn)
		}
		cols := schemachange.CheckColumnRefs(sp.Expr)
		for _, c := range cols {
			ci := t.ColumnIndex(c)
			if ci < 0 {
				if inAlter {
					return nil, sqlerr.BadField(c, "check constraint "+sp.Name+" expression")
				}
				return nil, sqlerr.New(sqlerr.CheckRefersUnknownColumn, sqlerror.SSUnknownSQLState, "Check constraint '%s' refers to non-existing column '%s'.", sp.Name, c)
			}
		}
		ck := catalog.CheckConstraint{Name: sp.Name, Clause: checkClause(sp.Expr, charset), Columns: cols, NotEnforced: !sp.Enforced}
		if err := s.verifyCheckClause(t, &ck); err != nil {
			return nil, err
		}
		out = append(out, ck)
	}
	if err := schemachange.CheckAutoIncRefs(t, out); err != nil {
		return nil, err
	}
	// Names are unique within the table (and, checked by the caller against
	// the other tables, within the database); the later one is reported.
	for i := range out {
		for j := 0; j < i; j++ {
			if strings.EqualFold(out[i].Name, out[j].Name) {
				return nil, sqlerr.CheckDupName(out[i].Name)
			}
		}
	}
	if err := s.checkNamesFree(db, name, out[len(kept):]); err != nil {
		return nil, err
	}
	catalog.SortChecks(out)
	return out, nil
}

// verifyCheckClause parses the printed clause back and compiles it against
// t, so that what is stored is what gets evaluated.
func (s *Session) verifyCheckClause(t *catalog.Table, ck *catalog.CheckConstraint) error {
	e, err := s.eng.Parser.ParseExpr(ck.Clause)
	if err != nil {
		return sqlerr.Unsupported("CHECK constraint expression %s", ck.Clause)
	}
	sc := &eval.Scope{Where: "check constraint " + ck.Name + " expression"}
	sc.AddTable(t, t.Name)
	c := s.newCompiler(nil, sc, nil, nil)
	c.NoDivChecks = true
	_, err = c.Compile(e)
	return err
}

// checkNamesFree refuses names already used by a CHECK constraint of
// another table of database db (MySQL's names are per database); table is
// the name of the table the constraints belong to.
func (s *Session) checkNamesFree(db, table string, checks []catalog.CheckConstraint) error {
	for i := range checks {
		if s.eng.Cat.CheckOwner(db, checks[i].Name, table) != nil {
			return sqlerr.CheckDupName(checks[i].Name)
		}
	}
	return nil
}

// checkFKActions refuses a CHECK constraint on a column a foreign key's
// referential action changes (ON UPDATE/ON DELETE CASCADE, SET NULL, SET
// DEFAULT): MySQL's 3823.
func (s *Session) checkFKActions(t *catalog.Table) error {
	if len(t.Checks) == 0 || len(t.ForeignKeys) == 0 {
		return nil
	}
	fks := vtable.ForeignKeys(s.eng.Parser, t)
	for i := range t.Checks {
		ck := &t.Checks[i]
		for _, fk := range fks {
			if !schemachange.ChangingAction(fk.OnUpdate) && !schemachange.ChangingAction(fk.OnDelete) {
				continue
			}
			for _, col := range fk.Cols {
				if ck.Uses(col) {
					return sqlerr.New(sqlerr.CheckUsingFKReferActionColumn, sqlerror.SSUnknownSQLState, "Column '%s' cannot be used in a check constraint '%s': needed in a foreign key constraint '%s' referential action.", col, ck.Name, fk.Name)
				}
			}
		}
	}
	return nil
}

// finishAlterChecks applies the statement's CHECK constraint changes to the altered
// definition t (final columns; db and name its final schema and name), with
// old the table as it was.
func (s *Session) finishAlterChecks(ac *schemachange.AlterChecks, old, t *catalog.Table, db, name string) error {
	checks := append([]catalog.CheckConstraint(nil), old.Checks...)
	for _, n := range ac.Drop {
		i := schemachange.IndexOfCheck(checks, n)
		if i < 0 {
			return sqlerr.CheckNotFound(n)
		}
		checks = append(checks[:i], checks[i+1:]...)
	}
	for _, e := range ac.Enforce {
		i := schemachange.IndexOfCheck(checks, e.Name)
		if i < 0 {
			return s.alterCheckNotFound(ac, old, e.Name)
		}
		if e.Enforced && checks[i].NotEnforced {
			ac.Validate = true
		}
		checks[i].NotEnforced = !e.Enforced
	}
	// A dropped column takes the constraints that use it alone with it; any
	// other constraint using it makes the drop fail, as does a rename.
	for _, col := range ac.DropCols {
		kept := checks[:0]
		for _, ck := range checks {
			if !ck.UsesOnly(col) {
				kept = append(kept, ck)
			}
		}
		checks = kept
	}
	for _, cols := range [][]string{ac.DropCols, ac.Renamed} {
		for _, col := range cols {
			for i := range checks {
				if checks[i].Uses(col) {
					return sqlerr.New(sqlerr.DependentByCheckConstraint, sqlerror.SSUnknownSQLState, "Check constraint '%s' uses column '%s', hence column cannot be dropped or renamed.", checks[i].Name, col)
				}
			}
		}
	}
	renamed := name != old.Name
	if renamed {
		catalog.RenameGeneratedChecks(checks, old.Name, name)
		if err := schemachange.CheckGeneratedNameLengths(checks); err != nil {
			return err
		}
	}
	if renamed || db != old.DB {
		skip := old.Name
		if db != old.DB {
			skip = ""
		}
		if err := s.checkNamesFree(db, skip, checks); err != nil {
			return err
		}
	}
	if len(ac.Add) > 0 {
		var err error
		if checks, err = s.addChecks(t, db, name, checks, ac.Add, true); err != nil {
			return err
		}
		for _, sp := range ac.Add {
			if sp.Enforced {
				ac.Validate = true
			}
		}
	}
	if err := schemachange.CheckAutoIncRefs(t, checks); err != nil {
		return err
	}
	if len(checks) == 0 {
		checks = nil
	}
	t.Checks = checks
	if ac.ColumnsChanged && t.HasEnforcedChecks() {
		ac.Validate = true
	}
	return s.checkFKActions(t)
}

// alterCheckNotFound is the error for ALTER CHECK (or ALTER CONSTRAINT)
// naming no CHECK constraint of the table.
func (s *Session) alterCheckNotFound(ac *schemachange.AlterChecks, old *catalog.Table, name string) error {
	via := false
	for _, n := range ac.ViaConstraint {
		if strings.EqualFold(n, name) {
			via = true
		}
	}
	if !via {
		return sqlerr.CheckNotFound(name)
	}
	if dk, _, err := s.dropConstraint(old, name); err == nil && dk != nil {
		return sqlerr.New(sqlerr.AlterConstraintEnforcementNotSupported, sqlerror.SSUnknownSQLState, "Altering constraint enforcement is not supported for the constraint '%s'. Enforcement state alter is not supported for the PRIMARY, UNIQUE and FOREIGN KEY type constraints.", name)
	}
	return sqlerr.New(sqlerr.ConstraintNotFound, sqlerror.SSUnknownSQLState, "Constraint '%s' does not exist.", name)
}

// dropConstraint resolves ALTER TABLE ... DROP CONSTRAINT name (MySQL
// 8.0.19) against the table as it was: a CHECK constraint, a foreign key, or
// a PRIMARY/UNIQUE key of that name. It returns the specific clause to apply.
func (s *Session) dropConstraint(old *catalog.Table, name string) (*sqlparser.DropKey, bool, error) {
	var kinds []*sqlparser.DropKey
	isCheck := false
	if old.CheckIndex(name) >= 0 {
		isCheck = true
		kinds = append(kinds, nil)
	}
	for _, fk := range vtable.ForeignKeys(s.eng.Parser, old) {
		if strings.EqualFold(fk.Name, name) {
			kinds = append(kinds, &sqlparser.DropKey{Type: sqlparser.ForeignKeyType, Name: sqlparser.NewIdentifierCI(fk.Name)})
			break
		}
	}
	for k, ix := range old.Indexes {
		if k == 0 && old.HiddenPK || !ix.Unique || !strings.EqualFold(ix.Name, name) {
			continue
		}
		if ix.Primary {
			kinds = append(kinds, &sqlparser.DropKey{Type: sqlparser.PrimaryKeyType})
		} else {
			kinds = append(kinds, &sqlparser.DropKey{Type: sqlparser.NormalKeyType, Name: sqlparser.NewIdentifierCI(ix.Name)})
		}
	}
	switch len(kinds) {
	case 0:
		return nil, false, sqlerr.New(sqlerr.ConstraintNotFound, sqlerror.SSUnknownSQLState, "Constraint '%s' does not exist.", name)
	case 1:
		return kinds[0], isCheck, nil
	}
	return nil, false, sqlerr.New(sqlerr.MultipleConstraintsWithSameName, sqlerror.SSUnknownSQLState, "Table has multiple constraints with the name '%s'. Please use constraint specific 'DROP' clause.", name)
}

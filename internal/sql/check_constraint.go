package sql

import (
	"strings"
	"unicode/utf8"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/sql/vtable"
	"vitess.io/vitess/go/mysql/sqlerror"
)

// CHECK constraints in DDL (MySQL 8.0.16+ semantics): CREATE TABLE column-
// and table-level constraints, ALTER TABLE ADD/DROP/ALTER CHECK, generated
// names, the rules MySQL enforces on the expression, and the dependencies
// of columns on constraints. Enforcement on rows is in check_enforce.go,
// the printed form of the expression in check_format.go.

// MySQL error codes of CHECK constraints (all SQLSTATE HY000).
const (
	erTooLongIdent                 = 1059
	erCheckNonBoolean              = 3812
	erCheckColumnRefersOther       = 3813
	erCheckNamedFunctionNotAllowed = 3814
	erCheckFunctionNotAllowed      = 3815
	erCheckVariables               = 3816
	erCheckRefersAutoIncrement     = 3818
	erCheckViolated                = 3819
	erCheckRefersUnknownColumn     = 3820
	erCheckNotFound                = 3821
	erCheckDupName                 = 3822
	erCheckFKReferentialAction     = 3823
	erMultipleConstraintsWithName  = 3939
	erConstraintNotFound           = 3940
	erAlterConstraintEnforcement   = 3941
	erDependentByCheckConstraint   = 3959
	maxIdentChars                  = 64
)

func checkViolatedErr(name string) error {
	return sqlerr.New(erCheckViolated, sqlerror.SSUnknownSQLState, "Check constraint '%s' is violated.", name)
}

func checkNotFoundErr(name string) error {
	return sqlerr.New(erCheckNotFound, sqlerror.SSUnknownSQLState, "Check constraint '%s' is not found in the table.", name)
}

func checkDupNameErr(name string) error {
	return sqlerr.New(erCheckDupName, sqlerror.SSUnknownSQLState, "Duplicate check constraint name '%s'.", name)
}

func tooLongIdentErr(name string) error {
	return sqlerr.New(erTooLongIdent, sqlerror.SSClientError, "Identifier name '%s' is too long", name)
}

// checkSpec is a CHECK constraint as written in CREATE TABLE or ALTER
// TABLE, before validation.
type checkSpec struct {
	name     string // "" until generated
	expr     sqlparser.Expr
	enforced bool
	// column is the column a column-level constraint was written on ("" for
	// a table-level one); it may refer to that column only.
	column string
}

// checkSpecsOfTable collects the CHECK constraints of a CREATE TABLE
// definition in statement order. cols (parse.MoveColumnChecks) names the
// column of each column-level one; nil when all are table-level.
func checkSpecsOfTable(spec *sqlparser.TableSpec, cols []string) ([]checkSpec, error) {
	var out []checkSpec
	for _, c := range spec.Constraints {
		cd, ok := c.Details.(*sqlparser.CheckConstraintDefinition)
		if !ok {
			continue
		}
		sp := checkSpec{name: c.Name.String(), expr: cd.Expr, enforced: cd.Enforced}
		if cols != nil {
			if len(out) >= len(cols) {
				return nil, sqlerr.Unsupported("this form of column CHECK constraint")
			}
			sp.column = cols[len(out)]
		}
		out = append(out, sp)
	}
	if cols != nil && len(out) != len(cols) {
		return nil, sqlerr.Unsupported("this form of column CHECK constraint")
	}
	return out, nil
}

// addChecks validates the CHECK constraints specs written for table t (its
// final columns; db and name are the table's final schema and name), names
// the unnamed ones after the highest generated number among kept (the
// constraints the table keeps), and returns kept and the new ones in
// MySQL's order. inAlter selects ALTER TABLE's error for an unknown column.
func (s *Session) addChecks(t *catalog.Table, db, name string, kept []catalog.CheckConstraint, specs []checkSpec, inAlter bool) ([]catalog.CheckConstraint, error) {
	next := catalog.MaxGeneratedCheckNumber(name, kept)
	for i := range specs {
		if specs[i].name == "" {
			next++
			specs[i].name = catalog.GeneratedCheckName(name, next)
		}
	}
	// The rules MySQL checks on each constraint first, in its order.
	for i := range specs {
		if err := preValidateCheck(&specs[i]); err != nil {
			return nil, err
		}
	}
	charset := coltype.CharsetName(s.collation())
	out := append([]catalog.CheckConstraint(nil), kept...)
	for i := range specs {
		sp := &specs[i]
		cols := checkColumnRefs(sp.expr)
		for _, c := range cols {
			ci := t.ColumnIndex(c)
			if ci < 0 {
				if inAlter {
					return nil, sqlerr.BadField(c, "check constraint "+sp.name+" expression")
				}
				return nil, sqlerr.New(erCheckRefersUnknownColumn, sqlerror.SSUnknownSQLState, "Check constraint '%s' refers to non-existing column '%s'.", sp.name, c)
			}
		}
		ck := catalog.CheckConstraint{Name: sp.name, Clause: checkClause(sp.expr, charset), Columns: cols, NotEnforced: !sp.enforced}
		if err := s.verifyCheckClause(t, &ck); err != nil {
			return nil, err
		}
		out = append(out, ck)
	}
	if err := checkAutoIncRefs(t, out); err != nil {
		return nil, err
	}
	// Names are unique within the table (and, checked by the caller against
	// the other tables, within the database); the later one is reported.
	for i := range out {
		for j := 0; j < i; j++ {
			if strings.EqualFold(out[i].Name, out[j].Name) {
				return nil, checkDupNameErr(out[i].Name)
			}
		}
	}
	if err := s.checkNamesFree(db, name, out[len(kept):]); err != nil {
		return nil, err
	}
	catalog.SortChecks(out)
	return out, nil
}

// preValidateCheck applies MySQL's rules on a constraint before its columns
// are resolved: the name's length, a column constraint's single column, a
// boolean expression, and no disallowed construct.
func preValidateCheck(sp *checkSpec) error {
	if utf8.RuneCountInString(sp.name) > maxIdentChars {
		return tooLongIdentErr(sp.name)
	}
	if sp.column != "" {
		cols := checkColumnRefs(sp.expr)
		if len(cols) == 0 {
			return sqlerr.New(erCheckColumnRefersOther, sqlerror.SSUnknownSQLState, "Column check constraint '%s' references other column.", sp.name)
		}
		for _, c := range cols {
			if !strings.EqualFold(c, sp.column) {
				return sqlerr.New(erCheckColumnRefersOther, sqlerror.SSUnknownSQLState, "Column check constraint '%s' references other column.", sp.name)
			}
		}
	}
	if !isBooleanExpr(sp.expr) {
		return sqlerr.New(erCheckNonBoolean, sqlerror.SSUnknownSQLState, "An expression of non-boolean type specified to a check constraint '%s'.", sp.name)
	}
	return disallowedInCheck(sp.name, sp.expr)
}

// verifyCheckClause parses the printed clause back and compiles it against
// t, so that what is stored is what gets evaluated.
func (s *Session) verifyCheckClause(t *catalog.Table, ck *catalog.CheckConstraint) error {
	e, err := s.eng.Parser.ParseExpr(ck.Clause)
	if err != nil {
		return sqlerr.Unsupported("CHECK constraint expression %s", ck.Clause)
	}
	sc := &scope{where: "check constraint " + ck.Name + " expression"}
	sc.addTable(t, t.Name)
	c := &compiler{s: s, sc: sc, noDivChecks: true}
	_, err = c.compile(e)
	return err
}

// checkColumnRefs returns the columns e refers to, each once (the first
// spelling), in order of appearance.
func checkColumnRefs(e sqlparser.Expr) []string {
	var out []string
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if c, ok := n.(*sqlparser.ColName); ok {
			name := c.Name.String()
			for _, o := range out {
				if strings.EqualFold(o, name) {
					return true, nil
				}
			}
			out = append(out, name)
		}
		return true, nil
	}, e)
	return out
}

// boolFuncs are the functions MySQL types as boolean (is_bool_func).
var boolFuncs = map[string]bool{
	"isnull": true, "regexp_like": true, "json_valid": true, "json_contains": true,
	"json_contains_path": true, "json_overlaps": true, "json_schema_valid": true,
	"st_contains": true, "st_crosses": true, "st_disjoint": true, "st_equals": true,
	"st_intersects": true, "st_overlaps": true, "st_touches": true, "st_within": true,
	"mbrcontains": true, "mbrcoveredby": true, "mbrcovers": true, "mbrdisjoint": true,
	"mbrequals": true, "mbrintersects": true, "mbroverlaps": true, "mbrtouches": true,
	"mbrwithin": true,
}

// isBooleanExpr reports whether MySQL types e as boolean, which a CHECK
// constraint requires (`CHECK (f1)` and `CHECK (f1 + 10)` are refused).
func isBooleanExpr(e sqlparser.Expr) bool {
	switch n := e.(type) {
	case *sqlparser.ComparisonExpr, *sqlparser.AndExpr, *sqlparser.OrExpr, *sqlparser.XorExpr,
		*sqlparser.NotExpr, *sqlparser.IsExpr, *sqlparser.BetweenExpr, *sqlparser.ExistsExpr,
		sqlparser.BoolVal, *sqlparser.MemberOfExpr, *sqlparser.RegexpLikeExpr,
		*sqlparser.JSONContainsExpr, *sqlparser.JSONContainsPathExpr, *sqlparser.JSONOverlapsExpr,
		*sqlparser.JSONSchemaValidFuncExpr:
		return true
	case *sqlparser.UnaryExpr:
		return n.Operator == sqlparser.BangOp
	case *sqlparser.FuncExpr:
		return n.Qualifier.IsEmpty() && boolFuncs[n.Name.Lowered()]
	}
	return false
}

// checkDisallowedFuncs maps the functions a CHECK constraint may not call
// (non-deterministic or session-dependent) to the name MySQL's error gives.
var checkDisallowedFuncs = map[string]string{
	"now": "now", "current_timestamp": "now", "localtime": "now", "localtimestamp": "now",
	"curdate": "curdate", "current_date": "curdate", "curtime": "curtime", "current_time": "curtime",
	"utc_date": "utc_date", "utc_time": "utc_time", "utc_timestamp": "utc_timestamp",
	"sysdate": "sysdate", "connection_id": "connection_id", "current_user": "current_user",
	"user": "user", "session_user": "user", "system_user": "user", "version": "version()",
	"found_rows": "found_rows", "last_insert_id": "last_insert_id", "rand": "rand",
	"row_count": "row_count", "get_lock": "get_lock", "is_free_lock": "is_free_lock",
	"is_used_lock": "is_used_lock", "release_lock": "release_lock",
	"release_all_locks": "release_all_locks", "load_file": "load_file", "uuid": "uuid",
	"uuid_short": "uuid_short", "sleep": "sleep", "database": "database", "schema": "database",
	"benchmark": "benchmark", "current_role": "current_role", "random_bytes": "random_bytes",
	"master_pos_wait": "master_pos_wait", "source_pos_wait": "source_pos_wait",
	"icu_version": "icu_version()", "statement_digest_text": "statement_digest_text",
}

// disallowedInCheck reports the first construct (in MySQL's post-order
// walk) a CHECK constraint may not contain: non-deterministic functions
// (3814), subqueries and aggregates (3815), variables (3816).
func disallowedInCheck(name string, e sqlparser.Expr) error {
	var first error
	sqlparser.Rewrite(e, nil, func(cur *sqlparser.Cursor) bool {
		if first != nil {
			return false
		}
		named := func(fn string) {
			first = sqlerr.New(erCheckNamedFunctionNotAllowed, sqlerror.SSUnknownSQLState, "An expression of a check constraint '%s' contains disallowed function: %s.", name, fn)
		}
		switch n := cur.Node().(type) {
		case *sqlparser.Subquery, *sqlparser.ValuesFuncExpr:
			first = sqlerr.New(erCheckFunctionNotAllowed, sqlerror.SSUnknownSQLState, "An expression of a check constraint '%s' contains disallowed function.", name)
		case sqlparser.AggrFunc, sqlparser.WindowFunc:
			first = sqlerr.New(erCheckFunctionNotAllowed, sqlerror.SSUnknownSQLState, "An expression of a check constraint '%s' contains disallowed function.", name)
		case *sqlparser.Variable:
			first = sqlerr.New(erCheckVariables, sqlerror.SSUnknownSQLState, "An expression of a check constraint '%s' cannot refer to a user or system variable.", name)
		case *sqlparser.CurTimeFuncExpr:
			if fn, ok := checkDisallowedFuncs[n.Name.Lowered()]; ok {
				named(fn)
			}
		case *sqlparser.LockingFunc:
			named(n.Type.ToString())
		case *sqlparser.FuncExpr:
			fn := n.Name.Lowered()
			if !n.Qualifier.IsEmpty() {
				named("`" + fn + "`")
				break
			}
			if fn == "unix_timestamp" && len(n.Exprs) == 0 {
				named(fn)
				break
			}
			if mysqlName, ok := checkDisallowedFuncs[fn]; ok {
				named(mysqlName)
			}
		}
		return first == nil
	})
	return first
}

// checkAutoIncRefs refuses constraints on t's AUTO_INCREMENT column (3818).
func checkAutoIncRefs(t *catalog.Table, checks []catalog.CheckConstraint) error {
	if t.AutoIncCol < 0 {
		return nil
	}
	ai := t.Columns[t.AutoIncCol].Name
	for i := range checks {
		if checks[i].Uses(ai) {
			return sqlerr.New(erCheckRefersAutoIncrement, sqlerror.SSUnknownSQLState, "Check constraint '%s' cannot refer to an auto-increment column.", checks[i].Name)
		}
	}
	return nil
}

// checkNamesFree refuses names already used by a CHECK constraint of
// another table of database db (MySQL's names are per database); table is
// the name of the table the constraints belong to.
func (s *Session) checkNamesFree(db, table string, checks []catalog.CheckConstraint) error {
	for i := range checks {
		if s.eng.Cat.CheckOwner(db, checks[i].Name, table) != nil {
			return checkDupNameErr(checks[i].Name)
		}
	}
	return nil
}

// checkNameClash refuses a CHECK constraint of t named like one of other
// (tables of the same database).
func checkNameClash(t, other *catalog.Table) error {
	for i := range t.Checks {
		if other.CheckIndex(t.Checks[i].Name) >= 0 {
			return checkDupNameErr(t.Checks[i].Name)
		}
	}
	return nil
}

// checkGeneratedNameLengths refuses generated names longer than an
// identifier may be (a long table name renamed or copied).
func checkGeneratedNameLengths(checks []catalog.CheckConstraint) error {
	for i := range checks {
		if utf8.RuneCountInString(checks[i].Name) > maxIdentChars {
			return tooLongIdentErr(checks[i].Name)
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
			if !changingAction(fk.OnUpdate) && !changingAction(fk.OnDelete) {
				continue
			}
			for _, col := range fk.Cols {
				if ck.Uses(col) {
					return sqlerr.New(erCheckFKReferentialAction, sqlerror.SSUnknownSQLState, "Column '%s' cannot be used in a check constraint '%s': needed in a foreign key constraint '%s' referential action.", col, ck.Name, fk.Name)
				}
			}
		}
	}
	return nil
}

func changingAction(rule string) bool {
	return rule == "CASCADE" || rule == "SET NULL" || rule == "SET DEFAULT"
}

// likeChecks renames the constraints copied by CREATE TABLE ... LIKE as
// MySQL does: all of them, generated names <table>_chk_1, _2, ... in the
// source's order.
func likeChecks(src []catalog.CheckConstraint, table string) []catalog.CheckConstraint {
	if len(src) == 0 {
		return nil
	}
	out := make([]catalog.CheckConstraint, len(src))
	for i, c := range src {
		c.Columns = append([]string(nil), c.Columns...)
		c.Name = catalog.GeneratedCheckName(table, i+1)
		out[i] = c
	}
	catalog.SortChecks(out)
	return out
}

// alterChecks is the CHECK constraint part of one ALTER TABLE, applied in
// MySQL's order once every clause is read: drops, then ALTER CHECK, then
// the column drops and renames constraints depend on, then the additions.
type alterChecks struct {
	// cols is parse.MoveColumnChecks's column list for the statement's
	// added constraints; seq counts the ones read so far.
	cols     []string
	seq      int
	add      []checkSpec
	drop     []string
	enforce  []enforceCheck
	dropCols []string
	renamed  []string
	// viaConstraint names the constraints of ALTER CONSTRAINT clauses
	// (parsed as ALTER CHECK): a name that is not a CHECK constraint gets
	// MySQL's answer for that form.
	viaConstraint []string
	// columnsChanged: a column definition changed (CHANGE, MODIFY, ALTER
	// COLUMN); MySQL copies such a table, checking every row (a constraint
	// may use DEFAULT(col)).
	columnsChanged bool
	// validate: rows must be checked (a constraint added or enforced).
	validate bool
}

type enforceCheck struct {
	name     string
	enforced bool
}

// addSpec records ADD [CONSTRAINT [name]] CHECK (...).
func (ac *alterChecks) addSpec(name string, cd *sqlparser.CheckConstraintDefinition) error {
	sp := checkSpec{name: name, expr: cd.Expr, enforced: cd.Enforced}
	if ac.cols != nil {
		if ac.seq >= len(ac.cols) {
			return sqlerr.Unsupported("this form of column CHECK constraint")
		}
		sp.column = ac.cols[ac.seq]
	}
	ac.seq++
	ac.add = append(ac.add, sp)
	return nil
}

// finishAlterChecks applies the statement's CHECK constraint changes to the altered
// definition t (final columns; db and name its final schema and name), with
// old the table as it was.
func (s *Session) finishAlterChecks(ac *alterChecks, old, t *catalog.Table, db, name string) error {
	checks := append([]catalog.CheckConstraint(nil), old.Checks...)
	for _, n := range ac.drop {
		i := indexOfCheck(checks, n)
		if i < 0 {
			return checkNotFoundErr(n)
		}
		checks = append(checks[:i], checks[i+1:]...)
	}
	for _, e := range ac.enforce {
		i := indexOfCheck(checks, e.name)
		if i < 0 {
			return s.alterCheckNotFound(ac, old, e.name)
		}
		if e.enforced && checks[i].NotEnforced {
			ac.validate = true
		}
		checks[i].NotEnforced = !e.enforced
	}
	// A dropped column takes the constraints that use it alone with it; any
	// other constraint using it makes the drop fail, as does a rename.
	for _, col := range ac.dropCols {
		kept := checks[:0]
		for _, ck := range checks {
			if !ck.UsesOnly(col) {
				kept = append(kept, ck)
			}
		}
		checks = kept
	}
	for _, cols := range [][]string{ac.dropCols, ac.renamed} {
		for _, col := range cols {
			for i := range checks {
				if checks[i].Uses(col) {
					return sqlerr.New(erDependentByCheckConstraint, sqlerror.SSUnknownSQLState, "Check constraint '%s' uses column '%s', hence column cannot be dropped or renamed.", checks[i].Name, col)
				}
			}
		}
	}
	renamed := name != old.Name
	if renamed {
		catalog.RenameGeneratedChecks(checks, old.Name, name)
		if err := checkGeneratedNameLengths(checks); err != nil {
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
	if len(ac.add) > 0 {
		var err error
		if checks, err = s.addChecks(t, db, name, checks, ac.add, true); err != nil {
			return err
		}
		for _, sp := range ac.add {
			if sp.enforced {
				ac.validate = true
			}
		}
	}
	if err := checkAutoIncRefs(t, checks); err != nil {
		return err
	}
	if len(checks) == 0 {
		checks = nil
	}
	t.Checks = checks
	if ac.columnsChanged && t.HasEnforcedChecks() {
		ac.validate = true
	}
	return s.checkFKActions(t)
}

// alterCheckNotFound is the error for ALTER CHECK (or ALTER CONSTRAINT)
// naming no CHECK constraint of the table.
func (s *Session) alterCheckNotFound(ac *alterChecks, old *catalog.Table, name string) error {
	via := false
	for _, n := range ac.viaConstraint {
		if strings.EqualFold(n, name) {
			via = true
		}
	}
	if !via {
		return checkNotFoundErr(name)
	}
	if dk, _, err := s.dropConstraint(old, name); err == nil && dk != nil {
		return sqlerr.New(erAlterConstraintEnforcement, sqlerror.SSUnknownSQLState, "Altering constraint enforcement is not supported for the constraint '%s'. Enforcement state alter is not supported for the PRIMARY, UNIQUE and FOREIGN KEY type constraints.", name)
	}
	return sqlerr.New(erConstraintNotFound, sqlerror.SSUnknownSQLState, "Constraint '%s' does not exist.", name)
}

func indexOfCheck(cs []catalog.CheckConstraint, name string) int {
	for i := range cs {
		if strings.EqualFold(cs[i].Name, name) {
			return i
		}
	}
	return -1
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
		return nil, false, sqlerr.New(erConstraintNotFound, sqlerror.SSUnknownSQLState, "Constraint '%s' does not exist.", name)
	case 1:
		return kinds[0], isCheck, nil
	}
	return nil, false, sqlerr.New(erMultipleConstraintsWithName, sqlerror.SSUnknownSQLState, "Table has multiple constraints with the name '%s'. Please use constraint specific 'DROP' clause.", name)
}

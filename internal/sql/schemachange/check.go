package schemachange

import (
	"strings"
	"unicode/utf8"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// CHECK constraints in DDL (MySQL 8.0.16+ semantics), the rules that need
// no session: the constraints a CREATE TABLE writes, the rules MySQL checks
// on an expression before resolving it, generated names, CREATE TABLE ...
// LIKE's copies, and what an ALTER TABLE asks of them (AlterChecks). The
// session resolves and compiles the expressions (internal/sql,
// check_constraint.go), and enforces them on rows (check_enforce.go).

// maxIdentChars is the longest identifier MySQL accepts, in characters.
const maxIdentChars = 64

// CheckSpec is a CHECK constraint as written in CREATE TABLE or ALTER
// TABLE, before validation.
type CheckSpec struct {
	Name     string // "" until generated
	Expr     sqlparser.Expr
	Enforced bool
	// Column is the column a column-level constraint was written on ("" for
	// a table-level one); it may refer to that column only.
	Column string
}

// CheckSpecsOfTable collects the CHECK constraints of a CREATE TABLE
// definition in statement order. cols (parse.MoveColumnChecks) names the
// column of each column-level one; nil when all are table-level.
func CheckSpecsOfTable(spec *sqlparser.TableSpec, cols []string) ([]CheckSpec, error) {
	var out []CheckSpec
	for _, c := range spec.Constraints {
		cd, ok := c.Details.(*sqlparser.CheckConstraintDefinition)
		if !ok {
			continue
		}
		sp := CheckSpec{Name: c.Name.String(), Expr: cd.Expr, Enforced: cd.Enforced}
		if cols != nil {
			if len(out) >= len(cols) {
				return nil, sqlerr.Unsupported("this form of column CHECK constraint")
			}
			sp.Column = cols[len(out)]
		}
		out = append(out, sp)
	}
	if cols != nil && len(out) != len(cols) {
		return nil, sqlerr.Unsupported("this form of column CHECK constraint")
	}
	return out, nil
}

// PreValidateCheck applies MySQL's rules on a constraint before its columns
// are resolved: the name's length, a column constraint's single column, a
// boolean expression, and no disallowed construct.
func PreValidateCheck(sp *CheckSpec) error {
	if utf8.RuneCountInString(sp.Name) > maxIdentChars {
		return sqlerr.TooLongIdent(sp.Name)
	}
	if sp.Column != "" {
		cols := CheckColumnRefs(sp.Expr)
		if len(cols) == 0 {
			return sqlerr.New(sqlerr.ColumnCheckRefersOtherColumn, sqlerror.SSUnknownSQLState, "Column check constraint '%s' references other column.", sp.Name)
		}
		for _, c := range cols {
			if !strings.EqualFold(c, sp.Column) {
				return sqlerr.New(sqlerr.ColumnCheckRefersOtherColumn, sqlerror.SSUnknownSQLState, "Column check constraint '%s' references other column.", sp.Name)
			}
		}
	}
	if !isBooleanExpr(sp.Expr) {
		return sqlerr.New(sqlerr.NonBooleanExprForCheck, sqlerror.SSUnknownSQLState, "An expression of non-boolean type specified to a check constraint '%s'.", sp.Name)
	}
	return disallowedInCheck(sp.Name, sp.Expr)
}

// CheckColumnRefs returns the columns e refers to, each once (the first
// spelling), in order of appearance.
func CheckColumnRefs(e sqlparser.Expr) []string {
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
		switch cur.Node().(type) {
		case *sqlparser.Subquery, *sqlparser.ValuesFuncExpr, sqlparser.AggrFunc, sqlparser.WindowFunc:
			first = sqlerr.New(sqlerr.CheckFunctionNotAllowed, sqlerror.SSUnknownSQLState, "An expression of a check constraint '%s' contains disallowed function.", name)
		case *sqlparser.Variable:
			first = sqlerr.New(sqlerr.CheckVariables, sqlerror.SSUnknownSQLState, "An expression of a check constraint '%s' cannot refer to a user or system variable.", name)
		default:
			if fn, ok := nondeterministicCall(cur.Node()); ok {
				first = sqlerr.New(sqlerr.CheckNamedFunctionNotAllowed, sqlerror.SSUnknownSQLState, "An expression of a check constraint '%s' contains disallowed function: %s.", name, fn)
			}
		}
		return first == nil
	})
	return first
}

// nondeterministicCall reports whether n calls a function a CHECK
// constraint or a generated column may not (its result depends on more
// than its arguments: time, session, randomness, locks, stored functions),
// and the name MySQL's error gives it.
func nondeterministicCall(n sqlparser.SQLNode) (string, bool) {
	switch n := n.(type) {
	case *sqlparser.CurTimeFuncExpr:
		fn, ok := checkDisallowedFuncs[n.Name.Lowered()]
		return fn, ok
	case *sqlparser.LockingFunc:
		return n.Type.ToString(), true
	case *sqlparser.FuncExpr:
		fn := n.Name.Lowered()
		if !n.Qualifier.IsEmpty() {
			return "`" + fn + "`", true
		}
		if fn == "unix_timestamp" && len(n.Exprs) == 0 {
			return fn, true
		}
		mysqlName, ok := checkDisallowedFuncs[fn]
		return mysqlName, ok
	}
	return "", false
}

// CheckAutoIncRefs refuses constraints on t's AUTO_INCREMENT column (3818).
func CheckAutoIncRefs(t *catalog.Table, checks []catalog.CheckConstraint) error {
	if t.AutoIncCol < 0 {
		return nil
	}
	ai := t.Columns[t.AutoIncCol].Name
	for i := range checks {
		if checks[i].Uses(ai) {
			return sqlerr.New(sqlerr.CheckRefersAutoIncrementColumn, sqlerror.SSUnknownSQLState, "Check constraint '%s' cannot refer to an auto-increment column.", checks[i].Name)
		}
	}
	return nil
}

// CheckNameClash refuses a CHECK constraint of t named like one of other
// (tables of the same database).
func CheckNameClash(t, other *catalog.Table) error {
	for i := range t.Checks {
		if other.CheckIndex(t.Checks[i].Name) >= 0 {
			return sqlerr.CheckDupName(t.Checks[i].Name)
		}
	}
	return nil
}

// CheckGeneratedNameLengths refuses generated names longer than an
// identifier may be (a long table name renamed or copied).
func CheckGeneratedNameLengths(checks []catalog.CheckConstraint) error {
	for i := range checks {
		if utf8.RuneCountInString(checks[i].Name) > maxIdentChars {
			return sqlerr.TooLongIdent(checks[i].Name)
		}
	}
	return nil
}

// ChangingAction reports whether a foreign key's ON UPDATE/ON DELETE rule
// changes the referencing columns (a CHECK constraint may not use them).
func ChangingAction(rule string) bool {
	return rule == "CASCADE" || rule == "SET NULL" || rule == "SET DEFAULT"
}

// LikeChecks renames the constraints copied by CREATE TABLE ... LIKE as
// MySQL does: all of them, generated names <table>_chk_1, _2, ... in the
// source's order.
func LikeChecks(src []catalog.CheckConstraint, table string) []catalog.CheckConstraint {
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

// AlterChecks is the CHECK constraint part of one ALTER TABLE, applied in
// MySQL's order once every clause is read: drops, then ALTER CHECK, then
// the column drops and renames constraints depend on, then the additions.
type AlterChecks struct {
	// Cols is parse.MoveColumnChecks's column list for the statement's
	// added constraints; seq counts the ones read so far.
	Cols     []string
	seq      int
	Add      []CheckSpec
	Drop     []string
	Enforce  []EnforceCheck
	DropCols []string
	Renamed  []string
	// ViaConstraint names the constraints of ALTER CONSTRAINT clauses
	// (parsed as ALTER CHECK): a name that is not a CHECK constraint gets
	// MySQL's answer for that form.
	ViaConstraint []string
	// ColumnsChanged: a column definition changed (CHANGE, MODIFY, ALTER
	// COLUMN); MySQL copies such a table, checking every row (a constraint
	// may use DEFAULT(col)).
	ColumnsChanged bool
	// Validate: rows must be checked (a constraint added or enforced).
	Validate bool
}

// EnforceCheck is one ALTER CHECK name [NOT] ENFORCED.
type EnforceCheck struct {
	Name     string
	Enforced bool
}

// AddSpec records ADD [CONSTRAINT [name]] CHECK (...).
func (ac *AlterChecks) AddSpec(name string, cd *sqlparser.CheckConstraintDefinition) error {
	sp := CheckSpec{Name: name, Expr: cd.Expr, Enforced: cd.Enforced}
	if ac.Cols != nil {
		if ac.seq >= len(ac.Cols) {
			return sqlerr.Unsupported("this form of column CHECK constraint")
		}
		sp.Column = ac.Cols[ac.seq]
	}
	ac.seq++
	ac.Add = append(ac.Add, sp)
	return nil
}

// IndexOfCheck returns the position of CHECK constraint name in cs, -1
// when there is none (names compare case-insensitively).
func IndexOfCheck(cs []catalog.CheckConstraint, name string) int {
	for i := range cs {
		if strings.EqualFold(cs[i].Name, name) {
			return i
		}
	}
	return -1
}

package schemachange

import (
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Generated columns in DDL (MySQL 8.0 semantics): the rules on a
// generation expression that need no session. The session formats and
// compiles the expression (internal/sql, generated.go) and computes the
// values on write.

// CheckGeneratedExpr checks the generation expression e of column ci of t:
// no subqueries, aggregates, window functions or variables (3102), no
// non-deterministic function (3757), only columns of t (1054), generated
// columns only when defined before it (3107), no AUTO_INCREMENT column
// (3109).
func CheckGeneratedExpr(t *catalog.Table, ci int, e sqlparser.Expr) error {
	name := t.Columns[ci].Name
	var first error
	sqlparser.Rewrite(e, nil, func(cur *sqlparser.Cursor) bool {
		if first != nil {
			return false
		}
		if fn, ok := nondeterministicCall(cur.Node()); ok {
			first = sqlerr.New(sqlerr.GeneratedNamedFunctionNotAllowed, sqlerror.SSUnknownSQLState, "Expression of generated column '%s' contains a disallowed function: %s.", name, fn)
			return false
		}
		switch n := cur.Node().(type) {
		case *sqlparser.Subquery, *sqlparser.ValuesFuncExpr, sqlparser.AggrFunc, sqlparser.WindowFunc, *sqlparser.Variable:
			first = sqlerr.New(sqlerr.GeneratedFunctionNotAllowed, sqlerror.SSUnknownSQLState, "Expression of generated column '%s' contains a disallowed function.", name)
		case *sqlparser.ColName:
			ref := t.ColumnIndex(n.Name.String())
			switch {
			case ref < 0 || (!n.Qualifier.IsEmpty() && n.Qualifier.Name.String() != t.Name):
				first = sqlerr.New(sqlerror.ERBadFieldError, sqlerror.SSBadFieldError, "Unknown column '%s' in 'generated column function'", n.Name.String())
			case t.Columns[ref].Generated != "" && ref >= ci:
				first = sqlerr.New(sqlerr.GeneratedNonPrior, sqlerror.SSUnknownSQLState, "Generated column can refer only to generated columns defined prior to it.")
			case t.Columns[ref].AutoIncrement:
				first = sqlerr.New(sqlerr.GeneratedRefAutoInc, sqlerror.SSUnknownSQLState, "Generated column '%s' cannot refer to auto-increment column.", name)
			}
		}
		return first == nil
	})
	if first != nil {
		return first
	}
	// A virtual column cannot be (part of) the primary key.
	if !t.Columns[ci].GeneratedStored {
		for _, ix := range t.Indexes {
			if !ix.Primary {
				continue
			}
			for _, kc := range ix.Columns {
				if kc.Col == ci {
					return sqlerr.New(sqlerr.UnsupportedOnGenerated, sqlerror.SSUnknownSQLState, "'Defining a virtual generated column as primary key' is not supported for generated columns.")
				}
			}
		}
	}
	return nil
}

// GeneratedDependents returns the first generated column of t other than
// the columns in gone whose expression refers to one of them (ALTER TABLE
// DROP COLUMN: 3108), or "".
func GeneratedDependents(t *catalog.Table, gone map[string]bool, parse func(string) (sqlparser.Expr, error)) (col, dep string) {
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.Generated == "" || gone[c.Name] {
			continue
		}
		e, err := parse(c.Generated)
		if err != nil {
			continue
		}
		for _, ref := range CheckColumnRefs(e) {
			if gone[ref] {
				return ref, c.Name
			}
		}
	}
	return "", ""
}

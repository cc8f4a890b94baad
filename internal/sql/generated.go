package sql

import (
	"fmt"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/schemachange"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Generated columns (MySQL 8.0: `c INT AS (a + b) [VIRTUAL | STORED]`).
//
// CREATE and ALTER TABLE check each generation expression
// (schemachange.CheckGeneratedExpr), compile it against the table and keep
// it in MySQL's printed form. Rows get their generated values computed
// where the enforced CHECK constraints are evaluated — every row INSERT,
// REPLACE, ON DUPLICATE KEY UPDATE, UPDATE (single and multi-table) and a
// table rebuild writes — in column order, before the constraints, converted
// to the column's type as an assigned value is. VIRTUAL columns are
// computed and stored like STORED ones (they read the same and can be
// indexed); a statement may give a generated column only DEFAULT (3105; ignored
// with a warning outside strict mode, for MariaDB's dumps).

// finishGenerated checks t's generation expressions and puts them in
// MySQL's form (the form is stable: a formatted expression formats to
// itself, so an ALTER TABLE may pass every column through again).
func (s *Session) finishGenerated(t *catalog.Table) error {
	if !t.HasGenerated() {
		return nil
	}
	sc := &eval.Scope{}
	sc.AddTable(t, t.Name)
	c := s.newCompiler(nil, sc, nil, nil)
	charset := coltype.CharsetName(s.collation())
	return s.eachGenerated(t, c, func(i int, e sqlparser.Expr, _ *eval.Expr) error {
		t.Columns[i].Generated = checkClause(e, charset)
		return nil
	}, true)
}

// compileGenerated adds t's generated columns to cs.
func (s *Session) compileGenerated(t *catalog.Table, c *compiler, cs *checkSet) error {
	cs.def = t
	return s.eachGenerated(t, c, func(i int, _ sqlparser.Expr, x *eval.Expr) error {
		cs.genCols = append(cs.genCols, i)
		cs.genExprs = append(cs.genExprs, x)
		return nil
	}, false)
}

// eachGenerated parses and compiles (with c) every generated column's
// expression of t and calls fn with the column's ordinal, the parsed and
// the compiled expression. ddl: the text comes from a statement (a parse
// error is the user's 1064; else it is a stored definition's).
func (s *Session) eachGenerated(t *catalog.Table, c *compiler, fn func(i int, e sqlparser.Expr, x *eval.Expr) error, ddl bool) error {
	for i := range t.Columns {
		col := &t.Columns[i]
		if col.Generated == "" {
			continue
		}
		e, err := s.eng.Parser.ParseExpr(col.Generated)
		if err != nil {
			if ddl {
				return sqlerr.Syntax(err.Error())
			}
			return fmt.Errorf("generated column %s of %s.%s: %w", col.Name, t.DB, t.Name, err)
		}
		if ddl {
			// The rules first: they name the column in their errors.
			if err := schemachange.CheckGeneratedExpr(t, i, e); err != nil {
				return err
			}
			if fn := s.storedCallName(e); fn != "" {
				return sqlerr.New(sqlerr.GeneratedNamedFunctionNotAllowed, sqlerror.SSUnknownSQLState, "Expression of generated column '%s' contains a disallowed function: %s.", col.Name, fn)
			}
		}
		x, err := c.Compile(e)
		if err != nil {
			return err
		}
		if err := fn(i, e, x); err != nil {
			return err
		}
	}
	return nil
}

// computeGenerated sets the generated columns of row, in column order (a
// generated column may read the ones before it). With ignore (INSERT
// IGNORE, UPDATE IGNORE) a value that does not fit its column is adjusted
// with a warning instead of failing the statement.
func (s *Session) computeGenerated(ex *execCtx, cs *checkSet, row Row, ignore bool) error {
	strict := s.strict() && !ignore
	for k, ci := range cs.genCols {
		v, err := ex.Eval(cs.genExprs[k], row)
		if err != nil {
			return err
		}
		col := &cs.def.Columns[ci]
		if v.IsNull() {
			if !col.Nullable {
				if strict {
					return sqlerr.New(sqlerror.ERBadNullError, sqlerror.SSConstraintViolation, "Column '%s' cannot be null", col.Name)
				}
				s.warn("Warning", uint16(sqlerror.ERBadNullError), fmt.Sprintf("Column '%s' cannot be null", col.Name))
				v = coltype.ImplicitDefault(col)
			}
			row[ci] = v
			continue
		}
		cv, w, err := coltype.ConvertIn(col, v, strict, 1, s.zoneOf(col))
		if err != nil {
			return err
		}
		if w != nil {
			s.warn(w.Level, w.Code, w.Message)
		}
		// The evaluator's result may live in its scratch memory: the row
		// outlives the next evaluation.
		row[ci] = cloneValue(cv)
	}
	return nil
}

// refuseGeneratedValue answers 3105 when a statement gives generated
// column ci of t a value other than DEFAULT (e nil: a value from a
// SELECT). Outside strict mode the value is ignored with a 3105 warning
// instead, as MariaDB does: its mysqldump writes the generated columns'
// values into the INSERTs of a dump (under a non-strict sql_mode), and a
// dump must load.
func (s *Session) refuseGeneratedValue(t *catalog.Table, ci int, e sqlparser.Expr) error {
	if t.Columns[ci].Generated == "" {
		return nil
	}
	if _, ok := e.(*sqlparser.Default); ok {
		return nil
	}
	msg := fmt.Sprintf("The value specified for generated column '%s' in table '%s' is not allowed.", t.Columns[ci].Name, t.Name)
	if !s.strict() {
		s.warn("Warning", uint16(sqlerr.WrongValueForGenerated), msg)
		return nil
	}
	return sqlerr.New(sqlerr.WrongValueForGenerated, sqlerror.SSUnknownSQLState, "%s", msg)
}

// alterGenerated applies the generated-column rules to an ALTER TABLE
// that turned old into a.Table: a column a remaining generated column
// reads may not be dropped or renamed (3108); the expressions are checked
// and formatted; a generated column added or changed makes the change a
// rebuild, which computes it for every existing row.
func (s *Session) alterGenerated(old *catalog.Table, a *schemachange.AlterDef) error {
	nt := a.Table
	if !nt.HasGenerated() {
		return nil
	}
	gone := map[string]bool{}
	for i := range old.Columns {
		if nt.ColumnIndex(old.Columns[i].Name) < 0 {
			gone[old.Columns[i].Name] = true
		}
	}
	if col, _ := schemachange.GeneratedDependents(nt, gone, s.eng.Parser.ParseExpr); col != "" {
		return sqlerr.New(sqlerr.DependentByGenerated, sqlerror.SSUnknownSQLState, "Column '%s' has a generated column dependency.", col)
	}
	if err := s.finishGenerated(nt); err != nil {
		return err
	}
	for i := range nt.Columns {
		c := &nt.Columns[i]
		if c.Generated == "" {
			continue
		}
		oi := old.ColumnIndex(c.Name)
		if oi < 0 || old.Columns[oi].Generated != c.Generated || old.Columns[oi].GeneratedStored != c.GeneratedStored ||
			old.Columns[oi].Type != c.Type || old.Columns[oi].Length != c.Length || old.Columns[oi].Scale != c.Scale {
			a.Rebuild = true
			a.NewIndexes, a.DropIndexes = nil, nil
			return nil
		}
	}
	return nil
}

package sql

import (
	"context"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/txn"
)

// Enforcement of CHECK constraints on the rows DML writes (INSERT, INSERT
// ... SELECT, REPLACE, INSERT ... ON DUPLICATE KEY UPDATE, UPDATE single
// and multi-table) and on the existing rows ALTER TABLE validates.
//
// A row violates a constraint when its expression is FALSE; NULL (unknown)
// passes. The statement then fails with 3819 (and, being atomic, changes
// nothing); with IGNORE the row is skipped with a 3819 warning. Constraints
// are compiled once per statement (or with a prepared UPDATE's plan) against
// the table's column order, and evaluated in MySQL's order, by name.

// checkSet is the compiled enforced CHECK constraints of one table
// definition.
type checkSet struct {
	names []string
	exprs []*eval.Expr
	// The generated columns (generated.go), computed before the
	// constraints are checked; def is the table they belong to.
	genCols  []int
	genExprs []*eval.Expr
	def      *catalog.Table
}

// compileChecks compiles t's enforced CHECK constraints; nil when there
// are none.
func (s *Session) compileChecks(t *catalog.Table) (*checkSet, error) {
	vc := s.viewChecks
	if !t.HasEnforcedChecks() && !t.HasGenerated() && !vc.applies(t) {
		return nil, nil
	}
	sc := &eval.Scope{}
	sc.AddTable(t, t.Name)
	c := s.newCompiler(nil, sc, nil, nil)
	c.NoDivChecks = true
	cs := &checkSet{}
	if t.HasGenerated() {
		if err := s.compileGenerated(t, c, cs); err != nil {
			return nil, err
		}
	}
	for i := range t.Checks {
		ck := &t.Checks[i]
		if ck.NotEnforced {
			continue
		}
		e, err := s.eng.Parser.ParseExpr(ck.Clause)
		if err != nil {
			return nil, sqlerr.New(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState, "check constraint %s of %s.%s: %v", ck.Name, t.DB, t.Name, err)
		}
		x, err := c.Compile(e)
		if err != nil {
			return nil, err
		}
		cs.names = append(cs.names, ck.Name)
		cs.exprs = append(cs.exprs, x)
	}
	if vc.applies(t) {
		// WITH CHECK OPTION of the view the statement writes through
		// (view_dml.go).
		for i, e := range vc.exprs {
			x, err := c.Compile(e)
			if err != nil {
				return nil, err
			}
			cs.names = append(cs.names, viewCheckPrefix+vc.names[i])
			cs.exprs = append(cs.exprs, x)
		}
	}
	return cs, nil
}

// violated returns the name of the first constraint row violates, "" when
// it violates none.
func (cs *checkSet) violated(ex *execCtx, row Row) (string, error) {
	for i, x := range cs.exprs {
		bad, err := ex.EvalFalse(x, row)
		if err != nil {
			return "", err
		}
		if bad {
			return cs.names[i], nil
		}
	}
	return "", nil
}

// checkRow enforces cs (nil: no constraints) on a row about to be written.
// With ignore a violation becomes warning 3819 and ok is false: the caller
// skips the row. Otherwise it is error 3819.
func (s *Session) checkRow(ex *execCtx, cs *checkSet, row Row, ignore bool) (ok bool, err error) {
	if cs == nil {
		return true, nil
	}
	if len(cs.genCols) > 0 {
		if err := s.computeGenerated(ex, cs, row, ignore); err != nil {
			return false, err
		}
	}
	name, err := cs.violated(ex, row)
	if err != nil || name == "" {
		return err == nil, err
	}
	if view, ok := strings.CutPrefix(name, viewCheckPrefix); ok {
		if ignore {
			s.warn("Warning", uint16(sqlerr.ViewCheckFailed), "CHECK OPTION failed '"+view+"'")
			return false, nil
		}
		return false, viewCheckFailed(view)
	}
	if ignore {
		s.warn("Warning", uint16(sqlerr.CheckConstraintViolated), "Check constraint '"+name+"' is violated.")
		return false, nil
	}
	return false, sqlerr.CheckViolated(name)
}

// validateRows checks every row of old against cs, the enforced constraints
// of the altered definition (ALTER TABLE that adds or enforces a constraint
// without rebuilding the table: the rows keep their layout).
func (s *Session) validateRows(ctx context.Context, old *catalog.Table, cs *checkSet) error {
	if cs == nil {
		return nil
	}
	tx := s.eng.DB.Begin(ctx, txn.ReadCommitted, s.lockTimeout)
	defer tx.Rollback()
	tbl := s.eng.Store.Open(old)
	sc, err := tbl.NewScan(tx, old.Primary(), nil, nil, false, true)
	if err != nil {
		return err
	}
	defer sc.Close()
	ex := s.newExecCtx(ctx, tx, nil)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		row, _, ok, err := sc.Next()
		if err != nil || !ok {
			return err
		}
		if _, err := s.checkRow(ex, cs, s.fromStore(tbl, row), false); err != nil {
			return err
		}
	}
}

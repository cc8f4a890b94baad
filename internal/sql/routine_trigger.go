package sql

import (
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Trigger bodies with stored-program control flow (DECLARE, IF, CASE,
// loops, cursors, handlers, ...) run on the routine interpreter: the body
// compiles as a routine's would, with NEW.col and OLD.col bound to the
// firing row (trgProgram.bindRowsNode) and SET NEW.col = expr assigning
// the row; it runs nested in the triggering statement, as its definer.
// Bodies of plain statements keep trigger_compile.go's simpler path.

// spNewCol is the slot of a target that is a column of NEW.
const spNewCol = -3

// compileTriggerSP compiles trigger tr of table t on the interpreter.
func (e *Engine) compileTriggerSP(t *catalog.Table, tr *catalog.Trigger) (*trgProgram, error) {
	p := &trgProgram{def: tr, table: t, sqlMode: parseSQLMode(tr.SQLMode)}
	sp := &spProgram{name: t.DB + "." + tr.Name, sqlMode: p.sqlMode,
		def: &catalog.Routine{DB: t.DB, Name: tr.Name, Type: "TRIGGER", Definer: tr.Definer}}
	c := &spCompiler{e: e, p: sp, trg: p, seen: map[string]bool{}}
	c.push()
	tree, err := parse.ParseBody(tr.Body)
	if err != nil {
		return nil, spSyntax(err, tr.Body)
	}
	body, err := c.stmt(tree)
	if err == nil {
		err = c.bindErr
	}
	if err != nil {
		return nil, err
	}
	sp.body = body
	p.sp = sp
	return p, nil
}

// setRowTargets takes the NEW.col = expr items out of a trigger's SET
// statement, returning the rest as a SET statement ("" when none is
// left).
func (c *spCompiler) setRowTargets(op *spOp, text string) (string, error) {
	body := strings.TrimSpace(text)[len("SET"):]
	parts, _ := parse.SplitTopLevel(body, ',')
	var rest []string
	for _, a := range parts {
		lhs, rhs, ok := splitAssign(a)
		if !ok {
			rest = append(rest, a)
			continue
		}
		low := strings.ToLower(lhs)
		switch {
		case strings.HasPrefix(low, "new."):
			if c.trg.def.Event == "DELETE" {
				return "", sqlerr.New(sqlerr.TrgNoSuchRowInTrg, sqlerror.SSUnknownSQLState, "There is no NEW row in on DELETE trigger")
			}
			if c.trg.def.Timing == "AFTER" {
				return "", sqlerr.New(sqlerr.TrgCantChangeRow, sqlerror.SSUnknownSQLState, "Updating of NEW row is not allowed in after trigger")
			}
			name := unquoteVar(strings.TrimSpace(lhs[4:]))
			ci := c.trg.table.ColumnIndex(name)
			if ci < 0 {
				return "", sqlerr.New(sqlerror.ERBadFieldError, sqlerror.SSBadFieldError, "Unknown column '%s' in 'NEW'", name)
			}
			if c.trg.table.Columns[ci].Generated != "" {
				return "", sqlerr.Unsupported("SET NEW of a generated column")
			}
			x, err := c.expr(rhs)
			if err != nil {
				return "", err
			}
			op.targets = append(op.targets, spTarget{slot: spNewCol, col: ci})
			op.exprs = append(op.exprs, x)
		case strings.HasPrefix(low, "old."):
			return "", sqlerr.New(sqlerr.TrgCantChangeRow, sqlerror.SSUnknownSQLState, "Updating of OLD row is not allowed in trigger")
		default:
			rest = append(rest, a)
		}
	}
	if len(rest) == 0 {
		return "", nil
	}
	return "SET " + strings.Join(rest, ","), nil
}

// assignNew stores v into column ci of the trigger's NEW row, converted
// to the column's type.
func (s *Session) assignNew(f *spFrame, ci int, v Value) error {
	t := f.trg.table
	c := &t.Columns[ci]
	if v.IsNull() {
		if !c.Nullable && ci != t.AutoIncCol {
			return sqlerr.New(sqlerror.ERBadNullError, sqlerror.SSConstraintViolation, "Column '%s' cannot be null", c.Name)
		}
	} else {
		cv, w, err := coltype.Convert(c, v, s.strict(), 1)
		if err != nil {
			return err
		}
		if w != nil {
			s.warn(w.Level, w.Code, w.Message)
		}
		v = cv
	}
	f.row[ci] = cloneValue(v)
	if name := trgArg(true, ci); f.bv[name] != nil {
		f.bv[name] = sqltypes.ValueBindVariable(f.row[ci])
	}
	return nil
}

// runTriggerSP runs a trigger body on the interpreter, inside the
// triggering statement ex, as the trigger's definer.
func (s *Session) runTriggerSP(ex *execCtx, p *trgProgram, row Row, bv map[string]*querypb.BindVariable, definer *privilege.Subject) error {
	f := s.newFrame(ex.Context(), p.sp, ex)
	for k, v := range bv {
		f.bv[k] = v
	}
	f.row, f.trg = row, p
	saved := s.routines.as
	s.routines.as = &routineSubject{sub: definer}
	defer func() { s.routines.as = saved }()
	if _, _, err := s.spRun(f, p.sp.body); err != nil {
		if _, _, err = s.spHandle(f, err); err != nil {
			return unwrapSP(err)
		}
	}
	return nil
}

package sql

import (
	"time"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// multiTarget collects the rows of one table a multi-table UPDATE/DELETE
// changes, each once (MySQL applies the first matching combination).
type multiTarget struct {
	src  *tableSource
	seen map[string]bool
	rows []targetRow
	// For UPDATE: per row, the combined row it was matched with.
	combined []Row
}

// planMultiJoin plans the FROM/WHERE of a multi-table statement as a
// locking join and returns the plan and its sources by alias.
func (s *Session) planMultiJoin(ex *execCtx, from []sqlparser.TableExpr, where *sqlparser.Where) (*selectPlan, error) {
	// Planned as SELECT ... FOR UPDATE: a locking join reads each
	// table's rows in place (no hash join's copies, no covering index
	// scan), to lock and change them.
	sel := &sqlparser.Select{From: from, Where: where, Lock: sqlparser.ForUpdateLock,
		SelectExprs: &sqlparser.SelectExprs{Exprs: []sqlparser.SelectExpr{&sqlparser.StarExpr{}}}}
	p, err := s.planSelect(ex.Context(), sel)
	if err != nil {
		return nil, err
	}
	for _, src := range p.srcs {
		if src.virtual != nil {
			return nil, sqlerr.New(sqlerror.ERNonUpdateableTable, sqlerror.SSUnknownSQLState, "The target table %s of the UPDATE is not updatable", src.alias)
		}
	}
	return p, nil
}

// writeTargets takes the write mode of the metadata lock on each table a
// multi-table statement changes (the join took the read mode).
func (s *Session) writeTargets(ex *execCtx, targets map[int]*multiTarget) error {
	for _, tg := range targets {
		if err := s.useTable(ex.Context(), tg.src.def, true); err != nil {
			return err
		}
	}
	return nil
}

// collectMulti runs the join and gathers rows of the target sources.
func (s *Session) collectMulti(ex *execCtx, p *selectPlan, targets map[int]*multiTarget) error {
	ex.SetBV(s.bindSessionVars(p.bindNames, ex.BV))
	for _, f := range p.constFilter {
		ok, err := ex.EvalBool(f, nil)
		if err != nil || !ok {
			return err
		}
	}
	ji := newJoinIter(ex, p.srcs, p.width, lockExclusive)
	defer ji.close()
	for {
		row, ok, err := ji.next(ex)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		for lvl, tg := range targets {
			pk := ji.currentPK(lvl)
			if pk == nil || tg.seen[string(pk)] {
				continue
			}
			tg.seen[string(pk)] = true
			src := tg.src
			tg.rows = append(tg.rows, targetRow{pk: append([]byte(nil), pk...), row: copyRow(nil, row[src.off:src.off+src.width])})
			tg.combined = append(tg.combined, copyRow(nil, row))
		}
	}
}

// execMultiUpdate runs UPDATE t1 JOIN t2 ... SET ...
func (s *Session) execMultiUpdate(ex *execCtx, st *sqlparser.Update) (*sqltypes.Result, error) {
	if len(st.OrderBy) > 0 || st.Limit != nil {
		return nil, sqlerr.New(sqlerror.ERWrongUsage, sqlerror.SSUnknownSQLState, "Incorrect usage of UPDATE and ORDER BY")
	}
	p, err := s.planMultiJoin(ex, st.TableExprs, st.Where)
	if err != nil {
		return nil, err
	}
	c := s.newCompiler(ex.Context(), p.sc, &p.bindNames, nil)
	type assign struct {
		lvl, col int
		x        *eval.Expr
	}
	var assigns []assign
	targets := map[int]*multiTarget{}
	for _, ue := range st.Exprs {
		i, err := p.sc.Resolve(ue.Name)
		if err != nil {
			return nil, err
		}
		lvl := -1
		for k, src := range p.srcs {
			if i >= src.off && i < src.off+src.width {
				lvl = k
			}
		}
		if lvl >= 0 && p.srcs[lvl].def != nil {
			if err := s.refuseGeneratedValue(p.srcs[lvl].def, i-p.srcs[lvl].off, ue.Expr); err != nil {
				return nil, err
			}
		}
		x, err := c.Compile(ue.Expr)
		if err != nil {
			return nil, err
		}
		assigns = append(assigns, assign{lvl: lvl, col: i - p.srcs[lvl].off, x: x})
		if targets[lvl] == nil {
			targets[lvl] = &multiTarget{src: p.srcs[lvl], seen: map[string]bool{}}
		}
	}
	if err := s.writeTargets(ex, targets); err != nil {
		return nil, err
	}
	if err := s.collectMulti(ex, p, targets); err != nil {
		return nil, err
	}
	var matched, changed uint64
	for lvl, tg := range targets {
		t := tg.src.def
		tbl := tg.src.tbl
		checks, err := s.compileChecks(t)
		if err != nil {
			return nil, err
		}
		tt := s.trgFor(t)
		// With BEFORE UPDATE triggers NOT NULL applies to the row they
		// leave.
		deferNull := tt != nil && len(tt.progs[trgBefore+trgUpdate]) > 0
		for k, tr := range tg.rows {
			matched++
			newRow := copyRow(nil, tr.row)
			comb := tg.combined[k]
			var cols []int
			for _, a := range assigns {
				if a.lvl != lvl {
					continue
				}
				v, err := ex.Eval(a.x, comb)
				if err != nil {
					return nil, err
				}
				col := &t.Columns[a.col]
				if v.IsNull() {
					if !col.Nullable && !deferNull {
						if s.strict() && !bool(st.Ignore) {
							return nil, sqlerr.New(sqlerror.ERBadNullError, sqlerror.SSConstraintViolation, "Column '%s' cannot be null", col.Name)
						}
						v = coltype.ImplicitDefault(col)
					}
				} else {
					cv, w, err := coltype.ConvertIn(col, v, s.strict() && !bool(st.Ignore), k+1, s.zoneOf(col))
					if err != nil {
						return nil, err
					}
					if w != nil {
						s.warn(w.Level, w.Code, w.Message)
					}
					v = cv
				}
				newRow[a.col] = cloneValue(v)
				cols = append(cols, a.col)
			}
			isChanged := !rowsEqual(tr.row, newRow)
			if isChanged {
				s.applyOnUpdate(ex, t, newRow, cols)
			}
			if tt != nil {
				if err := s.fire(ex, tt, trgBefore+trgUpdate, tr.row, newRow); err != nil {
					return nil, err
				}
				if deferNull {
					if err := s.updateNulls(t, newRow, cols, bool(st.Ignore)); err != nil {
						return nil, err
					}
				}
				isChanged = !rowsEqual(tr.row, newRow)
			}
			if ok, err := s.checkRow(ex, checks, newRow, bool(st.Ignore)); !ok {
				if err != nil {
					return nil, err
				}
				continue
			}
			if !isChanged {
				if err := s.fire(ex, tt, trgAfter+trgUpdate, tr.row, newRow); err != nil {
					return nil, err
				}
				continue
			}
			if _, err := s.fkUpdate(ex, tbl, tr.pk, tr.row, newRow); err != nil {
				return nil, err
			}
			if err := s.fire(ex, tt, trgAfter+trgUpdate, tr.row, newRow); err != nil {
				return nil, err
			}
			changed++
		}
	}
	res := &sqltypes.Result{RowsAffected: changed}
	if s.clientFoundRows {
		res.RowsAffected = matched
	}
	res.Info = updateInfo(matched, changed, len(s.warnings))
	_ = time.Now
	return res, nil
}

// execMultiDelete runs DELETE t1 [, t2] FROM ... JOIN ... and DELETE FROM
// t1 USING ...
func (s *Session) execMultiDelete(ex *execCtx, st *sqlparser.Delete) (*sqltypes.Result, error) {
	if len(st.OrderBy) > 0 || st.Limit != nil {
		return nil, sqlerr.New(sqlerror.ERWrongUsage, sqlerror.SSUnknownSQLState, "Incorrect usage of DELETE and ORDER BY")
	}
	p, err := s.planMultiJoin(ex, st.TableExprs, st.Where)
	if err != nil {
		return nil, err
	}
	targets := map[int]*multiTarget{}
	for _, tn := range st.Targets {
		name := tn.Name.String()
		found := false
		for k, src := range p.srcs {
			if src.alias == name {
				targets[k] = &multiTarget{src: src, seen: map[string]bool{}}
				found = true
			}
		}
		if !found {
			return nil, sqlerr.New(sqlerror.ERUnknownTable, sqlerror.SSUnknownTable, "Unknown table '%s' in MULTI DELETE", name)
		}
	}
	if err := s.writeTargets(ex, targets); err != nil {
		return nil, err
	}
	if err := s.collectMulti(ex, p, targets); err != nil {
		return nil, err
	}
	var n uint64
	for _, tg := range targets {
		tt := s.trgFor(tg.src.def)
		for _, tr := range tg.rows {
			if err := s.fire(ex, tt, trgBefore+trgDelete, tr.row, nil); err != nil {
				return nil, err
			}
			if err := s.fkDelete(ex, tg.src.tbl, tr.pk, tr.row); err != nil {
				return nil, err
			}
			if err := s.fire(ex, tt, trgAfter+trgDelete, tr.row, nil); err != nil {
				return nil, err
			}
			n++
		}
	}
	return &sqltypes.Result{RowsAffected: n}, nil
}

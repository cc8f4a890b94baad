package sql

import (
	"fmt"
	"strconv"
	"time"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/table"
)

// targetRow is a row chosen by UPDATE/DELETE, locked and read at its latest
// version.
type targetRow struct {
	pk  []byte
	row Row
	// fresh: the statement took the row's lock (see unlockUnused).
	fresh bool
}

// dmlPlan is a planned single-table UPDATE or DELETE: the access path and
// filters of its WHERE, ORDER BY/LIMIT and, for UPDATE, the compiled
// assignments. Prepared statements keep it across executions.
type dmlPlan struct {
	t       *catalog.Table
	tbl     *table.Table
	src     *tableSource
	sc      *eval.Scope
	sortKey []*eval.Expr
	desc    []bool
	limit   *eval.Expr
	// ordered: the access path yields ORDER BY order (stream with LIMIT).
	ordered bool
	cols    []int
	exprs   []*eval.Expr // nil entry: SET col = DEFAULT
	names   []string
	version uint64
	// checks are the table's enforced CHECK constraints (UPDATE; nil: none).
	checks *checkSet
}

// planDML plans the row selection of a single-table UPDATE/DELETE.
func (s *Session) planDML(ex *execCtx, t *catalog.Table, alias string, where *sqlparser.Where, orderBy sqlparser.OrderBy, limit *sqlparser.Limit) (*dmlPlan, *compiler, error) {
	p := &dmlPlan{t: t, tbl: s.eng.Store.Open(t), version: s.eng.Cat.Version()}
	s.planPrivate = false // see keepDML
	sc := &eval.Scope{Where: "where clause"}
	sc.AddTable(t, alias)
	p.sc = sc
	c := s.newCompiler(ex.Context(), sc, &p.names, nil)
	conds := plan.SplitAnd(plan.WhereExpr(where))
	var order []plan.OrderCol
	for _, o := range orderBy {
		oc := plan.OrderCol{Col: -1, Desc: o.Direction == sqlparser.DescOrder}
		if cn, ok := o.Expr.(*sqlparser.ColName); ok {
			if i, err := sc.Resolve(cn); err == nil {
				oc.Col = i
			}
		}
		order = append(order, oc)
	}
	preds := plan.Sargable(conds, sc, 0, len(t.Columns), nil, func(int) bool { return false })
	ap, err := chooseAccess(c, t, preds, plan.IndexHints{}, order, limit != nil)
	if err != nil {
		return nil, nil, err
	}
	p.src = &tableSource{def: t, tbl: p.tbl, alias: alias, width: len(t.Columns), path: ap}
	rest, used := plan.SplitConsumed(conds, ap.consumed)
	p.src.residual = len(rest)
	if !ap.consumedAfterLock(lockExclusive) {
		rest, used = conds, nil
	}
	if p.src.filter, err = c.compileAll(rest); err != nil {
		return nil, nil, err
	}
	if p.src.rangeFilter, err = c.compileAll(used); err != nil {
		return nil, nil, err
	}
	for _, o := range orderBy {
		sc.Where = "order clause"
		x, err := c.Compile(o.Expr)
		if err != nil {
			return nil, nil, err
		}
		p.sortKey = append(p.sortKey, x)
		p.desc = append(p.desc, o.Direction == sqlparser.DescOrder)
	}
	sc.Where = "field list"
	if limit != nil && limit.Rowcount != nil {
		lc := s.newCompiler(ex.Context(), &eval.Scope{}, &p.names, nil)
		if p.limit, err = lc.Compile(limit.Rowcount); err != nil {
			return nil, nil, err
		}
	}
	p.ordered = len(orderBy) == 0 || ap.ordered
	return p, c, nil
}

// collectTargets finds, locks and reads the rows the plan selects (WHERE,
// ORDER BY and LIMIT applied), each at its latest committed version.
func (s *Session) collectTargets(ex *execCtx, p *dmlPlan) ([]targetRow, error) {
	ex.SetBV(s.bindSessionVars(p.names, ex.BV))
	lim, _, err := ex.limitOffset(p.limit, nil)
	if err != nil {
		return nil, err
	}
	ji := newJoinIter(ex, []*tableSource{p.src}, len(p.t.Columns), lockExclusive)
	defer ji.close()
	var out []targetRow
	var keyed []Row
	var colls []collations.ID // of the ORDER BY keys
	for {
		if p.ordered && uint64(len(out)) >= lim {
			break
		}
		row, ok, err := ji.next(ex)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		out = append(out, targetRow{pk: append([]byte(nil), ji.currentPK(0)...), row: copyRow(nil, row), fresh: ji.freshLock(0)})
		if !p.ordered {
			k := make(Row, len(p.sortKey)+1)
			if colls == nil {
				colls = make([]collations.ID, len(p.sortKey)+1)
			}
			for i, e := range p.sortKey {
				v, coll, err := ex.EvalColl(e, row)
				if err != nil {
					return nil, err
				}
				k[i] = v
				if !v.IsNull() {
					colls[i] = coll
				}
			}
			k = copyRow(nil, k)
			k[len(p.sortKey)] = sqltypes.NewInt64(int64(len(out) - 1))
			keyed = append(keyed, k)
		}
	}
	if !p.ordered {
		keys := make([]sortKey, len(p.sortKey))
		for i := range p.sortKey {
			keys[i] = sortKey{idx: i, desc: p.desc[i]}
		}
		if err := sortRows(keyed, keys, colls, ex); err != nil {
			return nil, err
		}
		sorted := make([]targetRow, 0, len(out))
		for _, k := range keyed {
			i, _ := k[len(p.sortKey)].ToInt64()
			if uint64(len(sorted)) >= lim {
				// Sorted out by LIMIT: the statement does not touch the
				// row, so it does not keep it locked.
				if tr := out[i]; tr.fresh {
					p.tbl.UnlockRow(ex.tx, tr.pk)
				}
				continue
			}
			sorted = append(sorted, out[i])
		}
		out = sorted
	}
	return out, nil
}

// cachedDML returns the plan kept with the prepared statement being run,
// when it is still valid, after taking the table's metadata lock.
func (s *Session) cachedDML(ex *execCtx, st sqlparser.Statement) *dmlPlan {
	cp := s.running
	if cp == nil || cp.stmt != st || cp.dml == nil || cp.dml.version != s.eng.Cat.Version() {
		return nil
	}
	if s.tableDef(cp.dml.t.DB, cp.dml.t.Name) != cp.dml.t {
		return nil
	}
	if err := s.useTable(ex.Context(), cp.dml.t, true); err != nil {
		return nil
	}
	return cp.dml
}

// keepDML stores a plan with the prepared statement being run, unless
// the plan captured this session (planPrivate: the cached statement is
// shared by every session).
func (s *Session) keepDML(st sqlparser.Statement, p *dmlPlan) {
	if cp := s.running; cp != nil && cp.stmt == st && !s.planPrivate {
		cp.dml = p
	}
}

// execUpdate runs a single-table UPDATE.
func (s *Session) execUpdate(ex *execCtx, st *sqlparser.Update) (*sqltypes.Result, error) {
	if res, ok, err := s.updateView(ex, st); ok {
		return res, err
	}
	if len(st.TableExprs) != 1 {
		return s.execMultiUpdate(ex, st)
	}
	if _, ok := st.TableExprs[0].(*sqlparser.AliasedTableExpr); !ok {
		return s.execMultiUpdate(ex, st)
	}
	p := s.cachedDML(ex, st)
	if p == nil {
		t, alias, err := s.targetTable(ex, st.TableExprs[0], true)
		if err != nil {
			return nil, err
		}
		var c *compiler
		p, c, err = s.planDML(ex, t, alias, st.Where, st.OrderBy, st.Limit)
		if err != nil {
			return nil, err
		}
		for _, ue := range st.Exprs {
			if q := ue.Name.Qualifier.Name.String(); q != "" && q != alias {
				return nil, sqlerr.BadField(q+"."+ue.Name.Name.String(), "field list")
			}
			ci := t.ColumnIndex(ue.Name.Name.String())
			if ci < 0 {
				return nil, sqlerr.BadField(ue.Name.Name.String(), "field list")
			}
			if err := s.refuseGeneratedValue(t, ci, ue.Expr); err != nil {
				return nil, err
			}
			p.cols = append(p.cols, ci)
			if _, isDef := ue.Expr.(*sqlparser.Default); isDef {
				p.exprs = append(p.exprs, nil)
				continue
			}
			x, err := c.Compile(ue.Expr)
			if err != nil {
				return nil, err
			}
			p.exprs = append(p.exprs, x)
		}
		if p.checks, err = s.compileChecks(t); err != nil {
			return nil, err
		}
		s.keepDML(st, p)
	}
	targets, err := s.collectTargets(ex, p)
	if err != nil {
		return nil, err
	}
	t, tbl := p.t, p.tbl
	var matched, changed uint64
	tt := s.trgFor(t)
	// With BEFORE UPDATE triggers the NOT NULL rules apply to the row they
	// leave (MySQL 5.7+).
	deferNull := tt != nil && len(tt.progs[trgBefore+trgUpdate]) > 0
	newRow := make(Row, len(t.Columns))
	b := &rowBuilder{s: s, ex: ex, t: t, tbl: tbl, now: time.Now()}
	for rn, tr := range targets {
		matched++
		copy(newRow, tr.row)
		for i, ci := range p.cols {
			var v sqltypes.Value
			if p.exprs[i] == nil {
				v, err = b.defaultValue(ci)
			} else {
				v, err = ex.Eval(p.exprs[i], newRow)
			}
			if err != nil {
				return nil, err
			}
			col := &t.Columns[ci]
			if v.IsNull() {
				if !col.Nullable && !deferNull {
					if s.strict() && !bool(st.Ignore) {
						return nil, sqlerr.New(sqlerror.ERBadNullError, sqlerror.SSConstraintViolation, "Column '%s' cannot be null", col.Name)
					}
					s.warn("Warning", uint16(sqlerror.ERBadNullError), fmt.Sprintf("Column '%s' cannot be null", col.Name))
					v = coltype.ImplicitDefault(col)
				}
			} else {
				cv, w, err := coltype.ConvertIn(col, v, s.strict() && !bool(st.Ignore), rn+1, s.zoneOf(col))
				if err != nil {
					return nil, err
				}
				if w != nil {
					s.warn(w.Level, w.Code, w.Message)
				}
				v = cv
			}
			newRow[ci] = cloneValue(v)
		}
		isChanged := !rowsEqual(tr.row, newRow)
		if isChanged {
			s.applyOnUpdate(ex, t, newRow, p.cols)
		}
		if tt != nil {
			if err := s.fire(ex, tt, trgBefore+trgUpdate, tr.row, newRow); err != nil {
				return nil, err
			}
			if deferNull {
				if err := s.updateNulls(t, newRow, p.cols, bool(st.Ignore)); err != nil {
					return nil, err
				}
			}
			isChanged = !rowsEqual(tr.row, newRow)
		}
		if ok, err := s.checkRow(ex, p.checks, newRow, bool(st.Ignore)); !ok {
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
			if st.Ignore {
				if dup, ok := err.(*table.DupKeyError); ok {
					se := dup.SQLError()
					s.warn("Warning", uint16(se.Num), se.Message)
					continue
				}
			}
			return nil, err
		}
		if t.AutoIncCol >= 0 {
			if u, err := newRow[t.AutoIncCol].ToUint64(); err == nil {
				_ = tbl.ObserveAutoInc(ex.tx, u)
			}
		}
		if err := s.fire(ex, tt, trgAfter+trgUpdate, tr.row, newRow); err != nil {
			return nil, err
		}
		changed++
	}
	res := &sqltypes.Result{RowsAffected: changed}
	if s.clientFoundRows {
		res.RowsAffected = matched
	}
	res.Info = updateInfo(matched, changed, len(s.warnings))
	return res, nil
}

// execDelete runs a single-table DELETE.
func (s *Session) execDelete(ex *execCtx, st *sqlparser.Delete) (*sqltypes.Result, error) {
	if res, ok, err := s.deleteView(ex, st); ok {
		return res, err
	}
	if len(st.Targets) > 0 {
		return s.execMultiDelete(ex, st)
	}
	if len(st.TableExprs) != 1 {
		return nil, sqlerr.Unsupported("multi-table DELETE without targets")
	}
	p := s.cachedDML(ex, st)
	if p == nil {
		t, alias, err := s.targetTable(ex, st.TableExprs[0], true)
		if err != nil {
			return nil, err
		}
		p, _, err = s.planDML(ex, t, alias, st.Where, st.OrderBy, st.Limit)
		if err != nil {
			return nil, err
		}
		s.keepDML(st, p)
	}
	targets, err := s.collectTargets(ex, p)
	if err != nil {
		return nil, err
	}
	tt := s.trgFor(p.t)
	for _, tr := range targets {
		if err := s.fire(ex, tt, trgBefore+trgDelete, tr.row, nil); err != nil {
			return nil, err
		}
		if err := s.fkDelete(ex, p.tbl, tr.pk, tr.row); err != nil {
			return nil, err
		}
		if err := s.fire(ex, tt, trgAfter+trgDelete, tr.row, nil); err != nil {
			return nil, err
		}
	}
	return &sqltypes.Result{RowsAffected: uint64(len(targets))}, nil
}

// updateInfo is the info string of an UPDATE's OK packet.
func updateInfo(matched, changed uint64, warnings int) string {
	b := make([]byte, 0, 64)
	b = append(b, "Rows matched: "...)
	b = strconv.AppendUint(b, matched, 10)
	b = append(b, "  Changed: "...)
	b = strconv.AppendUint(b, changed, 10)
	b = append(b, "  Warnings: "...)
	b = strconv.AppendInt(b, int64(warnings), 10)
	return string(b)
}

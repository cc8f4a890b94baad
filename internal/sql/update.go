package sql

import (
	"fmt"
	"time"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/table"
)

// targetRow is a row chosen by UPDATE/DELETE, locked and read at its latest
// version.
type targetRow struct {
	pk  []byte
	row Row
}

// collectTargets finds, locks and reads the rows of a single-table
// UPDATE/DELETE: WHERE, ORDER BY and LIMIT applied.
func (s *Session) collectTargets(ex *execCtx, t *catalog.Table, alias string, where *sqlparser.Where, orderBy sqlparser.OrderBy, limit *sqlparser.Limit, names *[]string) ([]targetRow, *scope, error) {
	sc := &scope{where: "where clause"}
	sc.addTable(t, alias)
	c := &compiler{s: s, sc: sc, names: names}
	conds := splitAnd(whereExpr(where))
	var order []orderCol
	for _, o := range orderBy {
		oc := orderCol{col: -1, desc: o.Direction == sqlparser.DescOrder}
		if cn, ok := o.Expr.(*sqlparser.ColName); ok {
			if i, err := sc.resolve(cn); err == nil {
				oc.col = i
			}
		}
		order = append(order, oc)
	}
	preds := sargable(conds, sc, 0, len(t.Columns), nil)
	ap, err := chooseAccess(c, t, preds, indexHints{}, order, limit != nil)
	if err != nil {
		return nil, nil, err
	}
	src := &tableSource{def: t, tbl: s.eng.Store.Open(t), alias: alias, width: len(t.Columns), path: ap}
	if src.filter, err = c.compileAll(conds); err != nil {
		return nil, nil, err
	}
	var sortKeys []*cexpr
	for _, o := range orderBy {
		sc.where = "order clause"
		x, err := c.compile(o.Expr)
		if err != nil {
			return nil, nil, err
		}
		sortKeys = append(sortKeys, x)
	}
	ex.bv = s.bindSessionVars(*names, ex.bv)
	ex.env.BindVars = ex.bv
	lim := uint64(1 << 63)
	if limit != nil && limit.Rowcount != nil {
		lc := &compiler{s: s, sc: &scope{}, names: names}
		x, err := lc.compile(limit.Rowcount)
		if err != nil {
			return nil, nil, err
		}
		ex.bv = s.bindSessionVars(*names, ex.bv)
		ex.env.BindVars = ex.bv
		v, err := ex.eval(x, nil)
		if err != nil {
			return nil, nil, err
		}
		if lim, err = limitValue(v); err != nil {
			return nil, nil, err
		}
	}
	streaming := len(orderBy) == 0 || ap.ordered
	ji := newJoinIter([]*tableSource{src}, len(t.Columns), lockExclusive)
	defer ji.close()
	var out []targetRow
	var keyed []Row
	for {
		if streaming && uint64(len(out)) >= lim {
			break
		}
		row, ok, err := ji.next(ex)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			break
		}
		tr := targetRow{pk: append([]byte(nil), ji.currentPK(0)...), row: copyRow(nil, row)}
		out = append(out, tr)
		if !streaming {
			k := make(Row, len(sortKeys)+1)
			for i, e := range sortKeys {
				v, err := ex.eval(e, row)
				if err != nil {
					return nil, nil, err
				}
				k[i] = v
			}
			k = copyRow(nil, k)
			k[len(sortKeys)] = sqltypes.NewInt64(int64(len(out) - 1))
			keyed = append(keyed, k)
		}
	}
	if !streaming {
		keys := make([]sortKey, len(orderBy))
		for i, o := range orderBy {
			keys[i] = sortKey{idx: i, desc: o.Direction == sqlparser.DescOrder}
		}
		if err := sortRows(keyed, keys, nil, ex); err != nil {
			return nil, nil, err
		}
		sorted := make([]targetRow, 0, len(out))
		for _, k := range keyed {
			i, _ := k[len(sortKeys)].ToInt64()
			sorted = append(sorted, out[i])
			if uint64(len(sorted)) >= lim {
				break
			}
		}
		out = sorted
	}
	sc.where = "field list"
	return out, sc, nil
}

// execUpdate runs a single-table UPDATE.
func (s *Session) execUpdate(ex *execCtx, st *sqlparser.Update) (*sqltypes.Result, error) {
	if len(st.TableExprs) != 1 {
		return s.execMultiUpdate(ex, st)
	}
	if _, ok := st.TableExprs[0].(*sqlparser.AliasedTableExpr); !ok {
		return s.execMultiUpdate(ex, st)
	}
	t, alias, err := s.targetTable(ex, st.TableExprs[0])
	if err != nil {
		return nil, err
	}
	tbl := s.eng.Store.Open(t)
	var names []string
	targets, sc, err := s.collectTargets(ex, t, alias, st.Where, st.OrderBy, st.Limit, &names)
	if err != nil {
		return nil, err
	}
	c := &compiler{s: s, sc: sc, names: &names}
	cols := make([]int, len(st.Exprs))
	exprs := make([]*cexpr, len(st.Exprs))
	for i, ue := range st.Exprs {
		if q := ue.Name.Qualifier.Name.String(); q != "" && q != alias {
			return nil, badFieldErr(q+"."+ue.Name.Name.String(), "field list")
		}
		ci := t.ColumnIndex(ue.Name.Name.String())
		if ci < 0 {
			return nil, badFieldErr(ue.Name.Name.String(), "field list")
		}
		cols[i] = ci
		if _, isDef := ue.Expr.(*sqlparser.Default); isDef {
			continue
		}
		x, err := c.compile(ue.Expr)
		if err != nil {
			return nil, err
		}
		exprs[i] = x
	}
	ex.bv = s.bindSessionVars(names, ex.bv)
	ex.env.BindVars = ex.bv
	var matched, changed uint64
	newRow := make(Row, len(t.Columns))
	b := &rowBuilder{s: s, ex: ex, t: t, tbl: tbl, now: time.Now()}
	for rn, tr := range targets {
		matched++
		copy(newRow, tr.row)
		for i, ci := range cols {
			var v sqltypes.Value
			if exprs[i] == nil {
				v, err = b.defaultValue(ci)
			} else {
				v, err = ex.eval(exprs[i], newRow)
			}
			if err != nil {
				return nil, err
			}
			col := &t.Columns[ci]
			if v.IsNull() {
				if !col.Nullable {
					if s.strict() && !bool(st.Ignore) {
						return nil, sqlErr(sqlerror.ERBadNullError, "23000", "Column '%s' cannot be null", col.Name)
					}
					s.warn("Warning", uint16(sqlerror.ERBadNullError), fmt.Sprintf("Column '%s' cannot be null", col.Name))
					v = coltype.ImplicitDefault(col)
				}
			} else {
				cv, w, err := coltype.Convert(col, v, s.strict() && !bool(st.Ignore), rn+1)
				if err != nil {
					return nil, err
				}
				if w != nil {
					s.warn(w.Level, w.Code, w.Message)
				}
				v = cv
			}
			newRow[ci] = copyRow(nil, Row{v})[0]
		}
		if rowsEqual(tr.row, newRow) {
			continue
		}
		s.applyOnUpdate(ex, t, newRow, cols)
		if _, err := tbl.Update(ex.tx, tr.pk, tr.row, newRow); err != nil {
			if bool(st.Ignore) {
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
		changed++
	}
	res := &sqltypes.Result{RowsAffected: changed}
	if s.clientFoundRows {
		res.RowsAffected = matched
	}
	res.Info = fmt.Sprintf("Rows matched: %d  Changed: %d  Warnings: %d", matched, changed, len(s.warnings))
	return res, nil
}

// execDelete runs a single-table DELETE.
func (s *Session) execDelete(ex *execCtx, st *sqlparser.Delete) (*sqltypes.Result, error) {
	if len(st.Targets) > 0 {
		return s.execMultiDelete(ex, st)
	}
	if len(st.TableExprs) != 1 {
		return nil, unsupportedErr("multi-table DELETE without targets")
	}
	t, alias, err := s.targetTable(ex, st.TableExprs[0])
	if err != nil {
		return nil, err
	}
	tbl := s.eng.Store.Open(t)
	var names []string
	targets, _, err := s.collectTargets(ex, t, alias, st.Where, st.OrderBy, st.Limit, &names)
	if err != nil {
		return nil, err
	}
	for _, tr := range targets {
		if err := tbl.Delete(ex.tx, tr.pk, tr.row); err != nil {
			return nil, err
		}
	}
	return &sqltypes.Result{RowsAffected: uint64(len(targets))}, nil
}

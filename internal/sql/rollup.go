package sql

import (
	"sort"

	"github.com/strata-db/strata/internal/third_party/evalengine"
	"vitess.io/vitess/go/mysql/sqlerror"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/exec"
	"github.com/strata-db/strata/internal/sql/plan"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// GROUP BY ... WITH ROLLUP (MySQL 8.0).
//
// Besides the groups of all n GROUP BY values, the hash aggregation keeps
// the super-aggregate groups of each prefix of them (the first k values,
// k = n-1 down to 0: the grand total last), every input row added to one
// group per level. The groups come out in the order of their GROUP BY
// values (NULL first), each run of groups followed by the super-aggregate
// rows of the prefixes that end with it, as MySQL prints them; in a
// super-aggregate row the GROUP BY columns past the prefix are NULL.
// The GROUP BY items must be columns of the query's tables (MySQL also
// takes expressions, whose NULLing this does not do: 1235).

// planRollup checks the GROUP BY items of a WITH ROLLUP and records their
// offsets.
func (p *selectPlan) planRollup(c *compiler, groupExprs []sqlparser.Expr, selExprs *sqlparser.SelectExprs) error {
	p.rollup = make([]int, 0, len(groupExprs))
	for k, g := range groupExprs {
		g = plan.ResolveOrderAlias(g, selExprs)
		if cn, ok := g.(*sqlparser.ColName); ok {
			off, err := c.Scope.Resolve(cn)
			if err != nil {
				return err
			}
			p.rollup = append(p.rollup, off)
			continue
		}
		// An expression: where the statement repeats it, it reads the
		// group's value, NULL where the row rolled it up.
		p.rollup = append(p.rollup, -1)
		spec := &aggSpec{key: "rollup:" + sqlparser.String(g), name: "rollup_value", argCol: -1, grouping: []int{k}}
		if k < len(p.groupBy) {
			spec.typ = p.groupBy[k].Static
			spec.typ.SetNullability(true)
		}
		p.aggs = append(p.aggs, spec)
		if c.Scope.OffsetTypes != nil {
			c.Scope.OffsetTypes[spec.key] = spec.typ
		}
	}
	return nil
}

// rollupValue is the value of the k-th GROUP BY expression in a row of a
// group at level.
func rollupValue(a *aggSpec, g *group) sqltypes.Value {
	k := a.grouping[0]
	if k >= g.level || k >= len(g.gvals) {
		return sqltypes.NULL
	}
	return g.gvals[k]
}

// addGrouping plans GROUPING(col, ...): 1 for each column a
// super-aggregate row rolled up (NULLed), as bits, the first argument the
// most significant. Its arguments must be GROUP BY columns of a WITH
// ROLLUP.
func (p *selectPlan) addGrouping(c *compiler, fe *sqlparser.FuncExpr) error {
	key := sqlparser.String(fe)
	for _, a := range p.aggs {
		if a.key == key {
			return nil
		}
	}
	if p.rollup == nil {
		return sqlerr.New(sqlerror.ERInvalidGroupFuncUse, sqlerror.SSUnknownSQLState, "Invalid use of group function")
	}
	if len(fe.Exprs) == 0 || len(fe.Exprs) > 64 {
		return sqlerr.New(sqlerror.ERWrongParamcountToNativeFct, sqlerror.SSClientError, "Incorrect parameter count in the call to native function 'GROUPING'")
	}
	spec := &aggSpec{key: key, name: "grouping", argCol: -1,
		typ: evalengine.NewTypeEx(sqltypes.Int64, collations.CollationBinaryID, false, 1, 0, nil)}
	for _, e := range fe.Exprs {
		cn, ok := e.(*sqlparser.ColName)
		pos := -1
		if ok {
			if off, err := c.Scope.Resolve(cn); err == nil {
				for j, r := range p.rollup {
					if r == off {
						pos = j
						break
					}
				}
			}
		} else {
			for _, a := range p.aggs {
				if a.name == "rollup_value" && a.key == "rollup:"+sqlparser.String(e) {
					pos = a.grouping[0]
				}
			}
		}
		if pos < 0 {
			return sqlerr.New(sqlerr.FieldInGroupingNotGroupBy, sqlerror.SSUnknownSQLState, "Argument #%d of GROUPING function is not in GROUP BY", len(spec.grouping)+1)
		}
		spec.grouping = append(spec.grouping, pos)
	}
	p.aggs = append(p.aggs, spec)
	if c.Scope.OffsetTypes != nil {
		c.Scope.OffsetTypes[spec.key] = spec.typ
	}
	return nil
}

// containsGrouping reports whether e calls GROUPING().
func containsGrouping(e sqlparser.Expr) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if fe, ok := n.(*sqlparser.FuncExpr); ok && fe.Name.Lowered() == "grouping" && fe.Qualifier.IsEmpty() {
			found = true
		}
		return !found, nil
	}, e)
	return found
}

// groupingValue is GROUPING(...) of a group at level (the number of GROUP
// BY values it groups by).
func groupingValue(a *aggSpec, level int) sqltypes.Value {
	var v int64
	for _, pos := range a.grouping {
		v <<= 1
		if pos >= level {
			v |= 1
		}
	}
	return sqltypes.NewInt64(v)
}

// addRollup adds row, whose GROUP BY values are gvals, to its
// super-aggregate group at every level; keyBuf is scratch space.
func (o *hashAggOp) addRollup(row, gvals Row, gcolls []collations.ID, keyBuf []byte) ([]byte, error) {
	p := o.p
	if o.levels == nil {
		o.levels = make([]map[string]*group, len(p.rollup))
		for k := range o.levels {
			o.levels[k] = map[string]*group{}
		}
		o.gcolls = append(o.gcolls[:0], gcolls...)
	}
	for k := range o.levels {
		keyBuf = groupKey(keyBuf[:0], gvals[:k], gcolls[:k])
		g := o.levels[k][string(keyBuf)]
		if g == nil {
			rep := copyRow(nil, row)
			for _, off := range p.rollup[k:] {
				if off >= 0 {
					rep[off] = sqltypes.NULL
				}
			}
			g = &group{rep: rep, states: make([]aggState, len(p.aggs)), level: k, gvals: copyRow(nil, gvals[:k])}
			o.levels[k][string(keyBuf)] = g
		}
		for i, a := range p.aggs {
			if err := a.add(o.ex, &g.states[i], row); err != nil {
				return keyBuf, err
			}
		}
	}
	return keyBuf, nil
}

// finishRollup orders the groups by their GROUP BY values and places the
// super-aggregate rows after the groups they sum.
func (o *hashAggOp) finishRollup() error {
	if len(o.order) == 0 {
		return nil // no rows: no groups, and no totals either
	}
	n := len(o.p.rollup)
	env := o.ex.s.eng.Env.CollationEnv()
	vals := make([][]exec.SortVal, len(o.order))
	for i, g := range o.order {
		vals[i] = make([]exec.SortVal, n)
		for k := 0; k < n; k++ {
			vals[i][k] = exec.MakeSortVal(g.gvals[k], o.gcolls[k])
		}
	}
	idx := make([]int, len(o.order))
	for i := range idx {
		idx[i] = i
	}
	var err error
	cmp := func(a, b, upto int) int {
		for k := 0; k < upto; k++ {
			c, e := vals[a][k].Compare(&vals[b][k], env)
			if e != nil && err == nil {
				err = e
			}
			if c != 0 {
				return c
			}
		}
		return 0
	}
	sort.SliceStable(idx, func(a, b int) bool { return cmp(idx[a], idx[b], n) < 0 })
	if err != nil {
		return err
	}
	out := make([]*group, 0, len(o.order)*2)
	var keyBuf []byte
	for j, i := range idx {
		g := o.order[i]
		out = append(out, g)
		for k := n - 1; k >= 0; k-- {
			if j+1 < len(idx) && cmp(i, idx[j+1], k) == 0 {
				break // the next group has the same first k values
			}
			keyBuf = groupKey(keyBuf[:0], g.gvals[:k], o.gcolls[:k])
			if sg := o.levels[k][string(keyBuf)]; sg != nil {
				out = append(out, sg)
			}
		}
	}
	o.order = out
	return err
}

// rollupExpr reports whether e is one of a WITH ROLLUP's GROUP BY
// expressions (not a plain column).
func (p *selectPlan) rollupExpr(e sqlparser.Expr) bool {
	if p.rollup == nil {
		return false
	}
	if _, col := e.(*sqlparser.ColName); col {
		return false
	}
	key := "rollup:" + sqlparser.String(e)
	for _, a := range p.aggs {
		if a.name == "rollup_value" && a.key == key {
			return true
		}
	}
	return false
}

// rollupRewrites reports whether e holds a GROUPING() call or a GROUP BY
// expression of a WITH ROLLUP (which the aggregated row replaces).
func (p *selectPlan) rollupRewrites(e sqlparser.Expr) bool {
	if p.rollup == nil {
		return false
	}
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if x, ok := n.(sqlparser.Expr); ok && p.rollupExpr(x) {
			found = true
		}
		return !found, nil
	}, e)
	return found || containsGrouping(e)
}

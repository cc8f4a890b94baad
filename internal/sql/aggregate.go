package sql

import (
	"context"
	"encoding/binary"
	"sort"
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/colldata"
	"vitess.io/vitess/go/mysql/decimal"
	"vitess.io/vitess/go/mysql/fastparse"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/collation"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/exec"
	"github.com/strata-db/strata/internal/sql/plan"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// aggSpec is one aggregate function of a query.
type aggSpec struct {
	name     string // count, count_star, sum, avg, min, max, group_concat, bit_and, bit_or, bit_xor, std..., json_arrayagg, json_objectagg
	args     []*eval.Expr
	distinct bool
	sep      string
	order    []sortKey // GROUP_CONCAT ... ORDER BY (indexes into args after the values)
	nvals    int       // GROUP_CONCAT: number of concatenated expressions
	key      string    // canonical text, for sharing identical aggregates
	typ      evalengine.Type
	divPrec  int32 // div_precision_increment when planned (AVG's scale)
	// argCol is the row offset when the single argument is a plain column
	// (read directly, no evaluation), else -1.
	argCol  int
	argColl collations.ID
	// grouping: GROUPING()'s arguments, as positions in the WITH ROLLUP
	// list (rollup.go).
	grouping []int
}

// planAggregates finds aggregate calls, compiles their arguments and
// replaces them by Offsets into the aggregated row.
func (p *selectPlan) planAggregates(c *compiler, sel *sqlparser.Select) error {
	var groupExprs []sqlparser.Expr
	if sel.GroupBy != nil {
		groupExprs = sel.GroupBy.Exprs
	}
	if !plan.HasAggregates(sel) && len(groupExprs) == 0 {
		return nil
	}
	p.hasAgg = true
	selExprs := sel.SelectExprs
	for _, g := range groupExprs {
		g = plan.ResolveOrderAlias(g, selExprs)
		c.Scope.Where = "group statement"
		x, err := c.Compile(g)
		c.Scope.Where = "field list"
		if err != nil {
			return err
		}
		p.groupBy = append(p.groupBy, x)
	}
	if sel.GroupBy != nil && sel.GroupBy.WithRollup {
		if err := p.planRollup(c, groupExprs, selExprs); err != nil {
			return err
		}
	} else {
		p.streamAgg = p.groupsContiguous(c.Scope, groupExprs, selExprs)
	}
	c.Scope.OffsetTypes = map[string]evalengine.Type{}
	// Collect and compile aggregates in SELECT, HAVING and ORDER BY.
	collect := func(n sqlparser.SQLNode) error {
		var err error
		_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
			if fe, ok := node.(*sqlparser.FuncExpr); ok && fe.Name.Lowered() == "grouping" && fe.Qualifier.IsEmpty() {
				if err == nil {
					err = p.addGrouping(c, fe)
				}
				return false, nil
			}
			af, ok := node.(sqlparser.AggrFunc)
			if !ok || plan.IsWindowFunc(af) {
				// A windowed aggregate is computed by the window
				// stage; aggregates in its arguments are not.
				if _, sub := node.(*sqlparser.Subquery); sub {
					return false, nil
				}
				return true, nil
			}
			if err == nil {
				err = p.addAgg(c, af)
			}
			return false, nil
		}, n)
		return err
	}
	for _, se := range selExprs.Exprs {
		if err := collect(se); err != nil {
			return err
		}
	}
	if sel.Having != nil {
		if err := collect(sel.Having.Expr); err != nil {
			return err
		}
	}
	for _, o := range sel.OrderBy {
		if err := collect(o.Expr); err != nil {
			return err
		}
	}
	// Rewrite the select list and HAVING to read the aggregated row.
	for i, se := range selExprs.Exprs {
		if ae, ok := se.(*sqlparser.AliasedExpr); ok {
			as := ae.As
			if as.IsEmpty() && (plan.ContainsAggr(ae.Expr) || p.rollupRewrites(ae.Expr)) {
				// Name the column before the aggregates are rewritten.
				as = sqlparser.NewIdentifierCI(c.s.exprName(ae.Expr))
			}
			e, err := p.rewriteAggs(sqlparser.CloneExpr(ae.Expr))
			if err != nil {
				return err
			}
			selExprs.Exprs[i] = &sqlparser.AliasedExpr{Expr: e, As: as}
		}
	}
	if sel.Having != nil {
		// HAVING may name select aliases.
		h := sqlparser.Rewrite(sel.Having.Expr, nil, func(cur *sqlparser.Cursor) bool {
			if cn, ok := cur.Node().(*sqlparser.ColName); ok && cn.Qualifier.IsEmpty() {
				if _, err := c.Scope.Resolve(cn); err != nil {
					if idx := plan.AliasIndex(cn, selExprs); idx >= 0 {
						cur.Replace(selExprs.Exprs[idx].(*sqlparser.AliasedExpr).Expr)
					}
				}
			}
			return true
		}).(sqlparser.Expr)
		e, err := p.rewriteAggs(h)
		if err != nil {
			return err
		}
		c.Scope.Where = "having clause"
		x, err := c.Compile(e)
		c.Scope.Where = "field list"
		if err != nil {
			return err
		}
		p.having = x
	}
	return nil
}

func (p *selectPlan) addAgg(c *compiler, af sqlparser.AggrFunc) error {
	key := sqlparser.String(af)
	for _, a := range p.aggs {
		if a.key == key {
			return nil
		}
	}
	spec, err := newAggSpec(c, af, key)
	if err != nil {
		return err
	}
	p.aggs = append(p.aggs, spec)
	if c.Scope.OffsetTypes != nil {
		// The Offset that replaces the call is typed as the aggregate.
		c.Scope.OffsetTypes[spec.key] = spec.typ
	}
	return nil
}

// newAggSpec compiles the aggregate call af (canonical text key): its
// arguments and its result type.
func newAggSpec(c *compiler, af sqlparser.AggrFunc, key string) (*aggSpec, error) {
	spec := &aggSpec{key: key, name: af.AggrName(), distinct: sqlparser.IsDistinct(af), argCol: -1, divPrec: int32(c.s.plan().DivPrecision)}
	var argExprs []sqlparser.Expr
	switch f := af.(type) {
	case *sqlparser.CountStar:
		spec.name = "count_star"
	case *sqlparser.Count:
		spec.name = "count"
		argExprs = f.Args
	case *sqlparser.GroupConcatExpr:
		spec.name = "group_concat"
		spec.sep = ","
		if f.Separator != "" || strings.Contains(strings.ToLower(key), "separator") {
			spec.sep = unquoteSQL(f.Separator)
		}
		argExprs = append(argExprs, f.Exprs...)
		spec.nvals = len(f.Exprs)
		for _, o := range f.OrderBy {
			spec.order = append(spec.order, sortKey{idx: len(argExprs), desc: o.Direction == sqlparser.DescOrder})
			argExprs = append(argExprs, o.Expr)
		}
	default:
		switch spec.name {
		case "sum", "avg", "min", "max", "bit_and", "bit_or", "bit_xor", "json_arrayagg", "json_objectagg":
		default:
			if varianceAgg(spec.name) {
				break
			}
			return nil, sqlerr.Unsupported("aggregate %s", strings.ToUpper(spec.name))
		}
		argExprs = af.GetArgs()
	}
	for _, a := range argExprs {
		if plan.ContainsAggr(a) {
			return nil, sqlerr.New(sqlerror.ERInvalidGroupFuncUse, sqlerror.SSUnknownSQLState, "Invalid use of group function")
		}
		x, err := c.Compile(a)
		if err != nil {
			return nil, err
		}
		spec.args = append(spec.args, x)
	}
	var argT evalengine.Type
	if len(spec.args) > 0 {
		argT = spec.args[0].Static
	}
	if len(argExprs) == 1 && spec.name != "group_concat" {
		if cn, ok := argExprs[0].(*sqlparser.ColName); ok {
			if i, err := c.Scope.Resolve(cn); err == nil && c.Scope.Cols[i].Col != nil && c.Scope.Cols[i].Col.Type != sqltypes.Enum && c.Scope.Cols[i].Col.Type != sqltypes.Set {
				spec.argCol = i
				spec.argColl = c.Scope.Cols[i].Type.Collation()
			}
		}
	}
	switch spec.name {
	case "count", "count_star":
		spec.typ = evalengine.NewTypeEx(sqltypes.Int64, collations.CollationBinaryID, false, 21, 0, nil)
	case "sum", "avg":
		t := argT.Type()
		if sqltypes.IsFloat(t) || sqltypes.IsText(t) {
			spec.typ = evalengine.NewTypeEx(sqltypes.Float64, collations.CollationBinaryID, true, 23, 31, nil)
		} else {
			scale := argT.Scale()
			if !argT.Valid() || sqltypes.IsIntegral(t) || scale < 0 {
				scale = 0
			}
			if scale > 30 {
				scale = 30
			}
			if spec.name == "avg" {
				scale = min(scale+spec.divPrec, 30)
			}
			spec.typ = evalengine.NewTypeEx(sqltypes.Decimal, collations.CollationBinaryID, true, 65, scale, nil)
		}
	case "min", "max":
		spec.typ = argT
		if spec.typ.Valid() {
			spec.typ.SetNullability(true)
		}
	case "group_concat":
		spec.typ = evalengine.NewTypeEx(sqltypes.Text, c.s.plan().Collation, true, 1024, 0, nil)
	case "json_arrayagg", "json_objectagg":
		spec.typ = evalengine.NewTypeEx(sqltypes.TypeJSON, collations.CollationBinaryID, true, 0, 0, nil)
	case "std", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp":
		spec.typ = evalengine.NewTypeEx(sqltypes.Float64, collations.CollationBinaryID, true, 23, 31, nil)
	default:
		spec.typ = evalengine.NewTypeEx(sqltypes.Uint64, collations.CollationBinaryID, false, 21, 0, nil)
	}
	return spec, nil
}

// rewriteAggs replaces aggregate calls in e by Offsets into the aggregated
// row.
func (p *selectPlan) rewriteAggs(e sqlparser.Expr) (sqlparser.Expr, error) {
	if len(p.aggs) == 0 {
		return e, nil
	}
	// pre-order: a replaced aggregate's arguments are not visited; returning
	// false from a post function would stop the whole rewrite after the first
	// aggregate (MAX(a) <> 2 * COUNT(*)).
	// subs are the subqueries the cursor is in. An aggregate written in a
	// subquery belongs to the subquery, as in MySQL, even when the same
	// text is an aggregate of this query (COUNT(*)): it is not replaced by
	// this query's value (an Offset there would index the subquery's row).
	// One whose columns are all qualified with tables the subqueries do
	// not name is MySQL's outer aggregate ((SELECT SUM(a.x) FROM b) over
	// a), which strata does not compute: 1235 rather than a wrong value.
	var subs []*sqlparser.Subquery
	var failed error
	out := sqlparser.Rewrite(e, func(cur *sqlparser.Cursor) bool {
		var key string
		var orig sqlparser.Expr
		if sq, ok := cur.Node().(*sqlparser.Subquery); ok {
			subs = append(subs, sq)
			return true
		}
		if af, ok := cur.Node().(sqlparser.AggrFunc); ok && len(subs) > 0 {
			if outerAggregate(af, subs) && failed == nil {
				failed = sqlerr.Unsupported("an aggregate of the outer query's columns inside a subquery (%s)", sqlparser.String(af))
			}
			return false
		}
		if e, ok := cur.Node().(sqlparser.Expr); ok && p.rollupExpr(e) {
			key, orig = "rollup:"+sqlparser.String(e), e
		} else if fe, ok := cur.Node().(*sqlparser.FuncExpr); ok && fe.Name.Lowered() == "grouping" && fe.Qualifier.IsEmpty() {
			key, orig = sqlparser.String(fe), fe
		} else if af, ok := cur.Node().(sqlparser.AggrFunc); ok && !plan.IsWindowFunc(af) {
			key, orig = sqlparser.String(af), af
		} else {
			return true
		}
		for i, a := range p.aggs {
			if a.key == key {
				off := &sqlparser.Offset{V: p.width + i, Original: orig}
				if p.sc != nil && p.sc.OffsetTypes != nil {
					p.sc.OffsetTypes[key] = a.typ
				}
				cur.Replace(off)
				return false
			}
		}
		return false
	}, func(cur *sqlparser.Cursor) bool {
		if _, ok := cur.Node().(*sqlparser.Subquery); ok {
			subs = subs[:len(subs)-1]
		}
		return true
	})
	if failed != nil {
		return nil, failed
	}
	return out.(sqlparser.Expr), nil
}

// outerAggregate reports whether the aggregate af, written inside the
// subqueries subs, belongs to the enclosing query: it reads columns, and
// each is qualified with a table name no FROM of subs names (an unqualified
// column may be the subquery's own, so it keeps the aggregate there).
func outerAggregate(af sqlparser.AggrFunc, subs []*sqlparser.Subquery) bool {
	cols := 0
	inner := false
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		cn, ok := node.(*sqlparser.ColName)
		if !ok {
			return !inner, nil
		}
		cols++
		if cn.Qualifier.IsEmpty() || namesTable(subs, cn.Qualifier.Name.String()) {
			inner = true
		}
		return false, nil
	}, af)
	return cols > 0 && !inner
}

// namesTable reports whether a FROM clause in subs (or in subqueries
// within them) names table or alias t.
func namesTable(subs []*sqlparser.Subquery, t string) bool {
	found := false
	for _, sq := range subs {
		_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
			if ate, ok := node.(*sqlparser.AliasedTableExpr); ok {
				name := ate.As.String()
				if name == "" {
					if tn, ok := ate.Expr.(sqlparser.TableName); ok {
						name = tn.Name.String()
					}
				}
				if strings.EqualFold(name, t) {
					found = true
				}
			}
			return !found, nil
		}, sq)
	}
	return found
}

// aggState accumulates one aggregate for one group.
type aggState struct {
	count    int64
	sumInt   int64
	sumDec   decimal.Decimal
	decUsed  bool
	sumFloat float64
	isFloat  bool
	hasVal   bool
	val      sqltypes.Value
	valColl  collations.ID
	bits     uint64
	scale    int32 // largest fractional digit count of summed decimals
	// scaled: decimals summed exactly as sumM × 10^-sumMScale while that
	// fits in an int64 (added to sumInt at the end); decUsed replaces it
	// with sumDec once it would not (scaled.go).
	scaled    bool
	sumM      int64
	sumMScale int32
	seen      map[string]struct{}
	m2        float64 // STD/VARIANCE: the sum of squared deviations (aggregate_variance.go)
	concat    []Row
	colls     []collations.ID // GROUP_CONCAT: the collation of each argument
}

type group struct {
	rep    Row
	states []aggState
	// gvals are the GROUP BY values of the group and level the number of
	// them it groups by (WITH ROLLUP only: fewer in a super-aggregate).
	gvals Row
	level int
}

// hashAggOp is the hash aggregation as an operator over the join (nil
// when a constant WHERE condition is false): Open reads the whole input
// into groups keyed by the GROUP BY values (the first row of each group
// is its representative), and Next emits the aggregated rows one group at
// a time, in the order the groups were first seen, so a LIMIT above
// computes no aggregate past the groups it needs. A query with aggregates
// and no GROUP BY over no rows has one group (of NULLs). The aggregated
// row is [representative row..., aggregate values...]; HAVING is a Filter
// above.
type hashAggOp struct {
	aggBase
	groups map[string]*group
	order  []*group
	pos    int
	// levels[k] are WITH ROLLUP's super-aggregate groups by the first k
	// GROUP BY values (rollup.go).
	levels []map[string]*group
	gcolls []collations.ID // the GROUP BY values' collations
}

// aggBase is what the hash and the stream aggregation share: the plan,
// the execution, the input and the aggregated row they emit.
type aggBase struct {
	p     *selectPlan
	ex    *execCtx
	input exec.Operator
	agRow Row
	batch [1]Row
}

// emit returns, as a batch, the aggregated row of group g.
func (a *aggBase) emit(g *group) ([]Row, error) {
	if err := a.p.aggregated(a.ex, g, a.agRow); err != nil {
		return nil, err
	}
	a.batch[0] = a.agRow
	return a.batch[:], nil
}

// closeInput closes the input, if there is one.
func (a *aggBase) closeInput() error {
	if a.input == nil {
		return nil
	}
	return a.input.Close()
}

// reset prepares the aggregation of input for an execution by ex.
func (o *hashAggOp) reset(p *selectPlan, ex *execCtx, input exec.Operator) {
	*o = hashAggOp{aggBase: aggBase{p: p, ex: ex, input: input}}
}

// Open implements exec.Operator: it reads and groups the input.
func (o *hashAggOp) Open(ctx context.Context) error {
	p, ex := o.p, o.ex
	o.groups = map[string]*group{}
	if o.input != nil && p.countStar {
		g, err := p.countStarGroup(ex)
		if err != nil {
			return err
		}
		o.order = append(o.order, g)
		o.agRow = make(Row, p.width+len(p.aggs))
		return nil
	}
	if o.input != nil {
		if err := o.input.Open(ctx); err != nil {
			return err
		}
		var keyBuf []byte
		gvals := make(Row, len(p.groupBy))
		gcolls := make([]collations.ID, len(p.groupBy))
		for {
			b, err := o.input.Next()
			if err != nil {
				return err
			}
			if b == nil {
				break
			}
			for _, row := range b {
				if keyBuf, err = p.groupKeyOf(ex, row, gvals, gcolls, keyBuf[:0]); err != nil {
					return err
				}
				g := o.groups[string(keyBuf)]
				if g == nil {
					g = &group{rep: copyRow(nil, row), states: make([]aggState, len(p.aggs))}
					if p.rollup != nil {
						g.gvals, g.level = copyRow(nil, gvals), len(p.rollup)
					}
					o.groups[string(keyBuf)] = g
					o.order = append(o.order, g)
				}
				if p.rollup != nil {
					if keyBuf, err = o.addRollup(row, gvals, gcolls, keyBuf); err != nil {
						return err
					}
				}
				for i, a := range p.aggs {
					if err := a.add(ex, &g.states[i], row); err != nil {
						return err
					}
				}
			}
		}
	}
	if p.rollup != nil {
		if err := o.finishRollup(); err != nil {
			return err
		}
	}
	if len(o.order) == 0 && len(p.groupBy) == 0 {
		rep := make(Row, p.width)
		for i := range rep {
			rep[i] = sqltypes.NULL
		}
		o.order = append(o.order, &group{rep: rep, states: make([]aggState, len(p.aggs))})
	}
	o.agRow = make(Row, p.width+len(p.aggs))
	return nil
}

// Next implements exec.Operator: the next group's aggregated row.
func (o *hashAggOp) Next() ([]Row, error) {
	if o.pos >= len(o.order) {
		return nil, nil
	}
	o.pos++
	return o.emit(o.order[o.pos-1])
}

// Close implements exec.Operator: it closes the input and drops the groups.
func (o *hashAggOp) Close() error {
	err := o.closeInput()
	*o = hashAggOp{}
	return err
}

// groupKeyOf appends to dst the key of the group row belongs to (the
// GROUP BY values by collation weight, groupKey); gvals and gcolls are
// scratch space of len(p.groupBy).
func (p *selectPlan) groupKeyOf(ex *execCtx, row, gvals Row, gcolls []collations.ID, dst []byte) ([]byte, error) {
	for i, g := range p.groupBy {
		v, coll, err := ex.EvalColl(g, row)
		if err != nil {
			return dst, err
		}
		gvals[i], gcolls[i] = v, coll
	}
	return groupKey(dst, gvals, gcolls), nil
}

// aggregated computes a group's aggregates into agRow, after the group's
// representative row.
func (p *selectPlan) aggregated(ex *execCtx, g *group, agRow Row) error {
	copy(agRow, g.rep)
	for i, a := range p.aggs {
		switch a.name {
		case "grouping":
			agRow[p.width+i] = groupingValue(a, g.level)
			continue
		case "rollup_value":
			agRow[p.width+i] = rollupValue(a, g)
			continue
		}
		v, err := a.result(ex, &g.states[i])
		if err != nil {
			return err
		}
		agRow[p.width+i] = v
	}
	return nil
}

func (a *aggSpec) add(ex *execCtx, st *aggState, row Row) error {
	switch a.name {
	case "grouping", "rollup_value":
		return nil // computed from the group (rollup.go)
	case "count_star":
		st.count++
		return nil
	}
	if a.name == "group_concat" {
		vals := make(Row, len(a.args))
		if st.colls == nil {
			st.colls = make([]collations.ID, len(a.args))
		}
		for i, e := range a.args {
			v, coll, err := ex.EvalColl(e, row)
			if err != nil {
				return err
			}
			if i < a.nvals && v.IsNull() {
				return nil // GROUP_CONCAT skips rows with a NULL value
			}
			vals[i] = v
			if !v.IsNull() {
				st.colls[i] = coll
			}
		}
		vals = copyRow(nil, vals)
		if a.distinct {
			k := string(groupKey(nil, vals[:a.nvals], st.colls))
			if st.seen == nil {
				st.seen = map[string]struct{}{}
			}
			if _, dup := st.seen[k]; dup {
				return nil
			}
			st.seen[k] = struct{}{}
		}
		st.concat = append(st.concat, vals)
		return nil
	}
	if a.name == "json_arrayagg" || a.name == "json_objectagg" {
		return a.addJSONAgg(ex, st, row)
	}
	var v sqltypes.Value
	var coll collations.ID
	var err error
	if len(a.args) > 1 && a.name == "count" {
		// COUNT(a, b): rows where all are non-NULL (COUNT DISTINCT a, b).
		vals := make(Row, len(a.args))
		colls := make([]collations.ID, len(a.args))
		for i, e := range a.args {
			x, coll, err := ex.EvalColl(e, row)
			if err != nil {
				return err
			}
			if x.IsNull() {
				return nil
			}
			vals[i], colls[i] = x, coll
		}
		if a.distinct {
			k := string(groupKey(nil, vals, colls))
			if st.seen == nil {
				st.seen = map[string]struct{}{}
			}
			if _, dup := st.seen[k]; dup {
				return nil
			}
			st.seen[k] = struct{}{}
		}
		st.count++
		return nil
	}
	if a.argCol >= 0 && a.argCol < len(row) {
		v, coll = row[a.argCol], a.argColl
	} else {
		v, coll, err = ex.EvalColl(a.args[0], row)
		if err != nil {
			return err
		}
	}
	if v.IsNull() {
		return nil
	}
	if a.distinct {
		k := string(groupKey(nil, Row{v}, []collations.ID{coll}))
		if st.seen == nil {
			st.seen = map[string]struct{}{}
		}
		if _, dup := st.seen[k]; dup {
			return nil
		}
		st.seen[k] = struct{}{}
	}
	st.count++
	switch a.name {
	case "count":
	case "sum", "avg":
		t := v.Type()
		switch {
		case sqltypes.IsFloat(t) || sqltypes.IsText(t) || sqltypes.IsBinary(t) || st.isFloat:
			// A string counts as its leading number, as MySQL casts it
			// ('2021-03-04' is 2021, 'abc' is 0).
			f, _ := fastparse.ParseFloat64(v.ToString())
			if !st.isFloat {
				st.isFloat = true
				st.sumFloat = float64(st.sumInt)
				if st.decUsed {
					st.sumFloat, _ = st.sumDec.Float64()
				} else if st.scaled {
					sd, _ := st.scaledSum().Float64()
					st.sumFloat += sd
				}
			}
			st.sumFloat += f
		case sqltypes.IsIntegral(t) && !st.decUsed && t != sqltypes.Uint64:
			n, err := v.ToInt64()
			if err == nil {
				r := st.sumInt + n
				if (r > st.sumInt) == (n > 0) || n == 0 {
					st.sumInt = r
					break
				}
			}
			fallthrough
		default:
			if !st.decUsed {
				if m, sc, ok := scaledDecimal(v.Raw()); ok {
					if st.addScaled(m, sc) {
						st.scale = max(st.scale, sc)
						break
					}
				}
				// Past an int64: the exact sum so far becomes sumDec.
				st.decUsed = true
				st.sumDec = decimal.NewFromInt(st.sumInt)
				if st.scaled {
					st.sumDec = st.sumDec.Add(st.scaledSum())
					st.scaled = false
				}
			}
			vs := v.ToString()
			d, err := decimal.NewFromString(vs)
			if err != nil {
				return nil
			}
			if dot := strings.IndexByte(vs, '.'); dot >= 0 && int32(len(vs)-dot-1) > st.scale {
				st.scale = int32(len(vs) - dot - 1)
			}
			if !st.decUsed {
				st.decUsed = true
				st.sumDec = decimal.NewFromInt(st.sumInt)
			}
			st.sumDec = st.sumDec.Add(d)
		}
	case "min", "max":
		if !st.hasVal {
			st.val, st.valColl, st.hasVal = cloneValue(v), coll, true
			return nil
		}
		cmp, err := evalengine.NullsafeCompare(v, st.val, ex.s.eng.Env.CollationEnv(), coll, nil)
		if err != nil {
			return err
		}
		if (a.name == "min" && cmp < 0) || (a.name == "max" && cmp > 0) {
			st.val = cloneValue(v)
		}
	case "std", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp":
		addVariance(st, v)
	case "bit_and", "bit_or", "bit_xor":
		u, err := strconv.ParseUint(v.ToString(), 10, 64)
		if err != nil {
			i, _ := strconv.ParseInt(v.ToString(), 10, 64)
			u = uint64(i)
		}
		if st.count == 1 && a.name == "bit_and" {
			st.bits = ^uint64(0)
		}
		switch a.name {
		case "bit_and":
			st.bits &= u
		case "bit_or":
			st.bits |= u
		default:
			st.bits ^= u
		}
	}
	return nil
}

func (a *aggSpec) result(ex *execCtx, st *aggState) (sqltypes.Value, error) {
	switch a.name {
	case "count", "count_star":
		return sqltypes.NewInt64(st.count), nil
	case "sum", "avg":
		if st.count == 0 {
			return sqltypes.NULL, nil
		}
		if st.isFloat {
			f := st.sumFloat
			if a.name == "avg" {
				f /= float64(st.count)
			}
			return sqltypes.NewFloat64(f), nil
		}
		d := st.sumDec
		if !st.decUsed {
			d = decimal.NewFromInt(st.sumInt)
			if st.scaled {
				d = d.Add(st.scaledSum())
			}
		}
		// The result keeps the fractional digits of the summed values
		// (SUM of DECIMAL(10,2) has scale 2); AVG adds
		// div_precision_increment digits (at most 30 in all).
		scale := st.scale
		if a.name == "avg" {
			d = d.Div(decimal.NewFromInt(st.count), a.divPrec)
			scale = min(scale+a.divPrec, 30)
		}
		return sqltypes.MakeTrusted(sqltypes.Decimal, []byte(d.StringFixed(scale))), nil
	case "min", "max":
		if !st.hasVal {
			return sqltypes.NULL, nil
		}
		return st.val, nil
	case "bit_and":
		if st.count == 0 {
			return sqltypes.NewUint64(^uint64(0)), nil
		}
		return sqltypes.NewUint64(st.bits), nil
	case "bit_or", "bit_xor":
		return sqltypes.NewUint64(st.bits), nil
	case "std", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp":
		return varianceResult(a.name, st), nil
	case "json_arrayagg", "json_objectagg":
		return a.jsonAggResult(st)
	case "group_concat":
		if len(st.concat) == 0 {
			return sqltypes.NULL, nil
		}
		if len(a.order) > 0 {
			if err := sortRows(st.concat, a.order, st.colls, ex); err != nil {
				return sqltypes.NULL, err
			}
		}
		maxLen := 1024
		if v, ok := ex.s.sysVar("group_concat_max_len"); ok {
			if n, err := v.ToInt64(); err == nil {
				maxLen = int(n)
			}
		}
		var sb strings.Builder
		for i, r := range st.concat {
			if i > 0 {
				sb.WriteString(a.sep)
			}
			for _, v := range r[:a.nvals] {
				sb.WriteString(v.ToString())
			}
			if sb.Len() > maxLen {
				break
			}
		}
		s := sb.String()
		if len(s) > maxLen {
			s = s[:maxLen]
			ex.s.warn("Warning", 1260, "Row 1 was cut by GROUP_CONCAT()")
		}
		return sqltypes.MakeTrusted(sqltypes.Text, []byte(s)), nil
	}
	return sqltypes.NULL, nil
}

// groupKey appends a byte key identifying vals for grouping and DISTINCT:
// text by collation weight (so 'a' and 'A' group together under *_ci, and
// trailing spaces are ignored under PAD SPACE collations), numbers by value.
func groupKey(dst []byte, vals Row, colls []collations.ID) []byte {
	for i, v := range vals {
		switch {
		case v.IsNull():
			dst = append(dst, 0)
			continue
		case v.IsText():
			coll := collations.ID(45)
			if colls != nil && i < len(colls) && colls[i] != 0 {
				coll = colls[i]
			}
			dst = append(dst, 1)
			raw := collation.TrimPad(coll, v.Raw())
			c := colldata.Lookup(coll)
			if c == nil {
				dst = appendLenBytes(dst, raw)
				continue
			}
			// Length-prefixed weight string, written in place.
			start := len(dst)
			dst = append(dst, 0, 0, 0, 0)
			dst = collation.AppendWeightString(dst, coll, c, raw)
			binary.BigEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
		case v.IsIntegral() || v.Type() == sqltypes.Decimal || v.IsFloat():
			dst = append(dst, 2)
			s := v.ToString()
			if v.Type() == sqltypes.Decimal && strings.Contains(s, ".") {
				s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
				if s == "-0" || s == "" {
					s = "0"
				}
			}
			if v.IsFloat() {
				f, _ := strconv.ParseFloat(s, 64)
				if f == float64(int64(f)) {
					s = strconv.FormatInt(int64(f), 10)
				}
			}
			dst = appendLenBytes(dst, []byte(s))
		default:
			dst = append(dst, 3)
			dst = appendLenBytes(dst, v.Raw())
		}
	}
	return dst
}

func appendLenBytes(dst, b []byte) []byte {
	dst = strconv.AppendInt(dst, int64(len(b)), 10)
	dst = append(dst, ':')
	return append(dst, b...)
}

// sortRows sorts rows by keys (stable, NULLs first ascending as MySQL).
// Sort values are normalised once per row (text trimmed for PAD SPACE,
// numbers parsed) so comparisons do not allocate.
func sortRows(rows []Row, keys []sortKey, colls []collations.ID, ex *execCtx) error {
	if len(rows) < 2 {
		return nil
	}
	env := ex.s.eng.Env.CollationEnv()
	type dec struct {
		row  Row
		vals []exec.SortVal
	}
	ds := make([]*dec, len(rows))
	store := make([]dec, len(rows))
	for i := range ds {
		ds[i] = &store[i]
	}
	all := make([]exec.SortVal, len(rows)*len(keys))
	for i, r := range rows {
		ds[i].row = r
		ds[i].vals = all[i*len(keys) : (i+1)*len(keys)]
		for k, key := range keys {
			coll := ex.s.collation()
			if colls != nil && key.idx < len(colls) && colls[key.idx] != 0 {
				coll = colls[key.idx]
			}
			ds[i].vals[k] = exec.MakeSortVal(r[key.idx], coll)
		}
	}
	var err error
	sort.SliceStable(ds, func(i, j int) bool {
		for k, key := range keys {
			c, e := ds[i].vals[k].Compare(&ds[j].vals[k], env)
			if e != nil && err == nil {
				err = e
			}
			if c == 0 {
				continue
			}
			if key.desc {
				return c > 0
			}
			return c < 0
		}
		return false
	})
	for i := range ds {
		rows[i] = ds[i].row
	}
	return err
}

// unquoteSQL removes the quotes Vitess keeps around some string options.
func unquoteSQL(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

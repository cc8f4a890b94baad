package sql

import (
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/datetime"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// Planning window functions (MySQL 8.0: ROW_NUMBER() OVER (...), SUM(x)
// OVER w, ...). The window functions of the select list and ORDER BY are
// replaced by Offsets into the row the window stages emit: the row they
// are given (the joined row, or the aggregated row
// [representative..., aggregates...] of a grouped query, after HAVING)
// followed by one value per window function. Their arguments, PARTITION
// BY and ORDER BY are compiled over the given row, so aggregates in them
// (SUM(SUM(x)) OVER (), RANK() OVER (ORDER BY COUNT(*))) read the
// aggregated row. Functions over the same PARTITION BY and ORDER BY form
// one stage: one sort of the rows, one pass over each partition
// (window_op.go).

// winKind is what a window function computes.
type winKind uint8

const (
	winRowNumber winKind = iota
	winRank
	winDenseRank
	winPercentRank
	winCumeDist
	winNtile
	winLag
	winLead
	winFirstValue
	winLastValue
	winNthValue
	// winAgg: an aggregate over the frame (aggSpec): COUNT, SUM, AVG,
	// MIN, MAX, BIT_AND/OR/XOR, STD and VARIANCE and their forms,
	// JSON_ARRAYAGG, JSON_OBJECTAGG.
	winAgg
)

// usesFrame reports whether the function reads its frame (the ranking
// functions, LAG and LEAD read the whole partition).
func (k winKind) usesFrame() bool { return k >= winFirstValue }

// windowStage is the window functions computed over one PARTITION BY and
// ORDER BY.
type windowStage struct {
	key       string // PARTITION BY and ORDER BY as text (stage identity)
	sortText  string // the sort's keys as EXPLAIN shows them
	partition []*eval.Expr
	order     []*eval.Expr
	desc      []bool
	// keyColls are the collations the keys compare text by (0: the
	// session's).
	keyColls []collations.ID
	funcs    []*windowFunc
	// nbounds counts the RANGE bound values the stage's functions
	// compute per row (windowFunc.startCol, endCol).
	nbounds int
}

// nkeys is the number of sort keys of the stage.
func (st *windowStage) nkeys() int { return len(st.partition) + len(st.order) }

// windowFunc is one window function call.
type windowFunc struct {
	kind winKind
	name string // lower-case, for errors
	text string // the call as written (EXPLAIN)
	slot int    // index among the plan's window values
	arg  *eval.Expr
	// n: NTILE's bucket count, LAG's and LEAD's offset, NTH_VALUE's N
	// (constant, evaluated per execution; nil: 1).
	n   *eval.Expr
	def *eval.Expr // LAG/LEAD default
	agg *aggSpec
	typ evalengine.Type
	win string // the window's printable name
	fr  frame
	// framed: the window has a frame clause (which the ranking
	// functions, LAG and LEAD ignore, with MySQL's note 3599).
	framed bool
	// startN, endN are the ROWS offsets of N PRECEDING/FOLLOWING bounds,
	// and the N of RANGE bounds (checked per execution: not negative).
	startN, endN *eval.Expr
	// startVal, endVal compute a RANGE value bound from a row (its ORDER
	// BY value minus or plus N); startCol, endCol are where the stage
	// keeps them (after the sort keys).
	startVal, endVal *eval.Expr
	startCol, endCol int
}

// planWindows plans the window functions of sel (after planAggregates):
// each call in the select list and ORDER BY becomes an Offset into the
// window stages' output row.
func (p *selectPlan) planWindows(c *compiler, sel *sqlparser.Select) error {
	named, err := namedWindows(sel)
	if err != nil {
		return err
	}
	if !plan.HasWindowFuncs(sel) {
		return nil
	}
	p.winBase = p.width
	if p.hasAgg {
		p.winBase = p.width + len(p.aggs)
	}
	if c.Scope.OffsetTypes == nil {
		c.Scope.OffsetTypes = map[string]evalengine.Type{}
	}
	keys := map[string]int{}
	var werr error
	rewrite := func(e sqlparser.Expr) sqlparser.Expr {
		return sqlparser.Rewrite(e, func(cur *sqlparser.Cursor) bool {
			if werr != nil {
				return false
			}
			if _, ok := cur.Node().(*sqlparser.Subquery); ok {
				return false
			}
			if !plan.IsWindowFunc(cur.Node()) {
				return true
			}
			wf := cur.Node().(sqlparser.WindowFunc)
			// Aggregates in its arguments and window read the
			// aggregated row.
			re, err := p.rewriteAggs(wf)
			if err != nil {
				werr = err
				return false
			}
			key := sqlparser.String(re)
			slot, ok := keys[key]
			if !ok {
				f, err := p.planWindowFunc(c, re.(sqlparser.WindowFunc), named)
				if err != nil {
					werr = err
					return false
				}
				slot = f.slot
				keys[key] = slot
				c.Scope.OffsetTypes[key] = f.typ
			}
			cur.Replace(&sqlparser.Offset{V: p.winBase + slot, Original: re})
			return false
		}, nil).(sqlparser.Expr)
	}
	for i, se := range sel.SelectExprs.Exprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		if !ok || plan.ContainsWindowFunc(ae.Expr) == nil {
			continue
		}
		as := ae.As
		if as.IsEmpty() {
			as = sqlparser.NewIdentifierCI(c.s.exprName(ae.Expr))
		}
		e := rewrite(sqlparser.CloneExpr(ae.Expr))
		if werr != nil {
			return werr
		}
		sel.SelectExprs.Exprs[i] = &sqlparser.AliasedExpr{Expr: e, As: as}
	}
	for _, o := range sel.OrderBy {
		if plan.ContainsWindowFunc(o.Expr) == nil {
			continue
		}
		o.Expr = rewrite(o.Expr)
		if werr != nil {
			return werr
		}
	}
	return nil
}

// winSpec is a window after inheritance: its printable name, PARTITION
// BY, ORDER BY and frame (nil: the default).
type winSpec struct {
	name      string
	partition []sqlparser.Expr
	order     sqlparser.OrderBy
	frame     *sqlparser.FrameClause
}

const unnamedWindow = "<unnamed window>"

// namedWindows checks the WINDOW clause (names defined once, references
// defined and acyclic, MySQL's inheritance rules) and returns its
// windows by lower-case name.
func namedWindows(sel *sqlparser.Select) (map[string]*sqlparser.WindowDefinition, error) {
	defs := map[string]*sqlparser.WindowDefinition{}
	var order []*sqlparser.WindowDefinition
	for _, nw := range sel.Windows {
		for _, d := range nw.Windows {
			k := d.Name.Lowered()
			if _, dup := defs[k]; dup {
				return nil, sqlerr.Window(sqlerr.WindowDuplicateName, "Window '%s' is defined twice.", d.Name.String())
			}
			defs[k] = d
			order = append(order, d)
		}
	}
	for _, d := range order {
		ref := d.WindowSpec.Name
		if ref.IsEmpty() {
			continue
		}
		if _, ok := defs[ref.Lowered()]; !ok {
			return nil, sqlerr.Window(sqlerr.WindowNoSuchWindow, "Window name '%s' is not defined.", ref.String())
		}
	}
	for _, d := range order {
		seen := map[string]bool{d.Name.Lowered(): true}
		for r := d.WindowSpec.Name; !r.IsEmpty(); r = defs[r.Lowered()].WindowSpec.Name {
			if seen[r.Lowered()] {
				return nil, sqlerr.Window(sqlerr.WindowCircularity, "There is a circularity in the window dependency graph.")
			}
			seen[r.Lowered()] = true
		}
	}
	for _, d := range order {
		if _, err := resolveSpec(d.Name.String(), d.WindowSpec, defs); err != nil {
			return nil, err
		}
	}
	return defs, nil
}

// resolveSpec applies inheritance to spec (a window named name, or
// unnamed): only the root of a chain may partition, at most one window
// of it may order, and a window referenced must not have a frame.
func resolveSpec(name string, spec *sqlparser.WindowSpecification, defs map[string]*sqlparser.WindowDefinition) (*winSpec, error) {
	ws := &winSpec{name: name, partition: spec.PartitionClause, order: spec.OrderClause, frame: spec.FrameClause}
	orderer := name
	for ref, child := spec.Name, spec; !ref.IsEmpty(); {
		d := defs[ref.Lowered()]
		if d == nil {
			return nil, sqlerr.Window(sqlerr.WindowNoSuchWindow, "Window name '%s' is not defined.", ref.String())
		}
		if len(child.PartitionClause) > 0 {
			return nil, sqlerr.Window(sqlerr.WindowNoChildPartitioning, "A window which depends on another cannot define partitioning.")
		}
		if d.WindowSpec.FrameClause != nil {
			return nil, sqlerr.Window(sqlerr.WindowNoInheritFrame, "Window '%s' has a frame definition, so cannot be referenced by another window.", d.Name.String())
		}
		if len(d.WindowSpec.OrderClause) > 0 {
			if len(ws.order) > 0 {
				return nil, sqlerr.Window(sqlerr.WindowNoRedefineOrderBy, "Window '%s' cannot inherit '%s' since both contain an ORDER BY clause.", orderer, d.Name.String())
			}
			ws.order, orderer = d.WindowSpec.OrderClause, d.Name.String()
		}
		ws.partition = d.WindowSpec.PartitionClause
		child, ref = d.WindowSpec, d.WindowSpec.Name
	}
	return ws, nil
}

// overSpec resolves the OVER clause of a window function.
func overSpec(over *sqlparser.OverClause, defs map[string]*sqlparser.WindowDefinition) (*winSpec, error) {
	if over.WindowSpec == nil {
		d := defs[over.WindowName.Lowered()]
		if d == nil {
			return nil, sqlerr.Window(sqlerr.WindowNoSuchWindow, "Window name '%s' is not defined.", over.WindowName.String())
		}
		return resolveSpec(d.Name.String(), d.WindowSpec, defs)
	}
	return resolveSpec(unnamedWindow, over.WindowSpec, defs)
}

// planWindowFunc compiles one window function call and adds it to its
// stage.
func (p *selectPlan) planWindowFunc(c *compiler, wf sqlparser.WindowFunc, defs map[string]*sqlparser.WindowDefinition) (*windowFunc, error) {
	ws, err := overSpec(wf.GetOverClause(), defs)
	if err != nil {
		return nil, err
	}
	f := &windowFunc{name: strings.ToLower(wf.WindowFuncName()), text: sqlparser.String(wf), win: ws.name, startCol: -1, endCol: -1}
	bigint := evalengine.NewTypeEx(sqltypes.Int64, collations.CollationBinaryID, false, 21, 0, nil)
	double := evalengine.NewTypeEx(sqltypes.Float64, collations.CollationBinaryID, true, 23, 31, nil)
	// Aggregates in the arguments are Offsets by now (rewriteAggs); a
	// window function in them is 3593 (eval's noWindowFuncs).
	compile := c.Compile
	valueType := func() {
		f.typ = f.arg.Static
		if f.typ.Valid() {
			f.typ.SetNullability(true)
		}
	}
	switch w := wf.(type) {
	case *sqlparser.ArgumentLessWindowExpr:
		switch w.Type {
		case sqlparser.RowNumberExprType:
			f.kind = winRowNumber
		case sqlparser.RankExprType:
			f.kind = winRank
		case sqlparser.DenseRankExprType:
			f.kind = winDenseRank
		case sqlparser.PercentRankExprType:
			f.kind = winPercentRank
		case sqlparser.CumeDistExprType:
			f.kind = winCumeDist
		}
		f.typ = bigint
		if f.kind == winPercentRank || f.kind == winCumeDist {
			f.typ = double
			f.typ.SetNullability(false)
		}
	case *sqlparser.NtileExpr:
		f.kind, f.typ = winNtile, bigint
		f.typ.SetNullability(true)
		if f.n, err = constArg(c, w.N, f.name); err != nil {
			return nil, err
		}
	case *sqlparser.LagLeadExpr:
		f.kind = winLag
		if w.Type == sqlparser.LeadExprType {
			f.kind = winLead
		}
		if err := nullTreatment(w.NullTreatmentClause); err != nil {
			return nil, err
		}
		if f.arg, err = compile(w.Expr); err != nil {
			return nil, err
		}
		if w.N != nil {
			if f.n, err = constArg(c, w.N, f.name); err != nil {
				return nil, err
			}
		}
		valueType()
		if w.Default != nil {
			if f.def, err = compile(w.Default); err != nil {
				return nil, err
			}
			if dt := f.def.Static; !dt.Valid() || dt.Type() != f.typ.Type() || dt.Collation() != f.typ.Collation() {
				// The column's type is that of the values sent.
				f.typ = evalengine.Type{}
			}
		}
	case *sqlparser.FirstOrLastValueExpr:
		f.kind = winFirstValue
		if w.Type == sqlparser.LastValueExprType {
			f.kind = winLastValue
		}
		if err := nullTreatment(w.NullTreatmentClause); err != nil {
			return nil, err
		}
		if f.arg, err = compile(w.Expr); err != nil {
			return nil, err
		}
		valueType()
	case *sqlparser.NTHValueExpr:
		f.kind = winNthValue
		if err := nullTreatment(w.NullTreatmentClause); err != nil {
			return nil, err
		}
		if w.FromFirstLastClause != nil && w.FromFirstLastClause.Type == sqlparser.FromLastType {
			return nil, sqlerr.Unsupported("FROM LAST")
		}
		if f.arg, err = compile(w.Expr); err != nil {
			return nil, err
		}
		if f.n, err = constArg(c, w.N, f.name); err != nil {
			return nil, err
		}
		valueType()
	case sqlparser.AggrFunc:
		if sqlparser.IsDistinct(w) {
			return nil, sqlerr.Unsupported("<window function>(DISTINCT ..)")
		}
		f.kind = winAgg
		if f.agg, err = newAggSpec(c, w, sqlparser.String(w)); err != nil {
			return nil, err
		}
		f.typ = f.agg.typ
	default:
		return nil, sqlerr.Unsupported("window function %s", strings.ToUpper(f.name))
	}
	st, err := p.windowStage(c, ws)
	if err != nil {
		return nil, err
	}
	if err := p.planFrame(c, st, f, ws); err != nil {
		return nil, err
	}
	f.slot = p.nWin
	p.nWin++
	st.funcs = append(st.funcs, f)
	return f, nil
}

// nullTreatment answers 1235 for IGNORE NULLS, as MySQL does.
func nullTreatment(n *sqlparser.NullTreatmentClause) error {
	if n != nil && n.Type == sqlparser.IgnoreNullsType {
		return sqlerr.Unsupported("IGNORE NULLS")
	}
	return nil
}

// constArg compiles the constant argument of NTILE, LAG, LEAD or
// NTH_VALUE (its value is checked per execution).
func constArg(c *compiler, e sqlparser.Expr, fname string) (*eval.Expr, error) {
	if !isConstBound(e) {
		return nil, wrongArgs(fname)
	}
	return c.Compile(e)
}

// isConstBound reports whether e is a literal, a parameter or an
// expression of them only.
func isConstBound(e sqlparser.Expr) bool {
	ok := true
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch n.(type) {
		case *sqlparser.ColName, *sqlparser.Subquery, *sqlparser.Variable, sqlparser.AggrFunc, *sqlparser.Offset:
			ok = false
		}
		return ok, nil
	}, e)
	return ok
}

// windowStage returns the stage of window ws, adding it if it is new.
func (p *selectPlan) windowStage(c *compiler, ws *winSpec) (*windowStage, error) {
	var kb strings.Builder
	for _, e := range ws.partition {
		kb.WriteString(sqlparser.String(e))
		kb.WriteString(",")
	}
	kb.WriteString("|")
	for _, o := range ws.order {
		kb.WriteString(sqlparser.String(o))
		kb.WriteString(",")
	}
	key := kb.String()
	for _, st := range p.windows {
		if st.key == key {
			return st, nil
		}
	}
	st := &windowStage{key: key}
	var sortKeys []string
	for _, e := range ws.partition {
		sortKeys = append(sortKeys, sqlparser.String(e))
	}
	for _, o := range ws.order {
		k := sqlparser.String(o.Expr)
		if o.Direction == sqlparser.DescOrder {
			k += " DESC"
		}
		sortKeys = append(sortKeys, k)
	}
	st.sortText = strings.Join(sortKeys, ", ")
	add := func(e sqlparser.Expr, desc bool) error {
		if w := plan.ContainsWindowFunc(e); w != nil {
			return sqlerr.Window(sqlerr.WindowNestedFuncInSpec, "You cannot nest a window function in the specification of window '%s'.", ws.name)
		}
		e, err := p.rewriteAggs(e)
		if err != nil {
			return err
		}
		if plan.ContainsAggr(e) {
			return sqlerr.New(sqlerror.ERInvalidGroupFuncUse, sqlerror.SSUnknownSQLState, "Invalid use of group function")
		}
		x, err := c.Compile(e)
		if err != nil {
			return err
		}
		var coll collations.ID
		if t := x.Static; t.Valid() && sqltypes.IsText(t.Type()) {
			coll = t.Collation()
		}
		st.keyColls = append(st.keyColls, coll)
		if len(st.keyColls) <= len(ws.partition) {
			st.partition = append(st.partition, x)
		} else {
			st.order = append(st.order, x)
			st.desc = append(st.desc, desc)
		}
		return nil
	}
	for _, e := range ws.partition {
		if err := add(e, false); err != nil {
			return nil, err
		}
	}
	for _, o := range ws.order {
		if err := add(o.Expr, o.Direction == sqlparser.DescOrder); err != nil {
			return nil, err
		}
	}
	p.windows = append(p.windows, st)
	return st, nil
}

// planFrame checks the frame of window ws for f (MySQL's rules and
// errors) and compiles its bounds.
func (p *selectPlan) planFrame(c *compiler, st *windowStage, f *windowFunc, ws *winSpec) error {
	f.fr = defaultFrame
	fc := ws.frame
	if fc == nil {
		return nil
	}
	name := ws.name
	f.framed = true
	fr := frame{unit: frameRows}
	if fc.Unit == sqlparser.FrameRangeType {
		fr.unit = frameRange
	}
	kinds := map[sqlparser.FramePointType]boundKind{
		sqlparser.UnboundedPrecedingType: boundUnboundedPreceding,
		sqlparser.ExprPrecedingType:      boundPreceding,
		sqlparser.CurrentRowType:         boundCurrent,
		sqlparser.ExprFollowingType:      boundFollowing,
		sqlparser.UnboundedFollowingType: boundUnboundedFollowing,
	}
	fr.start = kinds[fc.Start.Type]
	fr.end = boundCurrent
	end := fc.End
	if end != nil {
		fr.end = kinds[end.Type]
	}
	if fr.start == boundUnboundedFollowing {
		return sqlerr.Window(sqlerr.WindowFrameStartIllegal, "Window '%s': frame start cannot be UNBOUNDED FOLLOWING.", name)
	}
	if fr.end == boundUnboundedPreceding {
		return sqlerr.Window(sqlerr.WindowFrameEndIllegal, "Window '%s': frame end cannot be UNBOUNDED PRECEDING.", name)
	}
	illegal := sqlerr.Window(sqlerr.WindowFrameIllegal, "Window '%s': frame start or end is negative, NULL or of non-integral type", name)
	if fr.start == boundCurrent && fr.end == boundPreceding || fr.start == boundFollowing && (fr.end == boundCurrent || fr.end == boundPreceding) {
		return illegal
	}
	f.fr = fr
	for i, pt := range []*sqlparser.FramePoint{fc.Start, end} {
		if pt == nil || pt.Expr == nil {
			continue
		}
		if fr.unit == frameRows && pt.Unit != datetime.IntervalNone {
			return sqlerr.Window(sqlerr.WindowRowsIntervalUse, "Window '%s': INTERVAL can only be used with RANGE frames.", name)
		}
		if !isConstBound(pt.Expr) {
			return sqlerr.Window(sqlerr.WindowRangeBoundNotConstant, "Window '%s' has a non-constant frame bound.", name)
		}
		if lit, ok := pt.Expr.(*sqlparser.Literal); ok {
			if fr.unit == frameRows && lit.Type != sqlparser.IntVal {
				return illegal
			}
		}
		n, err := c.Compile(pt.Expr)
		if err != nil {
			return err
		}
		var val *eval.Expr
		if fr.unit == frameRange {
			if val, err = p.rangeBound(c, st, ws, pt, i == 0); err != nil {
				return err
			}
		}
		if i == 0 {
			f.startN, f.startVal = n, val
		} else {
			f.endN, f.endVal = n, val
		}
	}
	if f.startVal != nil {
		f.startCol = st.nbounds
		st.nbounds++
	}
	if f.endVal != nil {
		f.endCol = st.nbounds
		st.nbounds++
	}
	return nil
}

// rangeBound compiles the value bound of a RANGE frame point over a row:
// its ORDER BY value minus N for N PRECEDING (ascending order), plus N for
// N FOLLOWING, the other way round for a descending order; with INTERVAL
// for a temporal ORDER BY.
func (p *selectPlan) rangeBound(c *compiler, st *windowStage, ws *winSpec, pt *sqlparser.FramePoint, start bool) (*eval.Expr, error) {
	name := ws.name
	orderType := sqlerr.Window(sqlerr.WindowRangeFrameOrderType, "Window '%s' with RANGE N PRECEDING/FOLLOWING frame requires exactly one ORDER BY expression, of numeric or temporal type", name)
	if len(st.order) != 1 {
		return nil, orderType
	}
	t := st.order[0].Static
	temporal := t.Valid() && (sqltypes.IsDate(t.Type()) || t.Type() == sqltypes.Time)
	numeric := t.Valid() && (sqltypes.IsNumber(t.Type()) || t.Type() == sqltypes.Year)
	if !temporal && !numeric {
		return nil, orderType
	}
	interval := pt.Unit != datetime.IntervalNone
	if temporal && !interval {
		return nil, sqlerr.Window(sqlerr.WindowRangeFrameTemporal, "Window '%s' with RANGE frame has ORDER BY expression of datetime type. Only INTERVAL bound value allowed.", name)
	}
	if numeric && interval {
		return nil, sqlerr.Window(sqlerr.WindowRangeFrameNumeric, "Window '%s' with RANGE frame has ORDER BY expression of numeric type, INTERVAL bound value not allowed.", name)
	}
	minus := pt.Type == sqlparser.ExprPrecedingType
	if ws.order[0].Direction == sqlparser.DescOrder {
		minus = !minus
	}
	oe, err := p.rewriteAggs(sqlparser.CloneExpr(ws.order[0].Expr))
	if err != nil {
		return nil, err
	}
	var e sqlparser.Expr
	if temporal {
		syn := sqlparser.IntervalDateExprDateAdd
		if minus {
			syn = sqlparser.IntervalDateExprDateSub
		}
		e = &sqlparser.IntervalDateExpr{Syntax: syn, Date: oe, Interval: pt.Expr, Unit: pt.Unit}
	} else {
		if sqltypes.IsIntegral(t.Type()) || t.Type() == sqltypes.Year {
			// Exact and without overflow (0 - 1 of an unsigned column).
			oe = &sqlparser.CastExpr{Expr: oe, Type: &sqlparser.ConvertType{Type: "decimal", Length: ptrInt(65)}}
		}
		op := sqlparser.PlusOp
		if minus {
			op = sqlparser.MinusOp
		}
		e = &sqlparser.BinaryExpr{Operator: op, Left: oe, Right: pt.Expr}
	}
	return c.Compile(e)
}

func ptrInt(n int) *int { return &n }

// wrongArgs is 1210 for a window function's bad constant argument.
func wrongArgs(fname string) error {
	return sqlerr.New(sqlerror.ERWrongArguments, sqlerror.SSUnknownSQLState, "Incorrect arguments to %s", fname)
}

// windowAliasUse answers MySQL's 3594 for a GROUP BY or HAVING that names
// the alias of a select-list expression with a window function (whose
// value exists only after grouping and HAVING).
func windowAliasUse(sel *sqlparser.Select, sc *eval.Scope) error {
	aliases := map[string]bool{}
	for _, se := range sel.SelectExprs.Exprs {
		if ae, ok := se.(*sqlparser.AliasedExpr); ok && !ae.As.IsEmpty() && plan.ContainsWindowFunc(ae.Expr) != nil {
			aliases[ae.As.Lowered()] = true
		}
	}
	if len(aliases) == 0 {
		return nil
	}
	var nodes []sqlparser.SQLNode
	if sel.Having != nil {
		nodes = append(nodes, sel.Having.Expr)
	}
	if sel.GroupBy != nil {
		for _, g := range sel.GroupBy.Exprs {
			nodes = append(nodes, g)
		}
	}
	var err error
	for _, n := range nodes {
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
			if _, ok := n.(*sqlparser.Subquery); ok || err != nil {
				return false, nil
			}
			if cn, ok := n.(*sqlparser.ColName); ok && cn.Qualifier.IsEmpty() && aliases[cn.Name.Lowered()] {
				if _, rerr := sc.Resolve(cn); rerr != nil {
					err = sqlerr.Window(sqlerr.WindowInvalidFuncAliasUse, "You cannot use the alias '%s' of an expression containing a window function in this context.'", cn.Name.String())
				}
			}
			return true, nil
		}, n)
	}
	return err
}

// explainText is the stage's node in EXPLAIN FORMAT=TREE, as MySQL 8.0
// names it.
func (st *windowStage) explainText() string {
	texts := make([]string, len(st.funcs))
	buffered := false
	for i, f := range st.funcs {
		texts[i] = f.text
		buffered = buffered || f.kind.usesFrame() || f.kind == winPercentRank || f.kind == winCumeDist || f.kind == winNtile || f.kind == winLead
	}
	if buffered {
		return "Window aggregate with buffering: " + strings.Join(texts, ", ")
	}
	return "Window aggregate: " + strings.Join(texts, ", ")
}

// recursiveGrouping answers MySQL's 3575 for the recursive member of
// recursive CTE name when it groups or computes window functions (it
// sees one iteration's rows at a time, so neither would mean what it
// says).
func recursiveGrouping(member sqlparser.TableStatement, name string) error {
	sel, ok := member.(*sqlparser.Select)
	if !ok {
		return nil
	}
	if plan.HasAggregates(sel) || plan.HasWindowFuncs(sel) || sel.GroupBy != nil && len(sel.GroupBy.Exprs) > 0 {
		return sqlerr.New(sqlerr.CTERecursiveForbidsAggregation, sqlerror.SSUnknownSQLState, "Recursive Common Table Expression '%s' can contain neither aggregation nor window functions in recursive query block", name)
	}
	return nil
}

package sql

import (
	"context"
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// selectPlan is a planned SELECT.
type selectPlan struct {
	// usesStats: the join order (here or in a subquery) was chosen from
	// table statistics of statsVersion; newer statistics re-plan it.
	usesStats    bool
	statsVersion uint64
	// private: the plan captures the session that planned it and must not
	// be cached for others (plancache.go).
	private bool

	srcs  []*tableSource
	width int
	lock  lockMode
	// constFilter: WHERE conjuncts that use no table (evaluated once).
	constFilter []*eval.Expr

	hasAgg  bool
	groupBy []*eval.Expr
	// rollup: GROUP BY ... WITH ROLLUP, grouping by the columns at these
	// offsets of the joined row (rollup.go).
	rollup []int
	// streamAgg: the join yields each group's rows one after another (the
	// first table is read in an order the GROUP BY columns lead), so
	// groups are aggregated one at a time (aggregate_stream.go).
	streamAgg bool
	aggs      []*aggSpec
	having    *eval.Expr

	// windows are the window stages (window_plan.go); their values
	// follow the winBase values of the rows they are given.
	windows []*windowStage
	winBase int
	nWin    int

	proj     []*eval.Expr
	projCols []int // for plain column projections: scope index, else -1
	names    []string
	sc       *eval.Scope // scope of the projection (post-aggregation)
	visible  int         // number of visible columns; the rest are sort keys
	order    []sortKey
	sortNeed bool
	distinct bool
	limit    *eval.Expr
	offset   *eval.Expr

	bindNames []string
	// rowFilter is a HAVING clause of a query without aggregation.
	rowFilter *eval.Expr
	// countStar: the query is COUNT(*) of a whole table (count_star.go).
	countStar bool
	// exprCols are the visible columns computed by expressions (nil until
	// the first result): reconcileFields checks them against the values.
	exprCols []int
	// staticFields caches the result metadata when it depends only on
	// the plan.
	staticFields []*querypb.Field
	// singleRead: one point lookup on a unique key and nothing else (no
	// subqueries, no other tables), so a statement-level snapshot is not
	// needed.
	singleRead bool
	// subs are the plans of the subqueries of its expressions (EXPLAIN).
	subs []subPlan
	// calcFound counts the rows without the LIMIT of a SELECT
	// SQL_CALC_FOUND_ROWS (found_rows.go).
	calcFound *selectPlan
	// ops are the operators of an execution (select_ops.go).
	ops selectOps
}

type sortKey struct {
	idx  int // column of the projected row
	desc bool
	text string // the ORDER BY expression as written (EXPLAIN)
}

// planSelect plans a top-level SELECT statement.
func (s *Session) planSelect(ctx context.Context, sel *sqlparser.Select) (*selectPlan, error) {
	version := s.eng.Cat.StatsVersion()
	s.statsUsed, s.planPrivate = false, false
	p, err := s.planSelectOuter(ctx, sel, nil)
	if err == nil {
		p.calcFound, err = s.planFoundRows(ctx, sel)
	}
	if err != nil {
		return nil, err
	}
	p.usesStats, p.statsVersion, p.private = s.statsUsed, version, s.planPrivate
	return p, nil
}

// planSelectBody plans a SELECT (planSelectOuter merges views first); outer is the enclosing scope when the
// SELECT is a subquery.
func (s *Session) planSelectBody(ctx context.Context, sel *sqlparser.Select, outer *eval.Outer) (*selectPlan, error) {
	// Planning rewrites parts of the AST (aggregates, HAVING); work on a
	// copy so a cached statement can be planned again.
	sel = sqlparser.CloneRefOfSelect(sel)
	p := &selectPlan{}
	if sel.Into != nil {
		return nil, sqlerr.Unsupported("SELECT ... INTO")
	}
	if sel.With != nil && len(sel.With.CTEs) > 0 {
		pop, err := s.pushCTEs(ctx, sel.With, outer)
		if err != nil {
			return nil, err
		}
		defer pop()
	}
	if sel.Lock != sqlparser.NoLock {
		switch sel.Lock {
		case sqlparser.ForUpdateLock, sqlparser.ForUpdateLockNoWait, sqlparser.ForUpdateLockSkipLocked:
			p.lock = lockExclusive
		default:
			p.lock = lockShared
		}
	}
	// FROM
	fb := &fromBuilder{s: s, ctx: ctx, scope: -1}
	for _, te := range sel.From {
		if a, ok := te.(*sqlparser.AliasedTableExpr); ok {
			if tn, ok := a.Expr.(sqlparser.TableName); ok && tn.Name.String() == "dual" && tn.Qualifier.IsEmpty() {
				continue
			}
		}
		if err := fb.add(te); err != nil {
			return nil, err
		}
	}
	if len(fb.items) > plan.MaxJoinTables {
		return nil, sqlerr.New(sqlerror.ERTooManyTables, sqlerror.SSUnknownSQLState, "Too many tables; MySQL can only use %d tables in a join", plan.MaxJoinTables)
	}
	sc := &eval.Scope{Where: "field list"}
	offs := make([]int, len(fb.items))
	for i, it := range fb.items {
		offs[i] = len(sc.Cols)
		if it.types != nil {
			addVirtual(sc, it.def, it.alias, it.types)
		} else {
			sc.AddTable(it.def, it.alias)
		}
	}
	p.width = len(sc.Cols)
	sc.Coalesced = fb.using
	c := s.newCompiler(ctx, sc, &p.bindNames, outer)
	c.subs = &p.subs
	if err := fb.compileTableFuncs(c, sc, offs, outer, sel.From); err != nil {
		return nil, err
	}

	// EXISTS, NOT EXISTS and IN subqueries of the WHERE clause that can be
	// semi- or anti-joins become tables of the join (semijoin.go), after
	// the query's own nReg tables.
	where := plan.SplitAnd(plan.WhereExpr(sel.Where))
	if err := fb.simplifyOuter(where, sc, offs, outer); err != nil {
		return nil, err
	}
	nReg := len(fb.items)
	var semiDeps []uint64
	if p.lock == lockNone && nReg > 0 {
		var semis []*fromItem
		if where, semis = c.semiJoins(where, sc); len(semis) > 0 {
			sel.Where = sqlparser.NewWhere(sqlparser.WhereClause, sqlparser.AndExpressions(where...))
			for _, it := range semis {
				offs = append(offs, len(sc.Cols))
				sc.AddHidden(it.def, it.scopeName)
				fb.items = append(fb.items, it)
			}
			p.width = len(sc.Cols)
			for k, it := range semis {
				var set uint64
				for _, e := range it.on {
					s, err := plan.ReferencedSet(e, sc, offs, outer)
					if err != nil {
						return nil, err
					}
					set |= s
				}
				semiDeps = append(semiDeps, fb.settledDeps(set&^(1<<(nReg+k))))
			}
		}
	}

	// WHERE and inner-join ON conditions, assigned to the earliest level
	// (in execution order) where all their columns are available.
	conds := append(where, fb.where...)
	conds = append(conds, plan.OrCommonConjuncts(conds)...)
	conds = append(conds, plan.ImpliedEqualities(conds, sc)...)
	condSets := make([]uint64, len(conds))
	sc.Where = "where clause"
	for k, cd := range conds {
		if plan.ContainsAggr(cd) {
			return nil, sqlerr.New(sqlerror.ERInvalidGroupFuncUse, sqlerror.SSUnknownSQLState, "Invalid use of group function")
		}
		set, err := plan.ReferencedSet(cd, sc, offs, outer)
		if err != nil {
			return nil, err
		}
		condSets[k] = set
	}
	implied, impliedSets := plan.OrImpliedByTable(conds, condSets, func(e sqlparser.Expr) uint64 {
		set, _ := plan.ReferencedSet(e, sc, offs, outer)
		return set
	})
	conds, condSets = append(conds, implied...), append(condSets, impliedSets...)
	// order[k] is the item executed at level k; pos is its inverse.
	tables := make([]plan.JoinTable, nReg)
	for i, it := range fb.items[:nReg] {
		tables[i] = plan.JoinTable{Def: it.def, Outer: it.outer, Virtual: it.virtual != nil}
	}
	order := plan.JoinOrder(tables, condSets, sel.StraightJoinHint || fb.straight,
		&plan.CostInput{Stats: (*planStats)(s), Consts: c, Scope: sc, Offs: offs, Outer: outer, Conds: conds, Sets: condSets,
			Order: orderLimitOf(sel, sc, offs, fb.items[:nReg])})
	order = plan.SemiOrder(order, nReg, semiDeps)
	pos := make([]int, len(order))
	for k, i := range order {
		pos[i] = k
	}
	levelConds := make([][]sqlparser.Expr, len(fb.items))
	for k, cd := range conds {
		lv := fb.condLevel(condSets[k], -1, pos)
		if lv < 0 {
			e, err := c.Compile(cd)
			if err != nil {
				return nil, err
			}
			p.constFilter = append(p.constFilter, e)
			continue
		}
		// A WHERE condition on an outer-joined table must be evaluated
		// after NULL extension: it stays at that table's level as a filter.
		levelConds[lv] = append(levelConds[lv], cd)
	}

	nestGroups, err := fb.nestConds(c, sc, offs, pos, order, outer)
	if err != nil {
		return nil, err
	}

	// ORDER BY over plain columns of the first table can be served by its
	// index order.
	selExprs := sel.SelectExprs
	var firstOrder []plan.OrderCol
	if len(fb.items) > 0 && len(sel.OrderBy) > 0 && !plan.HasAggregates(sel) && (sel.GroupBy == nil || len(sel.GroupBy.Exprs) == 0) && !plan.HasWindowFuncs(sel) {
		first := order[0]
		for _, o := range sel.OrderBy {
			e := plan.ResolveOrderAlias(o.Expr, selExprs)
			oc := plan.OrderCol{Col: -1, Desc: o.Direction == sqlparser.DescOrder}
			if cn, ok := e.(*sqlparser.ColName); ok {
				if i, err := sc.Resolve(cn); err == nil && i >= offs[first] && i < offs[first]+fb.items[first].def.ColumnCount() {
					oc.Col = i
				}
			}
			firstOrder = append(firstOrder, oc)
		}
	}
	// A window stage reads every row whatever the LIMIT.
	hasLimit := sel.Limit != nil && sel.Limit.Rowcount != nil && !plan.HasWindowFuncs(sel)

	needCols := plan.NeededTables(sel, sc)
	for lvl, i := range order {
		it := fb.items[i]
		src := &tableSource{def: it.def, alias: it.alias, off: offs[i], width: it.def.ColumnCount(), outer: it.outer || it.semi == plan.AntiJoin, semi: it.semi, virtual: it.virtual, tf: it.tf}
		// Conditions: on decides whether a row matches (an outer join's
		// ON, a semi-join's), filter rejects combined rows; nested outer
		// joins have groups between them (nest.go).
		onConds, filterConds := it.on, levelConds[lvl]
		var midConds [][]sqlparser.Expr
		src.nestLast = lvl
		if it.semi == plan.SemiNone {
			onConds, filterConds, midConds = fb.levelNest(src, i, lvl, pos, nestGroups[lvl], levelConds[lvl])
		}
		joined := len(src.ends) > 0 || it.semi != plan.SemiNone // conditions in onConds
		if it.virtual == nil {
			src.tbl = s.eng.Store.Open(it.def)
		}
		// Conditions usable for this table's access path.
		var usable []sqlparser.Expr
		if joined {
			usable = append(usable, onConds...)
		} else {
			usable = append(usable, filterConds...)
		}
		// Columns of the tables executed before this one are known.
		bound := func(col int) bool {
			l := plan.SourceOf(col, offs)
			return l >= 0 && pos[l] < lvl
		}
		preds := plan.Sargable(usable, sc, offs[i], src.width, outer, bound)
		var err error
		var order []plan.OrderCol
		if lvl == 0 {
			for _, oc := range firstOrder {
				if oc.Col >= 0 {
					oc.Col -= offs[i]
				}
				order = append(order, oc)
			}
		}
		if it.virtual == nil {
			if err := it.hints.Check(it.def); err != nil {
				return nil, err
			}
			ap, err := chooseAccess(c, it.def, preds, it.hints, order, hasLimit && len(fb.items) == 1)
			if err != nil {
				return nil, err
			}
			src.path = ap
			src.covering = !needCols[i] && p.lock == lockNone && it.semi == plan.SemiNone
			if src.covering && ap.wholeTable() {
				// No column needed (COUNT(*)): scan the narrowest index's
				// keys instead of the rows.
				if ix := plan.NarrowestIndex(it.def, it.hints); ix != nil {
					h := plan.IndexHints{Use: map[string]bool{strings.ToLower(ix.Name): true}, Force: true}
					if ap, err = chooseAccess(c, it.def, preds, h, order, false); err != nil {
						return nil, err
					}
					src.path = ap
				}
			}
			if lvl > 0 && p.lock == lockNone && ap.wholeTable() {
				// No index serves the join: a hash join (join_hash.go)
				// when an equality with the tables before gives a key.
				if src.vkey, err = c.virtualKeyFor(it, joinPreds(preds)); err != nil {
					return nil, err
				}
				if src.vkey != nil {
					src.covering = false
				}
			}
		} else if it.tf != nil && !it.tf.constant {
			// A table function's rows differ per outer row: no lookup hash.
		} else if src.vkey, err = c.virtualKeyFor(it, preds); err != nil {
			return nil, err
		}
		src.conds = append([]sqlparser.Expr(nil), onConds...)
		for _, m := range midConds {
			src.conds = append(src.conds, m...)
			x, err := c.compileAll(m)
			if err != nil {
				return nil, err
			}
			src.mid = append(src.mid, x)
		}
		src.conds = append(src.conds, filterConds...)
		if src.path != nil {
			src.conds, _ = plan.SplitConsumed(src.conds, src.path.consumed)
		}
		if src.nested {
			src.groupConds = nestGroupConds(src, onConds, midConds, filterConds)
		}
		src.residual = len(src.conds)
		var consumed []sqlparser.Expr
		if src.path != nil && len(src.path.consumed) > 0 && src.path.consumedAfterLock(p.lock) {
			if joined {
				onConds, consumed = plan.SplitConsumed(onConds, src.path.consumed)
			} else {
				filterConds, consumed = plan.SplitConsumed(filterConds, src.path.consumed)
			}
		}
		if src.on, err = c.compileAll(onConds); err != nil {
			return nil, err
		}
		if src.filter, err = c.compileAll(filterConds); err != nil {
			return nil, err
		}
		if src.rangeFilter, err = c.compileAll(consumed); err != nil {
			return nil, err
		}
		p.srcs = append(p.srcs, src)
	}
	sc.Where = "field list"

	// Aggregation: aggregates are replaced by Offsets into the aggregated
	// row [representative row..., aggregate values...].
	if err := windowAliasUse(sel, sc); err != nil {
		return nil, err
	}
	if err := p.planAggregates(c, sel); err != nil {
		return nil, err
	}
	if !p.hasAgg && sel.Having != nil {
		// HAVING without GROUP BY or aggregates filters the rows like
		// WHERE, and may name select-list aliases.
		h := plan.SubstituteAliases(sel.Having.Expr, sel.SelectExprs, sc)
		sc.Where = "having clause"
		x, err := c.Compile(h)
		sc.Where = "field list"
		if err != nil {
			return nil, err
		}
		p.rowFilter = x
	}
	if err := p.planWindows(c, sel); err != nil {
		return nil, err
	}
	p.countStar = p.countsRowsOnly()

	// Projection.
	for _, se := range selExprs.Exprs {
		switch e := se.(type) {
		case *sqlparser.StarExpr:
			qual := e.TableName.Name.String()
			matched := false
			// SELECT * in the FROM clause's column order (using.go);
			// t.* in the table's.
			cols := make([]int, 0, p.width)
			if qual == "" {
				for _, c := range fb.star {
					cols = append(cols, offs[c.item]+c.col)
				}
			} else {
				for i := 0; i < p.width; i++ {
					cols = append(cols, i)
				}
			}
			for _, i := range cols {
				col := &sc.Cols[i]
				if qual != "" && col.Table != qual || col.Hidden {
					continue
				}
				matched = true
				cn := sqlparser.NewColNameWithQualifier(col.Name, sqlparser.TableName{Name: sqlparser.NewIdentifierCS(col.Table)})
				x, err := c.Compile(cn)
				if err != nil {
					return nil, err
				}
				p.proj = append(p.proj, x)
				p.projCols = append(p.projCols, i)
				p.names = append(p.names, col.Name)
			}
			if !matched && qual != "" {
				return nil, sqlerr.New(sqlerror.ERBadTable, sqlerror.SSUnknownTable, "Unknown table '%s'", qual)
			}
		case *sqlparser.AliasedExpr:
			x, err := c.Compile(e.Expr)
			if err != nil {
				return nil, err
			}
			p.proj = append(p.proj, x)
			ci := -1
			if cn, ok := e.Expr.(*sqlparser.ColName); ok {
				if i, err := sc.Resolve(cn); err == nil {
					ci = i
				}
			}
			p.projCols = append(p.projCols, ci)
			name := e.As.String()
			if name == "" {
				name = s.exprName(e.Expr)
			}
			p.names = append(p.names, name)
		default:
			return nil, sqlerr.Unsupported("%s", sqlparser.String(se))
		}
	}
	p.visible = len(p.proj)
	p.sc = sc

	// ORDER BY: resolved against select aliases and positions, evaluated
	// as hidden projection columns.
	if len(sel.OrderBy) > 0 {
		ordered := len(p.srcs) > 0 && p.srcs[0].path != nil && p.srcs[0].path.ordered && !p.hasAgg && len(p.windows) == 0 && len(firstOrder) == len(sel.OrderBy)
		for _, o := range sel.OrderBy {
			k := sortKey{desc: o.Direction == sqlparser.DescOrder, text: sqlparser.String(o.Expr)}
			if lit, ok := o.Expr.(*sqlparser.Literal); ok && lit.Type == sqlparser.IntVal {
				n, _ := strconv.Atoi(lit.Val)
				if n < 1 || n > p.visible {
					return nil, sqlerr.New(sqlerror.ERBadFieldError, sqlerror.SSBadFieldError, "Unknown column '%d' in 'order clause'", n)
				}
				k.idx = n - 1
				p.order = append(p.order, k)
				continue
			}
			oe := o.Expr
			if idx := plan.AliasIndex(o.Expr, selExprs); idx >= 0 {
				if ae, ok := selExprs.Exprs[idx].(*sqlparser.AliasedExpr); ok && isEnumColumn(sc, ae.Expr) {
					oe = ae.Expr
				} else {
					k.idx = idx
					p.order = append(p.order, k)
					continue
				}
			}
			if isEnumColumn(sc, oe) {
				// ENUM sorts by member number, not by text.
				cn := oe.(*sqlparser.ColName)
				i, _ := sc.Resolve(cn)
				oe = eval.EnumIndexCall(cn, sc.Cols[i].Col.EnumValues)
			}
			sc.Where = "order clause"
			e, err := p.rewriteAggs(oe)
			if err != nil {
				return nil, err
			}
			x, err := c.Compile(e)
			if err != nil {
				return nil, err
			}
			sc.Where = "field list"
			k.idx = len(p.proj)
			p.proj = append(p.proj, x)
			ci := -1
			if cn, ok := e.(*sqlparser.ColName); ok && !p.hasAgg {
				// A plain column sort key is read from the row, not evaluated.
				if i, err := sc.Resolve(cn); err == nil {
					ci = i
				}
			}
			p.projCols = append(p.projCols, ci)
			p.names = append(p.names, "")
			p.order = append(p.order, k)
		}
		p.sortNeed = !ordered
	}
	p.singleRead = len(p.srcs) == 1 && p.srcs[0].path != nil && p.srcs[0].path.unique &&
		p.srcs[0].path.ix.Primary && p.lock == lockNone && !eval.HasSubquery(sel) && !p.hasAgg && p.srcs[0].path.singleAlts()
	p.distinct = sel.Distinct
	if p.distinct && p.hasAgg && len(p.groupBy) == 0 {
		p.distinct = false // a single row
	}
	if sel.Limit != nil {
		sc0 := &eval.Scope{}
		lc := s.newCompiler(ctx, sc0, &p.bindNames, outer)
		if sel.Limit.Rowcount != nil {
			x, err := lc.Compile(sel.Limit.Rowcount)
			if err != nil {
				return nil, err
			}
			p.limit = x
		}
		if sel.Limit.Offset != nil {
			x, err := lc.Compile(sel.Limit.Offset)
			if err != nil {
				return nil, err
			}
			p.offset = x
		}
	}
	return p, nil
}

// run executes the plan and returns its whole result.
func (p *selectPlan) run(ex *execCtx) (*sqltypes.Result, error) { return p.runTo(ex, nil) }

// runTo executes the plan. When dst streams and the rows need no sort, they
// are sent to dst in batches as they are produced (stream.go), and the
// result returned holds the rows not sent yet, with the fields sent.
func (p *selectPlan) runTo(ex *execCtx, dst *resultSink) (*sqltypes.Result, error) {
	res := &sqltypes.Result{}
	limit, offset, err := ex.limitOffset(p.limit, p.offset)
	if err != nil {
		return nil, err
	}
	if limit == 0 {
		res.Fields = p.fields(ex, nil)
		return res, nil
	}
	constFalse := false
	for _, f := range p.constFilter {
		ok, err := ex.EvalBool(f, nil)
		if err != nil {
			return nil, err
		}
		if !ok {
			constFalse = true
		}
	}
	out := &rowSink{p: p, ex: ex, streaming: !p.sortNeed}
	// A locking read is built whole: no row reaches the client before the
	// statement has locked, and read the latest version of, every row.
	if out.streaming && p.lock == lockNone && dst.streaming() {
		out.dst = dst
	}
	if p.sortNeed && p.lock == lockNone {
		// sort.go: a sort that spilled streams its output.
		out.sortTo = dst
	}
	ops, root, srt := p.operators(ex, constFalse, offset, limit)
	defer ops.release()
	if root != nil {
		if err := out.pull(root, srt); err != nil {
			return nil, err
		}
	}
	rows, err := out.finish()
	if err != nil {
		return nil, err
	}
	res.Rows = rows
	if dst != nil && dst.fields != nil {
		res.Fields = dst.fields
	} else {
		res.Fields = p.fields(ex, rows)
	}
	return res, nil
}

// limitOffset evaluates a LIMIT and an OFFSET (nil: none; no LIMIT is
// 2^63 rows, no OFFSET 0).
func (ex *execCtx) limitOffset(limit, offset *eval.Expr) (uint64, uint64, error) {
	lim, off := uint64(1<<63), uint64(0)
	for _, x := range []struct {
		e   *eval.Expr
		dst *uint64
	}{{limit, &lim}, {offset, &off}} {
		if x.e == nil {
			continue
		}
		v, err := ex.Eval(x.e, nil)
		if err != nil {
			return 0, 0, err
		}
		if *x.dst, err = limitValue(v); err != nil {
			return 0, 0, err
		}
	}
	return lim, off, nil
}

func limitValue(v sqltypes.Value) (uint64, error) {
	if v.IsNull() {
		return 0, sqlerr.New(sqlerror.ERWrongArguments, sqlerror.SSUnknownSQLState, "Incorrect arguments to LIMIT")
	}
	u, err := strconv.ParseUint(v.ToString(), 10, 64)
	if err != nil {
		i, err2 := strconv.ParseInt(v.ToString(), 10, 64)
		if err2 == nil && i < 0 {
			return 0, sqlerr.New(sqlerror.ERWrongArguments, sqlerror.SSUnknownSQLState, "Incorrect arguments to LIMIT")
		}
		return 0, sqlerr.New(sqlerror.ERWrongArguments, sqlerror.SSUnknownSQLState, "Incorrect arguments to LIMIT")
	}
	return u, nil
}

// rowSink takes the rows of a SELECT's operator tree (select_ops.go):
// in their final order, projected and cut by LIMIT, it streams them to
// the client in batches (dst) or gathers them; from the sort, it gathers
// the sorted rows or streams those of a sort that spilled (sortTo).
type rowSink struct {
	p         *selectPlan
	ex        *execCtx
	streaming bool // no sort: the rows come projected, one at a time
	rows      []Row
	arena     rowArena
	// dst, when set, receives the rows in batches as they come.
	dst *resultSink
	// sortTo is where a sort that spilled streams its rows, if it streams.
	sortTo *resultSink
}

// add takes one projected row (valid until the next call).
func (o *rowSink) add(row Row) error {
	o.rows = append(o.rows, o.arena.copyRow(row))
	if o.dst != nil && (len(o.rows) >= batchRows || o.arena.n >= batchBytes) {
		return o.flush()
	}
	return nil
}

// flush sends the rows gathered so far to dst as one batch; their buffers
// then hold the next batch's rows.
func (o *rowSink) flush() error {
	rows := o.rows
	o.visibleOnly(rows)
	if !o.fixFields(rows) {
		return nil
	}
	if err := o.dst.sendRows(rows); err != nil {
		return err
	}
	o.arena.reuse(rows)
	clear(rows)
	o.rows = rows[:0]
	return nil
}

// fixFields makes sure the columns of the result dst streams are fixed
// before batch is sent: the first batch fixes them. When they depend on
// the values (no static type, or values that do not fit the static type,
// which reconcileFields then changes), the whole result must decide them:
// dst is dropped, the rows are kept and sent at the end, and fixFields
// reports false.
func (o *rowSink) fixFields(batch []Row) bool {
	if o.dst.fields != nil {
		return true
	}
	p := o.p
	f := p.fields(o.ex, batch)
	if s := p.staticFields; len(s) == 0 || len(f) != len(s) || &f[0] != &s[0] {
		o.dst = nil
		return false
	}
	o.dst.fields = f
	return true
}

// visibleOnly cuts the hidden sort-key columns off rows.
func (o *rowSink) visibleOnly(rows []Row) {
	if v := o.p.visible; v < len(o.p.proj) {
		for i := range rows {
			rows[i] = rows[i][:v]
		}
	}
}

// finish returns the rows gathered (those not sent yet).
func (o *rowSink) finish() ([]Row, error) {
	if o.streaming {
		o.visibleOnly(o.rows)
	}
	return o.rows, nil
}

// fields returns the result column metadata: static types where known
// (cached in the plan when every column has one), else derived from the
// values in rows; reconcileFields then makes sure the values match it.
func (p *selectPlan) fields(ex *execCtx, rows []Row) []*querypb.Field {
	out := p.staticFields
	if out == nil {
		out = make([]*querypb.Field, p.visible)
		static := true
		for i := 0; i < p.visible; i++ {
			if ci := p.projCols[i]; ci >= 0 && p.sc.Cols[ci].Field != nil {
				f := cloneField(p.sc.Cols[ci].Field)
				f.Name = p.names[i]
				out[i] = f
				continue
			}
			if f := exprField(ex, p.proj[i], p.names[i]); f != nil {
				out[i] = f
				continue
			}
			static = false
			out[i] = valueField(ex, p.names[i], rows, i)
		}
		if static {
			p.staticFields = out
		}
	}
	if len(rows) == 0 {
		return out
	}
	if p.exprCols == nil {
		// Table columns carry their values' own types; expressions and
		// derived-table columns are checked.
		p.exprCols = []int{}
		for i := 0; i < p.visible; i++ {
			if ci := p.projCols[i]; ci < 0 || p.sc.Cols[ci].Field == nil || p.sc.Cols[ci].Col == nil {
				p.exprCols = append(p.exprCols, i)
			}
		}
	}
	return reconcileFields(ex, out, p.exprCols, rows)
}

func lowerName(s string) string { return strings.ToLower(s) }

// isEnumColumn reports whether e is a plain reference to an ENUM column.
func isEnumColumn(sc *eval.Scope, e sqlparser.Expr) bool {
	cn, ok := e.(*sqlparser.ColName)
	if !ok {
		return false
	}
	i, err := sc.Resolve(cn)
	return err == nil && sc.Cols[i].Col != nil && sc.Cols[i].Col.Type == sqltypes.Enum
}

package plan

import (
	"math"

	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/table"
)

// Join order from table statistics. When every table of an inner join has
// been analyzed (ANALYZE TABLE, or the background refresh), the order is
// chosen greedily by estimated cost, from each possible first table: each
// step places the table, among those joined to the ones placed (a cross
// product only when nothing is joined), whose reads plus resulting rows
// cost least; the start whose whole order costs least wins. Estimates:
//
//   - a table's rows: its analyzed row count plus the net inserts since;
//   - the cost of reading a table per outer row: through the index whose
//     leading columns the placed tables and constants fix (row count ÷
//     distinct values of that prefix, one point read for a full unique
//     key; a row found through a secondary index costs more than a scanned
//     one), else a scan of the whole table;
//   - rows out: the table's rows times the selectivity of every condition
//     it completes: a comparison of a column with a constant from the
//     column's histogram (else = 1/distinct values of an index it leads,
//     or 0.1), an equi-join 1/max of the two sides' distinct values,
//     otherwise ranges 1/3, BETWEEN 1/9, LIKE 0.1 (MySQL's guesses); AND
//     multiplies, OR adds, NOT complements, anything else passes all rows;
//   - a condition with a subquery costs a subquery run per row it sees.
//
// Without statistics for every table the heuristic order (joinorder.go)
// stays.

// Selectivity guesses where no statistic applies (MySQL's COND_FILTER_*).
const (
	selEquality   = 0.1
	selInequality = 1.0 / 3
	selBetween    = 1.0 / 9
	selLike       = 0.1
)

// Statistics is the planner's view of the catalog's table statistics.
type Statistics interface {
	// TableStats returns t's analyzed statistics, nil when it has none.
	// From the first call the plan depends on the statistics there are
	// (none included): the caller re-plans when they change.
	TableStats(t *catalog.Table) *catalog.TableStats
	// EstimatedRows is t's row count: the analyzed count plus the net
	// inserts since.
	EstimatedRows(t *catalog.Table, st *catalog.TableStats) int64
}

// Constants evaluates an operand that reads no column, parameter,
// variable or subquery (a literal, DATE '...' + INTERVAL 1 MONTH) at
// planning time, to look it up in a histogram.
type Constants interface {
	EvalConstant(e sqlparser.Expr) (sqltypes.Value, error)
}

// CostInput is what the cost-based order reads besides the tables.
type CostInput struct {
	Stats  Statistics
	Consts Constants // nil: no histogram look-ups
	Scope  *eval.Scope
	Offs   []int // scope offset of each table's first column
	Outer  *eval.Outer
	Conds  []sqlparser.Expr
	Sets   []uint64 // per condition, the tables it references
	// Order, when set, is an ORDER BY ... LIMIT over one table's columns
	// (limitOrder).
	Order *OrderLimit
}

// OrderLimit describes ORDER BY ... LIMIT n when every ORDER BY column
// belongs to one table: an order that starts with that table, read in the
// order of one of its indexes, yields rows already sorted and stops after
// n of them, where the cheapest order otherwise joins everything and
// sorts (MySQL's ORDER BY ... LIMIT optimization).
type OrderLimit struct {
	Item  int        // the table (index into the join's tables)
	Cols  []OrderCol // ORDER BY, as that table's column ordinals
	Limit float64    // the LIMIT row count
}

// costJoinOrder returns the order, or ok false when some table has no
// statistics (or is not a stored table).
func costJoinOrder(items []JoinTable, in *CostInput) (order []int, ok bool) {
	n := len(items)
	for _, it := range items {
		if it.Virtual || it.Outer {
			return nil, false
		}
	}
	stats := make([]*catalog.TableStats, n)
	rows := make([]float64, n)
	for i, it := range items {
		st := in.Stats.TableStats(it.Def)
		if st == nil {
			return nil, false
		}
		stats[i] = st
		rows[i] = math.Max(1, float64(in.Stats.EstimatedRows(it.Def, st)))
	}
	jc := &joinCost{in: in, items: items, stats: stats, rows: rows}
	jc.sel = make([]float64, len(in.Conds))
	jc.sub = make([]bool, len(in.Conds))
	for k, c := range in.Conds {
		jc.sel[k] = jc.condSel(c)
		jc.sub[k] = eval.HasSubquery(c)
	}
	// Greedy from every first table (from the cheapest first step alone
	// for large joins): a small table without conditions is a poor start
	// when a filtered one leads to fewer rows later.
	starts := make([]int, 0, n)
	if n <= maxExhaustiveStarts {
		for i := 0; i < n; i++ {
			starts = append(starts, i)
		}
	} else {
		starts = append(starts, -1)
	}
	bestCost, bestCard := math.Inf(1), 1.0
	for _, first := range starts {
		o, cost, card := jc.greedy(first)
		if cost < bestCost {
			order, bestCost, bestCard = o, cost, card
		}
	}
	if o, ok := jc.limitOrder(bestCost, bestCard); ok {
		order = o
	}
	return order, true
}

// limitOrder returns the order that starts with in.Order's table, when
// reading that table in index order until the LIMIT's rows are out costs
// less than the cheapest order (cost, card rows out) plus sorting all its
// rows.
func (jc *joinCost) limitOrder(cost, card float64) ([]int, bool) {
	h := jc.in.Order
	if h == nil || h.Limit <= 0 || h.Item < 0 || h.Item >= len(jc.items) {
		return nil, false
	}
	t := jc.items[h.Item].Def
	perRow := -1.0 // the extra cost per row of reading in index order
	for i, ix := range t.Indexes {
		if i == 0 && t.HiddenPK {
			continue
		}
		if ordered, _ := indexGivesOrder(t, ix, nil, h.Cols); ordered {
			c := float64(costSecondaryRow - 1)
			if ix.Primary {
				c = 0
			}
			if perRow < 0 || c < perRow {
				perRow = c
			}
		}
	}
	if perRow < 0 {
		return nil, false
	}
	o, full, out := jc.greedy(h.Item)
	// The rows of the first table read before LIMIT rows are out: the
	// join keeps out/rows of them on average.
	frac := math.Min(1, h.Limit/math.Max(out, 1e-9))
	limited := (full + jc.rows[h.Item]*perRow) * frac
	sorted := cost + card*math.Log2(card+1)
	if limited >= sorted {
		return nil, false
	}
	return o, true
}

// maxExhaustiveStarts bounds the joins whose every first table is tried.
const maxExhaustiveStarts = 12

// greedy orders the tables starting with first (-1: the cheapest first
// step), each step placing the joined table with the lowest reads plus
// resulting rows; it returns the order, its estimated cost and the rows
// it yields.
func (jc *joinCost) greedy(first int) ([]int, float64, float64) {
	n := len(jc.items)
	var placed uint64
	card, total := 1.0, 0.0
	order := make([]int, 0, n)
	place := func(i int, read, out float64) {
		placed |= 1 << i
		total += card * read
		card = math.Max(out, 1)
		order = append(order, i)
	}
	if first >= 0 {
		read, out := jc.step(first, 0, card)
		place(first, read, out)
	}
	for len(order) < n {
		best, bestScore, bestRead, bestOut := -1, math.Inf(1), 0.0, 0.0
		connected := false
		for i := 0; i < n; i++ {
			if placed&(1<<i) == 0 && placed != 0 && jc.joined(i, placed) {
				connected = true
				break
			}
		}
		for i := 0; i < n; i++ {
			if placed&(1<<i) != 0 || connected && !jc.joined(i, placed) {
				continue
			}
			read, out := jc.step(i, placed, card)
			if score := card*read + out; score < bestScore {
				best, bestScore, bestRead, bestOut = i, score, read, out
			}
		}
		place(best, bestRead, bestOut)
	}
	return order, total, card
}

type joinCost struct {
	in    *CostInput
	items []JoinTable
	stats []*catalog.TableStats
	rows  []float64
	// sel and sub, per condition: its selectivity, and whether it holds a
	// subquery.
	sel []float64
	sub []bool
}

// joined reports whether a condition relates table i to the placed tables.
func (jc *joinCost) joined(i int, placed uint64) bool {
	bit := uint64(1) << i
	for _, s := range jc.in.Sets {
		if s&bit != 0 && s&placed != 0 && s&^(placed|bit) == 0 {
			return true
		}
	}
	return false
}

// step estimates placing table i after the placed tables (card rows): the
// cost per placed row of reading and filtering i, and the rows that result.
func (jc *joinCost) step(i int, placed uint64, card float64) (read, out float64) {
	sel, perRow := jc.filter(i, placed)
	read, hash := jc.readCost(i, placed)
	if hash && read >= jc.rows[i] {
		// No index serves the join: a hash join reads the table once,
		// then one lookup per row (the executor hashes only then).
		read = jc.rows[i]/card + costPointRead
	}
	read += jc.rows[i] * sel * perRow
	return read, card * jc.rows[i] * sel
}

// Costs in units of one row read by a table scan (measured on strata:
// about 0.5 µs): a point read by primary key, the seek that starts an
// index range, and a row found through a secondary index (its entry and
// the primary-key read of the row).
const (
	costPointRead    = 2
	costSeek         = 5
	costSecondaryRow = 5
)

// readCost estimates the cost of reading table i once for each
// combination of the placed tables' rows: through the index whose leading
// columns the placed tables and constants fix, or a range of it, else the
// whole table. hash reports an equality with a placed table's column (a
// hash join when no index serves it).
func (jc *joinCost) readCost(i int, placed uint64) (cost float64, hash bool) {
	bit := uint64(1) << i
	var conds []sqlparser.Expr
	for k, s := range jc.in.Sets {
		if s&bit != 0 && s&^(placed|bit) == 0 {
			conds = append(conds, jc.in.Conds[k])
		}
	}
	best := jc.rows[i]
	if len(conds) == 0 {
		return best, false
	}
	offs := jc.in.Offs
	bound := func(col int) bool {
		l := SourceOf(col, offs)
		return l >= 0 && placed&(1<<l) != 0
	}
	it := jc.items[i]
	preds := Sargable(conds, jc.in.Scope, offs[i], it.Def.ColumnCount(), jc.in.Outer, bound)
	eqCols := map[int]bool{}
	rangeCols := map[int]bool{}
	for _, p := range preds {
		if p.Op == "=" && len(p.Vals) == 1 && placed != 0 && ReadsColumn(p.Vals[0]) {
			hash = true
		}
		switch p.Op {
		case "=", "<=>", "isnull":
			eqCols[p.Col] = true
		case "in":
			if len(p.Vals) == 1 {
				eqCols[p.Col] = true
			} else {
				rangeCols[p.Col] = true
			}
		case "<", "<=", ">", ">=", "between", "insub", "tuple":
			rangeCols[p.Col] = true
		}
	}
	for _, ix := range it.Def.Indexes {
		if it.Def.HiddenPK && ix.Primary {
			continue
		}
		k := 0
		for k < len(ix.Columns) && ix.Columns[k].Prefix == 0 && eqCols[ix.Columns[k].Col] {
			k++
		}
		var rows float64
		switch {
		case k == len(ix.Columns) && (ix.Primary || ix.Unique):
			best = math.Min(best, costPointRead)
			continue
		case k > 0:
			d, ok := jc.stats[i].Distinct(ix, k)
			if !ok || d < 1 {
				continue
			}
			rows = jc.rows[i] / float64(d)
		case len(ix.Columns) > 0 && rangeCols[ix.Columns[0].Col]:
			rows = jc.rows[i] * selInequality
		default:
			continue
		}
		perRow := 1.0
		if !ix.Primary {
			perRow = costSecondaryRow
		}
		best = math.Min(best, costSeek+rows*perRow)
	}
	return best, hash
}

// selectivity is the fraction of table i's rows (per combination of the
// placed tables' rows) that the conditions completed by placing i pass.
func (jc *joinCost) selectivity(i int, placed uint64) float64 {
	sel, _ := jc.filter(i, placed)
	return sel
}

// filter returns the selectivity of the conditions completed by placing
// table i, and the cost of evaluating them per row of i (a subquery runs
// for each row that reaches it).
func (jc *joinCost) filter(i int, placed uint64) (sel, perRow float64) {
	bit := uint64(1) << i
	sel = 1.0
	for k, s := range jc.in.Sets {
		if s&bit == 0 || s&^(placed|bit) != 0 {
			continue
		}
		if jc.sub[k] {
			perRow += costSubquery
		}
		sel *= jc.sel[k]
	}
	return sel, perRow
}

// costSubquery is the cost of one evaluation of a correlated subquery in a
// condition (an index lookup and a few rows).
const costSubquery = 20

// condSel estimates the fraction of rows a condition passes.
func (jc *joinCost) condSel(e sqlparser.Expr) float64 {
	switch x := e.(type) {
	case *sqlparser.AndExpr:
		return jc.condSel(x.Left) * jc.condSel(x.Right)
	case *sqlparser.OrExpr:
		return math.Min(1, jc.condSel(x.Left)+jc.condSel(x.Right))
	case *sqlparser.NotExpr:
		return 1 - jc.condSel(x.Expr)
	case *sqlparser.BetweenExpr:
		sel := selBetween
		if hi, ok := jc.histSel(x.Left, catalog.OpLE, x.To); ok {
			if lo, ok := jc.histSel(x.Left, catalog.OpLT, x.From); ok {
				sel = math.Max(hi-lo, jc.minSel(x.Left))
			}
		}
		if x.IsBetween {
			return sel
		}
		return 1 - sel
	case *sqlparser.IsExpr:
		null := selEquality
		if l, col, ok := jc.column(x.Left); ok {
			if f, ok := jc.stats[l].NullFraction(col); ok {
				null = f
			}
		}
		switch x.Right {
		case sqlparser.IsNullOp:
			return null
		case sqlparser.IsNotNullOp:
			return 1 - null
		}
	case *sqlparser.ComparisonExpr:
		if x.Modifier != sqlparser.Missing {
			return 1
		}
		switch x.Operator {
		case sqlparser.EqualOp, sqlparser.NullSafeEqualOp:
			return jc.eqSel(x.Left, x.Right)
		case sqlparser.NotEqualOp:
			return 1 - jc.eqSel(x.Left, x.Right)
		case sqlparser.LessThanOp, sqlparser.LessEqualOp, sqlparser.GreaterThanOp, sqlparser.GreaterEqualOp:
			if sel, ok := jc.histSel(x.Left, statsOps[x.Operator], x.Right); ok {
				return sel
			}
			if sel, ok := jc.histSel(x.Right, statsOps[flipOp[x.Operator]], x.Left); ok {
				return sel
			}
			return selInequality
		case sqlparser.InOp, sqlparser.NotInOp:
			tup, ok := x.Right.(sqlparser.ValTuple)
			if !ok {
				break
			}
			sel := 0.0
			for _, v := range tup {
				sel += jc.eqSel(x.Left, v)
			}
			sel = math.Min(1, sel)
			if x.Operator == sqlparser.NotInOp {
				return 1 - sel
			}
			return sel
		case sqlparser.LikeOp:
			return selLike
		}
	}
	return 1
}

var statsOps = map[sqlparser.ComparisonExprOperator]catalog.StatsOp{
	sqlparser.EqualOp: catalog.OpEQ, sqlparser.NullSafeEqualOp: catalog.OpEQ,
	sqlparser.LessThanOp: catalog.OpLT, sqlparser.LessEqualOp: catalog.OpLE,
	sqlparser.GreaterThanOp: catalog.OpGT, sqlparser.GreaterEqualOp: catalog.OpGE,
}

// flipOp is the operator with its operands swapped (a < b is b > a).
var flipOp = map[sqlparser.ComparisonExprOperator]sqlparser.ComparisonExprOperator{
	sqlparser.EqualOp: sqlparser.EqualOp, sqlparser.NullSafeEqualOp: sqlparser.NullSafeEqualOp,
	sqlparser.LessThanOp: sqlparser.GreaterThanOp, sqlparser.LessEqualOp: sqlparser.GreaterEqualOp,
	sqlparser.GreaterThanOp: sqlparser.LessThanOp, sqlparser.GreaterEqualOp: sqlparser.LessEqualOp,
}

// histSel estimates "col op v" from the histogram of col's table when col
// is a column and v a constant.
func (jc *joinCost) histSel(col sqlparser.Expr, op catalog.StatsOp, v sqlparser.Expr) (float64, bool) {
	l, c, ok := jc.column(col)
	if !ok || jc.stats[l].Histogram(c) == nil {
		return 0, false
	}
	val, ok := jc.constant(v)
	if !ok || val.IsNull() {
		return 0, false
	}
	key, err := table.HistogramKey(nil, &jc.items[l].Def.Columns[c], val)
	if err != nil {
		return 0, false
	}
	sel, ok := jc.stats[l].Selectivity(c, op, key)
	if !ok {
		return 0, false
	}
	return math.Max(sel, jc.minSel(col)), true
}

// minSel is the floor of an estimate: one row of the column's table.
func (jc *joinCost) minSel(col sqlparser.Expr) float64 {
	if l, _, ok := jc.column(col); ok {
		return 1 / jc.rows[l]
	}
	return 0
}

// column resolves a column reference to its table (item) and column.
func (jc *joinCost) column(e sqlparser.Expr) (l, col int, ok bool) {
	cn, isCol := e.(*sqlparser.ColName)
	if !isCol {
		return 0, 0, false
	}
	i, err := jc.in.Scope.Resolve(cn)
	if err != nil {
		return 0, 0, false
	}
	l = SourceOf(i, jc.in.Offs)
	if l < 0 || l >= len(jc.items) {
		return 0, 0, false
	}
	return l, i - jc.in.Offs[l], true
}

// constant evaluates an operand that reads no column, parameter, variable
// or subquery (a literal, DATE '…' + INTERVAL 1 MONTH).
func (jc *joinCost) constant(e sqlparser.Expr) (v sqltypes.Value, ok bool) {
	if e == nil || jc.in.Consts == nil {
		return sqltypes.NULL, false
	}
	ok = true
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch n.(type) {
		case *sqlparser.ColName, *sqlparser.Argument, *sqlparser.Subquery, *sqlparser.Variable, sqlparser.AggrFunc:
			ok = false
		case *sqlparser.FuncExpr:
			ok = deterministic(n.(*sqlparser.FuncExpr))
		}
		return ok, nil
	}, e)
	if !ok {
		return sqltypes.NULL, false
	}
	defer func() {
		if recover() != nil {
			v, ok = sqltypes.NULL, false
		}
	}()
	v, err := jc.in.Consts.EvalConstant(e)
	return v, err == nil
}

// eqSel is the selectivity of l = r: 1/distinct values of the column side
// (the larger count when both are columns), 0.1 without a count.
func (jc *joinCost) eqSel(l, r sqlparser.Expr) float64 {
	if sel, ok := jc.histSel(l, catalog.OpEQ, r); ok {
		return sel
	}
	if sel, ok := jc.histSel(r, catalog.OpEQ, l); ok {
		return sel
	}
	d := math.Max(jc.distinct(l), jc.distinct(r))
	if d < 1 {
		return selEquality
	}
	return 1 / d
}

// distinct returns the distinct values of a column that leads an analyzed
// index of its table, or 0.
func (jc *joinCost) distinct(e sqlparser.Expr) float64 {
	l, col, ok := jc.column(e)
	if !ok {
		return 0
	}
	def := jc.items[l].Def
	best := 0.0
	for _, ix := range def.Indexes {
		if len(ix.Columns) == 0 || ix.Columns[0].Col != col || def.HiddenPK && ix.Primary {
			continue
		}
		if len(ix.Columns) == 1 && (ix.Primary || ix.Unique) {
			return jc.rows[l]
		}
		if d, ok := jc.stats[l].Distinct(ix, 1); ok {
			best = math.Max(best, float64(d))
		}
	}
	return best
}

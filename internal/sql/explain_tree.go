package sql

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/plan"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// EXPLAIN FORMAT=TREE and EXPLAIN ANALYZE of a SELECT (and of set operations,
// treeOfSetOp): the plan as MySQL
// 8.0's iterator tree, one row in one column named EXPLAIN. The join is
// left-deep: each table after the first is joined to the tree of the
// tables before it (nested loop inner/left/semi/anti join, or an inner
// hash join whose build side is the table, under "Hash"), below it the
// table's access ("Table scan on t", "Index lookup on t using k (c=v)",
// ...) with a "Filter:" of the conditions its key does not enforce. Above
// the join come aggregation, deduplication, sort and limit. Each node shows
// the planner's row estimate; EXPLAIN ANALYZE runs the query (its rows are
// discarded) and adds what happened, as MySQL 8.0.18+ prints it:
// (actual time=first..last rows=N loops=L), times in milliseconds spent
// reading the node's rows (a join: its tables' reads) until its first and
// last row, averaged over its loops.
// Nodes whose work is not counted separately (aggregation, sort, limit
// below the top) show the estimate only; the top node shows the rows the
// query returned.

// joinStats counts the work of each level of the statement's join. Times
// are the time spent reading each level's rows (its fetches), so a level's
// time does not include the work of the levels joined after it, as in
// MySQL's iterator timings.
type joinStats struct {
	levels []levelStats
}

type levelStats struct {
	loops, fetched, passed int64
	// busy: time spent in this level's reads, in all loops; loopStart:
	// busy when the current loop began; first/last: the summed time, per
	// loop, to its first and its last row; firstSet: this loop has had
	// its first row.
	busy, loopStart  time.Duration
	first, last, cur time.Duration
	firstSet         bool
	// joinFirst, joinLast: the reading time of this level and the ones
	// before it when the first and the last row passed this level.
	joinFirst, joinLast time.Duration
}

func (st *joinStats) opened(i int) {
	l := &st.levels[i]
	l.loops++
	l.last += l.cur
	l.loopStart, l.firstSet, l.cur = l.busy, false, 0
}

func (st *joinStats) fetched(i int, ok bool, took time.Duration) {
	l := &st.levels[i]
	l.busy += took
	d := l.busy - l.loopStart
	if ok {
		l.fetched++
		if !l.firstSet {
			l.first += d
			l.firstSet = true
		}
	}
	l.cur = d
}

func (st *joinStats) passed(i int) {
	l := &st.levels[i]
	l.passed++
	var d time.Duration
	for k := 0; k <= i; k++ {
		d += st.levels[k].busy
	}
	if l.passed == 1 {
		l.joinFirst = d
	}
	l.joinLast = d
}

// analyzeRun is an EXPLAIN ANALYZE execution: the joins of the plans it
// was made for (the SELECT, or every SELECT of a UNION), each known by its
// first table, are counted.
type analyzeRun struct {
	stats map[*tableSource]*joinStats
}

// newAnalyzeRun counts the joins of the SELECTs in p.
func newAnalyzeRun(p queryPlan) *analyzeRun {
	run := &analyzeRun{stats: map[*tableSource]*joinStats{}}
	for _, sp := range selectsOf(p, nil) {
		if len(sp.srcs) > 0 {
			run.stats[sp.srcs[0]] = nil
		}
	}
	return run
}

// selectsOf appends the SELECTs of a query plan, left to right.
func selectsOf(p queryPlan, out []*selectPlan) []*selectPlan {
	switch x := p.(type) {
	case *selectPlan:
		out = append(out, x)
	case *unionPlan:
		out = selectsOf(x.left, out)
		out = selectsOf(x.right, out)
	}
	return out
}

// joinStats returns the counters for a join over srcs when the statement
// is an EXPLAIN ANALYZE and srcs is the join of one of its plans, else nil.
func (ex *execCtx) joinStats(srcs []*tableSource) *joinStats {
	if ex.analyze == nil {
		return nil
	}
	return ex.analyze.start(srcs)
}

func (a *analyzeRun) start(srcs []*tableSource) *joinStats {
	if len(srcs) == 0 {
		return nil
	}
	if _, ok := a.stats[srcs[0]]; !ok {
		return nil
	}
	st := &joinStats{levels: make([]levelStats, len(srcs))}
	a.stats[srcs[0]] = st
	return st
}

// statsOf returns the counters of a plan's join (nil: not counted).
func (a *analyzeRun) statsOf(p *selectPlan) *joinStats {
	if a == nil || len(p.srcs) == 0 {
		return nil
	}
	return a.stats[p.srcs[0]]
}

// treeNode is one line of the tree.
type treeNode struct {
	text   string
	rows   string // estimate; "" for none
	actual string // EXPLAIN ANALYZE; "" for none
	kids   []*treeNode
}

func (n *treeNode) write(b *strings.Builder, depth int) {
	b.WriteString(strings.Repeat("    ", depth))
	b.WriteString("-> ")
	b.WriteString(n.text)
	if n.rows != "" {
		b.WriteString("  (rows=" + n.rows + ")")
	}
	if n.actual != "" {
		b.WriteString(" (" + n.actual + ")")
	}
	b.WriteString("\n")
	for _, k := range n.kids {
		k.write(b, depth+1)
	}
}

// explainTree answers EXPLAIN FORMAT=TREE and EXPLAIN ANALYZE of a SELECT
// or of a UNION, EXCEPT or INTERSECT.
func (s *Session) explainTree(ctx context.Context, stmt sqlparser.SelectStatement, analyze bool) (*sqltypes.Result, error) {
	tx := s.txnForStatement(ctx)
	tx.BeginStatement()
	ex := s.newExecCtx(ctx, tx, nil)
	var (
		p   queryPlan
		err error
	)
	switch x := stmt.(type) {
	case *sqlparser.Select:
		p, err = s.planSelect(ex.Context(), x)
	case sqlparser.TableStatement:
		p, err = s.planQuery(ex.Context(), x, nil)
	default:
		err = sqlerr.Unsupported("EXPLAIN FORMAT=TREE of this statement")
	}
	if err != nil {
		return nil, s.endStatement(err)
	}
	ex.SetBV(s.bindSessionVars(p.bindVars(), nil))
	var run *analyzeRun
	var resRows int
	var took time.Duration
	if analyze {
		run = newAnalyzeRun(p)
		ex.analyze = run
		begin := time.Now()
		res, err := p.run(ex)
		if err != nil {
			return nil, s.endStatement(err)
		}
		took, resRows = time.Since(begin), len(res.Rows)
	}
	root := s.treeOfQuery(ex, p, run)
	if analyze {
		if root.actual == "" {
			// A node above the join: the query's own rows.
			root.actual = fmt.Sprintf("actual time=%s..%s rows=%d loops=1", msText(took), msText(took), resRows)
		}
	}
	if err := s.endStatement(nil); err != nil {
		return nil, err
	}
	var b strings.Builder
	root.write(&b, 0)
	return textResult([]string{"EXPLAIN"}, [][]string{{b.String()}}), nil
}

// treeOfQuery builds the tree of a planned SELECT or set operation.
func (s *Session) treeOfQuery(ex *execCtx, p queryPlan, run *analyzeRun) *treeNode {
	switch x := p.(type) {
	case *unionPlan:
		return s.treeOfSetOp(ex, x, run)
	case *selectPlan:
		return s.treeOf(ex, x, run)
	}
	return &treeNode{text: "<not executable by iterator executor>"}
}

// treeOfSetOp builds the tree of a UNION, EXCEPT or INTERSECT as MySQL 8.0
// prints it: a chain of UNION ALL without ORDER BY or LIMIT appends its
// parts' rows as they come ("Append" over "Stream results"); anything else
// materializes the parts into a temporary table, deduplicating unless ALL,
// and reads it back ("Table scan on <union temporary>"), sorted and limited
// above that.
func (s *Session) treeOfSetOp(ex *execCtx, p *unionPlan, run *analyzeRun) *treeNode {
	// A chain of the same operator is one node over all its parts.
	var parts []queryPlan
	var walk func(q queryPlan, top bool)
	walk = func(q queryPlan, top bool) {
		if u, ok := q.(*unionPlan); ok && u.op == p.op && (top || len(u.order) == 0 && u.limit == nil) {
			walk(u.left, false)
			parts = append(parts, u.right)
			return
		}
		parts = append(parts, q)
	}
	walk(p, true)
	kids := make([]*treeNode, len(parts))
	for i, q := range parts {
		kids[i] = s.treeOfQuery(ex, q, run)
	}
	distinct := chainDistinct(p)
	if p.op == parse.Union && !distinct && len(p.order) == 0 && p.limit == nil {
		for i, k := range kids {
			kids[i] = &treeNode{text: "Stream results", rows: k.rows, kids: []*treeNode{k}}
		}
		return &treeNode{text: "Append", kids: kids}
	}
	op := strings.ToLower(p.op.String())
	mat := strings.ToUpper(op[:1]) + op[1:] + " all materialize"
	if distinct {
		mat = strings.ToUpper(op[:1]) + op[1:] + " materialize with deduplication"
	}
	top := &treeNode{text: "Table scan on <" + op + " temporary>", kids: []*treeNode{{text: mat, kids: kids}}}
	if len(p.order) > 0 {
		top = &treeNode{text: sortText(p.order, p.names), kids: []*treeNode{top}}
	}
	return limitNode(ex, p.limit, p.offset, top)
}

// limitNode puts a LIMIT [OFFSET] node over top (top itself without LIMIT).
func limitNode(ex *execCtx, limit, offset *eval.Expr, top *treeNode) *treeNode {
	if limit == nil {
		return top
	}
	text := func(x *eval.Expr) string {
		if v, err := ex.Eval(x, nil); err == nil {
			return v.ToString()
		}
		return "?"
	}
	if offset != nil {
		return &treeNode{text: "Limit/Offset: " + text(limit) + "/" + text(offset) + " row(s)", kids: []*treeNode{top}}
	}
	return &treeNode{text: "Limit: " + text(limit) + " row(s)", kids: []*treeNode{top}}
}

// treeOf builds the tree of a planned SELECT.
func (s *Session) treeOf(ex *execCtx, p *selectPlan, run *analyzeRun) *treeNode {
	st := run.statsOf(p)
	var top *treeNode
	if len(p.srcs) == 0 {
		top = &treeNode{text: "Rows fetched before execution"}
	}
	if len(p.srcs) > 0 {
		top, _ = s.joinTree(ex, p, st, 0, len(p.srcs)-1)
	}
	wrap := func(text string) {
		top = &treeNode{text: text, kids: []*treeNode{top}}
	}
	if p.hasAgg {
		switch {
		case p.streamAgg:
			names := make([]string, 0, len(p.aggs))
			for _, a := range p.aggs {
				names = append(names, a.key)
			}
			if len(names) == 0 {
				wrap("Group (no aggregates)")
			} else {
				wrap("Group aggregate: " + strings.Join(names, ", "))
			}
		case len(p.groupBy) > 0:
			wrap("Aggregate using temporary table")
			wrap("Table scan on <temporary>")
		default:
			wrap("Aggregate")
		}
	}
	if p.having != nil || p.rowFilter != nil {
		wrap("Filter: (HAVING)")
	}
	for _, st := range p.windows {
		if st.nkeys() > 0 {
			wrap("Sort: " + st.sortText)
		}
		wrap(st.explainText())
	}
	if p.distinct {
		wrap("Temporary table with deduplication")
		wrap("Table scan on <temporary>")
	}
	if p.sortNeed && len(p.order) > 0 {
		wrap(sortText(p.order, p.names))
	}
	return limitNode(ex, p.limit, p.offset, top)
}

// sortText is a Sort node's text: its keys by their text, or by the name
// of the result column they sort by.
func sortText(order []sortKey, names []string) string {
	keys := make([]string, len(order))
	for k, o := range order {
		name := o.text
		if name == "" && o.idx < len(names) {
			name = names[o.idx]
		}
		if o.desc {
			name += " DESC"
		}
		keys[k] = name
	}
	return "Sort: " + strings.Join(keys, ", ")
}

// accessText names how a table is read, as MySQL's tree does.
func accessText(src *tableSource, r explainRow) string {
	t := src.alias
	ap := src.path
	switch {
	case src.vkey != nil && src.virtual == nil:
		return "Table scan on " + t // a hash join's build side
	case src.vkey != nil:
		return "Index lookup on " + t + " using <auto_key0> (" + keyEqText(src, nil) + ")"
	case ap == nil || r.typ == "ALL":
		return "Table scan on " + t
	}
	index := "Index"
	if src.covering && !ap.ix.Primary {
		index = "Covering index"
	}
	reverse := ""
	if ap.reverse {
		reverse = " (reverse)"
	}
	on := " on " + t + " using " + ap.ix.Name
	switch r.typ {
	case "index":
		return index + " scan" + on + reverse
	case "range":
		return index + " range scan" + on + reverse
	case "eq_ref", "const":
		return "Single-row " + strings.ToLower(index) + " lookup" + on + " (" + keyEqText(src, ap) + ")"
	}
	return index + " lookup" + on + " (" + keyEqText(src, ap) + ")" + reverse
}

// keyEqText lists the key columns a lookup fixes and their values.
func keyEqText(src *tableSource, ap *accessPath) string {
	var parts []string
	if ap == nil {
		for _, part := range src.vkey.parts {
			parts = append(parts, src.def.Columns[part.col].Name+"="+sqlparser.String(part.ref))
		}
		return strings.Join(parts, ", ")
	}
	for k := range ap.eq {
		col := src.def.Columns[ap.ix.Columns[k].Col].Name
		val := "?"
		if v := ap.choice.EqValue(k); v != nil {
			val = sqlparser.String(v)
		}
		parts = append(parts, col+"="+val)
	}
	return strings.Join(parts, ", ")
}

// condText prints conditions as one parenthesised conjunction.
func condText(conds []sqlparser.Expr) string {
	parts := make([]string, len(conds))
	for i, c := range conds {
		parts[i] = sqlparser.String(semiNamesOut(c))
	}
	return "(" + strings.Join(parts, " and ") + ")"
}

// semiNamesOut renames a semi-joined table's columns from its internal
// scope name back to its alias.
func semiNamesOut(e sqlparser.Expr) sqlparser.Expr {
	return sqlparser.Rewrite(sqlparser.Clone(e), nil, func(cur *sqlparser.Cursor) bool {
		if cn, ok := cur.Node().(*sqlparser.ColName); ok {
			q := cn.Qualifier.Name.String()
			if rest, ok := strings.CutPrefix(q, plan.SemiAliasPrefix); ok {
				if dot := strings.IndexByte(rest, '.'); dot >= 0 {
					cur.Replace(sqlparser.NewColNameWithQualifier(cn.Name.String(), sqlparser.TableName{Name: sqlparser.NewIdentifierCS(rest[dot+1:])}))
				}
			}
		}
		return true
	}).(sqlparser.Expr)
}

// loopActual formats a level's counts: time to its first and last row
// averaged over its loops, rows per loop.
func loopActual(l *levelStats, rows int64) string {
	loops := max(l.loops, 1)
	return fmt.Sprintf("actual time=%s..%s rows=%s loops=%d",
		msText(l.first/time.Duration(loops)), msText((l.last+l.cur)/time.Duration(loops)),
		strconv.FormatFloat(float64(rows)/float64(loops), 'g', 3, 64), l.loops)
}

func msText(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Nanoseconds())/1e6, 'f', 3, 64)
}

// joinTree builds the tree of the join's levels from..to (left-deep, a
// nested join of an outer join's inner side as a subtree) and returns its
// estimated rows.
func (s *Session) joinTree(ex *execCtx, p *selectPlan, st *joinStats, from, to int) (*treeNode, float64) {
	var top *treeNode
	est := 1.0
	for i := from; i <= to; i++ {
		src := p.srcs[i]
		if i > from && src.outer && src.nestLast > i {
			// A nested join on the inner side of an outer join (nest.go):
			// its levels are one subtree.
			inner, n := s.joinTree(ex, p, st, i, src.nestLast)
			est *= max(n, 1)
			top = &treeNode{text: "Nested loop left join", rows: strconv.FormatFloat(est, 'f', 0, 64), kids: []*treeNode{top, inner}}
			if st != nil {
				l := &st.levels[src.nestLast]
				top.actual = fmt.Sprintf("actual time=%s..%s rows=%d loops=1", msText(l.joinFirst), msText(l.joinLast), l.passed)
			}
			top = nestFilter(p.srcs, i, top)
			i = src.nestLast
			continue
		}
		r := s.explainSource(ex, p.sc, p.srcs, i, "SIMPLE", false)
		n, _ := strconv.ParseFloat(r.rows, 64)
		access := &treeNode{text: accessText(src, r), rows: r.rows}
		if src.tf != nil {
			access.kids = []*treeNode{{text: "Materialize table function"}}
		}
		hashed := src.vkey != nil && src.virtual == nil
		if st != nil && !hashed {
			// (A hash join's table is read once to build the hash; the
			// level's counts are its probes, shown on the join.)
			l := &st.levels[i]
			access.actual = loopActual(l, l.fetched)
		}
		node := access
		conds := src.conds
		if src.nested && len(src.ends) > 0 {
			conds = src.groupConds[0] // the others filter the nests' joins
		}
		if len(conds) > 0 && src.vkey == nil { // (a lookup by vkey shows its conditions on the join)
			node = &treeNode{text: "Filter: " + condText(conds), rows: r.rows, kids: []*treeNode{access}}
			if st != nil {
				l := &st.levels[i]
				node.actual = loopActual(l, l.passed)
			}
		}
		if i == from {
			top, est = node, max(n, 1)
			continue
		}
		est *= max(n, 1)
		kind := "Nested loop inner join"
		switch {
		case src.semi == plan.SemiJoin:
			kind = "Nested loop semijoin"
		case src.semi == plan.AntiJoin:
			kind = "Nested loop antijoin"
		case src.outer:
			kind = "Nested loop left join"
		}
		kids := []*treeNode{top, node}
		if hashed {
			switch {
			case src.semi == plan.SemiJoin:
				kind = "Hash semijoin"
			case src.semi == plan.AntiJoin:
				kind = "Hash antijoin"
			case src.outer:
				kind = "Left hash join"
			default:
				kind = "Inner hash join"
			}
			kind += " " + condText(src.conds)
			kids = []*treeNode{top, {text: "Hash", kids: []*treeNode{node}}}
		}
		top = &treeNode{text: kind, rows: strconv.FormatFloat(est, 'f', 0, 64), kids: kids}
		if st != nil {
			l := &st.levels[i]
			top.actual = fmt.Sprintf("actual time=%s..%s rows=%d loops=1", msText(l.joinFirst), msText(l.joinLast), l.passed)
		}
		if src.outer {
			top = nestFilter(p.srcs, i, top)
		}
	}
	return top, est
}

// nestFilter puts the conditions evaluated after the NULL extension of
// the nest starting at level first (the enclosing scope's, nest.go) as a
// filter above the nest's join.
func nestFilter(srcs []*tableSource, first int, join *treeNode) *treeNode {
	last := srcs[srcs[first].nestLast]
	if !last.nested {
		return join
	}
	for k, f := range last.ends {
		if f == first && len(last.groupConds[k+1]) > 0 {
			return &treeNode{text: "Filter: " + condText(last.groupConds[k+1]), rows: join.rows, kids: []*treeNode{join}}
		}
	}
	return join
}

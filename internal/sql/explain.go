package sql

import (
	"context"
	"strconv"
	"strings"

	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/plan"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// EXPLAIN in MySQL 8's traditional format: one row per table with the
// access type the plan uses (const, eq_ref, ref, range, index, ALL), the
// index, the length of the key prefix it uses, what that prefix is compared
// with, and a row estimate counted from the index itself.

// explainColumns are the columns of EXPLAIN's traditional output.
var explainColumns = []string{"id", "select_type", "table", "partitions", "type", "possible_keys", "key", "key_len", "ref", "rows", "filtered", "Extra"}

// explainRowCap bounds the index entries counted for one row estimate.
const explainRowCap = 100000

// explainRow is one row of EXPLAIN output; nullStr marks NULL.
type explainRow struct {
	id                                                           string // "" is 1
	selectType, table, typ, possibleKeys, key, keyLen, ref, rows string
	extra                                                        []string
}

func (r *explainRow) strings() []string {
	extra := nullStr
	if len(r.extra) > 0 {
		extra = strings.Join(r.extra, "; ")
	}
	id := r.id
	if id == "" {
		id = "1"
	}
	return []string{id, r.selectType, r.table, nullStr, r.typ, r.possibleKeys, r.key, r.keyLen, r.ref, r.rows, "100.00", extra}
}

// execExplain describes the access paths chosen for a SELECT, UPDATE or
// DELETE. The statement is planned, not run; row estimates read the
// indexes inside the statement's transaction.
func (s *Session) execExplain(ctx context.Context, st *sqlparser.ExplainStmt) (*sqltypes.Result, error) {
	switch st.Statement.(type) {
	case *sqlparser.Select, *sqlparser.Update, *sqlparser.Delete, *sqlparser.Union:
	default:
		return nil, sqlerr.Unsupported("EXPLAIN of this statement")
	}
	switch st.Type {
	case sqlparser.EmptyType, sqlparser.TraditionalType:
	case sqlparser.TreeType, sqlparser.AnalyzeType:
		sel, ok := st.Statement.(sqlparser.SelectStatement)
		if !ok {
			return nil, sqlerr.Unsupported("EXPLAIN FORMAT=TREE and EXPLAIN ANALYZE of UPDATE and DELETE")
		}
		return s.explainTree(ctx, sel, st.Type == sqlparser.AnalyzeType)
	default:
		return nil, sqlerr.Unsupported("EXPLAIN FORMAT=%s", strings.ToUpper(st.Type.ToString()))
	}
	tx := s.txnForStatement(ctx)
	tx.BeginStatement()
	ex := s.newExecCtx(ctx, tx, nil)
	var rows []explainRow
	var err error
	switch x := st.Statement.(type) {
	case *sqlparser.Select:
		rows, err = s.explainSelect(ex, x)
	case *sqlparser.Update:
		rows, err = s.explainUpdate(ex, x)
	case *sqlparser.Delete:
		rows, err = s.explainDelete(ex, x)
	case *sqlparser.Union:
		// Its selects numbered from 1: PRIMARY, UNION ..., UNION RESULT.
		var qp queryPlan
		if qp, err = s.planQuery(ctx, x, nil); err == nil {
			next := 1
			rows = s.explainQueryPlan(ex, qp, "PRIMARY", false, &next)
		}
	}
	if err := s.endStatement(err); err != nil {
		return nil, err
	}
	out := make([][]string, len(rows))
	for i := range rows {
		out[i] = rows[i].strings()
	}
	return textResult(explainColumns, out), nil
}

func (s *Session) explainSelect(ex *execCtx, sel *sqlparser.Select) ([]explainRow, error) {
	p, err := s.planSelect(ex.Context(), sel)
	if err != nil {
		return nil, err
	}
	return s.explainJoin(ex, p, nil, ""), nil
}

// explainJoin describes the tables of a planned SELECT (or of the join of a
// multi-table UPDATE/DELETE, whose target tables get dmlType as their
// select_type).
func (s *Session) explainJoin(ex *execCtx, p *selectPlan, targets map[int]bool, dmlType string) []explainRow {
	ex.SetBV(s.bindSessionVars(p.bindNames, nil))
	typ := "SIMPLE"
	if len(p.subs) > 0 {
		typ = "PRIMARY" // MySQL's outermost query when it has subqueries
	}
	rows := s.explainTables(ex, p, "", func(i int) string {
		if targets[i] {
			return dmlType
		}
		return typ
	})
	next := 2
	return append(rows, s.explainSubs(ex, p.subs, &next)...)
}

// explainTables describes the tables of a planned SELECT under select id
// ("" is 1), table i with select_type typ(i).
func (s *Session) explainTables(ex *execCtx, p *selectPlan, id string, typ func(i int) string) []explainRow {
	rows := make([]explainRow, 0, len(p.srcs))
	for i := range p.srcs {
		r := s.explainSource(ex, p.sc, p.srcs, i, typ(i), false)
		r.id = id
		rows = append(rows, r)
	}
	if p.sortNeed && len(rows) > 0 {
		rows[0].extra = append(rows[0].extra, "Using filesort")
	}
	return rows
}

// explainSubs lists subqueries after their query, numbered from *next in
// the order they were planned (MySQL's select ids): SUBQUERY, run once, or
// DEPENDENT SUBQUERY, correlated with its query; a UNION's later parts as
// UNION and its result as UNION RESULT.
func (s *Session) explainSubs(ex *execCtx, subs []subPlan, next *int) []explainRow {
	var out []explainRow
	seen := map[string]bool{}
	for _, sp := range subs {
		if seen[sp.text] {
			continue // planned twice (a condition copied by the planner)
		}
		seen[sp.text] = true
		typ := "SUBQUERY"
		if sp.dependent {
			typ = "DEPENDENT SUBQUERY"
		}
		out = append(out, s.explainQueryPlan(ex, sp.plan, typ, sp.dependent, next)...)
	}
	return out
}

// explainQueryPlan describes a subquery's plan under select id *next.
func (s *Session) explainQueryPlan(ex *execCtx, qp queryPlan, typ string, dependent bool, next *int) []explainRow {
	switch p := qp.(type) {
	case *selectPlan:
		id := strconv.Itoa(*next)
		*next++
		saved := ex.BV
		ex.SetBV(s.bindSessionVars(p.bindNames, nil))
		rows := s.explainTables(ex, p, id, func(int) string { return typ })
		if len(p.srcs) == 0 {
			rows = append(rows, explainRow{id: id, selectType: typ, table: nullStr, typ: nullStr, possibleKeys: nullStr, key: nullStr, keyLen: nullStr, ref: nullStr, rows: nullStr, extra: []string{"No tables used"}})
		}
		ex.SetBV(saved)
		return append(rows, s.explainSubs(ex, p.subs, next)...)
	case *unionPlan:
		return s.explainSetOp(ex, p, typ, dependent, next, false)
	}
	return nil
}

// explainSetOp describes a UNION, EXCEPT or INTERSECT. A chain of the same
// operator (a UNION b UNION c) gets one result row, as MySQL shows it:
// chained is set for the left side of such a chain.
func (s *Session) explainSetOp(ex *execCtx, p *unionPlan, typ string, dependent bool, next *int, chained bool) []explainRow {
	first := *next
	var rows []explainRow
	if l, ok := p.left.(*unionPlan); ok && l.op == p.op {
		rows = s.explainSetOp(ex, l, typ, dependent, next, true)
	} else {
		rows = s.explainQueryPlan(ex, p.left, typ, dependent, next)
	}
	op := p.op.String() // UNION, EXCEPT, INTERSECT
	utyp := op
	if dependent {
		utyp = "DEPENDENT " + op
	}
	rows = append(rows, s.explainQueryPlan(ex, p.right, utyp, dependent, next)...)
	// Only a chain of UNION ALL streams its parts; anything else goes
	// through a temporary table, shown as a result row over all the
	// selects it combines.
	if !chained && (p.op != parse.Union || chainDistinct(p)) {
		ids := make([]string, 0, *next-first)
		for id := first; id < *next; id++ {
			ids = append(ids, strconv.Itoa(id))
		}
		rows = append(rows, explainRow{id: nullStr, selectType: op + " RESULT", table: "<" + strings.ToLower(op) + strings.Join(ids, ",") + ">",
			typ: "ALL", possibleKeys: nullStr, key: nullStr, keyLen: nullStr, ref: nullStr, rows: nullStr, extra: []string{"Using temporary"}})
	}
	return rows
}

// chainDistinct reports whether a set operation or the ones of the same
// operator chained on its left removes duplicates.
func chainDistinct(p *unionPlan) bool {
	for {
		if p.distinct {
			return true
		}
		l, ok := p.left.(*unionPlan)
		if !ok || l.op != p.op {
			return false
		}
		p = l
	}
}

func (s *Session) explainUpdate(ex *execCtx, st *sqlparser.Update) ([]explainRow, error) {
	if _, ok := st.TableExprs[0].(*sqlparser.AliasedTableExpr); len(st.TableExprs) == 1 && ok {
		return s.explainSingleDML(ex, st.TableExprs[0], st.Where, st.OrderBy, st.Limit, "UPDATE")
	}
	// The targets are the tables of the assigned columns.
	return s.explainMulti(ex, st.TableExprs, st.Where, "UPDATE", func(p *selectPlan) map[int]bool {
		targets := map[int]bool{}
		for _, ue := range st.Exprs {
			if i, err := p.sc.Resolve(ue.Name); err == nil {
				targets[sourceAt(p.srcs, i)] = true
			}
		}
		return targets
	})
}

func (s *Session) explainDelete(ex *execCtx, st *sqlparser.Delete) ([]explainRow, error) {
	if len(st.Targets) > 0 {
		return s.explainMulti(ex, st.TableExprs, st.Where, "DELETE", func(p *selectPlan) map[int]bool {
			targets := map[int]bool{}
			for _, tn := range st.Targets {
				for i, src := range p.srcs {
					if src.alias == tn.Name.String() {
						targets[i] = true
					}
				}
			}
			return targets
		})
	}
	if len(st.TableExprs) != 1 {
		return nil, sqlerr.Unsupported("multi-table DELETE without targets")
	}
	return s.explainSingleDML(ex, st.TableExprs[0], st.Where, st.OrderBy, st.Limit, "DELETE")
}

func (s *Session) explainSingleDML(ex *execCtx, te sqlparser.TableExpr, where *sqlparser.Where, orderBy sqlparser.OrderBy, limit *sqlparser.Limit, typ string) ([]explainRow, error) {
	t, alias, err := s.targetTable(ex, te, false)
	if err != nil {
		return nil, err
	}
	p, _, err := s.planDML(ex, t, alias, where, orderBy, limit)
	if err != nil {
		return nil, err
	}
	ex.SetBV(s.bindSessionVars(p.names, nil))
	r := s.explainSource(ex, p.sc, []*tableSource{p.src}, 0, typ, true)
	if where != nil {
		r.extra = append([]string{"Using where"}, r.extra...)
	}
	if !p.ordered {
		r.extra = append(r.extra, "Using filesort")
	}
	return []explainRow{r}, nil
}

// explainMulti describes a multi-table UPDATE or DELETE: its join, with the
// tables targets picks marked by select_type typ.
func (s *Session) explainMulti(ex *execCtx, from []sqlparser.TableExpr, where *sqlparser.Where, typ string, targets func(*selectPlan) map[int]bool) ([]explainRow, error) {
	p, err := s.planMultiJoin(ex, from, where)
	if err != nil {
		return nil, err
	}
	return s.explainJoin(ex, p, targets(p), typ), nil
}

// explainSource describes table i of a join. dml: a single-table UPDATE or
// DELETE, which MySQL plans with the range optimizer alone (an index lookup
// shows as range).
func (s *Session) explainSource(ex *execCtx, sc *eval.Scope, srcs []*tableSource, i int, selectType string, dml bool) explainRow {
	src := srcs[i]
	r := explainRow{selectType: selectType, table: src.alias, typ: "ALL", possibleKeys: nullStr, key: nullStr, keyLen: nullStr, ref: nullStr, rows: "1"}
	ap := src.path
	if k := src.vkey; k != nil && src.virtual == nil {
		// A hash join: the table is scanned once (MySQL 8's wording).
		r.typ = "ALL"
		r.rows = s.estimateRows(ex, src)
		r.extra = append(r.extra, "Using where")
		r.extra = append(r.extra, semiExtra(srcs, i)...)
		r.extra = append(r.extra, "Using join buffer (hash join)")
		return r
	}
	if k := src.vkey; k != nil {
		// A materialised table read through its lookup hash: MySQL's
		// index on the derived table.
		r.typ, r.possibleKeys, r.key = "ref", "<auto_key0>", "<auto_key0>"
		n := 0
		refs := make([]string, len(k.parts))
		for p, part := range k.parts {
			n += plan.KeyPartLen(&src.def.Columns[part.col], 0)
			refs[p], _ = explainRef(part.ref, sc, srcs, i)
		}
		r.keyLen, r.ref = strconv.Itoa(n), strings.Join(refs, ",")
		if src.tf != nil {
			r.rows = "2"
			r.extra = append(r.extra, "Table function: json_table; Using temporary")
		}
		if src.residual > len(k.parts) {
			r.extra = append(r.extra, "Using where")
		}
		return r
	}
	if src.tf != nil && src.vkey == nil {
		// A table function, materialised per outer row (MySQL's wording
		// and its fixed estimate).
		r.rows = "2"
		r.extra = append(r.extra, "Table function: json_table; Using temporary")
		if src.residual > 0 {
			r.extra = append(r.extra, "Using where")
		}
		return r
	}
	if ap == nil {
		return r
	}
	if possible := ap.choice.Possible; len(possible) > 0 {
		names := make([]string, len(possible))
		for k, ix := range possible {
			names[k] = ix.Name
		}
		r.possibleKeys = strings.Join(names, ",")
	}
	refs, outerRef := ap.explainRefs(sc, srcs, i)
	r.typ = ap.choice.AccessType(i > 0 && outerRef)
	parts := len(ap.eq)
	if ap.hasRange {
		parts++
	}
	switch r.typ {
	case "ALL":
	case "index":
		r.key, r.keyLen = ap.ix.Name, keyLen(src.def, ap.ix, len(ap.ix.Columns))
	default:
		r.key, r.keyLen = ap.ix.Name, keyLen(src.def, ap.ix, parts)
		if r.typ != "range" {
			r.ref = strings.Join(refs, ",")
		}
	}
	if dml && (r.typ == "const" || r.typ == "eq_ref" || r.typ == "ref") {
		r.typ = "range"
	}
	switch {
	case r.typ == "const" || r.typ == "eq_ref":
		r.rows = "1"
	case outerRef:
		// Depends on the outer row: the rows per key value from the
		// statistics (MySQL's rec_per_key), 1 without them.
		r.rows = "1"
		if st := s.eng.Cat.Stats(src.def); st != nil {
			if d, ok := st.Distinct(ap.ix, len(ap.eq)); ok && d > 0 {
				r.rows = strconv.FormatInt(max(1, (st.RowCount()+d/2)/d), 10)
			}
		}
	default:
		r.rows = s.estimateRows(ex, src)
	}
	covering := src.covering && !ap.ix.Primary
	rangeLike := r.typ == "range"
	if rangeLike && !covering && !ap.ix.Primary && !dml {
		r.extra = append(r.extra, "Using index condition")
	}
	if !dml && (src.residual > 0 || rangeLike && (ap.ix.Primary || covering)) {
		r.extra = append(r.extra, "Using where")
	}
	if covering {
		r.extra = append(r.extra, "Using index")
	}
	if ap.reverse && r.typ != "ALL" {
		r.extra = append(r.extra, "Backward index scan")
	}
	r.extra = append(r.extra, semiExtra(srcs, i)...)
	return r
}

// semiExtra is EXPLAIN's note on a semi- or anti-joined table (MySQL 8's
// wording): FirstMatch names the query's table whose next row is read once
// a row matched; "Not exists" marks an antijoin.
func semiExtra(srcs []*tableSource, i int) []string {
	switch {
	case srcs[i].semi == plan.SemiJoin:
		for k := i - 1; k >= 0; k-- {
			if srcs[k].semi == plan.SemiNone {
				return []string{"FirstMatch(" + srcs[k].alias + ")"}
			}
		}
	case srcs[i].semi == plan.AntiJoin:
		return []string{"Not exists"}
	}
	return nil
}

func (ap *accessPath) hasSubIn() bool {
	for _, sq := range ap.subIn {
		if sq != nil {
			return true
		}
	}
	return false
}

// explainRefs gives EXPLAIN's ref of each equality key part: const, the
// db.table.column of an earlier table, or func; outer reports whether one
// comes from an earlier table.
func (ap *accessPath) explainRefs(sc *eval.Scope, srcs []*tableSource, level int) (refs []string, outer bool) {
	for k := range ap.eq {
		ref, o := explainRef(ap.choice.EqValue(k), sc, srcs, level)
		outer = outer || o
		refs = append(refs, ref)
	}
	return refs, outer
}

// explainRef gives EXPLAIN's ref of one key value v (nil: several values or
// IS NULL); outer reports whether it comes from an earlier table.
func explainRef(v sqlparser.Expr, sc *eval.Scope, srcs []*tableSource, level int) (ref string, outer bool) {
	if v == nil {
		return "const", false
	}
	cols := 0
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if _, ok := n.(*sqlparser.ColName); ok {
			cols++
		}
		return true, nil
	}, v)
	if cols == 0 {
		return "const", false
	}
	if cn, ok := v.(*sqlparser.ColName); ok && sc != nil {
		if i, err := sc.Resolve(cn); err == nil {
			if l := sourceAt(srcs, i); l >= 0 && l < level {
				ref := srcs[l].alias + "." + sc.Cols[i].Name
				if db := srcs[l].def.DB; db != "" {
					ref = db + "." + ref // (a derived table or table function has none)
				}
				return ref, true
			}
		}
	}
	return "func", true
}

// sourceAt returns the join level whose columns include scope column i.
func sourceAt(srcs []*tableSource, i int) int {
	for l, src := range srcs {
		if i >= src.off && i < src.off+src.width {
			return l
		}
	}
	return -1
}

// estimateRows counts the index entries the path's key ranges cover (points
// count one each), up to explainRowCap.
func (s *Session) estimateRows(ex *execCtx, src *tableSource) string {
	if src.tbl == nil {
		return "1"
	}
	ranges, ok, err := src.path.ranges(ex, src.tbl, make(Row, src.off+src.width), nil)
	if err != nil || !ok {
		return "1"
	}
	n := 0
	for _, kr := range ranges {
		if kr.point {
			n++
			continue
		}
		c, err := src.tbl.CountKeys(ex.tx, kr.lo, kr.hi, explainRowCap-n)
		if err != nil {
			return "1"
		}
		n += c
		if n >= explainRowCap {
			break
		}
	}
	return strconv.Itoa(max(n, 1))
}

// keyLen is EXPLAIN's key_len of the first parts key parts of ix
// (plan.KeyLen), NULL for a hidden primary key.
func keyLen(t *catalog.Table, ix *catalog.Index, parts int) string {
	n, ok := plan.KeyLen(t, ix, parts)
	if !ok {
		return nullStr
	}
	return strconv.Itoa(n)
}

package sql

import (
	"bytes"
	"context"
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/exec"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// queryPlan is a planned query expression (SELECT or UNION).
type queryPlan interface {
	run(ex *execCtx) (*sqltypes.Result, error)
	// outputs describes the result columns known at plan time.
	outputs() []outCol
	bindVars() []string
}

// outCol is one output column of a query plan.
type outCol struct {
	name string
	typ  evalengine.Type
}

func (p *selectPlan) outputs() []outCol {
	out := make([]outCol, p.visible)
	for i := 0; i < p.visible; i++ {
		out[i].name = p.names[i]
		if ci := p.projCols[i]; ci >= 0 {
			out[i].typ = p.sc.Cols[ci].Type
		} else {
			out[i].typ = p.proj[i].Static
		}
	}
	return out
}

func (p *selectPlan) bindVars() []string { return p.bindNames }

// nextSeq returns a number not returned before in the session (names of
// slots and outer references).
func (s *Session) nextSeq() uint64 {
	s.slotSeq++
	return s.slotSeq
}

// planQuery plans a SELECT or UNION, with outer as the enclosing scope for
// correlated subqueries (nil at top level).
func (s *Session) planQuery(ctx context.Context, stmt sqlparser.TableStatement, outer *eval.Outer) (queryPlan, error) {
	switch st := stmt.(type) {
	case *sqlparser.Select:
		return s.planSelectOuter(ctx, st, outer)
	case *sqlparser.Union:
		return s.planUnion(ctx, st, outer)
	}
	return nil, sqlerr.Unsupported("%s", sqlparser.String(stmt))
}

// --- subqueries in expressions ---

// subPlan is a subquery of an expression as EXPLAIN lists it.
type subPlan struct {
	plan queryPlan
	// dependent: correlated with the enclosing query (run per row until
	// decorrelated).
	dependent bool
	text      string
}

// subquerySlot plans a subquery used in an expression. op is the
// comparison of eval.SubAny and eval.SubAll.
func (c *compiler) subquerySlot(sub *sqlparser.Subquery, kind eval.SubqueryKind, left sqlparser.Expr, op sqlparser.ComparisonExprOperator) (*eval.Slot, error) {
	oc := &eval.Outer{Scope: c.Scope, Parent: c.Outer}
	p, err := c.s.planQuery(c.context(), sub.Select, oc)
	if err != nil {
		return nil, err
	}
	outs := p.outputs()
	var leftX []*eval.Expr
	if left != nil {
		if tup, ok := left.(sqlparser.ValTuple); ok {
			for _, e := range tup {
				x, err := c.Compile(e)
				if err != nil {
					return nil, err
				}
				leftX = append(leftX, x)
			}
		} else {
			x, err := c.Compile(left)
			if err != nil {
				return nil, err
			}
			leftX = []*eval.Expr{x}
		}
		if len(outs) != len(leftX) {
			return nil, sqlerr.OperandColumns(len(leftX))
		}
	} else if kind == eval.SubScalar && len(outs) != 1 {
		return nil, sqlerr.OperandColumns(1)
	}
	// A subquery correlated with this query's own rows leaves this query
	// uncorrelated; one that reads further out has marked the enclosing
	// contexts it reads while resolving (eval.Outer).
	cacheable := !oc.Correlated
	if c.subs != nil {
		*c.subs = append(*c.subs, subPlan{plan: p, dependent: !cacheable, text: sqlparser.String(sub)})
	}
	var d *decorrelated
	if !cacheable {
		if d, err = c.decorrelate(sub, kind); err != nil {
			return nil, err
		}
	}
	name := c.NextSlotName()
	typ := evalengine.NewTypeEx(sqltypes.Int64, collations.CollationBinaryID, kind != eval.SubExists, 1, 0, nil)
	if kind == eval.SubScalar {
		typ = outs[0].typ
		if typ.Valid() {
			typ.SetNullability(true) // no row is NULL
		}
	}
	return &eval.Slot{Name: name, Type: typ, Fn: func(x *eval.Ctx, row Row) (sqltypes.Value, error) {
		ex := execOf(x)
		var rows []Row
		found := false
		if d != nil {
			if rows, found, err = d.rows(ex, row); err != nil {
				return sqltypes.NULL, err
			}
		}
		if !found {
			run := func() error {
				res, err := ex.runSubquery(p, oc, row, cacheable, kind == eval.SubExists)
				if err == nil {
					rows = res.Rows
				}
				return err
			}
			if d != nil {
				err = d.correlated(ex, run)
			} else {
				err = run()
			}
			if err != nil {
				return sqltypes.NULL, err
			}
		}
		switch kind {
		case eval.SubExists:
			if len(rows) > 0 {
				return sqltypes.NewInt64(1), nil
			}
			return sqltypes.NewInt64(0), nil
		case eval.SubScalar:
			switch len(rows) {
			case 0:
				return sqltypes.NULL, nil
			case 1:
				return rows[0][0], nil
			}
			return sqltypes.NULL, sqlerr.New(sqlerror.ERSubqueryNo1Row, sqlerror.SSWrongNumberOfColumns, "Subquery returns more than 1 row")
		}
		// IN / NOT IN with SQL's three-valued logic.
		lv := make(Row, len(leftX))
		colls := make([]collations.ID, len(leftX))
		for i, x := range leftX {
			v, coll, err := ex.EvalColl(x, row)
			if err != nil {
				return sqltypes.NULL, err
			}
			lv[i], colls[i] = v, coll
		}
		if kind == eval.SubAny || kind == eval.SubAll {
			return quantified(ex, kind, op, lv[0], colls[0], rows)
		}
		found, sawNull := false, false
		for _, r := range rows {
			eq, null, err := tupleEqual(ex, lv, r, colls)
			if err != nil {
				return sqltypes.NULL, err
			}
			if eq {
				found = true
				break
			}
			if null {
				sawNull = true
			}
		}
		var out int64
		switch {
		case found:
			out = 1
		case sawNull || (len(rows) > 0 && anyNull(lv)):
			return sqltypes.NULL, nil
		}
		if kind == eval.SubNotIn {
			out = 1 - out
		}
		return sqltypes.NewInt64(out), nil
	}}, nil
}

// quantified evaluates v op ANY (rows) or v op ALL (rows) with SQL's
// three-valued logic: ANY is true when some comparison is true, ALL false
// when some comparison is false; otherwise a NULL comparison makes the
// result NULL, and an empty subquery gives false (ANY) or true (ALL).
func quantified(ex *execCtx, kind eval.SubqueryKind, op sqlparser.ComparisonExprOperator, v sqltypes.Value, coll collations.ID, rows []Row) (sqltypes.Value, error) {
	decided := int64(0) // ANY: a true comparison decides true
	if kind == eval.SubAll {
		decided = 1 // ALL: a false comparison decides false
	}
	if coll == 0 {
		coll = ex.s.collation()
	}
	sawNull := false
	for _, r := range rows {
		if v.IsNull() || r[0].IsNull() {
			sawNull = true
			continue
		}
		c, err := exec.CompareValues(v, r[0], ex.s.eng.Env.CollationEnv(), coll)
		if err != nil {
			return sqltypes.NULL, err
		}
		if holds(op, c) == (kind == eval.SubAny) {
			return sqltypes.NewInt64(1 - decided), nil
		}
	}
	if sawNull {
		return sqltypes.NULL, nil
	}
	return sqltypes.NewInt64(decided), nil
}

// holds reports whether a comparison whose operands compare as c (<0, 0,
// >0) satisfies op.
func holds(op sqlparser.ComparisonExprOperator, c int) bool {
	switch op {
	case sqlparser.EqualOp, sqlparser.NullSafeEqualOp:
		return c == 0
	case sqlparser.NotEqualOp:
		return c != 0
	case sqlparser.LessThanOp:
		return c < 0
	case sqlparser.LessEqualOp:
		return c <= 0
	case sqlparser.GreaterThanOp:
		return c > 0
	case sqlparser.GreaterEqualOp:
		return c >= 0
	}
	return false
}

func anyNull(r Row) bool {
	for _, v := range r {
		if v.IsNull() {
			return true
		}
	}
	return false
}

// tupleEqual compares two rows with MySQL = semantics: eq is true when all
// are equal; null when the result is unknown.
func tupleEqual(ex *execCtx, a, b Row, colls []collations.ID) (eq, null bool, err error) {
	eq = true
	for i := range a {
		if a[i].IsNull() || b[i].IsNull() {
			null = true
			eq = false
			continue
		}
		coll := colls[i]
		if coll == 0 {
			coll = ex.s.collation()
		}
		c, err := exec.CompareValues(a[i], b[i], ex.s.eng.Env.CollationEnv(), coll)
		if err != nil {
			return false, false, err
		}
		if c != 0 {
			return false, false, nil
		}
	}
	if null {
		return false, true, nil
	}
	return eq, false, nil
}

// runSubquery executes a subquery plan for the current outer row.
func (ex *execCtx) runSubquery(p queryPlan, oc *eval.Outer, row Row, cacheable, existsOnly bool) (*sqltypes.Result, error) {
	if cacheable {
		if res, ok := ex.subCache[p]; ok {
			return res, nil
		}
	}
	bv := make(map[string]*querypb.BindVariable, len(ex.BV)+len(oc.Refs))
	for k, v := range ex.BV {
		bv[k] = v
	}
	for _, r := range oc.Refs {
		if r.Off < len(row) {
			bv[r.Name] = sqltypes.ValueBindVariable(row[r.Off])
		}
	}
	bv = ex.s.bindSessionVars(p.bindVars(), bv)
	sub := ex.s.newExecCtx(ex.Context(), ex.tx, bv)
	sub.subCache = ex.subCache
	if ex.decor == nil {
		ex.decor = map[*decorrelated]*decorState{}
	}
	sub.decor = ex.decor
	res, err := p.run(sub)
	if err != nil {
		return nil, err
	}
	if cacheable {
		if ex.subCache == nil {
			ex.subCache = map[queryPlan]*sqltypes.Result{}
			sub.subCache = ex.subCache
		}
		ex.subCache[p] = res
	}
	return res, nil
}

// --- UNION ---

type unionPlan struct {
	left, right queryPlan
	// op is UNION, EXCEPT or INTERSECT (see parse.UnwrapSetOperand).
	op        parse.SetOp
	distinct  bool
	order     []sortKey
	limit     *eval.Expr
	offset    *eval.Expr
	names     []string
	bindNames []string
}

func (u *unionPlan) bindVars() []string {
	out := append([]string(nil), u.bindNames...)
	out = append(out, u.left.bindVars()...)
	return append(out, u.right.bindVars()...)
}

func (u *unionPlan) outputs() []outCol {
	l := u.left.outputs()
	r := u.right.outputs()
	out := make([]outCol, len(l))
	for i := range l {
		out[i] = outCol{name: l[i].name}
		if l[i].typ.Valid() && r[i].typ.Valid() && l[i].typ.Type() == r[i].typ.Type() {
			out[i].typ = l[i].typ
		}
	}
	return out
}

func (s *Session) planUnion(ctx context.Context, u *sqlparser.Union, outer *eval.Outer) (queryPlan, error) {
	if u.With != nil && len(u.With.CTEs) > 0 {
		pop, err := s.pushCTEs(ctx, u.With, outer)
		if err != nil {
			return nil, err
		}
		defer pop()
	}
	l, err := s.planQuery(ctx, u.Left, outer)
	if err != nil {
		return nil, err
	}
	op, right := parse.UnwrapSetOperand(u.Right)
	r, err := s.planQuery(ctx, right, outer)
	if err != nil {
		return nil, err
	}
	lo, ro := l.outputs(), r.outputs()
	if len(lo) != len(ro) {
		return nil, sqlerr.New(sqlerror.ERWrongNumberOfColumnsInSelect, sqlerror.SSWrongNumberOfColumns, "The used SELECT statements have a different number of columns")
	}
	p := &unionPlan{left: l, right: r, op: op, distinct: u.Distinct}
	for _, o := range lo {
		p.names = append(p.names, o.name)
	}
	for _, o := range u.OrderBy {
		k := sortKey{desc: o.Direction == sqlparser.DescOrder, idx: -1}
		switch e := o.Expr.(type) {
		case *sqlparser.Literal:
			n, _ := strconv.Atoi(e.Val)
			if e.Type != sqlparser.IntVal || n < 1 || n > len(lo) {
				return nil, sqlerr.New(sqlerror.ERBadFieldError, sqlerror.SSBadFieldError, "Unknown column '%s' in 'order clause'", e.Val)
			}
			k.idx = n - 1
		case *sqlparser.ColName:
			for i, n := range p.names {
				if strings.EqualFold(n, e.Name.String()) {
					k.idx = i
					break
				}
			}
			if k.idx < 0 {
				return nil, sqlerr.New(sqlerror.ERBadFieldError, sqlerror.SSBadFieldError, "Unknown column '%s' in 'order clause'", sqlparser.String(e))
			}
		default:
			return nil, sqlerr.Unsupported("ORDER BY expression on a UNION")
		}
		p.order = append(p.order, k)
	}
	if u.Limit != nil {
		lc := s.newCompiler(ctx, &eval.Scope{}, &p.bindNames, nil)
		if u.Limit.Rowcount != nil {
			if p.limit, err = lc.Compile(u.Limit.Rowcount); err != nil {
				return nil, err
			}
		}
		if u.Limit.Offset != nil {
			if p.offset, err = lc.Compile(u.Limit.Offset); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

func (u *unionPlan) run(ex *execCtx) (*sqltypes.Result, error) {
	lr, err := u.left.run(ex)
	if err != nil {
		return nil, err
	}
	rr, err := u.right.run(ex)
	if err != nil {
		return nil, err
	}
	return u.combine(ex, lr, rr)
}

// combine computes the set operation from the results of its two sides.
func (u *unionPlan) combine(ex *execCtx, lr, rr *sqltypes.Result) (*sqltypes.Result, error) {
	fields, types := mergeFields(ex.s.eng.Env.CollationEnv(), lr.Fields, rr.Fields, u.names)
	res := &sqltypes.Result{Fields: fields}
	// Both sides in the result's types first: rows compare by value.
	mode := evalengine.ParseSQLMode(ex.s.sqlMode.raw)
	left := conformRows(append([]Row(nil), lr.Rows...), fields, types, mode)
	right := conformRows(append([]Row(nil), rr.Rows...), fields, types, mode)
	// Text compares, dedups and sorts under each column's collation.
	colls := fieldCollations(fields)
	var rows []Row
	switch u.op {
	case parse.Except, parse.Intersect:
		rows = exceptIntersect(left, right, colls, u.op == parse.Except, u.distinct)
	default:
		rows = append(left, right...)
	}
	if u.distinct && u.op == parse.Union {
		seen := map[string]struct{}{}
		var kb []byte
		out := rows[:0]
		for _, r := range rows {
			kb = groupKey(kb[:0], r, colls)
			if _, dup := seen[string(kb)]; dup {
				continue
			}
			seen[string(kb)] = struct{}{}
			out = append(out, r)
		}
		rows = out
	}
	if len(u.order) > 0 {
		if err := sortRows(rows, u.order, colls, ex); err != nil {
			return nil, err
		}
	}
	limit, offset, err := ex.limitOffset(u.limit, u.offset)
	if err != nil {
		return nil, err
	}
	if offset >= uint64(len(rows)) {
		rows = nil
	} else {
		rows = rows[offset:]
	}
	if uint64(len(rows)) > limit {
		rows = rows[:limit]
	}
	if len(rows) > 0 {
		// conformRows converted what it could: make sure the metadata
		// describes every value sent.
		all := make([]int, len(res.Fields))
		for i := range all {
			all[i] = i
		}
		res.Fields = reconcileFields(ex, res.Fields, all, rows)
	}
	res.Rows = rows
	return res, nil
}

// exceptIntersect computes left EXCEPT right (except) or left INTERSECT
// right with MySQL 8.0.31 semantics: rows compare equal column by column with
// NULLs equal; DISTINCT returns each qualifying row once, ALL returns a row
// that appears m times on the left and n times on the right max(m-n, 0)
// times (EXCEPT) or min(m, n) times (INTERSECT). Left order is kept.
func exceptIntersect(left, right []Row, colls []collations.ID, except, distinct bool) []Row {
	counts := make(map[string]int, len(right))
	var kb []byte
	for _, r := range right {
		kb = groupKey(kb[:0], r, colls)
		counts[string(kb)]++
	}
	out := make([]Row, 0, len(left))
	var emitted map[string]struct{}
	if distinct {
		emitted = map[string]struct{}{}
	}
	for _, r := range left {
		kb = groupKey(kb[:0], r, colls)
		n, inRight := counts[string(kb)]
		if distinct {
			if _, dup := emitted[string(kb)]; dup || inRight == except {
				continue
			}
			emitted[string(kb)] = struct{}{}
			out = append(out, r)
			continue
		}
		if except {
			if n > 0 {
				counts[string(kb)] = n - 1
				continue
			}
			out = append(out, r)
			continue
		}
		if n > 0 {
			counts[string(kb)] = n - 1
			out = append(out, r)
		}
	}
	return out
}

// fieldCollations returns the collation of each result column: text
// columns compare, group and sort under it (UNION DISTINCT, EXCEPT,
// INTERSECT, ORDER BY).
func fieldCollations(fields []*querypb.Field) []collations.ID {
	out := make([]collations.ID, len(fields))
	for i, f := range fields {
		if sqltypes.IsText(f.Type) {
			out[i] = collations.ID(f.Charset)
		}
	}
	return out
}

// mergeFields gives the result metadata of a set operation: per column, the
// name of the left side and the type MySQL aggregates from both sides (INT
// and BIGINT give BIGINT, INT and DECIMAL a DECIMAL, a number and a string a
// VARCHAR, ...). types is the aggregated type per column, invalid where the
// sides could not be aggregated (the left field is kept).
func mergeFields(env *collations.Environment, l, r []*querypb.Field, names []string) (out []*querypb.Field, types []evalengine.Type) {
	out = make([]*querypb.Field, len(l))
	types = make([]evalengine.Type, len(l))
	for i := range l {
		base := l[i]
		if base.Type == sqltypes.Null && i < len(r) {
			base = r[i]
		}
		f := cloneField(base)
		f.Name = names[i]
		f.Table, f.OrgTable, f.OrgName, f.Database = "", "", "", ""
		out[i] = f
		if i >= len(r) || l[i].Type == r[i].Type && l[i].Decimals == r[i].Decimals {
			continue
		}
		var ta evalengine.TypeAggregator
		for _, side := range []*querypb.Field{l[i], r[i]} {
			if side.Type == sqltypes.Null {
				continue
			}
			if err := ta.AddField(side, env); err != nil {
				ta = evalengine.TypeAggregator{}
				break
			}
		}
		t := ta.Type()
		if !t.Valid() {
			continue
		}
		types[i] = t
		f.Type = t.Type()
		f.Charset = uint32(t.Collation())
		if sqltypes.IsText(f.Type) && f.Charset == collations.CollationBinaryID {
			f.Charset = uint32(collations.CollationUtf8mb4ID)
		}
		f.Decimals = uint32(max(l[i].Decimals, r[i].Decimals))
		f.ColumnLength = max(l[i].ColumnLength, r[i].ColumnLength)
		_, flags := sqltypes.TypeToMySQL(f.Type)
		f.Flags = uint32(flags) | f.Flags&uint32(querypb.MySqlFlag_NOT_NULL_FLAG)&l[i].Flags&r[i].Flags
	}
	return out, types
}

// padDecimal pads a DECIMAL value's text to scale fractional digits.
func padDecimal(v sqltypes.Value, scale int) sqltypes.Value {
	raw := v.Raw()
	have := 0
	if i := bytes.IndexByte(raw, '.'); i >= 0 {
		have = len(raw) - i - 1
	}
	if have >= scale || bytes.ContainsAny(raw, "eE") {
		return v
	}
	out := make([]byte, 0, len(raw)+1+scale-have)
	out = append(out, raw...)
	if have == 0 {
		out = append(out, '.')
	}
	for ; have < scale; have++ {
		out = append(out, '0')
	}
	return sqltypes.MakeTrusted(sqltypes.Decimal, out)
}

// conformRows converts the values of rows to the column types of a set
// operation where they differ; a converted row is a new slice (the input
// rows may be shared with a cached subquery result).
func conformRows(rows []Row, fields []*querypb.Field, types []evalengine.Type, mode evalengine.SQLMode) []Row {
	for ri, row := range rows {
		rows[ri] = conformRow(row, fields, types, mode)
	}
	return rows
}

// conformRow converts one row as conformRows does: it returns row itself
// when no value changes, else a new slice.
func conformRow(row Row, fields []*querypb.Field, types []evalengine.Type, mode evalengine.SQLMode) Row {
	return conformRowTo(nil, row, fields, types, mode)
}

// conformRowTo is conformRow with the new row carved from *slab when slab
// is not nil (and the conversions that cannot change a value's bytes done
// without evalengine: coerceFast).
func conformRowTo(slab *Row, row Row, fields []*querypb.Field, types []evalengine.Type, mode evalengine.SQLMode) Row {
	var out Row
	for c, v := range row {
		if c >= len(types) || !types[c].Valid() || v.IsNull() ||
			v.Type() == fields[c].Type && !sqltypes.IsDateOrTime(v.Type()) {
			continue
		}
		var cv sqltypes.Value
		ok := false
		if slab != nil {
			cv, ok = coerceFast(v, fields[c].Type)
		}
		if !ok {
			var err error
			if cv, err = evalengine.CoerceTo(v, types[c], mode); err != nil {
				cv = sqltypes.MakeTrusted(sqltypes.VarChar, v.Raw())
			}
		}
		if fields[c].Type == sqltypes.Decimal {
			cv = padDecimal(cv, int(fields[c].Decimals))
		}
		if out == nil {
			if slab == nil {
				out = append(Row(nil), row...)
			} else {
				if cap(*slab)-len(*slab) < len(row) {
					*slab = make(Row, 0, max(len(row)*batchRows, cap(*slab)))
				}
				n := len(*slab)
				*slab = append(*slab, row...)
				out = (*slab)[n : n+len(row) : n+len(row)]
			}
		}
		out[c] = cv
	}
	if out != nil {
		return out
	}
	return row
}

// --- derived tables and CTEs ---

// derivedSource builds a FROM item for a subquery in FROM.
func (s *Session) derivedSource(ctx context.Context, alias string, stmt sqlparser.TableStatement, cols sqlparser.Columns, outer *eval.Outer) (*fromItem, error) {
	p, err := s.planQuery(ctx, stmt, outer)
	if err != nil {
		return nil, err
	}
	outs := p.outputs()
	def := virtualTableDef("", alias, outs, cols)
	if len(cols) > 0 && len(cols) != len(outs) {
		return nil, sqlerr.New(sqlerror.ERViewWrongList, sqlerror.SSUnknownSQLState, "In definition of view, derived table or common table expression, SELECT list and column names list have different column counts")
	}
	seen := map[string]bool{}
	for _, c := range def.Columns {
		if seen[lowerName(c.Name)] {
			return nil, sqlerr.New(sqlerror.ERDupFieldName, sqlerror.SSDupFieldName, "Duplicate column name '%s'", c.Name)
		}
		seen[lowerName(c.Name)] = true
	}
	types := make([]evalengine.Type, len(outs))
	for i, o := range outs {
		types[i] = o.typ
	}
	item := &fromItem{def: def, alias: alias, types: types}
	item.virtual = func(ex *execCtx) ([]Row, error) {
		res, err := ex.runSubquery(p, &eval.Outer{}, nil, true, false)
		if err != nil {
			return nil, err
		}
		return res.Rows, nil
	}
	return item, nil
}

// virtualTableDef describes the columns of a derived table or CTE.
func virtualTableDef(db, name string, outs []outCol, cols sqlparser.Columns) *catalog.Table {
	t := &catalog.Table{DB: db, Name: name, HiddenPK: true, AutoIncCol: -1,
		Indexes: []*catalog.Index{{Name: "PRIMARY", Primary: true}}}
	for i, o := range outs {
		n := o.name
		if i < len(cols) {
			n = cols[i].String()
		}
		c := catalog.Column{Name: n, Nullable: true, Type: sqltypes.VarChar, Collation: 45}
		if o.typ.Valid() {
			c.Type = o.typ.Type()
			c.Collation = o.typ.Collation()
		}
		t.Columns = append(t.Columns, c)
	}
	return t
}

// cteDef is a WITH definition visible while planning.
type cteDef struct {
	name      string
	cols      sqlparser.Columns
	stmt      sqlparser.TableStatement
	recursive bool
	outer     *eval.Outer
	// For recursive CTEs: the rows of the previous iteration.
	working []Row
	outs    []outCol
}

// pushCTEs makes WITH definitions visible to the planning of the statement.
func (s *Session) pushCTEs(ctx context.Context, w *sqlparser.With, outer *eval.Outer) (func(), error) {
	m := map[string]*cteDef{}
	for _, cte := range w.CTEs {
		m[cte.ID.String()] = &cteDef{name: cte.ID.String(), cols: cte.Columns, stmt: cte.Subquery, recursive: w.Recursive, outer: outer}
	}
	s.ctes = append(s.ctes, m)
	n := len(s.ctes)
	return func() { s.ctes = s.ctes[:n-1] }, nil
}

// lookupCTE finds a WITH definition by name.
func (s *Session) lookupCTE(name string) *cteDef {
	for i := len(s.ctes) - 1; i >= 0; i-- {
		if d, ok := s.ctes[i][name]; ok {
			return d
		}
	}
	return nil
}

// cteSource builds a FROM item reading a CTE.
func (s *Session) cteSource(ctx context.Context, d *cteDef, alias string) (*fromItem, error) {
	if d.working != nil || d.outs != nil {
		// A recursive reference from inside the CTE's own recursive member.
		def := virtualTableDef("", alias, d.outs, d.cols)
		types := make([]evalengine.Type, len(d.outs))
		for i, o := range d.outs {
			types[i] = o.typ
		}
		return &fromItem{def: def, alias: alias, types: types, virtual: func(ex *execCtx) ([]Row, error) {
			return d.working, nil
		}}, nil
	}
	u, isUnion := d.stmt.(*sqlparser.Union)
	if !d.recursive || !isUnion || !referencesTable(u.Right, d.name) {
		return s.derivedSource(ctx, alias, d.stmt, d.cols, d.outer)
	}
	if op, _ := parse.UnwrapSetOperand(u.Right); op != parse.Union {
		return nil, sqlerr.New(3573, sqlerror.SSUnknownSQLState, "Recursive Common Table Expression '%s' should contain a UNION", d.name)
	}
	if err := recursiveGrouping(u.Right, d.name); err != nil {
		return nil, err
	}
	// Recursive: anchor UNION [ALL] recursive member.
	anchor, err := s.planQuery(ctx, u.Left, d.outer)
	if err != nil {
		return nil, err
	}
	d.outs = anchor.outputs()
	d.working = []Row{}
	recur, err := s.planQuery(ctx, u.Right, d.outer)
	d.working = nil
	if err != nil {
		d.outs = nil
		return nil, err
	}
	outs := d.outs
	d.outs = nil
	if len(recur.outputs()) != len(outs) {
		return nil, sqlerr.New(sqlerror.ERWrongNumberOfColumnsInSelect, sqlerror.SSWrongNumberOfColumns, "The used SELECT statements have a different number of columns")
	}
	def := virtualTableDef("", alias, outs, d.cols)
	types := make([]evalengine.Type, len(outs))
	for i, o := range outs {
		types[i] = o.typ
	}
	distinct := u.Distinct
	colls := make([]collations.ID, len(types))
	for i, t := range types {
		if t.Valid() && sqltypes.IsText(t.Type()) {
			colls[i] = t.Collation()
		}
	}
	item := &fromItem{def: def, alias: alias, types: types}
	item.virtual = func(ex *execCtx) ([]Row, error) {
		res, err := anchor.run(ex)
		if err != nil {
			return nil, err
		}
		all := append([]Row(nil), res.Rows...)
		seen := map[string]struct{}{}
		var kb []byte
		if distinct {
			out := all[:0]
			for _, r := range all {
				kb = groupKey(kb[:0], r, colls)
				if _, dup := seen[string(kb)]; !dup {
					seen[string(kb)] = struct{}{}
					out = append(out, r)
				}
			}
			all = out
		}
		working := all
		maxDepth := int64(1000)
		if v, ok := ex.s.sysVar("cte_max_recursion_depth"); ok {
			maxDepth, _ = v.ToInt64()
		}
		for depth := int64(1); len(working) > 0; depth++ {
			if depth > maxDepth {
				return nil, sqlerr.New(3636, sqlerror.SSUnknownSQLState, "Recursive query aborted after %d iterations. Try increasing @@cte_max_recursion_depth to a larger value.", depth)
			}
			d.working = working
			res, err := recur.run(ex)
			d.working = nil
			if err != nil {
				return nil, err
			}
			var next []Row
			for _, r := range res.Rows {
				if distinct {
					kb = groupKey(kb[:0], r, colls)
					if _, dup := seen[string(kb)]; dup {
						continue
					}
					seen[string(kb)] = struct{}{}
				}
				next = append(next, r)
			}
			all = append(all, next...)
			working = next
		}
		return all, nil
	}
	return item, nil
}

func referencesTable(stmt sqlparser.SQLNode, name string) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if tn, ok := n.(sqlparser.TableName); ok && tn.Qualifier.IsEmpty() && tn.Name.String() == name {
			found = true
		}
		return !found, nil
	}, stmt)
	return found
}

package sql

import (
	"context"
	"strconv"
	"strings"
	"sync"

	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/parse"
)

// Text statements through literal-normalised plan-cache keys.
//
// A SELECT, UPDATE, DELETE or INSERT sent as text that differs from an earlier one only in the
// constants it compares columns with runs the earlier one's plan: the
// session scans the text (parse.Normalizer, no parse), looks the plan up
// under the text with those constants replaced by '?' (and their kinds,
// when not all are integers), and binds the constants as the plan's
// parameters v1, v2, ... — exactly how a prepared statement of that text
// runs, so a text statement and a prepared statement with integer
// parameters share one entry.
//
// On a miss the key's parameter text is parsed and checked (normCheck):
// the statement must be a SELECT, UPDATE, DELETE or INSERT ... VALUES of
// one stored table, without subqueries, whose every parameter is compared with a column of that
// table (=, <=>, <>, <, <=, >, >=, [NOT] BETWEEN, [NOT] IN) whose type the
// constant's kind fits — integer, decimal and floating-point columns for
// numbers, CHAR, VARCHAR and TEXT for strings. Such a plan does not depend
// on the constants' values: access paths take parameters as constants
// known at execution (as for prepared statements), nothing in the select
// list changes (result names and types are those of the statement), a
// constant assigned whole by UPDATE's SET or INSERT's VALUES is stored as
// the column stores any value of its kind (INSERT reads literals and
// parameters alike, literalValue), and there is a single table, so no join order is
// chosen from histograms of the values. An UPDATE or DELETE keeps its
// plan with the cached statement (cachedPlan.dml) as a prepared one does;
// an INSERT saves its parse. A statement that fails the check is remembered as such
// (normRejects) and runs, and is cached, under its exact text as before.
// So do statements the scanner refuses: other statement kinds, comments
// (hints, executable comments), several statements, bind variables.
//
// A plan found under a key that a prepared statement put there (Prepare of
// the same text) is checked once before a text statement uses it
// (cachedPlan.normChecked, normOK), since no one checked it for literals;
// if it fails, text statements of that key take the exact-text path.

// Bounds of the memory normalisation keeps.
const (
	// maxNormText: longer statements take the exact-text path (the
	// session's buffers stay below about twice this).
	maxNormText = 64 << 10
	// maxInternedKey: longer keys are not interned by the session.
	maxInternedKey = 1 << 10
	// maxNormRejects and maxNormRejectBytes bound the remembered refusals
	// (cleared when either is reached).
	maxNormRejects     = 4096
	maxNormRejectBytes = 4 << 20
)

// normRejects remembers the keys whose statement failed normCheck, with
// the catalog version the check saw (the answer depends on column types).
type normRejects struct {
	mu    sync.Mutex
	m     map[planKey]uint64
	bytes int
}

func (r *normRejects) has(k planKey, version uint64) bool {
	r.mu.Lock()
	v, ok := r.m[k]
	r.mu.Unlock()
	return ok && v == version
}

func (r *normRejects) add(k planKey, version uint64) {
	r.mu.Lock()
	if r.m == nil || len(r.m) >= maxNormRejects || r.bytes+len(k.sql) > maxNormRejectBytes {
		r.m, r.bytes = map[planKey]uint64{}, 0
	}
	if _, ok := r.m[k]; !ok {
		r.bytes += len(k.sql)
	}
	r.m[k] = version
	r.mu.Unlock()
}

// normState is a session's scratch for normalised statements, reused from
// one statement to the next.
type normState struct {
	n parse.Normalizer
	// keys interns the keys the session has seen (bounded).
	keys map[string]string
	// bv holds the bind variables of the statement being run; vals the
	// bytes of their values.
	bv   map[string]*querypb.BindVariable
	bvs  []*querypb.BindVariable
	vals []byte
}

// maxSessionKeys bounds a session's interned keys.
const maxSessionKeys = 256

// bindNames are the names Vitess's parser gives the first parameters.
var bindNames = func() []string {
	out := make([]string, 64)
	for i := range out {
		out[i] = "v" + strconv.Itoa(i+1)
	}
	return out
}()

func bindName(i int) string {
	if i < len(bindNames) {
		return bindNames[i]
	}
	return "v" + strconv.Itoa(i+1)
}

// key returns the normalised key text as a string, interned so that a
// statement seen before costs no allocation.
func (ns *normState) key() string {
	if len(ns.n.Key) > maxInternedKey {
		return string(ns.n.Key)
	}
	if k, ok := ns.keys[string(ns.n.Key)]; ok {
		return k
	}
	if ns.keys == nil || len(ns.keys) >= maxSessionKeys {
		ns.keys = make(map[string]string)
	}
	k := string(ns.n.Key)
	ns.keys[k] = k
	return k
}

// bindVars returns the statement's constants as bind variables v1...vn.
// The map and values are the session's and valid until its next
// statement.
func (ns *normState) bindVars() map[string]*querypb.BindVariable {
	if ns.bv == nil {
		ns.bv = make(map[string]*querypb.BindVariable, 8)
	}
	clear(ns.bv)
	ns.vals = ns.vals[:0]
	for i := range ns.n.Lits {
		start := len(ns.vals)
		ns.vals = ns.n.AppendValue(ns.vals, i)
		if i == len(ns.bvs) {
			ns.bvs = append(ns.bvs, &querypb.BindVariable{})
		}
		b := ns.bvs[i]
		b.Type, b.Value, b.Values = litType(ns.n.Lits[i].Kind), ns.vals[start:len(ns.vals):len(ns.vals)], nil
		ns.bv[bindName(i)] = b
	}
	return ns.bv
}

// litType is the type of a constant's bind variable.
func litType(k parse.LitKind) querypb.Type {
	switch k {
	case parse.LitInt:
		return sqltypes.Int64
	case parse.LitUint:
		return sqltypes.Uint64
	case parse.LitDecimal:
		return sqltypes.Decimal
	case parse.LitFloat:
		return sqltypes.Float64
	}
	return sqltypes.VarChar
}

// queryNormalized runs a text statement through its literal-normalised
// key. handled is false when the statement must take the exact-text path
// (not normalisable, refused by normCheck, or failing to plan: the error
// then comes from the statement as written).
func (s *Session) queryNormalized(ctx context.Context, sql string) (res *sqltypes.Result, handled bool, err error) {
	if s.eng.noNormalize.Load() {
		return nil, false, nil
	}
	ns := &s.norm
	if len(sql) > maxNormText || !ns.n.Normalize(sql) || len(ns.n.Lits) == 0 {
		return nil, false, nil
	}
	k := planKey{sql: ns.key(), db: s.DB, settings: s.plan(), temp: s.temps.setID}
	version := s.eng.Cat.Version()
	if cp := s.eng.plans.lookup(k, version, s.eng.Cat.StatsVersion(), false); cp != nil {
		if !cp.normChecked {
			// Put there by Prepare of the same text: check it once.
			cp.normChecked, cp.normOK = true, s.normCheck(cp.stmt, ns.n.Lits)
		}
		if !cp.normOK {
			s.eng.plans.put(k, cp)
			return nil, false, nil
		}
		s.eng.plans.hits.Add(1)
		s.eng.normalized.Add(1)
		s.beginStatementWarnings(cp.stmt)
		res, err := s.execCached(ctx, cp, ns.bindVars())
		s.returnPlan(cp)
		return res, true, err
	}
	if s.eng.normRejects.has(k, version) {
		return nil, false, nil
	}
	stmt, n, err := s.parse(string(ns.n.ParamText()))
	if err != nil || n != len(ns.n.Lits) || !s.normCheck(stmt, ns.n.Lits) {
		s.eng.normRejects.add(k, version)
		return nil, false, nil
	}
	s.eng.plans.misses.Add(1)
	s.eng.normalized.Add(1)
	sel, ok := stmt.(*sqlparser.Select)
	if !ok {
		// UPDATE, DELETE or INSERT: planned at its first execution and
		// kept with the statement, as a prepared one is.
		s.beginStatementWarnings(stmt)
		cp := &cachedPlan{key: k, version: version, stmt: stmt, params: n, normChecked: true, normOK: true}
		res, err := s.execCached(ctx, cp, ns.bindVars())
		s.returnPlan(cp)
		return res, true, err
	}
	prevWarnings := s.prevWarnings
	s.beginStatementWarnings(stmt)
	if err := s.authorize(stmt, sql); err != nil {
		return nil, true, err
	}
	cp := &cachedPlan{key: k, version: version, normChecked: true, normOK: true}
	p, err := s.planSelect(ctx, sel)
	if err != nil {
		// The statement as written reports its own error.
		s.releaseIfIdle()
		s.warnings, s.prevWarnings = s.prevWarnings, prevWarnings
		return nil, false, nil
	}
	res, err = s.runSelect(ctx, p, ns.bindVars())
	if !p.private {
		cp.stmt, cp.sel, cp.tables, cp.params = stmt, p, planTables(p), n
		s.returnPlan(cp)
	}
	return res, true, err
}

// normCheck reports whether every parameter of stmt (named v1...vn, of the
// kinds of lits) is a constant compared with a column of the one stored
// table the SELECT, UPDATE, DELETE or INSERT writes or reads, of a type
// the constant's kind fits, in its WHERE clause under AND, OR, XOR and NOT
// only, or assigned whole in UPDATE's SET list or INSERT's VALUES rows,
// and stmt has no subqueries.
func (s *Session) normCheck(stmt sqlparser.Statement, lits []parse.Literal) bool {
	var te sqlparser.TableExpr
	var where *sqlparser.Where
	switch st := stmt.(type) {
	case *sqlparser.Select:
		if st.With != nil || st.Into != nil || len(st.From) != 1 {
			return false
		}
		te, where = st.From[0], st.Where
	case *sqlparser.Update:
		if st.With != nil || len(st.TableExprs) != 1 {
			return false
		}
		te, where = st.TableExprs[0], st.Where
	case *sqlparser.Delete:
		if st.With != nil || len(st.TableExprs) != 1 || len(st.Targets) != 0 {
			return false
		}
		te, where = st.TableExprs[0], st.Where
	case *sqlparser.Insert:
		if st.Action != sqlparser.InsertAct || st.Table == nil {
			return false
		}
		if _, ok := st.Rows.(sqlparser.Values); !ok {
			return false
		}
		te = st.Table
	default:
		return false
	}
	ate, db, name, ok := s.namedTable(te)
	if !ok {
		return false
	}
	def := s.tableDef(db, name)
	if def == nil {
		return false
	}
	alias := name
	if !ate.As.IsEmpty() {
		alias = ate.As.String()
	}
	total := 0
	subquery := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch n.(type) {
		case *sqlparser.Argument:
			total++
		case *sqlparser.Subquery, *sqlparser.DerivedTable:
			subquery = true
		}
		return !subquery, nil
	}, stmt)
	if subquery || total != len(lits) {
		return false
	}
	// fitsColumn counts parameter e when it stands for a whole value of
	// column ci and its kind fits the column; any other expression is left
	// alone (a parameter in it goes uncounted and fails the check).
	safe := 0
	fitsColumn := func(ci int, e sqlparser.Expr) {
		a, ok := e.(*sqlparser.Argument)
		if !ok || ci < 0 || !strings.HasPrefix(a.Name, "v") {
			return
		}
		i, err := strconv.Atoi(a.Name[1:])
		if err != nil || i < 1 || i > len(lits) {
			return
		}
		if litFitsColumn(lits[i-1].Kind, def.Columns[ci].Type) {
			safe++
		}
	}
	// fits does so for a parameter compared with (or assigned to) c.
	fits := func(c sqlparser.Expr, e sqlparser.Expr) {
		col, ok := c.(*sqlparser.ColName)
		if !ok {
			return
		}
		if q := col.Qualifier; !q.IsEmpty() {
			if !strings.EqualFold(q.Name.String(), alias) || (!q.Qualifier.IsEmpty() && (!ate.As.IsEmpty() || q.Qualifier.String() != db)) {
				return
			}
		}
		fitsColumn(def.ColumnIndex(col.Name.String()), e)
	}
	var walk func(e sqlparser.Expr)
	walk = func(e sqlparser.Expr) {
		switch x := e.(type) {
		case *sqlparser.AndExpr:
			walk(x.Left)
			walk(x.Right)
		case *sqlparser.OrExpr:
			walk(x.Left)
			walk(x.Right)
		case *sqlparser.XorExpr:
			walk(x.Left)
			walk(x.Right)
		case *sqlparser.NotExpr:
			walk(x.Expr)
		case *sqlparser.ComparisonExpr:
			switch x.Operator {
			case sqlparser.EqualOp, sqlparser.NullSafeEqualOp, sqlparser.NotEqualOp,
				sqlparser.LessThanOp, sqlparser.LessEqualOp, sqlparser.GreaterThanOp, sqlparser.GreaterEqualOp:
				fits(x.Left, x.Right)
			case sqlparser.InOp, sqlparser.NotInOp:
				if tup, ok := x.Right.(sqlparser.ValTuple); ok {
					for _, v := range tup {
						fits(x.Left, v)
					}
				}
			}
		case *sqlparser.BetweenExpr:
			fits(x.Left, x.From)
			fits(x.Left, x.To)
		}
	}
	if where != nil {
		walk(where.Expr)
	}
	switch st := stmt.(type) {
	case *sqlparser.Update:
		// SET col = constant: stored as the column's type stores it.
		for _, ue := range st.Exprs {
			fits(ue.Name, ue.Expr)
		}
	case *sqlparser.Insert:
		// VALUES (constant, ...): each stored into its column.
		for _, row := range st.Rows.(sqlparser.Values) {
			if len(st.Columns) == 0 && len(row) != len(def.Columns) {
				return false
			}
			for i, e := range row {
				ci := -1
				switch {
				case len(st.Columns) == 0:
					ci = i
				case i < len(st.Columns):
					ci = def.ColumnIndex(st.Columns[i].String())
				}
				fitsColumn(ci, e)
			}
		}
	}
	return safe == total
}

// litFitsColumn reports whether a constant of kind k compared with a
// column of type t compares as it would as a parameter: numbers with
// numeric columns, strings with character columns. Temporal, ENUM, SET,
// BIT, YEAR, JSON and binary columns convert constants their own way.
func litFitsColumn(k parse.LitKind, t sqltypes.Type) bool {
	if k == parse.LitString {
		switch t {
		case sqltypes.VarChar, sqltypes.Char, sqltypes.Text:
			return true
		}
		return false
	}
	switch t {
	case sqltypes.Int8, sqltypes.Uint8, sqltypes.Int16, sqltypes.Uint16, sqltypes.Int24, sqltypes.Uint24,
		sqltypes.Int32, sqltypes.Uint32, sqltypes.Int64, sqltypes.Uint64,
		sqltypes.Float32, sqltypes.Float64, sqltypes.Decimal:
		return true
	}
	return false
}

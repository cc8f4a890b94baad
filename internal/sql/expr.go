package sql

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	vtrpcpb "vitess.io/vitess/go/vt/proto/vtrpc"
	"vitess.io/vitess/go/vt/sqlparser"
	"vitess.io/vitess/go/vt/vterrors"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/builtins"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/sql/sysvar"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// scopeCol is one column visible to expressions: a table column or a derived
// value.
type scopeCol struct {
	db, table string // table is the alias used in the query
	name      string
	col       *catalog.Column // nil for derived columns
	tbl       *catalog.Table
	colIdx    int
	typ       evalengine.Type
	field     *querypb.Field
	// hidden: a semi-joined table's column, resolved only by its
	// table's internal name (semijoin.go).
	hidden bool
}

// scope resolves column names to offsets in the row an expression sees.
type scope struct {
	cols []scopeCol
	// offsetTypes gives the types of Offset nodes (aggregates, VALUES())
	// by the text of their Original expression (compile clones the AST, so
	// the node itself is not the key).
	offsetTypes map[string]evalengine.Type
	// where names the clause for error messages ("field list", "where clause").
	where string
	// coalesced names columns joined with USING.
	coalesced map[string]bool
}

func (sc *scope) resolve(name *sqlparser.ColName) (int, error) {
	col := name.Name.String()
	qual := name.Qualifier.Name.String()
	qdb := name.Qualifier.Qualifier.String()
	found := -1
	for i := range sc.cols {
		c := &sc.cols[i]
		if !strings.EqualFold(c.name, col) {
			continue
		}
		if qual != "" && c.table != qual || c.hidden && qual == "" {
			continue
		}
		if qdb != "" && c.db != qdb {
			continue
		}
		if found >= 0 {
			if qual == "" && sc.coalesced[strings.ToLower(col)] {
				continue
			}
			if qual == "" && sc.cols[found].table != c.table {
				return 0, sqlerr.New(sqlerror.ERNonUniq, sqlerror.SSConstraintViolation, "Column '%s' in %s is ambiguous", col, sc.whereName())
			}
			continue
		}
		found = i
	}
	if found < 0 {
		full := col
		if qual != "" {
			full = qual + "." + col
		}
		return 0, sqlerr.BadField(full, sc.whereName())
	}
	return found, nil
}

func (sc *scope) whereName() string {
	if sc.where == "" {
		return "field list"
	}
	return sc.where
}

func (sc *scope) resolveType(e sqlparser.Expr) (evalengine.Type, bool) {
	switch e := e.(type) {
	case *sqlparser.ColName:
		i, err := sc.resolve(e)
		if err != nil {
			return evalengine.Type{}, false
		}
		t := sc.cols[i].typ
		return t, t.Valid()
	default:
		if sc.offsetTypes != nil {
			if t, ok := sc.offsetTypes[sqlparser.String(e)]; ok {
				return t, t.Valid()
			}
		}
	}
	return evalengine.Type{}, false
}

// addVirtual appends the columns of a derived table or CTE, typed by the
// plan that produces them (invalid types stay dynamically typed).
func (sc *scope) addVirtual(t *catalog.Table, alias string, types []evalengine.Type) {
	for i := range t.Columns {
		c := &t.Columns[i]
		var f *querypb.Field
		if types[i].Valid() {
			f = typeField(c.Name, types[i])
			f.Table = alias
		}
		sc.cols = append(sc.cols, scopeCol{table: alias, name: c.Name, tbl: t, colIdx: i, typ: types[i], field: f})
	}
}

// addHidden appends the columns of a semi-joined table under its internal
// name, visible only to references qualified with it.
func (sc *scope) addHidden(t *catalog.Table, name string) {
	from := len(sc.cols)
	sc.addTable(t, name)
	for i := from; i < len(sc.cols); i++ {
		sc.cols[i].hidden = true
	}
}

// addTable appends the columns of a table under alias.
func (sc *scope) addTable(t *catalog.Table, alias string) {
	for i := range t.Columns {
		c := &t.Columns[i]
		sc.cols = append(sc.cols, scopeCol{
			db: t.DB, table: alias, name: c.Name, col: c, tbl: t, colIdx: i,
			typ:   coltype.EvalType(c),
			field: coltype.Field(t, i, ""),
		})
	}
}

// compiler translates AST expressions for one session.
type compiler struct {
	s  *Session
	sc *scope
	// names collects the strata bind variables the compiled expressions use.
	names *[]string
	ctx   context.Context
	// outer resolves correlated references of a subquery.
	outer *outerCtx
	// noDivChecks: do not add division-by-zero warning slots.
	noDivChecks bool
	// subs, when set, collects the plans of the subqueries compiled
	// (EXPLAIN lists them).
	subs *[]subPlan
}

// cexpr is a compiled expression: an evalengine expression plus slots —
// values evalengine cannot compute (missing functions, subqueries) that are
// computed first and passed in as bind variables.
type cexpr struct {
	e     evalengine.Expr
	slots []slot
	// static is the compile-time result type when known.
	static evalengine.Type
	// arg is set when the expression is just a bind variable (a prepared
	// statement's ?): its value is read without evaluation.
	arg string
}

type slot struct {
	name string
	fn   func(ex *execCtx, row Row) (sqltypes.Value, error)
	// typ is the compile-time type of fn's values, when known: it types an
	// expression that is just the slot (column metadata at PREPARE).
	typ evalengine.Type
	// fromColumn: a text result derived from a column (LOWER(col)), which
	// compares with the column's implicit coercibility, not as a literal.
	fromColumn bool
}

// compile rewrites session-dependent nodes and translates e with evalengine.
func (c *compiler) compile(e sqlparser.Expr) (*cexpr, error) {
	out := &cexpr{}
	e = sqlparser.CloneExpr(e)
	e, err := c.s.rewriteExpr(e, c.names)
	if err != nil {
		return nil, err
	}
	e, err = c.rewriteOuterRefs(e)
	if err != nil {
		return nil, err
	}
	e = c.rewriteEnums(e)
	if !c.noDivChecks {
		e = c.divisionChecks(e, out)
	}
	e, err = c.rewriteSlots(e, out)
	if err != nil {
		return nil, err
	}
	e = c.rewriteMySQLSemantics(e)
	set := c.s.plan()
	cfg := &evalengine.Config{
		ResolveColumn: c.sc.resolve,
		ResolveType:   c.sc.resolveType,
		ResolveBindVarCollation: func(name string) (collations.ID, bool) {
			// A strata function's text result derived from a column
			// carries that collation with implicit coercibility, as the
			// same function evaluated by evalengine would.
			for i := range out.slots {
				if sl := &out.slots[i]; sl.name == name {
					if sl.fromColumn && sl.typ.Valid() && sqltypes.IsText(sl.typ.Type()) {
						return sl.typ.Collation(), true
					}
					return 0, false
				}
			}
			return c.outer.bindCollation(name)
		},
		Collation:             set.collation,
		Environment:           c.s.eng.Env,
		SQLMode:               set.sqlModeVal,
		VCursor:               &vcursor{s: c.s},
		DivPrecisionIncrement: &set.divPrecision,
	}
	x, err := translateSafe(e, cfg)
	if err != nil {
		return nil, translateErr(err, e)
	}
	out.e = x
	out.static = staticTypeOf(c.s, x)
	if off, ok := e.(*sqlparser.Offset); ok {
		// An aggregate's result: evalengine types the column it reads as
		// VARCHAR for any text; the aggregate's own type (GROUP_CONCAT is
		// TEXT) is the column's metadata.
		if t, ok := c.sc.resolveType(off.Original); ok {
			out.static = t
		}
	}
	if a, ok := e.(*sqlparser.Argument); ok {
		if len(out.slots) == 0 {
			out.arg = a.Name
		}
		if !out.static.Valid() {
			// A slot or a session value alone: evalengine sees an untyped
			// bind variable, strata knows what it holds.
			out.static = c.argType(a.Name, out)
		}
	}
	return out, nil
}

// translateSafe is evalengine.Translate with its panics (an input its
// translator did not expect) turned into an error: planning has no side
// effects, so the statement fails and the connection stays.
func translateSafe(e sqlparser.Expr, cfg *evalengine.Config) (x evalengine.Expr, err error) {
	defer func() {
		if r := recover(); r != nil {
			x, err = nil, sqlerr.New(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState, "expression translation failed: %v", r)
		}
	}()
	return evalengine.Translate(e, cfg)
}

// staticTypeOf returns the compile-time type of x when evalengine knows it.
func staticTypeOf(s *Session, x evalengine.Expr) (t evalengine.Type) {
	defer func() {
		if recover() != nil {
			t = evalengine.Type{}
		}
	}()
	if _, untyped := x.(*evalengine.UntypedExpr); untyped {
		return evalengine.Type{}
	}
	env := evalengine.EmptyExpressionEnv(s.eng.Env)
	t, err := env.TypeOf(x)
	if err != nil {
		return evalengine.Type{}
	}
	return t
}

func translateErr(err error, e sqlparser.Expr) error {
	var se *sqlerror.SQLError
	if errors.As(err, &se) {
		return se
	}
	// Classified by what the error is (its Vitess state, code or type),
	// never by its text.
	state := vterrors.ErrState(err)
	switch {
	case state == vterrors.DataOutOfRange:
		return evalErr(err)
	case state == vterrors.OperandColumns:
		// (a, b) = (1, 2, 3), (a, b) IN ((1, 2), (1)): row sizes differ.
		return sqlerr.New(sqlerror.EROperandColumns, sqlerror.SSWrongNumberOfColumns, "%s", err.Error())
	case state != vterrors.Undefined:
		return sqlerror.NewSQLErrorFromError(err)
	case evalengine.IsArgCountError(err):
		return sqlerr.New(sqlerror.ERWrongParamcountToNativeFct, sqlerror.SSClientError, "%s", err.Error())
	case vterrors.Code(err) == vtrpcpb.Code_UNIMPLEMENTED:
		// A function evalengine does not have is one MySQL does not have
		// either (strata's own are slots): 1305; anything else is 1235.
		if fname := unknownFunction(e); fname != "" {
			return sqlerr.New(sqlerror.ERSPDoesNotExist, sqlerror.SSClientError, "FUNCTION %s does not exist", fname)
		}
		return sqlerr.Unsupported("%s", sqlparser.String(e))
	case isCollationCharsetMismatch(err):
		return sqlerr.New(sqlerror.ERCollationCharsetMismatch, sqlerror.SSClientError, "%s", err.Error())
	}
	return sqlerr.New(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState, "%s", err.Error())
}

// unknownFunction returns the first function of e that is not a MySQL
// built-in, or "".
func unknownFunction(e sqlparser.Expr) string {
	if f, ok := e.(*sqlparser.FuncExpr); ok {
		return f.Name.String()
	}
	var fname string
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if f, ok := n.(*sqlparser.FuncExpr); ok && fname == "" {
			if _, known := builtins.Lookup(f.Name.Lowered()); !known {
				fname = f.Name.String()
			}
		}
		return true, nil
	}, e)
	return fname
}

// isCollationCharsetMismatch recognises Vitess's collations error for a
// COLLATE clause naming a collation of another character set. It is the
// one error classified by its text: the collations package returns it
// untyped (fmt.Errorf), with no state or code to read.
func isCollationCharsetMismatch(err error) bool {
	return strings.Contains(err.Error(), "is not valid for CHARACTER SET")
}

// collation is the connection collation used for literals.
func (s *Session) collation() collations.ID {
	v, _ := s.sysVar("collation_connection")
	if id := s.eng.Env.CollationEnv().LookupByName(v.ToString()); id != collations.Unknown {
		return id
	}
	return collations.ID(45)
}

// Bind variable names used for session-dependent values.
const (
	bvPrefix       = "__strata_"
	bvLastInsertID = bvPrefix + "last_insert_id"
	bvConnID       = bvPrefix + "connection_id"
	bvDatabase     = bvPrefix + "database"
	bvUser         = bvPrefix + "user"
	bvRowCount     = bvPrefix + "row_count"
	bvFoundRows    = bvPrefix + "found_rows"
	bvSysVar       = bvPrefix + "sv_"
	bvUserVar      = bvPrefix + "uv_"
)

// rewriteExpr replaces session-dependent expressions (variables and
// functions evalengine lacks) with bind variables filled at execution time.
func (s *Session) rewriteExpr(e sqlparser.Expr, names *[]string) (sqlparser.Expr, error) {
	var rerr error
	arg := func(name string) *sqlparser.Argument {
		if names != nil {
			found := false
			for _, x := range *names {
				if x == name {
					found = true
					break
				}
			}
			if !found {
				*names = append(*names, name)
			}
		}
		return sqlparser.NewArgument(name)
	}
	out := sqlparser.Rewrite(e, nil, func(cur *sqlparser.Cursor) bool {
		switch n := cur.Node().(type) {
		case *sqlparser.Variable:
			name := strings.ToLower(n.Name.String())
			switch n.Scope {
			case sqlparser.VariableScope:
				cur.Replace(arg(bvUserVar + name))
			case sqlparser.GlobalScope:
				if _, ok := sysvar.Lookup(name); !ok {
					rerr = unknownSysVarErr(name)
					return false
				}
				cur.Replace(arg(bvSysVar + "global_" + name))
			default:
				if _, ok := sysvar.Lookup(name); !ok && name != "identity" && name != "last_insert_id" && name != "warning_count" && name != "error_count" {
					rerr = unknownSysVarErr(name)
					return false
				}
				cur.Replace(arg(bvSysVar + name))
			}
		case *sqlparser.FuncExpr:
			name := n.Name.Lowered()
			switch name {
			case "last_insert_id":
				if len(n.Exprs) == 0 {
					cur.Replace(arg(bvLastInsertID))
				}
			case "connection_id":
				cur.Replace(arg(bvConnID))
			case "database", "schema":
				cur.Replace(arg(bvDatabase))
			case "user", "current_user", "session_user", "system_user":
				cur.Replace(arg(bvUser))
			case "row_count":
				cur.Replace(arg(bvRowCount))
			case "found_rows":
				cur.Replace(arg(bvFoundRows))
			}
		}
		return true
	})
	if rerr != nil {
		return nil, rerr
	}
	return out.(sqlparser.Expr), nil
}

func unknownSysVarErr(name string) error {
	return sqlerr.New(sqlerror.ERUnknownSystemVariable, sqlerror.SSUnknownSQLState, "Unknown system variable '%s'", name)
}

// bindSessionVars fills the bind variables rewriteExpr introduced. Only names
// with the strata prefix are touched; bv may be nil on input.
func (s *Session) bindSessionVars(names []string, bv map[string]*querypb.BindVariable) map[string]*querypb.BindVariable {
	if len(names) == 0 {
		return bv
	}
	if bv == nil {
		bv = make(map[string]*querypb.BindVariable, len(names))
	}
	for _, n := range names {
		bv[n] = sqltypes.ValueBindVariable(s.sessionValue(n))
	}
	return bv
}

// sessionValue returns the value of a strata bind variable.
func (s *Session) sessionValue(n string) sqltypes.Value {
	switch n {
	case bvLastInsertID:
		return sqltypes.NewUint64(s.lastInsertID)
	case bvConnID:
		return sqltypes.NewUint64(uint64(s.ConnID))
	case bvDatabase:
		if s.DB == "" {
			return sqltypes.NULL
		}
		return sqltypes.NewVarChar(s.DB)
	case bvUser:
		return sqltypes.NewVarChar(s.User + "@" + s.Host)
	case bvRowCount:
		return sqltypes.NewInt64(s.rowCount)
	case bvFoundRows:
		return sqltypes.NewUint64(s.foundRows)
	}
	if strings.HasPrefix(n, bvUserVar) {
		if v, ok := s.userVars[n[len(bvUserVar):]]; ok {
			return v
		}
		return sqltypes.NULL
	}
	if strings.HasPrefix(n, bvSysVar) {
		name := n[len(bvSysVar):]
		global := false
		if strings.HasPrefix(name, "global_") {
			if _, ok := sysvar.Lookup(name); !ok {
				name, global = name[len("global_"):], true
			}
		}
		switch name {
		case "identity", "last_insert_id":
			return sqltypes.NewUint64(s.lastInsertID)
		case "warning_count":
			return sqltypes.NewUint64(uint64(len(s.prevWarnings)))
		case "error_count":
			return sqltypes.NewUint64(uint64(s.errorCount))
		}
		var v sqltypes.Value
		if global {
			v, _ = s.eng.Globals.Get(name)
		} else {
			v, _ = s.sysVar(name)
		}
		if d, ok := sysvar.Lookup(name); ok && d.Kind == sysvar.Bool {
			// MySQL returns booleans as integers from SELECT @@var.
			return v
		}
		return v
	}
	return sqltypes.NULL
}

// exprName is the column name MySQL gives an unaliased select expression:
// a column's name, a string literal's value, else the expression's text as
// written in the statement (SELECT COUNT( * ) names its column "COUNT( * )").
func (s *Session) exprName(e sqlparser.Expr) string {
	if c, ok := e.(*sqlparser.ColName); ok {
		return c.Name.String()
	}
	if l, ok := e.(*sqlparser.Literal); ok && l.Type == sqlparser.StrVal {
		// MySQL names a string literal column by its text (SELECT 'a' -> a),
		// without leading spaces (warning 1466).
		name := strings.TrimLeft(l.Val, " \t\n\r")
		if len(name) != len(l.Val) {
			s.warn("Warning", 1466, fmt.Sprintf("Leading spaces are removed from name '%s'", l.Val))
		}
		return truncateName(name)
	}
	if name, ok := s.stmtTexts.Name(e); ok {
		return truncateName(name)
	}
	return truncateName(stripIdentQuotes(sqlparser.String(e)))
}

// maxItemName is the length (in characters) MySQL cuts generated column
// names to.
const maxItemName = 255

func truncateName(name string) string {
	if len(name) <= maxItemName {
		return name
	}
	n := 0
	for i := range name {
		if n == maxItemName {
			return name[:i]
		}
		n++
	}
	return name
}

// setStatementText records the text of the statement being planned, for
// exprName.
func (s *Session) setStatementText(sql string) {
	if s.stmtTexts != nil {
		if s.stmtTexts.SQL() != sql {
			s.stmtTexts.Reset(sql)
		}
		return
	}
	s.stmtTexts = parse.NewExprTexts(s.eng.Parser, sql)
}

// stripIdentQuotes removes the backquotes Vitess adds around identifiers
// that do not need them, so derived column names read as MySQL prints them.
func stripIdentQuotes(s string) string {
	if !strings.Contains(s, "`") {
		return s
	}
	var b strings.Builder
	inStr := byte(0)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if inStr != 0 {
			b.WriteByte(ch)
			if ch == inStr {
				inStr = 0
			}
			continue
		}
		if ch == '\'' || ch == '"' {
			inStr = ch
			b.WriteByte(ch)
			continue
		}
		if ch == '`' {
			j := strings.IndexByte(s[i+1:], '`')
			if j < 0 {
				b.WriteString(s[i:])
				break
			}
			ident := s[i+1 : i+1+j]
			simple := ident != ""
			for k := 0; k < len(ident); k++ {
				c := ident[k]
				if !(c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80) {
					simple = false
				}
			}
			if simple {
				b.WriteString(ident)
			} else {
				b.WriteString(s[i : i+2+j])
			}
			i += j + 1
			continue
		}
		b.WriteByte(ch)
	}
	return b.String()
}

package eval

import (
	"strconv"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"
	"vitess.io/vitess/go/vt/vtenv"

	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// Settings are the session settings compiling reads, passed in as values
// when the compiler is made (a cached plan is reused only under equal
// settings; internal/sql's planSettings).
type Settings struct {
	// Collation is collation_connection: the collation of literals.
	Collation collations.ID
	// SQLMode is sql_mode as evalengine reads it.
	SQLMode evalengine.SQLMode
	// DivPrecision is div_precision_increment.
	DivPrecision int
	// Env is the Vitess environment (collations, MySQL version).
	Env *vtenv.Environment
	// VCursor gives constant folding the session's time zone and the like.
	VCursor evalengine.VCursor
}

// Planner is what the compiler needs of the planner: names that are unique
// in the session, and the plans of subqueries in expressions. internal/sql
// implements it.
type Planner interface {
	// NextSeq returns a number not returned before in the session; it
	// names slots and outer references.
	NextSeq() uint64
	// Subquery compiles a subquery of an expression into a slot: kind says
	// how its rows become the value, left is the left operand of IN, ANY
	// and ALL, op the comparison of ANY and ALL. c is the compiler the
	// subquery is found by (its Scope is the subquery's outer scope).
	Subquery(c *Compiler, sub *sqlparser.Subquery, kind SubqueryKind, left sqlparser.Expr, op sqlparser.ComparisonExprOperator) (*Slot, error)
}

// SubqueryKind is how a subquery's rows become a value.
type SubqueryKind uint8

// The kinds of subqueries in expressions.
const (
	SubScalar SubqueryKind = iota
	SubExists
	SubIn
	SubNotIn
	// SubAny, SubAll: left op ANY|SOME|ALL (SELECT ...) with one column.
	SubAny
	SubAll
)

// Compiler translates AST expressions for one session. The zero value is
// not usable: Scope, Settings and Planner must be set.
type Compiler struct {
	// Scope resolves the column names of the expressions.
	Scope *Scope
	// Names collects the strata bind variables the compiled expressions
	// use (session values the executor fills); nil: not collected.
	Names *[]string
	// Outer resolves correlated references of a subquery.
	Outer *Outer
	// NoDivChecks: do not add division-by-zero warning slots.
	NoDivChecks bool
	// Settings are the session settings compiling reads.
	Settings Settings
	// Planner plans subqueries and numbers slots.
	Planner Planner
}

// NextSlotName returns a fresh bind-variable name for a slot.
func (c *Compiler) NextSlotName() string {
	return BVPrefix + "slot_" + strconv.FormatUint(c.Planner.NextSeq(), 10)
}

// Compile rewrites session-dependent nodes and translates e with evalengine.
func (c *Compiler) Compile(e sqlparser.Expr) (*Expr, error) {
	if err := noWindowFuncs(e); err != nil {
		return nil, err
	}
	out := &Expr{}
	e = sqlparser.CloneExpr(e)
	e, err := rewriteSessionVars(e, c.Names)
	if err != nil {
		return nil, err
	}
	e, err = c.rewriteOuterRefs(e)
	if err != nil {
		return nil, err
	}
	e = c.rewriteEnums(e)
	e = c.rewriteColumnCharsets(e)
	if !c.NoDivChecks {
		e = c.divisionChecks(e, out)
	}
	e, err = c.rewriteSlots(e, out)
	if err != nil {
		return nil, err
	}
	e = c.rewriteMySQLSemantics(e)
	cfg := &evalengine.Config{
		ResolveColumn: c.Scope.Resolve,
		ResolveType:   c.Scope.ResolveType,
		ResolveBindVarCollation: func(name string) (collations.ID, bool) {
			// A strata function's text result derived from a column
			// carries that collation with implicit coercibility, as the
			// same function evaluated by evalengine would.
			for i := range out.Slots {
				if sl := &out.Slots[i]; sl.Name == name {
					if sl.fromColumn && sl.Type.Valid() && sqltypes.IsText(sl.Type.Type()) {
						return sl.Type.Collation(), true
					}
					return 0, false
				}
			}
			return c.Outer.bindCollation(name)
		},
		Collation:             c.Settings.Collation,
		Environment:           c.Settings.Env,
		SQLMode:               c.Settings.SQLMode,
		VCursor:               c.Settings.VCursor,
		DivPrecisionIncrement: &c.Settings.DivPrecision,
	}
	x, err := translateSafe(e, cfg)
	if err != nil {
		return nil, translateErr(err, e)
	}
	out.e = x
	out.Static = staticTypeOf(c.Settings.Env, x)
	if off, ok := e.(*sqlparser.Offset); ok {
		// An aggregate's result: evalengine types the column it reads as
		// VARCHAR for any text; the aggregate's own type (GROUP_CONCAT is
		// TEXT) is the column's metadata.
		if t, ok := c.Scope.ResolveType(off.Original); ok {
			out.Static = t
		}
	}
	if a, ok := e.(*sqlparser.Argument); ok {
		if len(out.Slots) == 0 {
			out.arg = a.Name
		}
		if !out.Static.Valid() {
			// A slot or a session value alone: evalengine sees an untyped
			// bind variable, strata knows what it holds.
			out.Static = c.argType(a.Name, out)
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
func staticTypeOf(venv *vtenv.Environment, x evalengine.Expr) (t evalengine.Type) {
	defer func() {
		if recover() != nil {
			t = evalengine.Type{}
		}
	}()
	if _, untyped := x.(*evalengine.UntypedExpr); untyped {
		return evalengine.Type{}
	}
	env := evalengine.EmptyExpressionEnv(venv)
	t, err := env.TypeOf(x)
	if err != nil {
		return evalengine.Type{}
	}
	return t
}

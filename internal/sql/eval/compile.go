package eval

import (
	"errors"
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	vtrpcpb "vitess.io/vitess/go/vt/proto/vtrpc"
	"vitess.io/vitess/go/vt/sqlparser"
	"vitess.io/vitess/go/vt/vtenv"
	"vitess.io/vitess/go/vt/vterrors"

	"github.com/strata-db/strata/internal/sql/builtins"
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

// Expr is a compiled expression: an evalengine expression plus slots —
// values evalengine cannot compute (missing functions, subqueries) that are
// computed first and passed in as bind variables.
type Expr struct {
	e     evalengine.Expr
	Slots []Slot
	// Static is the compile-time result type when known.
	Static evalengine.Type
	// arg is set when the expression is just a bind variable (a prepared
	// statement's ?): its value is read without evaluation.
	arg string
}

// Slot is a value an expression reads as the bind variable Name, computed
// by Fn before the expression is evaluated.
type Slot struct {
	Name string
	Fn   func(ex *Ctx, row Row) (sqltypes.Value, error)
	// Type is the compile-time type of Fn's values, when known: it types an
	// expression that is just the slot (column metadata at PREPARE).
	Type evalengine.Type
	// fromColumn: a text result derived from a column (LOWER(col)), which
	// compares with the column's implicit coercibility, not as a literal.
	fromColumn bool
}

// NextSlotName returns a fresh bind-variable name for a slot.
func (c *Compiler) NextSlotName() string {
	return BVPrefix + "slot_" + strconv.FormatUint(c.Planner.NextSeq(), 10)
}

// Compile rewrites session-dependent nodes and translates e with evalengine.
func (c *Compiler) Compile(e sqlparser.Expr) (*Expr, error) {
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

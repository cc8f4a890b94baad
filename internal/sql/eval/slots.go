package eval

import (
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/builtins"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// rewriteSlots replaces nodes evalengine cannot evaluate (functions it
// lacks, subqueries, user-variable assignment, DEFAULT(col)) by bind
// variables computed by slots.
func (c *Compiler) rewriteSlots(e sqlparser.Expr, out *Expr) (sqlparser.Expr, error) {
	var rerr error
	res := sqlparser.Rewrite(e, func(cur *sqlparser.Cursor) bool {
		if rerr != nil {
			return false
		}
		node := cur.Node()
		var sl *Slot
		var err error
		switch n := node.(type) {
		case *sqlparser.FuncExpr:
			if rp, ok := c.Planner.(RoutinePlanner); ok {
				var found bool
				if sl, found, err = rp.StoredFunction(c, n); found || err != nil {
					break
				}
			}
			f, ok := builtins.Lookup(n.Name.Lowered())
			if !ok {
				return true
			}
			sl, err = c.builtinSlot(n.Name.Lowered(), f, n.Exprs)
		case *sqlparser.LockingFunc:
			name := n.Type.ToString()
			f, ok := builtins.Lookup(name)
			if !ok {
				return true
			}
			var args []sqlparser.Expr
			if n.Name != nil {
				args = append(args, n.Name)
			}
			if n.Timeout != nil {
				args = append(args, n.Timeout)
			}
			sl, err = c.builtinSlot(name, f, args)
		case *sqlparser.TimestampDiffExpr:
			f, ok := builtins.Lookup("timestampdiff")
			if !ok {
				return true
			}
			unit := sqlparser.NewStrLiteral(n.Unit.ToString())
			sl, err = c.builtinSlot("timestampdiff", f, []sqlparser.Expr{unit, n.Expr1, n.Expr2})
		case *sqlparser.ExtractFuncExpr:
			f, ok := builtins.Lookup("extract")
			if !ok {
				return true
			}
			unit := sqlparser.NewStrLiteral(n.IntervalType.ToString())
			sl, err = c.builtinSlot("extract", f, []sqlparser.Expr{unit, n.Expr})
		case *sqlparser.Subquery:
			sl, err = c.Planner.Subquery(c, n, SubScalar, nil, 0)
		case *sqlparser.ExistsExpr:
			sl, err = c.Planner.Subquery(c, n.Subquery, SubExists, nil, 0)
		case *sqlparser.ComparisonExpr:
			sub, ok := n.Right.(*sqlparser.Subquery)
			if !ok {
				return true
			}
			switch {
			case n.Operator == sqlparser.InOp, n.Operator == sqlparser.EqualOp && n.Modifier == sqlparser.Any:
				sl, err = c.Planner.Subquery(c, sub, SubIn, n.Left, 0)
			case n.Operator == sqlparser.NotInOp, n.Operator == sqlparser.NotEqualOp && n.Modifier == sqlparser.All:
				sl, err = c.Planner.Subquery(c, sub, SubNotIn, n.Left, 0)
			case n.Modifier != sqlparser.Missing:
				// x op ANY|SOME|ALL (SELECT ...): one column only (a row
				// is compared with = ANY or <> ALL alone).
				if _, row := n.Left.(sqlparser.ValTuple); row {
					err = sqlerr.OperandColumns(1)
					break
				}
				kind := SubAny
				if n.Modifier == sqlparser.All {
					kind = SubAll
				}
				sl, err = c.Planner.Subquery(c, sub, kind, n.Left, n.Operator)
			default:
				// col = (SELECT ...): a scalar subquery on the right.
				return true
			}
		case *sqlparser.AssignmentExpr:
			sl, err = c.assignSlot(n)
		case *sqlparser.Default:
			if n.ColName == "" {
				return true
			}
			sl, err = c.defaultSlot(n.ColName)
		default:
			return true
		}
		if err != nil {
			rerr = err
			return false
		}
		out.Slots = append(out.Slots, *sl)
		cur.Replace(sqlparser.NewArgument(sl.Name))
		return false
	}, nil)
	if rerr != nil {
		return nil, rerr
	}
	return res.(sqlparser.Expr), nil
}

// builtinSlot compiles a call of the builtin function f (called name) into
// a slot: it evaluates the arguments, records their collations for
// Ctx.ArgCollation and calls f.Eval with the execution context as its
// builtins.Env. The argument slices are allocated here, once per compiled
// call, and reused for every row.
func (c *Compiler) builtinSlot(name string, f *builtins.Func, args []sqlparser.Expr) (*Slot, error) {
	if err := f.CheckArity(name, len(args)); err != nil {
		return nil, err
	}
	compiled := make([]*Expr, len(args))
	for i, a := range args {
		x, err := c.Compile(a)
		if err != nil {
			return nil, err
		}
		compiled[i] = x
	}
	vals := make([]sqltypes.Value, len(args))
	var typ evalengine.Type
	if f.Type != nil {
		types := make([]evalengine.Type, len(compiled))
		for i, x := range compiled {
			types[i] = x.Static
		}
		typ = f.Type(c, args, types)
	}
	fromColumn := false
	for _, a := range args {
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
			switch n.(type) {
			case *sqlparser.ColName:
				fromColumn = true
				return false, nil
			case *sqlparser.Subquery:
				return false, nil
			}
			return true, nil
		}, a)
	}
	colls := make([]collations.TypedCollation, len(args))
	return &Slot{Name: c.NextSlotName(), Type: typ, fromColumn: fromColumn, Fn: func(ex *Ctx, row Row) (sqltypes.Value, error) {
		for i, x := range compiled {
			v, tc, err := ex.EvalTyped(x, row)
			if err != nil {
				return sqltypes.NULL, err
			}
			vals[i], colls[i] = v, tc
		}
		ex.argColls = colls
		defer func() { ex.argColls = nil }()
		return f.Eval(ex, vals)
	}}, nil
}

// assignSlot implements @var := expr.
func (c *Compiler) assignSlot(n *sqlparser.AssignmentExpr) (*Slot, error) {
	v, ok := n.Left.(*sqlparser.Variable)
	if !ok {
		if a, ok := n.Left.(*sqlparser.Argument); ok && strings.HasPrefix(a.Name, BVUserVar) {
			name := a.Name[len(BVUserVar):]
			return c.assignTo(name, n.Right)
		}
		return nil, sqlerr.Syntax("You have an error in your SQL syntax; assignment target must be a user variable")
	}
	return c.assignTo(strings.ToLower(v.Name.String()), n.Right)
}

func (c *Compiler) assignTo(name string, e sqlparser.Expr) (*Slot, error) {
	x, err := c.Compile(e)
	if err != nil {
		return nil, err
	}
	return &Slot{Name: c.NextSlotName(), Fn: func(ex *Ctx, row Row) (sqltypes.Value, error) {
		val, err := ex.Eval(x, row)
		if err != nil {
			return sqltypes.NULL, err
		}
		return ex.Host.SetUserVar(name, val), nil
	}}, nil
}

// defaultSlot implements DEFAULT(col).
func (c *Compiler) defaultSlot(col string) (*Slot, error) {
	i, err := c.Scope.Resolve(sqlparser.NewColName(col))
	if err != nil {
		return nil, err
	}
	sc := c.Scope.Cols[i]
	if sc.Col == nil {
		return nil, sqlerr.BadField(col, "field list")
	}
	cc := sc.Col
	return &Slot{Name: c.NextSlotName(), Fn: func(ex *Ctx, row Row) (sqltypes.Value, error) {
		if cc.DefaultExpr != "" {
			return ex.Host.ColumnDefault(cc)
		}
		if !cc.HasDefault {
			// A nullable column without DEFAULT defaults to NULL.
			if cc.Nullable && !cc.AutoIncrement {
				return sqltypes.NULL, nil
			}
			return sqltypes.NULL, sqlerr.New(sqlerror.ERNoDefaultForField, sqlerror.SSUnknownSQLState, "Field '%s' doesn't have a default value", cc.Name)
		}
		if cc.Type == sqltypes.Timestamp {
			return ex.Host.ColumnDefault(cc) // an instant, shown in session time
		}
		return cc.Default, nil
	}}, nil
}

// HasSubquery reports whether e contains a subquery (EXISTS included).
func HasSubquery(e sqlparser.SQLNode) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch n.(type) {
		case *sqlparser.Subquery, *sqlparser.ExistsExpr:
			found = true
			return false, nil
		}
		return true, nil
	}, e)
	return found
}

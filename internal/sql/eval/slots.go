package eval

import (
	"strconv"
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
		return cc.Default, nil
	}}, nil
}

// rewriteMySQLSemantics corrects evalengine where it differs from MySQL:
// LIKE ... ESCAPE, and NOT LIKE on typed columns. (PAD SPACE comparisons
// are evalengine's own since strata's fork compares text through
// internal/collation.)
func (c *Compiler) rewriteMySQLSemantics(e sqlparser.Expr) sqlparser.Expr {
	return sqlparser.Rewrite(e, nil, func(cur *sqlparser.Cursor) bool {
		switch n := cur.Node().(type) {
		case *sqlparser.ComparisonExpr:
			switch n.Operator {
			case sqlparser.LikeOp, sqlparser.NotLikeOp:
				if n.Escape != nil {
					esc, ok1 := n.Escape.(*sqlparser.Literal)
					pat, ok2 := n.Right.(*sqlparser.Literal)
					if ok1 && ok2 && esc.Type == sqlparser.StrVal && pat.Type == sqlparser.StrVal && len([]rune(esc.Val)) == 1 {
						n.Right = sqlparser.NewStrLiteral(translateLikeEscape(pat.Val, []rune(esc.Val)[0]))
						n.Escape = nil
					}
				}
				if n.Operator == sqlparser.NotLikeOp {
					// evalengine's compiled NOT LIKE on typed columns
					// returns the LIKE result: evaluate NOT (x LIKE y).
					cur.Replace(&sqlparser.NotExpr{Expr: &sqlparser.ComparisonExpr{Operator: sqlparser.LikeOp, Left: n.Left, Right: n.Right, Escape: n.Escape}})
				}
				return true
			}
		}
		return true
	}).(sqlparser.Expr)
}

// translateLikeEscape rewrites a LIKE pattern with a custom escape character
// into one that uses backslash.
func translateLikeEscape(p string, esc rune) string {
	if esc == '\\' {
		return p
	}
	var b strings.Builder
	r := []rune(p)
	for i := 0; i < len(r); i++ {
		switch {
		case r[i] == esc && i+1 < len(r):
			b.WriteRune('\\')
			b.WriteRune(r[i+1])
			i++
		case r[i] == '\\':
			b.WriteString("\\\\")
		default:
			b.WriteRune(r[i])
		}
	}
	return b.String()
}

// rewriteEnums makes ENUM columns read as their 1-based member number in
// numeric contexts (arithmetic, comparison with a number), as MySQL does;
// evalengine uses 0-based ordinals.
func (c *Compiler) rewriteEnums(e sqlparser.Expr) sqlparser.Expr {
	wrap := func(x sqlparser.Expr) sqlparser.Expr {
		if members := c.enumMembers(x); members != nil {
			return EnumIndexCall(x, members)
		}
		return x
	}
	return sqlparser.Rewrite(e, nil, func(cur *sqlparser.Cursor) bool {
		switch n := cur.Node().(type) {
		case *sqlparser.BinaryExpr:
			n.Left, n.Right = wrap(n.Left), wrap(n.Right)
		case *sqlparser.UnaryExpr:
			n.Expr = wrap(n.Expr)
		case *sqlparser.BetweenExpr:
			if x := c.enumBetween(n); x != nil {
				cur.Replace(x)
			}
		case *sqlparser.ComparisonExpr:
			if NumericLiteral(n.Right) {
				n.Left = wrap(n.Left)
			} else if NumericLiteral(n.Left) {
				n.Right = wrap(n.Right)
			} else if x := c.enumParamCompare(n); x != nil {
				cur.Replace(x)
			}
		}
		return true
	}).(sqlparser.Expr)
}

// NumericLiteral reports whether x is a number written in the statement
// (possibly negated).
func NumericLiteral(x sqlparser.Expr) bool {
	if u, ok := x.(*sqlparser.UnaryExpr); ok && u.Operator == sqlparser.UMinusOp {
		x = u.Expr
	}
	l, ok := x.(*sqlparser.Literal)
	return ok && (l.Type == sqlparser.IntVal || l.Type == sqlparser.DecimalVal || l.Type == sqlparser.FloatVal)
}

// enumMembers returns the members of the ENUM column x names (nil: x is
// not an ENUM column).
func (c *Compiler) enumMembers(x sqlparser.Expr) []string {
	cn, ok := x.(*sqlparser.ColName)
	if !ok {
		return nil
	}
	i, err := c.Scope.Resolve(cn)
	if err != nil || c.Scope.Cols[i].Col == nil || c.Scope.Cols[i].Col.Type != sqltypes.Enum {
		return nil
	}
	return c.Scope.Cols[i].Col.EnumValues
}

// enumParamCompare rewrites the comparisons of an ENUM column that the
// numeric-literal rule above cannot: MySQL compares an ENUM with a number
// by the member's 1-based position and with a string by its text. A
// statement parameter's type is known only at execution, so a comparison
// with one picks at execution (CASE WHEN strata_is_number(?) THEN
// position ELSE text); an IN list holding numbers or parameters becomes
// the disjunction of its equalities, each compared in its own terms. It
// returns nil when e needs neither.
func (c *Compiler) enumParamCompare(e *sqlparser.ComparisonExpr) sqlparser.Expr {
	isArg := func(x sqlparser.Expr) bool {
		_, ok := x.(*sqlparser.Argument)
		return ok
	}
	switch e.Operator {
	case sqlparser.InOp, sqlparser.NotInOp:
		members := c.enumMembers(e.Left)
		tup, ok := e.Right.(sqlparser.ValTuple)
		if members == nil || !ok {
			return nil
		}
		mixed := false
		for _, v := range tup {
			mixed = mixed || NumericLiteral(v) || isArg(v)
		}
		if !mixed {
			return nil
		}
		var or sqlparser.Expr
		for _, v := range tup {
			var eq sqlparser.Expr = &sqlparser.ComparisonExpr{Operator: sqlparser.EqualOp, Left: e.Left, Right: v}
			switch {
			case NumericLiteral(v):
				eq = &sqlparser.ComparisonExpr{Operator: sqlparser.EqualOp, Left: EnumIndexCall(e.Left, members), Right: v}
			case isArg(v):
				eq = enumByArg(eq.(*sqlparser.ComparisonExpr), e.Left, v, members)
			}
			if or == nil {
				or = eq
			} else {
				or = &sqlparser.OrExpr{Left: or, Right: eq}
			}
		}
		if e.Operator == sqlparser.NotInOp {
			return &sqlparser.NotExpr{Expr: or}
		}
		return or
	case sqlparser.EqualOp, sqlparser.NullSafeEqualOp, sqlparser.NotEqualOp,
		sqlparser.LessThanOp, sqlparser.LessEqualOp, sqlparser.GreaterThanOp, sqlparser.GreaterEqualOp:
		if members := c.enumMembers(e.Left); members != nil && isArg(e.Right) {
			return enumByArg(e, e.Left, e.Right, members)
		}
		if members := c.enumMembers(e.Right); members != nil && isArg(e.Left) {
			return enumByArg(e, e.Right, e.Left, members)
		}
	}
	return nil
}

// enumBetween rewrites BETWEEN over an ENUM column: with a number among
// the bounds MySQL compares numerically, the column by its position (a
// string bound as a number); with parameters that is decided at
// execution. It returns nil when neither applies.
func (c *Compiler) enumBetween(e *sqlparser.BetweenExpr) sqlparser.Expr {
	members := c.enumMembers(e.Left)
	if members == nil {
		return nil
	}
	var args []sqlparser.Expr
	for _, b := range []sqlparser.Expr{e.From, e.To} {
		if _, ok := b.(*sqlparser.Argument); ok {
			args = append(args, b)
		}
	}
	byNumber := *e
	byNumber.Left = EnumIndexCall(e.Left, members)
	if NumericLiteral(e.From) || NumericLiteral(e.To) {
		return &byNumber
	}
	if len(args) == 0 {
		return nil
	}
	var cond sqlparser.Expr
	for _, a := range args {
		var x sqlparser.Expr = &sqlparser.FuncExpr{Name: sqlparser.NewIdentifierCI(builtins.IsNumber), Exprs: []sqlparser.Expr{a}}
		if cond == nil {
			cond = x
		} else {
			cond = &sqlparser.OrExpr{Left: cond, Right: x}
		}
	}
	byText := *e
	return &sqlparser.CaseExpr{Whens: []*sqlparser.When{{Cond: cond, Val: &byNumber}}, Else: &byText}
}

// enumByArg turns e, a comparison of the ENUM column col with the
// parameter arg, into CASE WHEN strata_is_number(arg) THEN e with col's
// position ELSE e END.
func enumByArg(e *sqlparser.ComparisonExpr, col, arg sqlparser.Expr, members []string) sqlparser.Expr {
	byNumber := *e
	if byNumber.Left == col {
		byNumber.Left = EnumIndexCall(col, members)
	} else {
		byNumber.Right = EnumIndexCall(col, members)
	}
	byText := *e
	isNum := &sqlparser.FuncExpr{Name: sqlparser.NewIdentifierCI(builtins.IsNumber), Exprs: []sqlparser.Expr{arg}}
	return &sqlparser.CaseExpr{Whens: []*sqlparser.When{{Cond: isNum, Val: &byNumber}}, Else: &byText}
}

// EnumIndexCall builds strata_enum_index(col, 'm1', 'm2', ...).
func EnumIndexCall(col sqlparser.Expr, members []string) sqlparser.Expr {
	args := []sqlparser.Expr{col}
	for _, m := range members {
		args = append(args, sqlparser.NewStrLiteral(m))
	}
	return &sqlparser.FuncExpr{Name: sqlparser.NewIdentifierCI(builtins.EnumIndex), Exprs: args}
}

// divisionChecks adds a slot per division whose divisor is not a non-zero
// literal: it raises MySQL's warning 1365 "Division by 0" when the divisor
// is zero (evalengine returns NULL silently).
func (c *Compiler) divisionChecks(e sqlparser.Expr, out *Expr) sqlparser.Expr {
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *sqlparser.Subquery:
			return false, nil
		case *sqlparser.BinaryExpr:
			switch x.Operator {
			case sqlparser.DivOp, sqlparser.IntDivOp, sqlparser.ModOp:
			default:
				return true, nil
			}
			if l, ok := x.Right.(*sqlparser.Literal); ok && l.Type != sqlparser.StrVal {
				if f, err := strconv.ParseFloat(l.Val, 64); err == nil && f != 0 {
					return true, nil
				}
			}
			if HasSubquery(x.Right) {
				return true, nil
			}
			div, err := c.compileNoChecks(x.Right)
			if err != nil {
				return true, nil
			}
			out.Slots = append(out.Slots, Slot{Name: c.NextSlotName(), Fn: func(ex *Ctx, row Row) (sqltypes.Value, error) {
				v, err := ex.Eval(div, row)
				if err != nil || v.IsNull() {
					return sqltypes.NULL, nil
				}
				if f, err := strconv.ParseFloat(strings.TrimSpace(v.ToString()), 64); err == nil && f == 0 {
					ex.Host.Warn(erDivisionByZero, "Division by 0")
				}
				return sqltypes.NULL, nil
			}})
		}
		return true, nil
	}, e)
	return e
}

// erDivisionByZero is MySQL's ER_DIVISION_BY_ZERO (Vitess names no
// constant for it).
const erDivisionByZero = sqlerror.ErrorCode(1365)

// compileNoChecks compiles without adding division checks (for the divisor
// itself).
func (c *Compiler) compileNoChecks(e sqlparser.Expr) (*Expr, error) {
	cc := *c
	cc.NoDivChecks = true
	return cc.Compile(e)
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

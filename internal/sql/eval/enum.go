package eval

import (
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/builtins"
)

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

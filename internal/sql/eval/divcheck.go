package eval

import (
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"
)

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

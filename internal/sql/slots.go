package sql

import (
	"context"
	"strconv"
	"strings"
	"time"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"
)

// nextSlotName returns a fresh bind-variable name for a slot.
func (s *Session) nextSlotName() string {
	s.slotSeq++
	return bvPrefix + "slot_" + strconv.FormatUint(s.slotSeq, 10)
}

func (c *compiler) context() context.Context {
	if c.ctx != nil {
		return c.ctx
	}
	return context.Background()
}

// rewriteSlots replaces nodes evalengine cannot evaluate (functions it
// lacks, subqueries, user-variable assignment, DEFAULT(col)) by bind
// variables computed by slots.
func (c *compiler) rewriteSlots(e sqlparser.Expr, out *cexpr) (sqlparser.Expr, error) {
	var rerr error
	res := sqlparser.Rewrite(e, func(cur *sqlparser.Cursor) bool {
		if rerr != nil {
			return false
		}
		node := cur.Node()
		var sl *slot
		var err error
		switch n := node.(type) {
		case *sqlparser.FuncExpr:
			b := builtinFuncs[n.Name.Lowered()]
			if b == nil {
				return true
			}
			sl, err = c.builtinSlot(n.Name.Lowered(), b, n.Exprs)
		case *sqlparser.TimestampDiffExpr:
			b := builtinFuncs["timestampdiff"]
			if b == nil {
				return true
			}
			unit := sqlparser.NewStrLiteral(n.Unit.ToString())
			sl, err = c.builtinSlot("timestampdiff", b, []sqlparser.Expr{unit, n.Expr1, n.Expr2})
		case *sqlparser.ExtractFuncExpr:
			b := builtinFuncs["extract"]
			if b == nil {
				return true
			}
			unit := sqlparser.NewStrLiteral(n.IntervalType.ToString())
			sl, err = c.builtinSlot("extract", b, []sqlparser.Expr{unit, n.Expr})
		case *sqlparser.Subquery:
			sl, err = c.subquerySlot(n, subScalar, nil)
		case *sqlparser.ExistsExpr:
			sl, err = c.subquerySlot(n.Subquery, subExists, nil)
		case *sqlparser.ComparisonExpr:
			sub, ok := n.Right.(*sqlparser.Subquery)
			if !ok {
				return true
			}
			switch n.Operator {
			case sqlparser.InOp:
				sl, err = c.subquerySlot(sub, subIn, n.Left)
			case sqlparser.NotInOp:
				sl, err = c.subquerySlot(sub, subNotIn, n.Left)
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
		out.slots = append(out.slots, *sl)
		cur.Replace(sqlparser.NewArgument(sl.name))
		return false
	}, nil)
	if rerr != nil {
		return nil, rerr
	}
	return res.(sqlparser.Expr), nil
}

func (c *compiler) builtinSlot(name string, b *builtin, args []sqlparser.Expr) (*slot, error) {
	if len(args) < b.minArgs || (b.maxArgs >= 0 && len(args) > b.maxArgs) {
		return nil, paramCountErr(name)
	}
	compiled := make([]*cexpr, len(args))
	for i, a := range args {
		x, err := c.compile(a)
		if err != nil {
			return nil, err
		}
		compiled[i] = x
	}
	vals := make([]sqltypes.Value, len(args))
	return &slot{name: c.s.nextSlotName(), fn: func(ex *execCtx, row Row) (sqltypes.Value, error) {
		for i, x := range compiled {
			v, err := ex.eval(x, row)
			if err != nil {
				return sqltypes.NULL, err
			}
			vals[i] = v
		}
		return b.fn(ex, vals)
	}}, nil
}

// assignSlot implements @var := expr.
func (c *compiler) assignSlot(n *sqlparser.AssignmentExpr) (*slot, error) {
	v, ok := n.Left.(*sqlparser.Variable)
	if !ok {
		if a, ok := n.Left.(*sqlparser.Argument); ok && strings.HasPrefix(a.Name, bvUserVar) {
			name := a.Name[len(bvUserVar):]
			return c.assignTo(name, n.Right)
		}
		return nil, syntaxErr("You have an error in your SQL syntax; assignment target must be a user variable")
	}
	return c.assignTo(strings.ToLower(v.Name.String()), n.Right)
}

func (c *compiler) assignTo(name string, e sqlparser.Expr) (*slot, error) {
	x, err := c.compile(e)
	if err != nil {
		return nil, err
	}
	return &slot{name: c.s.nextSlotName(), fn: func(ex *execCtx, row Row) (sqltypes.Value, error) {
		val, err := ex.eval(x, row)
		if err != nil {
			return sqltypes.NULL, err
		}
		val = copyRow(nil, Row{val})[0]
		ex.s.userVars[name] = val
		return val, nil
	}}, nil
}

// defaultSlot implements DEFAULT(col).
func (c *compiler) defaultSlot(col string) (*slot, error) {
	i, err := c.sc.resolve(sqlparser.NewColName(col))
	if err != nil {
		return nil, err
	}
	sc := c.sc.cols[i]
	if sc.col == nil {
		return nil, badFieldErr(col, "field list")
	}
	cc := sc.col
	return &slot{name: c.s.nextSlotName(), fn: func(ex *execCtx, row Row) (sqltypes.Value, error) {
		if cc.DefaultExpr != "" {
			return ex.s.evalDefaultExpr(ex, cc, time.Now())
		}
		if !cc.HasDefault {
			return sqltypes.NULL, sqlErr(sqlerror.ERNoDefaultForField, "HY000", "Field '%s' doesn't have a default value", cc.Name)
		}
		return cc.Default, nil
	}}, nil
}

// rewriteMySQLSemantics corrects evalengine where it differs from MySQL:
// PAD SPACE comparisons of text (trailing spaces are ignored by *_general_ci
// and *_bin collations) and LIKE ... ESCAPE.
func (c *compiler) rewriteMySQLSemantics(e sqlparser.Expr) sqlparser.Expr {
	return sqlparser.Rewrite(e, nil, func(cur *sqlparser.Cursor) bool {
		switch n := cur.Node().(type) {
		case *sqlparser.ComparisonExpr:
			switch n.Operator {
			case sqlparser.EqualOp, sqlparser.NotEqualOp, sqlparser.LessThanOp, sqlparser.LessEqualOp,
				sqlparser.GreaterThanOp, sqlparser.GreaterEqualOp, sqlparser.NullSafeEqualOp:
				if c.padText(n.Left) && c.padText(n.Right) {
					n.Left, n.Right = rtrim(n.Left), rtrim(n.Right)
				}
			case sqlparser.InOp, sqlparser.NotInOp:
				tup, ok := n.Right.(sqlparser.ValTuple)
				if !ok || !c.padText(n.Left) {
					break
				}
				for _, v := range tup {
					if !c.padText(v) {
						return true
					}
				}
				n.Left = rtrim(n.Left)
				for i := range tup {
					tup[i] = rtrim(tup[i])
				}
			case sqlparser.LikeOp, sqlparser.NotLikeOp:
				if n.Escape == nil {
					break
				}
				esc, ok1 := n.Escape.(*sqlparser.Literal)
				pat, ok2 := n.Right.(*sqlparser.Literal)
				if !ok1 || !ok2 || esc.Type != sqlparser.StrVal || pat.Type != sqlparser.StrVal || len([]rune(esc.Val)) != 1 {
					break
				}
				n.Right = sqlparser.NewStrLiteral(translateLikeEscape(pat.Val, []rune(esc.Val)[0]))
				n.Escape = nil
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

func rtrim(e sqlparser.Expr) sqlparser.Expr {
	return &sqlparser.TrimFuncExpr{TrimFuncType: sqlparser.RTrimType, Type: sqlparser.TrailingTrimType, StringArg: e}
}

// padText reports whether e is statically a text value under a PAD SPACE
// collation (a text column, or a string literal).
func (c *compiler) padText(e sqlparser.Expr) bool {
	switch x := e.(type) {
	case *sqlparser.Literal:
		return x.Type == sqlparser.StrVal && padSpace(c.s.collation())
	case *sqlparser.CollateExpr:
		id := collations.MySQL8().LookupByName(strings.ToLower(x.Collation))
		return id != collations.Unknown && id != collations.CollationBinaryID && padSpace(id) && c.padText(x.Expr)
	case *sqlparser.ColName:
		i, err := c.sc.resolve(x)
		if err != nil {
			return false
		}
		t := c.sc.cols[i].typ
		if !t.Valid() || !sqltypes.IsText(t.Type()) {
			return false
		}
		coll := t.Collation()
		return coll != collations.CollationBinaryID && padSpace(coll)
	}
	return false
}

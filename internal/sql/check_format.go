package sql

import (
	"encoding/hex"
	"math/big"
	"strconv"
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/coltype"
)

// checkClause renders a CHECK constraint expression the way MySQL 8.0
// stores and prints it (Item::print with QT_NO_DB, QT_NO_TABLE and
// QT_FORCE_INTRODUCERS): every operation in parentheses, identifiers in
// backquotes without qualifiers, string literals with their character-set
// introducer (charset: the connection's, for literals written without
// one), function names in lower case, arguments separated by a bare comma.
// `n > 0 AND s LIKE 'a%'` becomes
// ((`n` > 0) and (`s` like _utf8mb4'a%')).
//
// Nodes without a rule here fall back to Vitess's own rendering with their
// operands still printed by these rules, so the text always parses back to
// the same expression; it is what CHECK_CLAUSE and SHOW CREATE TABLE show
// and what enforcement evaluates.
func checkClause(e sqlparser.Expr, charset string) string {
	f := &checkFormatter{charset: charset}
	buf := sqlparser.NewTrackedBuffer(f.format)
	buf.SetEscapeAllIdentifiers()
	buf.Myprintf("%v", e)
	return buf.String()
}

type checkFormatter struct {
	charset string
}

func (f *checkFormatter) format(buf *sqlparser.TrackedBuffer, node sqlparser.SQLNode) {
	switch n := node.(type) {
	case *sqlparser.ColName:
		buf.WriteString(coltype.QuoteIdent(n.Name.String()))
	case *sqlparser.Literal:
		f.literal(buf, n, "")
	case *sqlparser.NullVal:
		buf.WriteString("NULL")
	case sqlparser.BoolVal:
		if n {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case *sqlparser.IntroducerExpr:
		cs := strings.TrimPrefix(strings.ToLower(n.CharacterSet), "_")
		if lit, ok := n.Expr.(*sqlparser.Literal); ok {
			f.literal(buf, lit, cs)
			return
		}
		buf.WriteString("_" + cs + " ")
		buf.Myprintf("%v", n.Expr)
	case *sqlparser.ComparisonExpr:
		f.comparison(buf, n)
	case *sqlparser.AndExpr:
		f.chain(buf, " and ", n, func(e sqlparser.Expr) (sqlparser.Expr, sqlparser.Expr, bool) {
			a, ok := e.(*sqlparser.AndExpr)
			if !ok {
				return nil, nil, false
			}
			return a.Left, a.Right, true
		})
	case *sqlparser.OrExpr:
		f.chain(buf, " or ", n, func(e sqlparser.Expr) (sqlparser.Expr, sqlparser.Expr, bool) {
			o, ok := e.(*sqlparser.OrExpr)
			if !ok {
				return nil, nil, false
			}
			return o.Left, o.Right, true
		})
	case *sqlparser.XorExpr:
		buf.Myprintf("(%v xor %v)", n.Left, n.Right)
	case *sqlparser.NotExpr:
		buf.Myprintf("(not(%v))", n.Expr)
	case *sqlparser.IsExpr:
		buf.Myprintf("(%v is ", n.Left)
		buf.WriteString(isOpText(n.Right))
		buf.WriteByte(')')
	case *sqlparser.BetweenExpr:
		if n.IsBetween {
			buf.Myprintf("(%v between %v and %v)", n.Left, n.From, n.To)
		} else {
			buf.Myprintf("(%v not between %v and %v)", n.Left, n.From, n.To)
		}
	case *sqlparser.BinaryExpr:
		buf.Myprintf("(%v ", n.Left)
		buf.WriteString(n.Operator.ToString())
		buf.Myprintf(" %v)", n.Right)
	case *sqlparser.UnaryExpr:
		switch n.Operator {
		case sqlparser.UMinusOp:
			buf.Myprintf("-(%v)", n.Expr)
		case sqlparser.UPlusOp:
			buf.Myprintf("%v", n.Expr)
		case sqlparser.TildaOp:
			buf.Myprintf("~(%v)", n.Expr)
		case sqlparser.BangOp:
			buf.Myprintf("(not(%v))", n.Expr)
		default:
			n.Format(buf)
		}
	case *sqlparser.FuncExpr:
		if !n.Qualifier.IsEmpty() {
			buf.WriteString(coltype.QuoteIdent(n.Qualifier.String()) + ".")
		}
		buf.WriteString(n.Name.Lowered())
		f.args(buf, n.Exprs...)
	case sqlparser.ValTuple:
		f.args(buf, []sqlparser.Expr(n)...)
	case *sqlparser.CaseExpr:
		buf.WriteString("(case ")
		if n.Expr != nil {
			buf.Myprintf("%v ", n.Expr)
		}
		for _, w := range n.Whens {
			buf.Myprintf("when %v then %v ", w.Cond, w.Val)
		}
		if n.Else != nil {
			buf.Myprintf("else %v ", n.Else)
		}
		buf.WriteString("end)")
	case *sqlparser.CollateExpr:
		buf.Myprintf("(%v collate ", n.Expr)
		buf.WriteString(strings.ToLower(n.Collation))
		buf.WriteByte(')')
	case *sqlparser.RegexpLikeExpr:
		buf.WriteString("regexp_like")
		if n.MatchType != nil {
			f.args(buf, n.Expr, n.Pattern, n.MatchType)
		} else {
			f.args(buf, n.Expr, n.Pattern)
		}
	case *sqlparser.SubstrExpr:
		buf.WriteString("substr")
		if n.To != nil {
			f.args(buf, n.Name, n.From, n.To)
		} else {
			f.args(buf, n.Name, n.From)
		}
	case *sqlparser.JSONExtractExpr:
		buf.WriteString("json_extract")
		f.args(buf, append([]sqlparser.Expr{n.JSONDoc}, n.PathList...)...)
	case *sqlparser.JSONUnquoteExpr:
		buf.WriteString("json_unquote")
		f.args(buf, n.JSONValue)
	case *sqlparser.Default:
		buf.WriteString("default(" + coltype.QuoteIdent(n.ColName) + ")")
	default:
		node.Format(buf)
	}
}

// args prints a parenthesized argument list, MySQL style: (a,b,c).
func (f *checkFormatter) args(buf *sqlparser.TrackedBuffer, args ...sqlparser.Expr) {
	buf.WriteByte('(')
	for i, a := range args {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Myprintf("%v", a)
	}
	buf.WriteByte(')')
}

// chain prints an AND or OR chain flattened, as MySQL's Item_cond keeps
// it: (a and b and c).
func (f *checkFormatter) chain(buf *sqlparser.TrackedBuffer, op string, e sqlparser.Expr, split func(sqlparser.Expr) (sqlparser.Expr, sqlparser.Expr, bool)) {
	var terms []sqlparser.Expr
	var walk func(sqlparser.Expr)
	walk = func(x sqlparser.Expr) {
		if l, r, ok := split(x); ok {
			walk(l)
			walk(r)
			return
		}
		terms = append(terms, x)
	}
	walk(e)
	buf.WriteByte('(')
	for i, t := range terms {
		if i > 0 {
			buf.WriteString(op)
		}
		buf.Myprintf("%v", t)
	}
	buf.WriteByte(')')
}

func (f *checkFormatter) comparison(buf *sqlparser.TrackedBuffer, n *sqlparser.ComparisonExpr) {
	switch n.Operator {
	case sqlparser.NotLikeOp:
		buf.Myprintf("(not((%v like %v", n.Left, n.Right)
		if n.Escape != nil {
			buf.Myprintf(" escape %v", n.Escape)
		}
		buf.WriteString(")))")
		return
	case sqlparser.RegexpOp:
		buf.Myprintf("regexp_like(%v,%v)", n.Left, n.Right)
		return
	case sqlparser.NotRegexpOp:
		buf.Myprintf("(not(regexp_like(%v,%v)))", n.Left, n.Right)
		return
	}
	var op string
	switch n.Operator {
	case sqlparser.EqualOp:
		op = "="
	case sqlparser.LessThanOp:
		op = "<"
	case sqlparser.GreaterThanOp:
		op = ">"
	case sqlparser.LessEqualOp:
		op = "<="
	case sqlparser.GreaterEqualOp:
		op = ">="
	case sqlparser.NotEqualOp:
		op = "<>"
	case sqlparser.NullSafeEqualOp:
		op = "<=>"
	case sqlparser.InOp:
		op = "in"
	case sqlparser.NotInOp:
		op = "not in"
	case sqlparser.LikeOp:
		op = "like"
	default:
		n.Format(buf)
		return
	}
	buf.Myprintf("(%v ", n.Left)
	buf.WriteString(op)
	if n.Modifier == sqlparser.Any {
		buf.WriteString(" any")
	} else if n.Modifier == sqlparser.All {
		buf.WriteString(" all")
	}
	buf.Myprintf(" %v", n.Right)
	if n.Escape != nil {
		buf.Myprintf(" escape %v", n.Escape)
	}
	buf.WriteByte(')')
}

func isOpText(op sqlparser.IsExprOperator) string {
	switch op {
	case sqlparser.IsNullOp:
		return "null"
	case sqlparser.IsNotNullOp:
		return "not null"
	case sqlparser.IsTrueOp:
		return "true"
	case sqlparser.IsNotTrueOp:
		return "not true"
	case sqlparser.IsFalseOp:
		return "false"
	}
	return "not false"
}

// literal prints a literal as MySQL does: numbers normalized, negative
// ones as -(n), strings with an introducer and MySQL's escapes, hex and
// bit literals as 0x..., temporal literals as DATE'...'.
func (f *checkFormatter) literal(buf *sqlparser.TrackedBuffer, l *sqlparser.Literal, introducer string) {
	switch l.Type {
	case sqlparser.StrVal:
		cs := introducer
		if cs == "" {
			cs = f.charset
		}
		buf.WriteString("_" + cs)
		buf.WriteString(mysqlQuote(l.Val))
	case sqlparser.IntVal, sqlparser.DecimalVal, sqlparser.FloatVal:
		v := l.Val
		if strings.HasPrefix(v, "-") {
			buf.WriteString("-(" + normNumber(l.Type, v[1:]) + ")")
			return
		}
		buf.WriteString(normNumber(l.Type, v))
	case sqlparser.HexNum, sqlparser.HexVal:
		h := strings.ToLower(l.Val)
		h = strings.TrimPrefix(h, "0x")
		if introducer != "" {
			buf.WriteString("_" + introducer + " ")
		}
		buf.WriteString("0x" + h)
	case sqlparser.BitNum:
		if introducer != "" {
			buf.WriteString("_" + introducer + " ")
		}
		buf.WriteString(bitsToHex(l.Val))
	case sqlparser.DateVal:
		buf.WriteString("DATE" + mysqlQuote(l.Val))
	case sqlparser.TimeVal:
		buf.WriteString("TIME" + mysqlQuote(l.Val))
	case sqlparser.TimestampVal:
		buf.WriteString("TIMESTAMP" + mysqlQuote(l.Val))
	default:
		l.Format(buf)
	}
}

// normNumber prints a numeric literal the way MySQL's items print their
// value: integers without leading zeros, decimals with an integer part.
func normNumber(t sqlparser.ValType, v string) string {
	switch t {
	case sqlparser.IntVal:
		if u, err := strconv.ParseUint(v, 10, 64); err == nil {
			return strconv.FormatUint(u, 10)
		}
		if n, ok := new(big.Int).SetString(v, 10); ok {
			return n.String()
		}
	case sqlparser.DecimalVal:
		intPart, frac, _ := strings.Cut(v, ".")
		intPart = strings.TrimLeft(intPart, "0")
		if intPart == "" {
			intPart = "0"
		}
		if frac == "" {
			return intPart
		}
		return intPart + "." + frac
	}
	return v
}

// bitsToHex turns a bit literal (0b0101, b'0101' as Vitess keeps it) into
// MySQL's 0x... form.
func bitsToHex(v string) string {
	v = strings.TrimPrefix(strings.TrimPrefix(v, "0b"), "0B")
	v = strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(v, "b'"), "'"), "B'")
	n, ok := new(big.Int).SetString(v, 2)
	if !ok || n.Sign() == 0 {
		return "0x00"
	}
	return "0x" + hex.EncodeToString(n.Bytes())
}

// mysqlQuote quotes s as MySQL's append_unescaped does.
func mysqlQuote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case 0:
			b.WriteString(`\0`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`\'`)
		case 0x1a:
			b.WriteString(`\Z`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

package eval

import (
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"
)

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

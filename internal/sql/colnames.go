package sql

import (
	"fmt"
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/parse"
)

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

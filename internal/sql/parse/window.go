package parse

import (
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"
)

// windowList repeats WINDOW before each definition of a WINDOW clause
// after the first: MySQL's WINDOW w1 AS (...), w2 AS (...) is Vitess's
// WINDOW w1 AS (...), WINDOW w2 AS (...) (its grammar lists whole WINDOW
// clauses, and takes the comma for the start of the next one).
func windowList(p *sqlparser.Parser, sql string) (string, bool) {
	if !containsFold(sql, "window") {
		return sql, false
	}
	tkn := p.NewStringTokenizer(sql)
	var (
		ins      []int // offsets after the commas to insert WINDOW at
		depth    int
		defDepth int
		state    int // 0: outside, 1: in a definition, 2: after one
	)
	for {
		typ, _ := tkn.Scan()
		if typ == 0 || typ == sqlparser.LEX_ERROR {
			break
		}
		switch typ {
		case '(':
			depth++
		case ')':
			depth--
		}
		switch state {
		case 0:
			if typ == sqlparser.WINDOW {
				state, defDepth = 1, depth
			}
		case 1:
			if typ == ')' && depth == defDepth {
				state = 2
			}
		case 2:
			if typ == ',' && depth == defDepth {
				ins = append(ins, tkn.Pos)
				state = 1
				continue
			}
			state = 0
			if typ == sqlparser.WINDOW {
				state, defDepth = 1, depth
			}
		}
	}
	if len(ins) == 0 {
		return sql, false
	}
	var b strings.Builder
	b.Grow(len(sql) + 8*len(ins))
	last := 0
	for _, at := range ins {
		b.WriteString(sql[last:at])
		b.WriteString(" WINDOW")
		last = at
	}
	b.WriteString(sql[last:])
	return b.String(), true
}

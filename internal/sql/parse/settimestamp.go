package parse

import (
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"
)

// SetTimestamp quotes the variable name timestamp in SET statements (SET
// timestamp = N, SET SESSION timestamp = N, SET a = 1, timestamp = N):
// Vitess's grammar reads the bare word as the TIMESTAMP keyword and fails,
// where MySQL takes it as the session variable. The quoted name is the
// same variable to the parser.
func SetTimestamp(p *sqlparser.Parser, sql string) (string, bool) {
	t := strings.TrimSpace(sql)
	if len(t) < 4 || !strings.EqualFold(t[:4], "set ") || !containsFold(sql, "timestamp") {
		return sql, false
	}
	tkn := p.NewStringTokenizer(sql)
	var quote []int // end offsets of TIMESTAMP tokens to quote
	prev := 0
	pending := -1
	for {
		typ, _ := tkn.Scan()
		if typ == 0 || typ == sqlparser.LEX_ERROR {
			break
		}
		if pending >= 0 && (typ == '=' || typ == sqlparser.ASSIGNMENT_OPT) {
			quote = append(quote, pending)
		}
		pending = -1
		if typ == sqlparser.TIMESTAMP {
			switch prev {
			case sqlparser.SET, ',', sqlparser.SESSION, sqlparser.LOCAL, sqlparser.GLOBAL:
				pending = tkn.Pos
			}
		}
		prev = typ
	}
	if len(quote) == 0 {
		return sql, false
	}
	var b strings.Builder
	b.Grow(len(sql) + 2*len(quote))
	last := 0
	for _, end := range quote {
		start := end - len("timestamp")
		if start < 0 || !strings.EqualFold(sql[start:end], "timestamp") {
			return sql, false
		}
		b.WriteString(sql[last:start])
		b.WriteString("`timestamp`")
		last = end
	}
	b.WriteString(sql[last:])
	return b.String(), true
}

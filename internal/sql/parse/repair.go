// Package parse holds strata's front end to Vitess's SQL parser: source
// repairs for MySQL syntax the parser does not accept.
package parse

import (
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"
)

// Repair rewrites MySQL syntax that Vitess's parser rejects into an
// equivalent form it accepts. It is called only after a parse error, so
// statements the parser takes pay nothing. ok is false when no repair
// applies.
func Repair(p *sqlparser.Parser, sql string) (string, bool) {
	out, changed := sql, false
	if s, ok := aggregateAll(p, out); ok {
		out, changed = s, true
	}
	if s, ok := setOperations(p, out); ok {
		out, changed = s, true
	}
	if s, ok := AssignColon(out); ok {
		out, changed = s, true
	}
	if s, ok := definerHost(p, out); ok {
		out, changed = s, true
	}
	if s, ok := SetTimestamp(p, out); ok {
		out, changed = s, true
	}
	if s, ok := InsertPriority(out); ok {
		out, changed = s, true
	}
	if s, ok := windowList(p, out); ok {
		out, changed = s, true
	}
	if s, ok := ctasKeysOnly(p, out); ok {
		out, changed = s, true
	}
	if s, ok := SetCharsetBinary(out); ok {
		out, changed = s, true
	}
	return out, changed
}

// aggregateFuncs take MySQL's optional ALL before their argument
// (sql_yacc.yy: in_sum_expr is opt_all expr; COUNT(ALL *) too).
var aggregateFuncs = map[string]bool{
	"avg": true, "bit_and": true, "bit_or": true, "bit_xor": true, "count": true,
	"max": true, "min": true, "std": true, "stddev": true, "stddev_pop": true,
	"stddev_samp": true, "sum": true, "var_pop": true, "var_samp": true, "variance": true,
}

// aggregateAll drops the ALL of SUM(ALL x), COUNT(ALL x), MIN(ALL x), ...:
// ALL is the default, so the meaning is unchanged.
func aggregateAll(p *sqlparser.Parser, sql string) (string, bool) {
	if !containsFold(sql, "all") {
		return sql, false
	}
	tkn := p.NewStringTokenizer(sql)
	var (
		cut        []int // start offsets of ALL tokens to remove
		prev, prv2 int   // types of the two previous tokens
		val1, val2 string
	)
	for {
		typ, val := tkn.Scan()
		if typ == 0 || typ == sqlparser.LEX_ERROR {
			break
		}
		end := tkn.Pos
		if typ == sqlparser.ALL && prev == '(' && prv2 != sqlparser.STRING && aggregateFuncs[strings.ToLower(val2)] {
			if start := end - 3; start >= 0 && strings.EqualFold(sql[start:end], "all") {
				cut = append(cut, start)
			}
		}
		val2, val1 = val1, val
		prv2, prev = prev, typ
	}
	if len(cut) == 0 {
		return sql, false
	}
	var b strings.Builder
	b.Grow(len(sql))
	last := 0
	for _, c := range cut {
		b.WriteString(sql[last:c])
		b.WriteByte(' ')
		last = c + 3
	}
	b.WriteString(sql[last:])
	return b.String(), true
}

// AssignColon turns SET @x := expr into SET @x = expr (Vitess's parser only
// knows '=' in SET), leaving quoted text alone.
func AssignColon(sql string) (string, bool) {
	t := strings.TrimSpace(sql)
	if len(t) < 4 || !strings.EqualFold(t[:4], "set ") || !strings.Contains(t, ":=") {
		return sql, false
	}
	var b strings.Builder
	var q byte
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		switch {
		case q != 0:
			if c == '\\' && i+1 < len(sql) {
				b.WriteByte(c)
				i++
				b.WriteByte(sql[i])
				continue
			}
			if c == q {
				q = 0
			}
		case c == '\'' || c == '"' || c == '`':
			q = c
		case c == ':' && i+1 < len(sql) && sql[i+1] == '=':
			continue
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

// containsFold reports whether s contains the lower-case ASCII word w in any
// letter case.
func containsFold(s, w string) bool {
	n := len(w)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], w) {
			return true
		}
	}
	return false
}

package parse

import (
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"
)

// definerHost rewrites DEFINER = user@'host' (or @"host") to
// DEFINER = user@`host`: Vitess's tokenizer reads @ followed by a quoted
// string as a broken variable name, so CREATE VIEW and ALTER VIEW with the
// usual 'user'@'host' form do not parse. The account named is the same.
func definerHost(p *sqlparser.Parser, sql string) (string, bool) {
	if !containsFold(sql, "definer") {
		return sql, false
	}
	tkn := p.NewStringTokenizer(sql)
	prev2, prev := 0, 0
	for {
		typ, _ := tkn.Scan()
		if typ == 0 || typ == sqlparser.LEX_ERROR {
			return sql, false
		}
		if prev2 == sqlparser.DEFINER && prev == '=' {
			end := tkn.Pos
			if (typ != sqlparser.STRING && typ != sqlparser.ID) || end+1 >= len(sql) || sql[end] != '@' {
				return sql, false
			}
			host, stop, ok := scanDefinerQuoted(sql, end+1)
			if !ok {
				return sql, false
			}
			return sql[:end+1] + "`" + strings.ReplaceAll(host, "`", "``") + "`" + sql[stop:], true
		}
		prev2, prev = prev, typ
	}
}

// scanDefinerQuoted reads the '...' or "..." string starting at sql[i] (a
// doubled quote or a backslash escapes one), returning its value and the
// offset after it.
func scanDefinerQuoted(sql string, i int) (string, int, bool) {
	if i >= len(sql) || (sql[i] != '\'' && sql[i] != '"') {
		return "", 0, false
	}
	q := sql[i]
	var b strings.Builder
	for j := i + 1; j < len(sql); j++ {
		switch c := sql[j]; {
		case c == '\\' && j+1 < len(sql):
			j++
			b.WriteByte(sql[j])
		case c == q && j+1 < len(sql) && sql[j+1] == q:
			j++
			b.WriteByte(q)
		case c == q:
			return b.String(), j + 1, true
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

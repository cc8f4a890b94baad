package parse

import (
	"vitess.io/vitess/go/vt/sqlparser"
)

// AlterConstraint rewrites ALTER TABLE ... ALTER CONSTRAINT name [NOT]
// ENFORCED (MySQL 8.0.19's general form) into ALTER CHECK name, the form
// Vitess's grammar has, and returns the names so written: MySQL answers
// differently when such a name is not a CHECK constraint. ok is false when
// the statement has no such clause.
func AlterConstraint(p *sqlparser.Parser, sql string) (out string, names []string, ok bool) {
	if !startsWithFold(sql, "alter") || !containsFold(sql, "constraint") || !containsFold(sql, "enforced") {
		return sql, nil, false
	}
	toks := codeTokens(p, sql)
	if len(toks) < 2 || toks[0].typ != sqlparser.ALTER {
		return sql, nil, false
	}
	var cuts []int
	for i := 1; i+3 < len(toks); i++ {
		if toks[i].typ != sqlparser.ALTER || toks[i+1].typ != sqlparser.CONSTRAINT {
			continue
		}
		j := i + 3
		if toks[j].typ == sqlparser.NOT {
			j++
		}
		if j >= len(toks) || toks[j].typ != sqlparser.ENFORCED {
			continue
		}
		cuts = append(cuts, tokStart(sql, toks[i+1]))
		names = append(names, identText(sql, toks[i+2]))
	}
	if len(cuts) == 0 {
		return sql, nil, false
	}
	b := make([]byte, 0, len(sql))
	last := 0
	for _, c := range cuts {
		b = append(b, sql[last:c]...)
		b = append(b, "CHECK     "...) // as long as CONSTRAINT
		last = c + len("constraint")
	}
	b = append(b, sql[last:]...)
	return string(b), names, true
}

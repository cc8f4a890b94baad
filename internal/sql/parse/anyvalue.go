package parse

import (
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"
)

// ANY_VALUE(x) is not an aggregate in MySQL: it is x, evaluated on the
// row at hand (the group's representative row in a grouped query), and
// only silences ONLY_FULL_GROUP_BY. Vitess's parser makes it an
// aggregate node; AnyValueCalls turns it back into a call of the function
// any_value (a builtin), so SELECT ANY_VALUE(a) FROM t returns every row.

// AnyValueCalls replaces the ANY_VALUE aggregate nodes of stmt by
// function calls, when its text sql mentions them.
func AnyValueCalls(stmt sqlparser.Statement, sql string) sqlparser.Statement {
	if !mentionsAnyValue(sql) {
		return stmt
	}
	return sqlparser.Rewrite(stmt, nil, func(cur *sqlparser.Cursor) bool {
		if av, ok := cur.Node().(*sqlparser.AnyValue); ok {
			cur.Replace(&sqlparser.FuncExpr{Name: sqlparser.NewIdentifierCI("any_value"), Exprs: []sqlparser.Expr{av.Arg}})
		}
		return true
	}).(sqlparser.Statement)
}

// mentionsAnyValue reports whether sql contains "any_value" in any letter
// case. It runs on every statement parsed, so it looks at a position only
// when its byte is an 'a'.
func mentionsAnyValue(sql string) bool {
	const word = "any_value"
	for i := strings.IndexAny(sql, "aA"); i >= 0 && i+len(word) <= len(sql); {
		if strings.EqualFold(sql[i:i+len(word)], word) {
			return true
		}
		j := strings.IndexAny(sql[i+1:], "aA")
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

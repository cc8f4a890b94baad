package parse

import (
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"
)

// FunctionCalls repairs two function calls Vitess's parser reads
// differently from MySQL:
//
//   - ANY_VALUE(x) is not an aggregate in MySQL: it is x, evaluated on the
//     row at hand (the group's representative row in a grouped query),
//     and only silences ONLY_FULL_GROUP_BY. Vitess makes it an aggregate
//     node; it becomes a call of the function any_value (a builtin), so
//     SELECT ANY_VALUE(a) FROM t returns every row.
//   - GET_FORMAT(DATE, 'USA') reads its first argument as a column named
//     DATE; it becomes the string 'DATE' (also TIME, DATETIME,
//     TIMESTAMP).
//
// The statement is walked only when its text mentions either function.
func FunctionCalls(stmt sqlparser.Statement, sql string) sqlparser.Statement {
	if !mentions(sql, "any_value") && !mentions(sql, "get_format") {
		return stmt
	}
	return sqlparser.Rewrite(stmt, nil, func(cur *sqlparser.Cursor) bool {
		switch n := cur.Node().(type) {
		case *sqlparser.AnyValue:
			cur.Replace(&sqlparser.FuncExpr{Name: sqlparser.NewIdentifierCI("any_value"), Exprs: []sqlparser.Expr{n.Arg}})
		case *sqlparser.FuncExpr:
			if n.Name.Lowered() == "get_format" && n.Qualifier.IsEmpty() && len(n.Exprs) == 2 {
				if cn, ok := n.Exprs[0].(*sqlparser.ColName); ok && cn.Qualifier.IsEmpty() {
					switch typ := cn.Name.Lowered(); typ {
					case "date", "time", "datetime", "timestamp":
						n.Exprs[0] = sqlparser.NewStrLiteral(strings.ToUpper(typ))
					}
				}
			}
		}
		return true
	}).(sqlparser.Statement)
}

// mentions reports whether sql contains the lower-case word w in any
// letter case. It runs on every statement parsed, so it looks only at
// positions where w's first letter is.
func mentions(sql, w string) bool {
	first := string([]byte{w[0], w[0] - 'a' + 'A'})
	for i := strings.IndexAny(sql, first); i >= 0 && i+len(w) <= len(sql); {
		if strings.EqualFold(sql[i:i+len(w)], w) {
			return true
		}
		j := strings.IndexAny(sql[i+1:], first)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

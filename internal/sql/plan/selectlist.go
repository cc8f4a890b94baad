package plan

import (
	"strconv"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
)

// Select-list names in the other clauses: ORDER BY, GROUP BY and HAVING may
// name a select-list expression by its alias or (ORDER BY) its position,
// and a table none of whose columns the query reads is read from its index
// keys alone.

// ResolveOrderAlias maps an ORDER BY alias to its select expression.
func ResolveOrderAlias(e sqlparser.Expr, sel *sqlparser.SelectExprs) sqlparser.Expr {
	if idx := AliasIndex(e, sel); idx >= 0 {
		if ae, ok := sel.Exprs[idx].(*sqlparser.AliasedExpr); ok {
			return ae.Expr
		}
	}
	if lit, ok := e.(*sqlparser.Literal); ok && lit.Type == sqlparser.IntVal {
		n, _ := strconv.Atoi(lit.Val)
		if n >= 1 && n <= len(sel.Exprs) {
			if ae, ok := sel.Exprs[n-1].(*sqlparser.AliasedExpr); ok {
				return ae.Expr
			}
		}
	}
	return e
}

// AliasIndex returns the select-list position whose alias is e (an
// unqualified column name), or -1.
func AliasIndex(e sqlparser.Expr, sel *sqlparser.SelectExprs) int {
	cn, ok := e.(*sqlparser.ColName)
	if !ok || !cn.Qualifier.IsEmpty() {
		return -1
	}
	for i, se := range sel.Exprs {
		if ae, ok := se.(*sqlparser.AliasedExpr); ok && !ae.As.IsEmpty() && ae.As.EqualString(cn.Name.String()) {
			return i
		}
	}
	return -1
}

// SubstituteAliases replaces unqualified names that are select-list aliases
// (and not columns) by their expressions.
func SubstituteAliases(e sqlparser.Expr, sel *sqlparser.SelectExprs, sc *eval.Scope) sqlparser.Expr {
	return sqlparser.Rewrite(sqlparser.CloneExpr(e), nil, func(cur *sqlparser.Cursor) bool {
		if cn, ok := cur.Node().(*sqlparser.ColName); ok && cn.Qualifier.IsEmpty() {
			if _, err := sc.Resolve(cn); err != nil {
				if idx := AliasIndex(cn, sel); idx >= 0 {
					cur.Replace(sqlparser.CloneExpr(sel.Exprs[idx].(*sqlparser.AliasedExpr).Expr))
				}
			}
		}
		return true
	}).(sqlparser.Expr)
}

// NeededTables reports, per FROM source (in scope order), whether the
// query references any of its columns: a source whose columns are all
// unreferenced can be read from its index keys alone.
func NeededTables(sel *sqlparser.Select, sc *eval.Scope) map[int]bool {
	need := map[int]bool{}
	tables := map[string]int{}
	order := 0
	for i := range sc.Cols {
		if _, ok := tables[sc.Cols[i].Table]; !ok {
			tables[sc.Cols[i].Table] = order
			order++
		}
	}
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *sqlparser.StarExpr:
			if x.TableName.IsEmpty() {
				for _, v := range tables {
					need[v] = true
				}
			} else if v, ok := tables[x.TableName.Name.String()]; ok {
				need[v] = true
			}
		case *sqlparser.ColName:
			if i, err := sc.Resolve(x); err == nil {
				need[tables[sc.Cols[i].Table]] = true
			} else {
				for _, v := range tables {
					need[v] = true
				}
			}
		}
		return true, nil
	}, sel)
	return need
}

package plan

import "vitess.io/vitess/go/vt/sqlparser"

// IsWindowFunc reports whether n is a window function call: a function
// with an OVER clause (ROW_NUMBER() OVER (...), SUM(x) OVER w). An
// aggregate with an OVER clause is a window function, not an aggregate:
// it does not group, though its arguments may hold aggregates
// (SUM(SUM(x)) OVER ()).
func IsWindowFunc(n sqlparser.SQLNode) bool {
	w, ok := n.(sqlparser.WindowFunc)
	return ok && w.GetOverClause() != nil
}

// ContainsWindowFunc returns the first window function call in e outside
// subqueries, or nil.
func ContainsWindowFunc(e sqlparser.SQLNode) sqlparser.WindowFunc {
	var found sqlparser.WindowFunc
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if found != nil {
			return false, nil
		}
		switch n.(type) {
		case *sqlparser.Subquery, *sqlparser.Offset:
			return false, nil
		}
		if IsWindowFunc(n) {
			found = n.(sqlparser.WindowFunc)
			return false, nil
		}
		return true, nil
	}, e)
	return found
}

// HasWindowFuncs reports whether a SELECT computes window functions: a
// window function call in its select list or ORDER BY (outside
// subqueries).
func HasWindowFuncs(sel *sqlparser.Select) bool {
	if ContainsWindowFunc(sel.SelectExprs) != nil {
		return true
	}
	return len(sel.OrderBy) > 0 && ContainsWindowFunc(sel.OrderBy) != nil
}

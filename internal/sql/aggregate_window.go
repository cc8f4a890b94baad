package sql

import "vitess.io/vitess/go/vt/sqlparser"

// hasOverClause reports whether an aggregate call is a window function
// (SUM(x) OVER (...)): strata has no window functions, so such a call
// answers 1235 rather than being computed as a plain aggregate.
func hasOverClause(af sqlparser.AggrFunc) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if oc, ok := n.(*sqlparser.OverClause); ok && oc != nil {
			found = true
		}
		return !found, nil
	}, af)
	return found
}

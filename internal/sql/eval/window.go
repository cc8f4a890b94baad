package eval

import (
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// noWindowFuncs answers MySQL's 3593 for a window function call in e
// (outside subqueries): the SELECT planner replaces the window functions
// of the select list and ORDER BY by references to the values its window
// stage computes before it compiles them, so one that reaches the
// compiler is in a clause that cannot have one (WHERE, GROUP BY, HAVING,
// ON, SET, ...).
func noWindowFuncs(e sqlparser.Expr) error {
	var err error
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if err != nil {
			return false, nil
		}
		switch n.(type) {
		case *sqlparser.Subquery, *sqlparser.Offset:
			// An Offset's Original is the call whose value it reads.
			return false, nil
		}
		if w, ok := n.(sqlparser.WindowFunc); ok && w.GetOverClause() != nil {
			err = sqlerr.WindowFuncUse(strings.ToLower(w.WindowFuncName()))
			return false, nil
		}
		return true, nil
	}, e)
	return err
}

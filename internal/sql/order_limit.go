package sql

import (
	"strconv"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
)

// orderLimitGuess is the LIMIT the join order assumes when the row count
// is a parameter (LIMIT ?): plans are shared across executions.
const orderLimitGuess = 100

// orderLimitOf describes sel's ORDER BY ... LIMIT for the cost-based join
// order (plan.OrderLimit) when every ORDER BY term is a column of one
// table of the join; nil otherwise.
func orderLimitOf(sel *sqlparser.Select, sc *eval.Scope, offs []int, items []*fromItem) *plan.OrderLimit {
	if len(items) < 2 || len(sel.OrderBy) == 0 || sel.Limit == nil || sel.Limit.Rowcount == nil ||
		plan.HasAggregates(sel) || (sel.GroupBy != nil && len(sel.GroupBy.Exprs) > 0) || plan.HasWindowFuncs(sel) || sel.Distinct {
		return nil
	}
	limit := float64(orderLimitGuess)
	if lit, ok := sel.Limit.Rowcount.(*sqlparser.Literal); ok && lit.Type == sqlparser.IntVal {
		n, err := strconv.ParseFloat(lit.Val, 64)
		if err != nil {
			return nil
		}
		limit = n
		if off, ok := sel.Limit.Offset.(*sqlparser.Literal); ok && off.Type == sqlparser.IntVal {
			m, _ := strconv.ParseFloat(off.Val, 64)
			limit += m
		}
	}
	h := &plan.OrderLimit{Item: -1, Limit: limit}
	for _, o := range sel.OrderBy {
		cn, ok := plan.ResolveOrderAlias(o.Expr, sel.SelectExprs).(*sqlparser.ColName)
		if !ok {
			return nil
		}
		i, err := sc.Resolve(cn)
		if err != nil {
			return nil
		}
		item := plan.SourceOf(i, offs)
		if item < 0 || item >= len(items) || items[item].def == nil || items[item].virtual != nil || (h.Item >= 0 && item != h.Item) {
			return nil
		}
		h.Item = item
		h.Cols = append(h.Cols, plan.OrderCol{Col: i - offs[item], Desc: o.Direction == sqlparser.DescOrder})
	}
	return h
}

package plan

import (
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
)

// Join order without statistics (joincost.go has the order with them): the
// written order, except that a table with nothing joining it to the tables
// before it (no condition of the WHERE clause or an inner join's ON over it
// and them, and no condition on it alone) is put off until one that is
// joined has been placed. A 17-table join written as FROM t56, t31, t46, …
// WHERE b46 = a31 AND a47 = b46 … is otherwise a cross product of the first
// few tables. The order is only changed for inner joins (no LEFT/RIGHT JOIN,
// no STRAIGHT_JOIN), and a written order without a cross product is kept as
// it is: it is the best information there is until the planner has table
// statistics.

// MaxJoinTables is MySQL's limit on the tables of one join (error 1116);
// condition sets are bitmasks of at most 64 sources.
const MaxJoinTables = 61

// JoinTable is one table of a join as the join order sees it.
type JoinTable struct {
	Def *catalog.Table
	// Outer: the inner side of a LEFT JOIN (the join is then kept in
	// written order).
	Outer bool
	// Virtual: a derived or system table, which has no statistics.
	Virtual bool
}

// JoinOrder returns the execution order of items (indexes into items).
// condSets holds, per condition, the set of items it references. straight
// forbids reordering. With cost (nil: the heuristic only) and
// statistics for every table, the order is cost-based (joincost.go).
func JoinOrder(items []JoinTable, condSets []uint64, straight bool, cost *CostInput) []int {
	n := len(items)
	order := make([]int, 0, n)
	identity := func() []int {
		order = order[:0]
		for i := range items {
			order = append(order, i)
		}
		return order
	}
	if straight || n < 2 {
		return identity()
	}
	for _, it := range items {
		if it.Outer {
			return identity()
		}
	}
	if cost != nil {
		if o, ok := costJoinOrder(items, cost); ok {
			return o
		}
	}
	if n < 3 {
		return identity()
	}
	var placed uint64
	taken := make([]bool, n)
	// joined reports whether item i has a condition over it and placed
	// tables only (a condition on i alone counts when nothing is placed
	// yet: it restricts the first table).
	joined := func(i int) bool {
		bit := uint64(1) << i
		for _, s := range condSets {
			if s&bit == 0 || s&^(placed|bit) != 0 {
				continue
			}
			if s != bit || placed == 0 {
				return true
			}
		}
		return false
	}
	for len(order) < n {
		next := -1
		// The first remaining table in written order, if it is joined to
		// what is placed (or starts the join).
		for i := 0; i < n; i++ {
			if !taken[i] {
				if placed == 0 || joined(i) {
					next = i
				}
				break
			}
		}
		if next < 0 {
			// Put it off: take the first remaining table that is joined.
			for i := 0; i < n; i++ {
				if !taken[i] && joined(i) {
					next = i
					break
				}
			}
		}
		if next < 0 {
			// A true cross product: keep the written order.
			for i := 0; i < n; i++ {
				if !taken[i] {
					next = i
					break
				}
			}
		}
		taken[next] = true
		placed |= 1 << next
		order = append(order, next)
	}
	return order
}

// ReferencedSet returns the set of sources (by index, as a bitmask) whose
// columns e uses, given the scope offsets of each source. Columns inside
// subqueries count when they resolve in this scope (correlated references).
func ReferencedSet(e sqlparser.Expr, sc *eval.Scope, offs []int, outer *eval.Outer) (uint64, error) {
	var set uint64
	var rerr error
	add := func(i int) {
		if l := SourceOf(i, offs); l >= 0 && l < 64 {
			set |= 1 << l
		}
	}
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch c := n.(type) {
		case *sqlparser.Subquery:
			_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
				if c, ok := n.(*sqlparser.ColName); ok {
					if i, err := sc.Resolve(c); err == nil {
						add(i)
					}
					return false, nil
				}
				return true, nil
			}, c)
			return false, nil
		case *sqlparser.ColName:
			i, err := sc.Resolve(c)
			if err != nil {
				if !outer.CanResolve(c) {
					rerr = err
				}
				return false, nil
			}
			add(i)
		}
		return true, nil
	}, e)
	return set, rerr
}

// SourceOf returns the index of the source whose columns include scope
// column i, given the scope offset of each source's first column.
func SourceOf(i int, offs []int) int {
	for l := len(offs) - 1; l >= 0; l-- {
		if i >= offs[l] {
			return l
		}
	}
	return -1
}

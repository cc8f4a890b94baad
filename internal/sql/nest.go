package sql

import (
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Nested outer joins. The inner side of every LEFT (or RIGHT) JOIN is a
// nest: one table, or a nested join such as the (b JOIN c ON …) of
// `a LEFT JOIN (b JOIN c ON …) ON …`, which is NULL-extended as a unit —
// for each outer row with no combination of the nest's rows that meets
// every condition inside it (its ON condition, the inner joins' ON
// conditions in it), one row with all the nest's columns NULL. Nests nest:
// `a LEFT JOIN (b LEFT JOIN c ON p) ON q` has the nest {b, c} with the
// nest {c} inside.
//
// The join runs them as MySQL's nested-loop algorithm for nested outer
// joins does: the nest's tables are consecutive levels of the join (the
// join order of a query with outer joins is the written one), its first
// level carries the nest's match flag, and the nest's last level sets it
// when a row passes the nest's conditions. When the first level runs out
// of rows with the flag unset, the nest's levels are NULL-extended
// together and the join continues after the last one.
//
// Each condition belongs to a scope — the top level (WHERE and the
// top-level inner joins' ON conditions) or a nest (its ON conditions) —
// and is evaluated at the earliest level where the columns it reads are
// final for its scope: a column of a table inside a nested nest is final
// only after that nest's last level (it may still be NULL-extended). So a
// WHERE condition on b of `a LEFT JOIN (b JOIN c ON …) ON …` is evaluated
// at c's level, after the NULL extension, never pushed into the nest. At
// one level the conditions form groups, innermost scope first; after the
// group of a nest that ends at the level passes, that nest is matched
// (joinIter.groupsFrom).

// onScope is an ON clause's conditions and the FROM items lo..hi-1 of
// its join's operands.
type onScope struct {
	on     []sqlparser.Expr
	lo, hi int
}

// fromNest is an outer join's inner side: FROM items first..last, inside
// the nest parent (-1: the top level).
type fromNest struct {
	first, last int
	parent      int
	on          []sqlparser.Expr
	// gone: the nest was turned into an inner join (simplifyOuter).
	gone bool
}

// addConds adds inner-join conditions to the scope being built.
func (b *fromBuilder) addConds(conds []sqlparser.Expr) {
	if b.scope < 0 {
		b.where = append(b.where, conds...)
		return
	}
	b.nests[b.scope].on = append(b.nests[b.scope].on, conds...)
}

// nestOf is the innermost nest of item i (-1: none; semi-join items are
// at the top level).
func (b *fromBuilder) nestOf(i int) int {
	if i < len(b.itemNest) {
		return b.itemNest[i]
	}
	return -1
}

// multiNest reports whether some nest holds more than one table or
// another nest (the joins that needed nest.go; a plain LEFT JOIN's nest
// is its one table).
func (b *fromBuilder) multiNest() bool {
	for _, n := range b.nests {
		if !n.gone && n.last > n.first {
			return true
		}
	}
	return false
}

// settledDeps widens a set of items a semi-join depends on to the whole
// outermost nest of each of them: the semi-join is a WHERE condition, so
// it must follow the nest's last level.
func (b *fromBuilder) settledDeps(set uint64) uint64 {
	for i := range b.itemNest {
		if i >= 64 || set&(1<<i) == 0 {
			continue
		}
		n, top := b.itemNest[i], -1
		for n >= 0 {
			top, n = n, b.nests[n].parent
		}
		if top >= 0 {
			for k := b.nests[top].first; k <= b.nests[top].last; k++ {
				set |= 1 << k
			}
		}
	}
	return set
}

// condLevel is the level at which a condition of scope s reading the items
// in set is evaluated: after every item it reads, and after the last item
// of each nest inside s that holds one of them; a nest's condition no
// earlier than the nest's first level. -1: no item (a constant condition
// of the top level).
func (b *fromBuilder) condLevel(set uint64, s int, pos []int) int {
	lv := -1
	if s >= 0 {
		lv = pos[b.nests[s].first]
	}
	for i := range b.items {
		if i >= 64 || set&(1<<i) == 0 {
			continue
		}
		at := pos[i]
		n, inner := b.nestOf(i), -1
		for n >= 0 && n != s {
			inner, n = n, b.nests[n].parent
		}
		if n == s && inner >= 0 {
			at = pos[b.nests[inner].last]
		}
		lv = max(lv, at)
	}
	return lv
}

// chain lists the scopes whose conditions can be evaluated at item i's
// level, innermost first: i's own nest (-1: the top level), then the
// parent of each nest that ends with i.
func (b *fromBuilder) chain(i int) []int {
	n := b.nestOf(i)
	out := []int{n}
	for n >= 0 && b.nests[n].last == i {
		n = b.nests[n].parent
		out = append(out, n)
	}
	return out
}

// nestConds places the nests' ON conditions: per level, per group of
// chain(order[level]), the conditions of that scope (simplifyOuter checked
// which tables they read).
func (b *fromBuilder) nestConds(c *compiler, sc *eval.Scope, offs, pos, order []int, outer *eval.Outer) ([][][]sqlparser.Expr, error) {
	groups := make([][][]sqlparser.Expr, len(order))
	saved := sc.Where
	sc.Where = "on clause"
	defer func() { sc.Where = saved }()
	for k := range b.nests {
		n := &b.nests[k]
		if n.gone {
			continue
		}
		for _, cd := range n.on {
			if plan.ContainsAggr(cd) {
				return nil, sqlerr.New(sqlerror.ERInvalidGroupFuncUse, sqlerror.SSUnknownSQLState, "Invalid use of group function")
			}
			set, err := plan.ReferencedSet(cd, sc, offs, outer)
			if err != nil {
				return nil, err
			}
			lv := b.condLevel(set, k, pos)
			g := -1
			for x, s := range b.chain(order[lv]) {
				if s == k {
					g = x
				}
			}
			if g < 0 {
				return nil, sqlerr.Unsupported("this nesting of outer joins")
			}
			if groups[lv] == nil {
				groups[lv] = make([][]sqlparser.Expr, len(b.chain(order[lv])))
			}
			groups[lv][g] = append(groups[lv][g], cd)
		}
	}
	return groups, nil
}

// unknownInOn is the 1054 error of an ON condition that reads a table
// outside its join (items lo..hi-1).
func (b *fromBuilder) unknownInOn(cd sqlparser.Expr, sc *eval.Scope, offs []int, lo, hi int) error {
	name := sqlparser.String(cd)
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		cn, ok := node.(*sqlparser.ColName)
		if !ok {
			return true, nil
		}
		if i, err := sc.Resolve(cn); err == nil && (plan.SourceOf(i, offs) < lo || plan.SourceOf(i, offs) >= hi) {
			name = sqlparser.String(cn)
			return false, nil
		}
		return true, nil
	}, cd)
	return sqlerr.BadField(name, "on clause")
}

// levelNest is what the join needs at one level (tableSource): the nests
// ending there, the condition groups and, for the first level of a nest,
// where its NULL extension resumes.
func (b *fromBuilder) levelNest(src *tableSource, item, lvl int, pos []int, groups [][]sqlparser.Expr, top []sqlparser.Expr) (on, filter []sqlparser.Expr, mid [][]sqlparser.Expr) {
	ch := b.chain(item)
	src.nestLast = lvl
	if n := b.nestOf(item); n >= 0 && b.nests[n].first == item {
		last := b.nests[n].last
		src.nestLast = pos[last]
		for g, s := range b.chain(last) {
			if s == n {
				src.nestGroup = g
			}
		}
	}
	group := func(g int) []sqlparser.Expr {
		if ch[g] < 0 {
			return top
		}
		if g < len(groups) {
			return groups[g]
		}
		return nil
	}
	if len(ch) == 1 {
		filter = group(0)
	} else {
		on, filter = group(0), group(len(ch)-1)
		for g := 1; g < len(ch)-1; g++ {
			mid = append(mid, group(g))
		}
		for _, s := range ch[:len(ch)-1] {
			src.ends = append(src.ends, pos[b.nests[s].first])
		}
	}
	src.nested = src.nestLast != lvl || len(src.ends) > 1 || len(src.ends) == 1 && src.ends[0] != lvl
	return on, filter, mid
}

// groupsFrom evaluates the condition groups of level i from group k on
// (group 0 is src.on when nests end at i, else src.filter; then src.mid;
// src.filter last), marking each nest that ends at i matched once its
// group passed.
func (j *joinIter) groupsFrom(ex *execCtx, i, k int) (bool, error) {
	src := j.srcs[i]
	n := len(src.ends)
	for ; k <= n; k++ {
		var conds []*eval.Expr
		switch {
		case k == n:
			conds = src.filter
		case k == 0:
			conds = src.on
		default:
			conds = src.mid[k-1]
		}
		if pass, err := j.passes(ex, conds); err != nil || !pass {
			return false, err
		}
		if k < n {
			j.level[src.ends[k]].matched = true
		}
	}
	return true, nil
}

// matchNested finishes a row of level i whose src.on passed.
func (j *joinIter) matchNested(ex *execCtx, i int) (bool, error) {
	src := j.srcs[i]
	if len(src.ends) == 0 {
		return j.passes(ex, src.filter)
	}
	j.level[src.ends[0]].matched = true
	return j.groupsFrom(ex, i, 1)
}

// nullNest NULL-extends the nest that starts at level i (no row of it
// matched): its levels are done, and the conditions of the scopes around
// it are evaluated at its last level, which it returns.
func (j *joinIter) nullNest(ex *execCtx, i int) (int, bool, error) {
	src := j.srcs[i]
	last := src.nestLast
	for k := i; k <= last; k++ {
		j.placeNull(k)
		if k > i {
			l := &j.level[k]
			l.done, l.nulled = true, true
		}
	}
	pass, err := j.groupsFrom(ex, last, src.nestGroup+1)
	return last, pass, err
}

// nestGroupConds lists a nested level's condition groups for EXPLAIN,
// without the conditions its key ranges enforce.
func nestGroupConds(src *tableSource, on []sqlparser.Expr, mid [][]sqlparser.Expr, filter []sqlparser.Expr) [][]sqlparser.Expr {
	var out [][]sqlparser.Expr
	if len(src.ends) > 0 {
		out = append(out, on)
	}
	out = append(out, mid...)
	out = append(out, filter)
	if src.path != nil {
		out[0], _ = plan.SplitConsumed(out[0], src.path.consumed)
	}
	return out
}

// simplifyOuter checks the ON conditions (they may read only the tables
// of their join's operands: 1054) and turns an outer join into
// an inner join where a condition of the enclosing scope rejects the
// NULL-extended row (`a LEFT JOIN b ON … WHERE b.x = 1`), as MySQL does:
// the results are the same, and the join order is then free. where is the
// WHERE clause's conjuncts.
func (b *fromBuilder) simplifyOuter(where []sqlparser.Expr, sc *eval.Scope, offs []int, outer *eval.Outer) error {
	saved := sc.Where
	sc.Where = "on clause"
	for _, o := range b.onScopes {
		for _, cd := range o.on {
			set, err := plan.ReferencedSet(cd, sc, offs, outer)
			if err != nil {
				sc.Where = saved
				return err
			}
			if o.lo < 64 && set&(uint64(1)<<o.lo-1) != 0 || set>>o.hi != 0 {
				sc.Where = saved
				return b.unknownInOn(cd, sc, offs, o.lo, o.hi)
			}
		}
	}
	sc.Where = saved
	for changed := true; changed; {
		changed = false
		for k := range b.nests {
			n := &b.nests[k]
			if n.gone {
				continue
			}
			conds := b.where
			if n.parent >= 0 {
				conds = b.nests[n.parent].on
			}
			if !b.rejectsNull(conds, k, sc, offs) && (n.parent >= 0 || !b.rejectsNull(where, k, sc, offs)) {
				continue
			}
			n.gone, changed = true, true
			b.items[n.first].outer = false
			for i := n.first; i <= n.last; i++ {
				if b.itemNest[i] == k {
					b.itemNest[i] = n.parent
				}
			}
			for j := range b.nests {
				if b.nests[j].parent == k {
					b.nests[j].parent = n.parent
				}
			}
			if n.parent < 0 {
				b.where = append(b.where, n.on...)
			} else {
				b.nests[n.parent].on = append(b.nests[n.parent].on, n.on...)
			}
		}
	}
	return nil
}

// rejectsNull reports whether one of conds is false or NULL whenever a
// column of a table in nest k is NULL: a comparison (not <=>), IN, LIKE or
// BETWEEN with the column as an operand, or IS [NOT] NULL/TRUE/FALSE that
// needs it non-NULL. Only qualified columns count (an unqualified USING
// column may be another table's).
func (b *fromBuilder) rejectsNull(conds []sqlparser.Expr, k int, sc *eval.Scope, offs []int) bool {
	in := func(e sqlparser.Expr) bool {
		cn, ok := e.(*sqlparser.ColName)
		if !ok || cn.Qualifier.IsEmpty() {
			return false
		}
		col, err := sc.Resolve(cn)
		if err != nil {
			return false
		}
		item := plan.SourceOf(col, offs)
		if item < 0 || item >= len(b.itemNest) {
			return false
		}
		for n := b.itemNest[item]; n >= 0; n = b.nests[n].parent {
			if n == k {
				return true
			}
		}
		return false
	}
	for _, cd := range conds {
		switch e := cd.(type) {
		case *sqlparser.ComparisonExpr:
			if _, sub := e.Right.(*sqlparser.Subquery); sub {
				// NULL NOT IN (an empty subquery) and NULL > ALL (…)
				// are true.
				continue
			}
			if e.Operator != sqlparser.NullSafeEqualOp && (in(e.Left) || in(e.Right)) {
				return true
			}
		case *sqlparser.BetweenExpr:
			if in(e.Left) {
				return true
			}
		case *sqlparser.IsExpr:
			switch e.Right {
			case sqlparser.IsNotNullOp, sqlparser.IsTrueOp, sqlparser.IsFalseOp:
				if in(e.Left) {
					return true
				}
			}
		}
	}
	return false
}

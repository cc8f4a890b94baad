package plan

import (
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
)

// Access-path choice: which index reads a table and which of its key
// columns the sargable predicates fix. Each allowed index is scored by the
// predicates on its leading columns — 10 per column fixed by an equality
// (=, <=>, IS NULL, IN, a row-constructor IN, IN (SELECT ...)), 5 for a
// range on the next column, 1000 for a full equality on a unique key, 1
// for the primary key, 3 when its order gives the ORDER BY (6 more with a
// LIMIT when nothing else is gained) — and the best score wins; an index
// nothing serves is never chosen over the table scan unless forced.
// internal/sql compiles the chosen values into the executable access path
// (its key ranges are built from a row at execution time).

// OrderCol is one ORDER BY item resolved to a column of the table.
type OrderCol struct {
	Col  int // table column ordinal, -1 when not a plain column of this table
	Desc bool
}

// Bound is one end of the range on the column after the equalities: its
// value (nil: open) and whether it is included.
type Bound struct {
	Val  sqlparser.Expr
	Incl bool
}

// IndexChoice is the index chosen to read a table and what fixes its key.
type IndexChoice struct {
	Index *catalog.Index
	// EqPreds[k] gives the values of index column k (an equality-like
	// predicate); EqElems[k], for a row-constructor IN, the element of its
	// rows that does.
	EqPreds []*Predicate
	EqElems []int
	// Range is the predicate bounding column len(EqPreds) (nil: none), and
	// Lo and Hi the bounds it and a second predicate on the column give.
	Range  *Predicate
	Lo, Hi Bound
	// Ordered: rows come out in the ORDER BY order, backwards when
	// Reverse.
	Ordered, Reverse bool
	// Unique: a full equality on a unique index (at most one row).
	Unique bool
	// Consumed lists the conjuncts (of EqPreds and the range) the key
	// ranges enforce exactly; row-constructor INs are decided when they
	// are bound.
	Consumed []sqlparser.Expr
	// Possible are the indexes some predicate could use (EXPLAIN's
	// possible_keys).
	Possible []*catalog.Index
}

// ChooseIndex picks the index of table t for the sargable predicates
// preds (IN (SELECT ...) predicates whose subquery cannot be planned
// already dropped). order is the query's ORDER BY when this table alone
// determines it; hasLimit, a LIMIT over this table alone.
func ChooseIndex(t *catalog.Table, preds []Predicate, hints IndexHints, order []OrderCol, hasLimit bool) *IndexChoice {
	type cand struct {
		ix      *catalog.Index
		eqCols  int
		rngPred *Predicate
		eqPreds []*Predicate
		eqElems []int // for a "tuple" predicate: the element giving the column
		score   int
		ordered bool
		reverse bool
	}
	var best *cand
	var possible []*catalog.Index
	for ii, ix := range t.Indexes {
		if t.HiddenPK && ii == 0 {
			if hints.Use != nil {
				continue
			}
		}
		if !hints.Allowed(ix) {
			continue
		}
		cd := &cand{ix: ix}
		for _, ic := range ix.Columns {
			var eqp, rp *Predicate
			eqElem := 0
			for pi := range preds {
				p := &preds[pi]
				elem, ok := p.Binds(ic.Col)
				if !ok {
					continue
				}
				switch p.Op {
				case "=", "<=>", "in", "isnull", "insub", "tuple":
					if eqp == nil || eqRank(p) > eqRank(eqp) {
						eqp, eqElem = p, elem
					}
				default:
					if rp == nil {
						rp = p
					}
				}
			}
			if ic.Prefix > 0 {
				// A prefix key part can narrow but not decide: use it as the
				// last part only.
				if eqp != nil {
					cd.eqPreds = append(cd.eqPreds, eqp)
					cd.eqElems = append(cd.eqElems, eqElem)
					cd.eqCols++
				}
				break
			}
			if eqp != nil {
				cd.eqPreds = append(cd.eqPreds, eqp)
				cd.eqElems = append(cd.eqElems, eqElem)
				cd.eqCols++
				continue
			}
			cd.rngPred = rp
			break
		}
		if cd.eqCols > 0 || cd.rngPred != nil {
			possible = append(possible, ix)
		}
		full := cd.eqCols == len(ix.Columns) && (ix.Primary || ix.Unique) && !t.HiddenPK
		if full {
			for _, p := range cd.eqPreds {
				if p.Op == "isnull" || p.Op == "<=>" {
					full = false
				}
			}
			for _, ic := range ix.Columns {
				if ic.Prefix > 0 {
					full = false
				}
			}
		}
		cd.score = cd.eqCols * 10
		if cd.rngPred != nil {
			cd.score += 5
		}
		if full {
			cd.score += 1000
		}
		if ix.Primary {
			cd.score++
		}
		// Index order satisfies ORDER BY?
		if len(order) > 0 {
			cd.ordered, cd.reverse = indexGivesOrder(t, ix, cd.eqPreds, order)
			if cd.ordered {
				cd.score += 3
				if hasLimit && cd.score < 10 {
					cd.score += 6 // ordered scan with LIMIT stops early
				}
			}
		}
		if cd.eqCols == 0 && cd.rngPred == nil && !cd.ordered {
			// Full scan: the primary index is the cheapest (no lookups),
			// unless the query forces another index.
			if !ix.Primary && !hints.Force {
				cd.score = -1
			}
		}
		if hints.Force && cd.score < 1 {
			cd.score = 1
		}
		if best == nil || cd.score > best.score {
			best = cd
		}
	}
	if best == nil || best.score < 0 {
		ix := t.Primary()
		if best != nil {
			ix = best.ix
		}
		ch := &IndexChoice{Index: ix, Possible: possible}
		ch.Ordered, ch.Reverse = indexGivesOrder(t, ix, nil, order)
		if t.HiddenPK && ix == t.Primary() {
			ch.Ordered = false
		}
		return ch
	}
	ch := &IndexChoice{Index: best.ix, EqPreds: best.eqPreds, EqElems: best.eqElems,
		Ordered: best.ordered, Reverse: best.reverse, Possible: possible}
	ch.Unique = best.eqCols == len(best.ix.Columns) && (best.ix.Primary || best.ix.Unique) && best.score >= 1000
	for k, p := range best.eqPreds {
		if p.Op != "tuple" && Consumable(p, best.ix.Columns[k]) {
			ch.Consumed = append(ch.Consumed, p.Src)
		}
	}
	rp := best.rngPred
	if rp == nil {
		return ch
	}
	ch.Range = rp
	rangeCol := best.ix.Columns[len(best.eqPreds)]
	if Consumable(rp, rangeCol) {
		ch.Consumed = append(ch.Consumed, rp.Src)
	}
	switch rp.Op {
	case "<", "<=":
		ch.Hi = Bound{Val: rp.Vals[0], Incl: rp.Op == "<="}
	case ">", ">=":
		ch.Lo = Bound{Val: rp.Vals[0], Incl: rp.Op == ">="}
	case "between":
		ch.Lo = Bound{Val: rp.Vals[0], Incl: true}
		ch.Hi = Bound{Val: rp.Vals[1], Incl: true}
	}
	// A second bound on the same column (a > 1 AND a < 5).
	for pi := range preds {
		p := &preds[pi]
		if p == rp || p.Col != rp.Col {
			continue
		}
		switch {
		case (p.Op == "<" || p.Op == "<=") && ch.Hi.Val == nil:
			ch.Hi = Bound{Val: p.Vals[0], Incl: p.Op == "<="}
			if Consumable(p, rangeCol) {
				ch.Consumed = append(ch.Consumed, p.Src)
			}
		case (p.Op == ">" || p.Op == ">=") && ch.Lo.Val == nil:
			ch.Lo = Bound{Val: p.Vals[0], Incl: p.Op == ">="}
			if Consumable(p, rangeCol) {
				ch.Consumed = append(ch.Consumed, p.Src)
			}
		}
	}
	return ch
}

// orderColumns are the key columns a scan of ix returns its rows in: the
// index's, then, for a secondary index, the primary key's columns it does
// not hold (every secondary entry ends with the row's primary key, so rows
// equal on the index columns come in primary-key order: InnoDB's extended
// keys).
func orderColumns(t *catalog.Table, ix *catalog.Index) []catalog.IndexColumn {
	if ix.Primary || t == nil || t.HiddenPK {
		return ix.Columns
	}
	cols := ix.Columns
	extended := false
	for _, pc := range t.Primary().Columns {
		held := false
		for _, ic := range ix.Columns {
			if ic.Col == pc.Col && ic.Prefix == 0 {
				held = true
			}
		}
		if !held {
			if !extended {
				cols = append([]catalog.IndexColumn(nil), ix.Columns...)
				extended = true
			}
			cols = append(cols, pc)
		}
	}
	return cols
}

// indexGivesOrder reports whether scanning ix (with the given equality
// predicates on its leading columns) yields rows in ORDER BY order, and in
// which direction.
func indexGivesOrder(t *catalog.Table, ix *catalog.Index, eqPreds []*Predicate, order []OrderCol) (ordered, reverse bool) {
	if len(order) == 0 {
		return false, false
	}
	cols := orderColumns(t, ix)
	for _, p := range eqPreds {
		if ((p.Op == "in" || p.Op == "tuple") && len(p.Vals) > 1) || p.Op == "insub" {
			return false, false
		}
	}
	eqCol := map[int]bool{}
	for _, p := range eqPreds {
		eqCol[p.Col] = true
		for _, c := range p.Cols {
			eqCol[c] = true // a one-row tuple fixes all its columns
		}
	}
	k := 0
	dir := 0 // 1 forward, -1 reverse
	for _, oc := range order {
		if oc.Col < 0 {
			return false, false
		}
		// Skip index columns fixed by equality.
		for k < len(cols) && eqCol[cols[k].Col] && cols[k].Col != oc.Col {
			k++
		}
		if k >= len(cols) {
			// Ordering by a column fixed by equality is trivially satisfied.
			if eqCol[oc.Col] {
				continue
			}
			return false, false
		}
		ic := cols[k]
		if ic.Col != oc.Col || ic.Prefix > 0 {
			if eqCol[oc.Col] {
				continue
			}
			return false, false
		}
		d := 1
		if oc.Desc != ic.Desc {
			d = -1
		}
		if dir == 0 {
			dir = d
		} else if dir != d {
			return false, false
		}
		k++
	}
	return true, dir == -1
}

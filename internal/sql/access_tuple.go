package sql

import (
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
	"github.com/strata-db/strata/internal/table"
)

// Row constructors in access paths.
//
// A row-constructor IN, (a, b) IN ((1, 5), (1, 77)), fixes several columns
// together: its rows are alternatives for the combination, not for each
// column apart. An access path binds index columns to elements of such a
// predicate (in whatever order the columns appear in the tuple) and expands
// key prefixes row by row, so (a, b) IN (...) on an index (a, b) reads one
// key per row, on an index (a, b, c) one range per row, and on (b, a) the
// same with the elements reordered. Row equality, (a, b) = (1, 5), and a
// one-row IN are split into per-column equalities before planning
// (plan.SplitRowEquality), so they serve indexes like a = 1 AND b = 5.

// tupleIn is a row-constructor IN used by an access path.
type tupleIn struct {
	src *plan.Predicate
	// rows[r][e] is element e of row r, compiled.
	rows [][]*eval.Expr
	// bound[e]: element e gives the value of an index column of the path.
	bound []bool
	// prefixed: an element is bound to a prefix key part (the key range
	// then only narrows, the predicate must be re-checked).
	prefixed bool
}

// tupleRef binds an index column to element e of the path's tuple t
// (t = -1: the column's values come from eq instead).
type tupleRef struct{ t, e int }

// keyPrefix is one key prefix being expanded by accessPath.ranges, with the
// row each tuple of the path is fixed to along the way (-1: not yet).
type keyPrefix struct {
	key  []byte
	pick []int32
}

// bindTuple makes index column k of the path take its values from element
// elem of the row-constructor IN p.
func (ap *accessPath) bindTuple(c *compiler, k int, p *plan.Predicate, elem int) error {
	t := -1
	for i, tu := range ap.tuples {
		if tu.src == p {
			t = i
		}
	}
	if t < 0 {
		tu := &tupleIn{src: p, bound: make([]bool, len(p.Cols))}
		for _, r := range p.Vals {
			rt := r.(sqlparser.ValTuple)
			row := make([]*eval.Expr, len(rt))
			for e, v := range rt {
				x, err := c.Compile(v)
				if err != nil {
					return err
				}
				row[e] = x
			}
			tu.rows = append(tu.rows, row)
		}
		t = len(ap.tuples)
		ap.tuples = append(ap.tuples, tu)
	}
	tu := ap.tuples[t]
	tu.bound[elem] = true
	if ap.ix.Columns[k].Prefix > 0 {
		tu.prefixed = true
	}
	for len(ap.tupleOf) < k {
		ap.tupleOf = append(ap.tupleOf, tupleRef{t: -1})
	}
	ap.tupleOf = append(ap.tupleOf, tupleRef{t: t, e: elem})
	return nil
}

// consumeTuples marks the row-constructor INs whose every element is bound
// to an index column as enforced by the key ranges.
func (ap *accessPath) consumeTuples(ix *catalog.Index) {
	for _, tu := range ap.tuples {
		all := !tu.prefixed
		for _, b := range tu.bound {
			all = all && b
		}
		if all && plan.Consumable(tu.src, catalog.IndexColumn{}) {
			ap.consumed = append(ap.consumed, tu.src.Src)
		}
	}
}

// noPicks returns the initial tuple choice of a key prefix (nil without
// tuples).
func (ap *accessPath) noPicks() []int32 {
	if ap.tuples == nil {
		return nil
	}
	pick := make([]int32, len(ap.tuples))
	for i := range pick {
		pick[i] = -1
	}
	return pick
}

// tupleParts evaluates and encodes, for every index column bound to a
// tuple, the key part of each of the tuple's rows: parts[k][r] (nil when
// row r has NULL there and so cannot match). exact is false when a value
// cannot be encoded exactly as the column's key (the caller falls back to a
// wider range and the filter decides).
func (ap *accessPath) tupleParts(ex *execCtx, t *table.Table, row Row) (parts [][][]byte, exact bool, err error) {
	parts = make([][][]byte, len(ap.eq))
	for k, tr := range ap.tupleOf {
		if tr.t < 0 {
			continue
		}
		tu := ap.tuples[tr.t]
		ic := ap.ix.Columns[k]
		col := &t.Def.Columns[ic.Col]
		ps := make([][]byte, len(tu.rows))
		for r, vals := range tu.rows {
			v, err := ex.Eval(vals[tr.e], row)
			if err != nil {
				return nil, false, err
			}
			if v.IsNull() {
				continue // (a, b) IN ((1, NULL)) is never true
			}
			cv, ok := ex.s.storedKeyValue(col, v)
			if !ok {
				return nil, false, nil
			}
			b, err := t.AppendKeyPart(nil, ic, cv)
			if err != nil {
				return nil, false, nil
			}
			ps[r] = b
		}
		parts[k] = ps
	}
	return parts, true, nil
}

// extendTuple appends to each prefix the key part of tuple t's row: the row
// the prefix is already fixed to, or else each live row in turn.
func (ap *accessPath) extendTuple(prefixes []keyPrefix, t int, parts [][]byte) []keyPrefix {
	var next []keyPrefix
	for _, p := range prefixes {
		if r := p.pick[t]; r >= 0 {
			if parts[r] == nil {
				continue
			}
			// Each prefix owns its key bytes; p is not used again.
			p.key = append(p.key, parts[r]...)
			next = append(next, p)
			continue
		}
		for r, part := range parts {
			if part == nil {
				continue
			}
			pick := append([]int32(nil), p.pick...)
			pick[t] = int32(r)
			key := make([]byte, 0, len(p.key)+len(part))
			next = append(next, keyPrefix{key: append(append(key, p.key...), part...), pick: pick})
		}
	}
	return next
}

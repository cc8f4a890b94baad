package sql

import (
	"bytes"
	"sort"
	"strings"

	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/encoding"
	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// accessPath is how one table is read: an index and key ranges built at
// execution time from expressions that do not depend on the table itself.
type accessPath struct {
	ix *catalog.Index
	// eq[k] lists the alternative values of index column k (= or IN).
	eq [][]*eval.Expr
	// subIn[k], when set, gives index column k's values from an
	// uncorrelated IN (SELECT ...) instead of eq[k] (compat_insub.go).
	subIn []*inSubquery
	// tupleOf[k], when tupleOf is set and tupleOf[k].t >= 0, gives index
	// column k's values from element e of the row-constructor IN
	// tuples[t] instead of eq[k] (access_tuple.go).
	tuples  []*tupleIn
	tupleOf []tupleRef
	// nullSafe[k]: the predicate on column k was <=> or IS NULL (NULL matches).
	nullSafe []bool
	isNull   []bool // column k IS NULL
	// Optional range on column len(eq).
	lo, hi         *eval.Expr
	loIncl, hiIncl bool
	hasRange       bool
	// reverse iterates the index backwards (ORDER BY ... DESC).
	reverse bool
	// ordered: rows come out in the ORDER BY order.
	ordered bool
	// unique: a full equality on a unique index (at most one row per value).
	unique bool
	// consumed lists the conjuncts the key ranges enforce exactly; they need
	// no re-check unless a range had to be widened at execution.
	consumed []sqlparser.Expr
	// inexact is set by ranges when a bound could not be used exactly (the
	// consumed conjuncts must be re-checked). Plans are not shared between
	// sessions, and a plan runs one execution at a time.
	inexact bool
	keyBuf  []byte

	// For EXPLAIN: the indexes a predicate could use (possible_keys), and
	// per equality column its single value (nil for IS NULL or several
	// values).
	possible []*catalog.Index
	eqVals   []sqlparser.Expr
}

// consumedAfterLock reports whether the conjuncts the key ranges enforce
// still hold for the rows a read with lock mode lock returns. A plain read
// returns the rows the ranges found. A locking read re-reads each row at
// its latest version after taking its lock (joinIter.lockAndReread); the
// row found through a primary-key range still has that key, but a row
// found through a secondary index may have changed its indexed columns
// between the index read and the lock, so those conjuncts are checked
// again.
func (ap *accessPath) consumedAfterLock(lock lockMode) bool {
	return lock == lockNone || ap.ix != nil && ap.ix.Primary
}

// singleAlts reports whether every equality has exactly one value (the
// path reads at most one key prefix).
func (ap *accessPath) singleAlts() bool {
	if ap.tuples != nil {
		return false
	}
	for _, alts := range ap.eq {
		if len(alts) != 1 {
			return false
		}
	}
	return true
}

// wholeRange scans the whole index (a bound could not be used exactly).
func (ap *accessPath) wholeRange(dst []keyRange) ([]keyRange, bool, error) {
	ap.inexact = true
	base := table.IndexPrefix(nil, ap.ix)
	return append(dst[:0], keyRange{lo: base, hi: encoding.PrefixEnd(append([]byte(nil), base...))}), true, nil
}

// orderCol is one ORDER BY item resolved to a column of the table.
type orderCol struct {
	col  int // table column ordinal, -1 when not a plain column of this table
	desc bool
}

// chooseAccess picks the index and builds the access path for a table.
// order is the ORDER BY of the query when this table alone determines it.
func chooseAccess(c *compiler, t *catalog.Table, preds []plan.Predicate, hints plan.IndexHints, order []orderCol, hasLimit bool) (*accessPath, error) {
	type cand struct {
		ix      *catalog.Index
		eqCols  int
		rngPred *plan.Predicate
		eqPreds []*plan.Predicate
		eqElems []int // for a "tuple" predicate: the element giving the column
		score   int
		ordered bool
		reverse bool
	}
	preds, subs := c.resolveInSubqueries(preds)
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
			var eqp, rp *plan.Predicate
			eqElem := 0
			for pi := range preds {
				p := &preds[pi]
				elem, ok := p.Binds(ic.Col)
				if !ok {
					continue
				}
				switch p.Op {
				case "=", "<=>", "in", "isnull", "insub", "tuple":
					if eqp == nil || plan.EqRank(p) > plan.EqRank(eqp) {
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
			cd.ordered, cd.reverse = indexGivesOrder(ix, cd.eqPreds, order)
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
		ap := &accessPath{ix: ix, possible: possible}
		ap.ordered, ap.reverse = indexGivesOrder(ix, nil, order)
		if t.HiddenPK && ix == t.Primary() {
			ap.ordered = false
		}
		return ap, nil
	}
	ap := &accessPath{ix: best.ix, ordered: best.ordered, reverse: best.reverse, possible: possible}
	ap.unique = best.eqCols == len(best.ix.Columns) && (best.ix.Primary || best.ix.Unique) && best.score >= 1000
	for k, p := range best.eqPreds {
		if p.Op == "tuple" {
			if err := ap.bindTuple(c, k, p, best.eqElems[k]); err != nil {
				return nil, err
			}
			ap.eq = append(ap.eq, nil)
			ap.nullSafe = append(ap.nullSafe, false)
			ap.isNull = append(ap.isNull, false)
			continue
		}
		if ap.tupleOf != nil {
			ap.tupleOf = append(ap.tupleOf, tupleRef{t: -1})
		}
		var single sqlparser.Expr
		if len(p.Vals) == 1 && p.Op != "insub" {
			single = p.Vals[0]
		}
		for len(ap.eqVals) < k {
			ap.eqVals = append(ap.eqVals, nil)
		}
		ap.eqVals = append(ap.eqVals, single)
		if plan.Consumable(p, best.ix.Columns[k]) {
			ap.consumed = append(ap.consumed, p.Src)
		}
		var alts []*eval.Expr
		var sub *inSubquery
		switch p.Op {
		case "isnull":
			alts = []*eval.Expr{nil}
		case "insub":
			sub = subs[p.Vals[0].(*sqlparser.Subquery)]
		default:
			for _, v := range p.Vals {
				e, err := c.Compile(v)
				if err != nil {
					return nil, err
				}
				alts = append(alts, e)
			}
		}
		ap.eq = append(ap.eq, alts)
		if sub != nil || ap.subIn != nil {
			for len(ap.subIn) < k {
				ap.subIn = append(ap.subIn, nil)
			}
			ap.subIn = append(ap.subIn, sub)
		}
		ap.nullSafe = append(ap.nullSafe, p.Op == "<=>" || p.Op == "isnull")
		ap.isNull = append(ap.isNull, p.Op == "isnull")
	}
	ap.consumeTuples(best.ix)
	if rp := best.rngPred; rp != nil {
		var err error
		ap.hasRange = true
		rangeCol := best.ix.Columns[len(best.eqPreds)]
		if plan.Consumable(rp, rangeCol) {
			ap.consumed = append(ap.consumed, rp.Src)
		}
		switch rp.Op {
		case "<", "<=":
			ap.hi, err = c.Compile(rp.Vals[0])
			ap.hiIncl = rp.Op == "<="
		case ">", ">=":
			ap.lo, err = c.Compile(rp.Vals[0])
			ap.loIncl = rp.Op == ">="
		case "between":
			ap.lo, err = c.Compile(rp.Vals[0])
			if err == nil {
				ap.hi, err = c.Compile(rp.Vals[1])
			}
			ap.loIncl, ap.hiIncl = true, true
		}
		if err != nil {
			return nil, err
		}
		// A second bound on the same column (a > 1 AND a < 5).
		for pi := range preds {
			p := &preds[pi]
			if p == rp || p.Col != rp.Col {
				continue
			}
			switch {
			case (p.Op == "<" || p.Op == "<=") && ap.hi == nil:
				ap.hi, err = c.Compile(p.Vals[0])
				ap.hiIncl = p.Op == "<="
				if plan.Consumable(p, rangeCol) {
					ap.consumed = append(ap.consumed, p.Src)
				}
			case (p.Op == ">" || p.Op == ">=") && ap.lo == nil:
				ap.lo, err = c.Compile(p.Vals[0])
				ap.loIncl = p.Op == ">="
				if plan.Consumable(p, rangeCol) {
					ap.consumed = append(ap.consumed, p.Src)
				}
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return ap, nil
}

// indexGivesOrder reports whether scanning ix (with the given equality
// predicates on its leading columns) yields rows in ORDER BY order, and in
// which direction.
func indexGivesOrder(ix *catalog.Index, eqPreds []*plan.Predicate, order []orderCol) (ordered, reverse bool) {
	if len(order) == 0 {
		return false, false
	}
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
		if oc.col < 0 {
			return false, false
		}
		// Skip index columns fixed by equality.
		for k < len(ix.Columns) && eqCol[ix.Columns[k].Col] && ix.Columns[k].Col != oc.col {
			k++
		}
		if k >= len(ix.Columns) {
			// Ordering by a column fixed by equality is trivially satisfied.
			if eqCol[oc.col] {
				continue
			}
			return false, false
		}
		ic := ix.Columns[k]
		if ic.Col != oc.col || ic.Prefix > 0 {
			if eqCol[oc.col] {
				continue
			}
			return false, false
		}
		d := 1
		if oc.desc != ic.Desc {
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

// keyRange is one [lo, hi) range of index keys.
type keyRange struct {
	lo, hi []byte
	// point: lo is a complete primary key (hi unused).
	point bool
}

// ranges evaluates the access path's bounds against row (outer tables
// filled) and encodes the key ranges. ok=false means the path cannot match
// any row.
func (ap *accessPath) ranges(ex *execCtx, t *table.Table, row Row, dst []keyRange) ([]keyRange, bool, error) {
	ix := ap.ix
	ap.inexact = false
	if !ap.hasRange && ap.singleAlts() {
		// One key prefix (the point-lookup case): build it in a buffer
		// reused across executions.
		buf := table.IndexPrefix(ap.keyBuf[:0], ix)
		for k, alts := range ap.eq {
			ic := ix.Columns[k]
			col := &t.Def.Columns[ic.Col]
			var v sqltypes.Value
			if alts[0] != nil {
				x, err := ex.Eval(alts[0], row)
				if err != nil {
					return nil, false, err
				}
				v = x
			}
			if v.IsNull() {
				if !ap.nullSafe[k] {
					return dst[:0], false, nil
				}
			} else {
				cv, ok := exactKeyValue(col, v)
				if !ok {
					return ap.wholeRange(dst)
				}
				v = cv
			}
			nb, err := t.AppendKeyPart(buf, ic, v)
			if err != nil {
				return ap.wholeRange(dst)
			}
			buf = nb
		}
		ap.keyBuf = buf
		if ap.unique && ix.Primary {
			return append(dst[:0], keyRange{lo: buf, point: true}), true, nil
		}
		return append(dst[:0], keyRange{lo: buf, hi: encoding.PrefixEnd(append([]byte(nil), buf...))}), true, nil
	}
	var tparts [][][]byte
	if ap.tuples != nil {
		parts, exact, err := ap.tupleParts(ex, t, row)
		if err != nil {
			return nil, false, err
		}
		if !exact {
			return ap.wholeRange(dst)
		}
		tparts = parts
	}
	prefixes := []keyPrefix{{key: table.IndexPrefix(nil, ix), pick: ap.noPicks()}}
	for k, alts := range ap.eq {
		ic := ix.Columns[k]
		col := &t.Def.Columns[ic.Col]
		if ap.tupleOf != nil && ap.tupleOf[k].t >= 0 {
			prefixes = ap.extendTuple(prefixes, ap.tupleOf[k].t, tparts[k])
			if len(prefixes) > 4096 {
				return ap.wholeRange(dst)
			}
			if len(prefixes) == 0 {
				return dst[:0], false, nil
			}
			continue
		}
		var next []keyPrefix
		var subVals []sqltypes.Value
		if k < len(ap.subIn) && ap.subIn[k] != nil {
			vals, err := ap.subIn[k].values(ex, row)
			if err != nil {
				return nil, false, err
			}
			subVals = vals
		}
		for ai := 0; ai < len(alts)+len(subVals); ai++ {
			var v sqltypes.Value
			if ai >= len(alts) {
				v = subVals[ai-len(alts)]
			} else if alt := alts[ai]; alt != nil {
				x, err := ex.Eval(alt, row)
				if err != nil {
					return nil, false, err
				}
				v = x
			}
			if v.IsNull() {
				if !ap.nullSafe[k] {
					continue // col = NULL matches nothing
				}
			} else {
				cv, ok := exactKeyValue(col, v)
				if !ok {
					return ap.wholeRange(dst)
				}
				v = cv
			}
			for _, p := range prefixes {
				k2, err := t.AppendKeyPart(append([]byte(nil), p.key...), ic, v)
				if err != nil {
					return ap.wholeRange(dst)
				}
				next = append(next, keyPrefix{key: k2, pick: p.pick})
			}
			if len(next) > 4096 {
				return ap.wholeRange(dst)
			}
		}
		prefixes = next
		if len(prefixes) == 0 {
			return dst[:0], false, nil
		}
	}
	out := dst[:0]
	point := ap.unique && !ap.hasRange && ix.Primary
	if !ap.hasRange {
		for _, pf := range prefixes {
			p := pf.key
			if point {
				out = append(out, keyRange{lo: p, point: true})
				continue
			}
			out = append(out, keyRange{lo: p, hi: encoding.PrefixEnd(append([]byte(nil), p...))})
		}
		return sortRanges(out), len(out) > 0, nil
	}
	// Range on column len(eq).
	ic := ix.Columns[len(ap.eq)]
	col := &t.Def.Columns[ic.Col]
	bound := func(e *eval.Expr) ([]byte, bool, bool, error) {
		if e == nil {
			return nil, false, true, nil
		}
		v, err := ex.Eval(e, row)
		if err != nil {
			return nil, false, false, err
		}
		if v.IsNull() {
			return nil, false, false, nil // comparison with NULL: no rows
		}
		cv, ok := exactKeyValue(col, v)
		if !ok {
			ap.inexact = true
			return nil, false, true, nil // drop the bound; the filter decides
		}
		b, err := t.AppendKeyParts(nil, &catalog.Index{Columns: []catalog.IndexColumn{{Col: ic.Col}}}, []sqltypes.Value{cv})
		if err != nil {
			ap.inexact = true
			return nil, false, true, nil
		}
		return b, true, true, nil
	}
	loKey, hasLo, ok, err := bound(ap.lo)
	if err != nil || !ok {
		return dst[:0], false, err
	}
	hiKey, hasHi, ok, err := bound(ap.hi)
	if err != nil || !ok {
		return dst[:0], false, err
	}
	loIncl, hiIncl := ap.loIncl, ap.hiIncl
	if ic.Desc {
		// Descending key part: value order is reversed in bytes.
		if hasLo {
			encoding.Invert(loKey)
		}
		if hasHi {
			encoding.Invert(hiKey)
		}
		loKey, hiKey = hiKey, loKey
		hasLo, hasHi = hasHi, hasLo
		loIncl, hiIncl = hiIncl, loIncl
	}
	for _, pf := range prefixes {
		p := pf.key
		var lo, hi []byte
		switch {
		case hasLo && loIncl:
			lo = append(append([]byte(nil), p...), loKey...)
		case hasLo:
			lo = encoding.PrefixEnd(append(append([]byte(nil), p...), loKey...))
		case !ic.Desc:
			// Skip NULLs: a range predicate never matches NULL.
			lo = append(append([]byte(nil), p...), encoding.NotNullMarker)
		default:
			lo = append([]byte(nil), p...)
		}
		switch {
		case hasHi && hiIncl:
			hi = encoding.PrefixEnd(append(append([]byte(nil), p...), hiKey...))
		case hasHi:
			hi = append(append([]byte(nil), p...), hiKey...)
		default:
			hi = encoding.PrefixEnd(append([]byte(nil), p...))
		}
		if hi != nil && bytes.Compare(lo, hi) >= 0 {
			continue
		}
		out = append(out, keyRange{lo: lo, hi: hi})
	}
	return sortRanges(out), len(out) > 0, nil
}

func sortRanges(r []keyRange) []keyRange {
	if len(r) < 2 {
		return r
	}
	sort.Slice(r, func(i, j int) bool { return bytes.Compare(r[i].lo, r[j].lo) < 0 })
	out := r[:1]
	for _, x := range r[1:] {
		if bytes.Equal(x.lo, out[len(out)-1].lo) {
			continue
		}
		out = append(out, x)
	}
	return out
}

// exactKeyValue converts v to the column type for key encoding, reporting
// whether the conversion kept the value exactly (else the index cannot be
// used with it and the caller widens the range).
func exactKeyValue(col *catalog.Column, v sqltypes.Value) (sqltypes.Value, bool) {
	// Integers already in canonical form need no conversion; a value out
	// of the column's range makes the key encoder fail, which widens the
	// range.
	if (sqltypes.IsSigned(col.Type) && v.IsSigned()) || (sqltypes.IsUnsigned(col.Type) && v.IsUnsigned()) {
		if col.Type != sqltypes.Year && col.Type != sqltypes.Bit {
			return v, true
		}
	}
	if col.IsText() && !(v.IsText() || v.IsQuoted()) {
		return v, false // string column vs number: compared as numbers
	}
	cv, w, err := coltype.Convert(col, v, true, 0)
	if err != nil || w != nil {
		return v, false
	}
	if col.Type == sqltypes.Enum && (v.IsText() || v.IsQuoted()) &&
		strings.TrimRight(cv.ToString(), " ") != strings.TrimRight(v.ToString(), " ") {
		// A string naming no member is stored by its number ('2': the
		// second member) but compared as text, equal to no member; one
		// differing from its member in letter case is left to the
		// column's collation. Either way the filter decides.
		return v, false
	}
	if col.IsText() {
		return cv, true
	}
	if sqltypes.IsIntegral(col.Type) || sqltypes.IsFloat(col.Type) || col.Type == sqltypes.Decimal {
		cmp, err := evalengine.NullsafeCompare(v, cv, nil, 0, nil)
		if err != nil || cmp != 0 {
			return v, false
		}
	}
	return cv, true
}

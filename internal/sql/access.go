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

// accessPath is how one table is read: the planner's plan.IndexChoice
// compiled, an index and key ranges built at execution time from
// expressions that do not depend on the table itself.
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

	// choice is the planner's decision this path executes (EXPLAIN reads
	// its possible keys, access type and key values).
	choice *plan.IndexChoice
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

// chooseAccess picks the index of a table (plan.ChooseIndex) and builds
// its access path: the chosen values compiled, IN (SELECT ...) planned,
// row-constructor INs bound. order is the query's ORDER BY when this table
// alone determines it.
func chooseAccess(c *compiler, t *catalog.Table, preds []plan.Predicate, hints plan.IndexHints, order []plan.OrderCol, hasLimit bool) (*accessPath, error) {
	preds, subs := c.resolveInSubqueries(preds)
	ch := plan.ChooseIndex(t, preds, hints, order, hasLimit)
	// consumed grows past the choice's (bound row-constructor INs): it
	// must not share the choice's spare capacity.
	consumed := ch.Consumed[:len(ch.Consumed):len(ch.Consumed)]
	ap := &accessPath{ix: ch.Index, ordered: ch.Ordered, reverse: ch.Reverse, unique: ch.Unique, consumed: consumed,
		choice: ch}
	for k, p := range ch.EqPreds {
		if p.Op == "tuple" {
			if err := ap.bindTuple(c, k, p, ch.EqElems[k]); err != nil {
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
	ap.consumeTuples(ch.Index)
	if ch.Range == nil {
		return ap, nil
	}
	ap.hasRange = true
	// The range predicate's own bound is compiled first, then the other.
	lo, hi := &ch.Lo, &ch.Hi
	if op := ch.Range.Op; op == "<" || op == "<=" {
		lo, hi = hi, lo
	}
	for _, b := range [2]*plan.Bound{lo, hi} {
		if b.Val == nil {
			continue
		}
		e, err := c.Compile(b.Val)
		if err != nil {
			return nil, err
		}
		if b == &ch.Lo {
			ap.lo, ap.loIncl = e, b.Incl
		} else {
			ap.hi, ap.hiIncl = e, b.Incl
		}
	}
	return ap, nil
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
				cv, ok := ex.s.storedKeyValue(col, v)
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
				cv, ok := ex.s.storedKeyValue(col, v)
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
	bound := func(e *eval.Expr, upper bool) ([]byte, bool, bool, error) {
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
		cv, ok = ex.s.storedBound(col, cv, upper) // TIMESTAMP: UTC (timezone.go)
		if !ok {
			ap.inexact = true
		}
		b, err := t.AppendKeyParts(nil, &catalog.Index{Columns: []catalog.IndexColumn{{Col: ic.Col}}}, []sqltypes.Value{cv})
		if err != nil {
			ap.inexact = true
			return nil, false, true, nil
		}
		return b, true, true, nil
	}
	loKey, hasLo, ok, err := bound(ap.lo, false)
	if err != nil || !ok {
		return dst[:0], false, err
	}
	hiKey, hasHi, ok, err := bound(ap.hi, true)
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

package plan

import (
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
)

// What EXPLAIN shows of an access path in MySQL 8's terms: the access type
// and the length of the key prefix used. internal/sql renders the rows
// (the traditional table and FORMAT=TREE) from these and its executable
// plan, and counts the row estimates in the store.

// AccessType is MySQL's name for the access method (EXPLAIN's type):
// range when a range, a row-constructor IN, an IN (SELECT ...) or several
// values of an equality give the keys; const (eq_ref when outerRef: a
// value comes from a table read before this one) for a unique key; ref for
// equalities; index for the whole of an index read in its order; ALL for a
// table scan.
func (ch *IndexChoice) AccessType(outerRef bool) string {
	switch {
	case ch.Range != nil || !ch.singleValues():
		return "range"
	case ch.Unique && len(ch.EqPreds) > 0:
		if outerRef {
			return "eq_ref"
		}
		return "const"
	case len(ch.EqPreds) > 0:
		return "ref"
	case !ch.Index.Primary || ch.Ordered:
		return "index" // the whole index, in its order
	}
	return "ALL"
}

// singleValues reports whether every equality gives its column one value
// (IS NULL counts as one): no row-constructor IN, no IN (SELECT ...), no
// IN list of several values.
func (ch *IndexChoice) singleValues() bool {
	for _, p := range ch.EqPreds {
		switch {
		case p.Op == "tuple" || p.Op == "insub":
			return false
		case p.Op != "isnull" && len(p.Vals) != 1:
			return false
		}
	}
	return true
}

// EqValue is the one value the equality on key column k compares with
// (EXPLAIN's ref), or nil: several values, IS NULL, a row-constructor IN
// or an IN (SELECT ...).
func (ch *IndexChoice) EqValue(k int) sqlparser.Expr {
	if k >= len(ch.EqPreds) {
		return nil
	}
	p := ch.EqPreds[k]
	if p.Op == "tuple" || p.Op == "insub" || len(p.Vals) != 1 {
		return nil
	}
	return p.Vals[0]
}

// KeyLen is EXPLAIN's key_len: the bytes of the first parts key parts of
// ix as MySQL stores them (one more for a nullable column, two more for a
// variable-length one). ok is false for a hidden primary key (NULL).
func KeyLen(t *catalog.Table, ix *catalog.Index, parts int) (n int, ok bool) {
	if t.HiddenPK && ix.Primary {
		return 0, false
	}
	for _, ic := range ix.Columns[:min(parts, len(ix.Columns))] {
		n += KeyPartLen(&t.Columns[ic.Col], ic.Prefix)
	}
	return n, true
}

// KeyPartLen is the length MySQL counts for one key part.
func KeyPartLen(col *catalog.Column, prefix int) int {
	n := 0
	fsp := func() int { return (max(col.Scale, 0) + 1) / 2 }
	switch col.Type {
	case sqltypes.Int8, sqltypes.Uint8, sqltypes.Year:
		n = 1
	case sqltypes.Int16, sqltypes.Uint16:
		n = 2
	case sqltypes.Int24, sqltypes.Uint24, sqltypes.Date:
		n = 3
	case sqltypes.Int32, sqltypes.Uint32, sqltypes.Float32:
		n = 4
	case sqltypes.Int64, sqltypes.Uint64, sqltypes.Float64:
		n = 8
	case sqltypes.Time:
		n = 3 + fsp()
	case sqltypes.Datetime:
		n = 5 + fsp()
	case sqltypes.Timestamp:
		n = 4 + fsp()
	case sqltypes.Decimal:
		n = decimalBinSize(col.Length, max(col.Scale, 0))
	case sqltypes.Bit:
		n = (col.Length + 7) / 8
	case sqltypes.Enum:
		n = 1
		if len(col.EnumValues) > 255 {
			n = 2
		}
	case sqltypes.Set:
		n = (len(col.EnumValues) + 7) / 8
		if n > 4 {
			n = 8
		} else if n == 3 {
			n = 4
		}
	case sqltypes.Char, sqltypes.Binary:
		chars := col.Length
		if prefix > 0 {
			chars = prefix
		}
		n = chars * coltype.MaxCharLen(col.Collation)
	default: // VARCHAR, VARBINARY, TEXT, BLOB
		chars := col.Length
		if prefix > 0 {
			chars = prefix
		}
		n = chars*coltype.MaxCharLen(col.Collation) + 2
	}
	if col.Nullable {
		n++
	}
	return n
}

// decimalBinSize is the bytes of MySQL's binary DECIMAL(m, d).
func decimalBinSize(m, d int) int {
	dig2bytes := [10]int{0, 1, 1, 2, 2, 3, 3, 4, 4, 4}
	if m <= 0 {
		m = 10
	}
	intg := m - d
	return intg/9*4 + dig2bytes[intg%9] + d/9*4 + dig2bytes[d%9]
}

package exec

import (
	"strconv"

	"vitess.io/vitess/go/hack"
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/colldata"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/collation"
	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// SortVal is a value prepared for repeated ORDER BY comparison: integers
// and short decimals parsed once, text trimmed of its PAD SPACE padding.
// A text SortVal aliases the value's bytes.
type SortVal struct {
	kind uint8 // 0 NULL, 1 int, 2 uint, 3 float, 4 text, 5 other
	// ascii: text of ASCII bytes only, under a collation with the ASCII
	// fast path (collation.ASCIIWeights).
	ascii bool
	i     int64
	u     uint64
	f     float64
	b     []byte
	coll  collations.ID
	v     sqltypes.Value
}

// MakeSortVal prepares v, whose collation (for text) is coll.
func MakeSortVal(v sqltypes.Value, coll collations.ID) SortVal {
	switch {
	case v.IsNull():
		return SortVal{}
	case v.IsSigned():
		if n, err := strconv.ParseInt(hack.String(v.Raw()), 10, 64); err == nil {
			return SortVal{kind: 1, i: n, f: float64(n)}
		}
	case v.IsUnsigned():
		if n, err := strconv.ParseUint(hack.String(v.Raw()), 10, 64); err == nil {
			return SortVal{kind: 2, u: n, f: float64(n)}
		}
	case v.IsFloat() || (v.Type() == sqltypes.Decimal && len(v.Raw()) <= 16):
		if f, err := strconv.ParseFloat(hack.String(v.Raw()), 64); err == nil {
			return SortVal{kind: 3, f: f}
		}
	case v.IsText():
		b := collation.TrimPad(coll, v.Raw())
		return SortVal{kind: 4, b: b, coll: coll, v: v, ascii: collation.ASCIIWeights(coll) != nil && collation.IsASCII(b)}
	}
	return SortVal{kind: 5, v: v, coll: coll}
}

// Compare orders a before (-1), with (0) or after (1) b, ascending.
func (a *SortVal) Compare(b *SortVal, env *collations.Environment) (int, error) {
	switch {
	case a.kind == 0 || b.kind == 0:
		switch {
		case a.kind == b.kind:
			return 0, nil
		case a.kind == 0:
			return -1, nil
		default:
			return 1, nil
		}
	case a.kind == 1 && b.kind == 1:
		return cmp3(a.i < b.i, a.i > b.i), nil
	case a.kind == 2 && b.kind == 2:
		return cmp3(a.u < b.u, a.u > b.u), nil
	case a.kind <= 3 && b.kind <= 3 && !(a.kind == 2 && a.u > 1<<53) && !(b.kind == 2 && b.u > 1<<53):
		return cmp3(a.f < b.f, a.f > b.f), nil
	case a.kind == 4 && b.kind == 4 && a.coll == b.coll:
		if a.ascii && b.ascii {
			return collation.CompareASCII(collation.ASCIIWeights(a.coll), a.b, b.b), nil
		}
		if c := colldata.Lookup(a.coll); c != nil {
			return c.Collate(a.b, b.b, false), nil
		}
	}
	av, bv := a.v, b.v
	if a.kind != 5 && a.kind != 4 {
		av = a.value()
	}
	if b.kind != 5 && b.kind != 4 {
		bv = b.value()
	}
	return CompareValues(av, bv, env, a.coll)
}

func (a *SortVal) value() sqltypes.Value {
	switch a.kind {
	case 1:
		return sqltypes.NewInt64(a.i)
	case 2:
		return sqltypes.NewUint64(a.u)
	case 3:
		return sqltypes.NewFloat64(a.f)
	}
	return a.v
}

func cmp3(lt, gt bool) int {
	switch {
	case lt:
		return -1
	case gt:
		return 1
	}
	return 0
}

// CompareValues orders two values as ORDER BY does: NULL first, otherwise
// by evalengine's comparison under coll (PAD SPACE honoured).
func CompareValues(a, b sqltypes.Value, env *collations.Environment, coll collations.ID) (int, error) {
	if a.IsNull() || b.IsNull() {
		switch {
		case a.IsNull() && b.IsNull():
			return 0, nil
		case a.IsNull():
			return -1, nil
		default:
			return 1, nil
		}
	}
	// NullsafeCompare honours PAD SPACE (strata's evalengine fork).
	return evalengine.NullsafeCompare(a, b, env, coll, nil)
}

// compareKeys orders two rows' prepared keys under keys (DESC reversed).
func compareKeys(a, b []SortVal, keys []Key, env *collations.Environment) (int, error) {
	for k := range keys {
		c, err := a[k].Compare(&b[k], env)
		if err != nil {
			return 0, err
		}
		if c != 0 {
			if keys[k].Desc {
				return -c, nil
			}
			return c, nil
		}
	}
	return 0, nil
}

package sql

import (
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/colldata"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"
)

// A materialised source (a derived table, a CTE, an information_schema
// table) has no index; joined to an earlier table by an equality, every
// outer row would scan all of its rows. MySQL gives such a table an index
// on the join column (<auto_key0> in EXPLAIN); strata hashes its rows by
// that column once per result and each outer row reads the rows with its
// value.
//
// The lookup only narrows the rows the level's conditions see: the
// equality stays among them and is evaluated as before. So the hash key
// must never separate two values that compare equal; values whose
// comparison is not a plain key comparison (a number against a string, a
// float, a temporal value, two text collations) make that outer row scan
// all rows instead.

// virtualKey is the lookup column of a materialised source.
type virtualKey struct {
	col int    // column of the source
	val *cexpr // the compared value, over tables read before this one
	// coll is the column's collation when it is text.
	coll collations.ID
	ref  sqlparser.Expr // EXPLAIN's ref
}

// noCandidates is an opened level with no candidate rows (never written).
var noCandidates = []Row{}

// keyClass groups values whose SQL equality is equality of their
// groupKey: exact numbers (integers and decimals), text (under one
// collation), binary strings. 0: anything else.
type keyClass byte

const (
	classNone keyClass = iota
	classExact
	classText
	classBinary
)

func keyClassOf(v sqltypes.Value) keyClass {
	switch t := v.Type(); {
	case v.IsIntegral() || t == sqltypes.Decimal:
		return classExact
	case t == sqltypes.VarChar || t == sqltypes.Char || t == sqltypes.Text:
		return classText
	case t == sqltypes.VarBinary || t == sqltypes.Binary || t == sqltypes.Blob:
		return classBinary
	}
	return classNone
}

// virtualLookup is the per-execution hash of one level's rows.
type virtualLookup struct {
	// of identifies the rows hashed (a materialised result is cached for
	// the statement, so the same slice comes back for every outer row).
	of     *Row
	n      int
	usable bool // every non-NULL value of the column is in class
	class  keyClass
	rows   map[string][]Row
	kb     []byte
	colls  [1]collations.ID
	probe  [1]sqltypes.Value
}

// build hashes rows by column k.col unless they are already hashed.
func (h *virtualLookup) build(rows []Row, k *virtualKey) {
	if len(rows) > 0 && h.of == &rows[0] && h.n == len(rows) {
		return
	}
	h.of, h.n = nil, len(rows)
	if len(rows) > 0 {
		h.of = &rows[0]
	}
	h.usable, h.class = true, classNone
	h.colls[0] = k.coll
	clear(h.rows)
	if h.rows == nil {
		h.rows = make(map[string][]Row)
	}
	for _, r := range rows {
		v := r[k.col]
		if v.IsNull() {
			continue // matches no value under =
		}
		c := keyClassOf(v)
		if c == classNone || h.class != classNone && c != h.class {
			h.usable = false
			return
		}
		h.class = c
		h.kb = h.key(h.kb[:0], v)
		h.rows[string(h.kb)] = append(h.rows[string(h.kb)], r)
	}
}

func (h *virtualLookup) key(dst []byte, v sqltypes.Value) []byte {
	h.probe[0] = v
	return groupKey(dst, h.probe[:], h.colls[:])
}

// candidates returns the rows that can equal the lookup value v (of
// collation tc when text), or ok false when the value cannot be looked up
// and every row must be read.
func (h *virtualLookup) candidates(ex *execCtx, v sqltypes.Value, tc collations.TypedCollation, k *virtualKey) (rows []Row, ok bool) {
	if !h.usable {
		return nil, false
	}
	if v.IsNull() || h.class == classNone {
		return nil, true // = matches nothing (the column holds only NULLs)
	}
	if keyClassOf(v) != h.class {
		return nil, false
	}
	if h.class == classText && tc.Collation != k.coll {
		// The comparison's collation is the column's when the column's
		// coercibility wins; otherwise the hash does not apply.
		env := ex.s.eng.Env.CollationEnv()
		col := collations.TypedCollation{Collation: k.coll, Coercibility: collations.CoerceImplicit, Repertoire: collations.RepertoireUnicode}
		m, _, _, err := colldata.Merge(env, col, tc, colldata.CoercionOptions{ConvertToSuperset: true, ConvertWithCoercion: true})
		if err != nil || m.Collation != k.coll || !sameCharset(tc.Collation, k.coll) {
			return nil, false
		}
	}
	h.kb = h.key(h.kb[:0], v)
	return h.rows[string(h.kb)], true
}

// sameCharset reports whether text of collation a is stored in the
// character set of collation b (no conversion before comparing).
func sameCharset(a, b collations.ID) bool {
	ca, cb := colldata.Lookup(a), colldata.Lookup(b)
	return ca != nil && cb != nil && ca.Charset().Name() == cb.Charset().Name()
}

// virtualKeyFor picks the lookup column of a materialised source: the
// first column an equality gives a value for from earlier tables.
func (c *compiler) virtualKeyFor(it *fromItem, preds []predicate) (*virtualKey, error) {
	for i := range preds {
		p := &preds[i]
		if p.op != "=" || len(p.vals) != 1 || p.col < 0 || p.col >= len(it.def.Columns) {
			continue
		}
		val, err := c.compile(p.vals[0])
		if err != nil {
			return nil, err
		}
		k := &virtualKey{col: p.col, val: val, ref: p.vals[0]}
		if col := it.def.Columns[p.col]; sqltypes.IsText(col.Type) {
			k.coll = collations.ID(col.Collation)
		}
		return k, nil
	}
	return nil, nil
}

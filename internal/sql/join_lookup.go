package sql

import (
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/colldata"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/eval"
	"github.com/strata-db/strata/internal/sql/plan"
)

// A materialised source (a derived table, a CTE, an information_schema
// table) has no index; joined to an earlier table by an equality, every
// outer row would scan all of its rows. MySQL gives such a table an index
// on the join columns (<auto_key0> in EXPLAIN); strata hashes its rows by
// the columns equalities give values for, once per result, and each outer
// row reads the rows with its values.
//
// The lookup only narrows the rows the level's conditions see: the
// equality stays among them and is evaluated as before. So the hash key
// must never separate two values that compare equal; values whose
// comparison is not a plain key comparison (a number against a string, a
// float, a temporal value, two text collations) make that outer row scan
// all rows instead.

// virtualKey is the lookup key of a materialised source: one part per
// column an equality gives a value for.
type virtualKey struct {
	parts []keyPart
}

// keyPart is one column of a virtualKey.
type keyPart struct {
	col int        // column of the source
	val *eval.Expr // the compared value, over tables read before this one
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
	usable bool       // every non-NULL value of each key column is in its class
	class  []keyClass // per part; classNone while only NULLs were seen
	rows   map[string][]Row
	kb     []byte
	colls  []collations.ID
	probe  Row
}

// build hashes rows by the key's columns unless they are already hashed.
func (h *virtualLookup) build(rows []Row, k *virtualKey) {
	if len(rows) > 0 && h.of == &rows[0] && h.n == len(rows) {
		return
	}
	h.of, h.n = nil, len(rows)
	if len(rows) > 0 {
		h.of = &rows[0]
	}
	n := len(k.parts)
	h.usable = true
	h.class = append(h.class[:0], make([]keyClass, n)...)
	h.colls = h.colls[:0]
	for _, p := range k.parts {
		h.colls = append(h.colls, p.coll)
	}
	h.probe = append(h.probe[:0], make(Row, n)...)
	clear(h.rows)
	if h.rows == nil {
		h.rows = make(map[string][]Row)
	}
rows:
	for _, r := range rows {
		for i, p := range k.parts {
			v := r[p.col]
			if v.IsNull() {
				continue rows // matches no value under =
			}
			c := keyClassOf(v)
			if c == classNone || h.class[i] != classNone && c != h.class[i] {
				h.usable = false
				return
			}
			h.class[i] = c
			h.probe[i] = v
		}
		h.kb = groupKey(h.kb[:0], h.probe, h.colls)
		h.rows[string(h.kb)] = append(h.rows[string(h.kb)], r)
	}
}

// candidates returns the rows whose key columns can equal vals (each of
// collation tcs[i] when text), or ok false when a value cannot be looked
// up and every row must be read.
func (h *virtualLookup) candidates(ex *execCtx, vals Row, tcs []collations.TypedCollation, k *virtualKey) (rows []Row, ok bool) {
	if !h.usable {
		return nil, false
	}
	for i, v := range vals {
		if v.IsNull() || h.class[i] == classNone {
			return nil, true // = matches nothing (or the column holds only NULLs)
		}
		if keyClassOf(v) != h.class[i] {
			return nil, false
		}
		if coll := k.parts[i].coll; h.class[i] == classText && tcs[i].Collation != coll {
			// The comparison's collation is the column's when the
			// column's coercibility wins; otherwise the hash does not
			// apply.
			env := ex.s.eng.Env.CollationEnv()
			col := collations.TypedCollation{Collation: coll, Coercibility: collations.CoerceImplicit, Repertoire: collations.RepertoireUnicode}
			m, _, _, err := colldata.Merge(env, col, tcs[i], colldata.CoercionOptions{ConvertToSuperset: true, ConvertWithCoercion: true})
			if err != nil || m.Collation != coll || !sameCharset(tcs[i].Collation, coll) {
				return nil, false
			}
		}
	}
	h.kb = groupKey(h.kb[:0], vals, h.colls)
	return h.rows[string(h.kb)], true
}

// sameCharset reports whether text of collation a is stored in the
// character set of collation b (no conversion before comparing).
func sameCharset(a, b collations.ID) bool {
	ca, cb := colldata.Lookup(a), colldata.Lookup(b)
	return ca != nil && cb != nil && ca.Charset().Name() == cb.Charset().Name()
}

// virtualKeyFor picks the lookup key of a materialised source: every
// column an equality gives a value for from earlier tables (the first
// equality of each).
func (c *compiler) virtualKeyFor(it *fromItem, preds []plan.Predicate) (*virtualKey, error) {
	var k *virtualKey
	seen := map[int]bool{}
	for i := range preds {
		p := &preds[i]
		if p.Op != "=" || len(p.Vals) != 1 || p.Col < 0 || p.Col >= len(it.def.Columns) || seen[p.Col] {
			continue
		}
		seen[p.Col] = true
		val, err := c.Compile(p.Vals[0])
		if err != nil {
			return nil, err
		}
		part := keyPart{col: p.Col, val: val, ref: p.Vals[0]}
		if col := it.def.Columns[p.Col]; sqltypes.IsText(col.Type) {
			part.coll = collations.ID(col.Collation)
		}
		if k == nil {
			k = &virtualKey{}
		}
		k.parts = append(k.parts, part)
	}
	return k, nil
}

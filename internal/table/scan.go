package table

import (
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/encoding"
	"github.com/strata-db/strata/internal/txn"
)

// Scanner iterates the rows of one index range in index order.
type Scanner struct {
	t      *Table
	tx     *txn.Txn
	ix     *catalog.Index
	it     *txn.Iterator
	latest bool
	first  bool
	pk     []byte
	row    []sqltypes.Value
	buf    []byte // decode buffer reused across rows
	// keysOnly: secondary scans return rows of NULLs without reading the
	// row (the caller needs no column, e.g. COUNT(*)).
	keysOnly bool
}

// KeysOnly makes a secondary-index scan skip the row lookups; Next returns
// rows of NULLs. Used when the query needs no column of the table.
func (s *Scanner) KeysOnly() { s.keysOnly = true }

// NewScan scans index ix over keys in [lo, hi) — full keys including the
// index prefix; nil bounds mean the whole index. latest selects current reads
// (for UPDATE/DELETE/locking reads; the caller locks each row and re-reads it).
func (t *Table) NewScan(tx *txn.Txn, ix *catalog.Index, lo, hi []byte, reverse, latest bool) (*Scanner, error) {
	if lo == nil {
		lo = IndexPrefix(nil, ix)
	}
	if hi == nil {
		hi = encoding.PrefixEnd(IndexPrefix(nil, ix))
	}
	it, err := tx.NewIter(txn.IterOptions{Lower: lo, Upper: hi, Reverse: reverse, Latest: latest})
	if err != nil {
		return nil, err
	}
	return &Scanner{t: t, tx: tx, ix: ix, it: it, latest: latest, first: true}, nil
}

// Next returns the next row and its primary key. Both are valid until the
// next call (the row slice is reused).
func (s *Scanner) Next() ([]sqltypes.Value, []byte, bool, error) {
	for {
		if !s.first {
			s.it.Next()
		}
		s.first = false
		if !s.it.Valid() {
			return nil, nil, false, s.it.Error()
		}
		key := s.it.Key()
		var err error
		if s.ix.Primary {
			s.pk = append(s.pk[:0], key...)
			s.row, s.buf, err = s.t.rc.DecodeRowBuf(s.row[:0], s.buf[:0], s.pk[4:], s.it.Value())
			if err != nil {
				return nil, nil, false, err
			}
			return s.row, s.pk, true, nil
		}
		s.pk, err = s.t.DecodeSecondaryPK(s.pk[:0], s.ix, key)
		if err != nil {
			return nil, nil, false, err
		}
		if s.keysOnly {
			if cap(s.row) < len(s.t.Def.Columns) {
				s.row = make([]sqltypes.Value, len(s.t.Def.Columns))
			}
			s.row = s.row[:len(s.t.Def.Columns)]
			for i := range s.row {
				s.row[i] = sqltypes.NULL
			}
			return s.row, s.pk, true, nil
		}
		var ok bool
		s.row, ok, err = s.t.Get(s.tx, s.pk, s.latest, s.row[:0])
		if err != nil {
			return nil, nil, false, err
		}
		if !ok {
			continue // entry of a row deleted after the iterator's view
		}
		return s.row, s.pk, true, nil
	}
}

// Close releases the scan.
func (s *Scanner) Close() error { return s.it.Close() }

// CountKeys counts the entries of an index in [lo, hi) as the transaction
// sees them, stopping at limit (EXPLAIN's row estimates).
func (t *Table) CountKeys(tx *txn.Txn, lo, hi []byte, limit int) (int, error) {
	it, err := tx.NewIter(txn.IterOptions{Lower: lo, Upper: hi})
	if err != nil {
		return 0, err
	}
	n := 0
	for ; it.Valid() && n < limit; it.Next() {
		n++
	}
	if err := it.Error(); err != nil {
		_ = it.Close()
		return 0, err
	}
	return n, it.Close()
}

// CountEntries counts the entries of index ix the transaction sees (one
// per row, for any index), in up to parallel parts at once for a large
// index (txn.Txn.CountRange): SELECT COUNT(*) without reading rows.
func (t *Table) CountEntries(tx *txn.Txn, ix *catalog.Index, parallel int) (int64, error) {
	lo := IndexPrefix(nil, ix)
	return tx.CountRange(lo, encoding.PrefixEnd(IndexPrefix(nil, ix)), parallel)
}

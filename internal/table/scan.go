package table

import (
	"fmt"
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
	// need marks the columns a primary-key scan decodes (nil: all).
	need []bool
}

// Columns makes a primary-key scan decode only the columns need marks;
// the others come out NULL (RowCodec.DecodeColumns).
func (s *Scanner) Columns(need []bool) { s.need = need }

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
			s.row, s.buf, err = s.t.rc.DecodeColumns(s.row[:0], s.buf[:0], s.pk[4:], s.it.Value(), s.need)
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

// NextRaw is Next for a primary-key scan, without decoding: the row's
// primary key and stored value, valid until the next call.
func (s *Scanner) NextRaw() (pk, value []byte, ok bool, err error) {
	if !s.ix.Primary {
		return nil, nil, false, fmt.Errorf("table %s: raw scan of secondary index %s", s.t.Def.Name, s.ix.Name)
	}
	if !s.first {
		s.it.Next()
	}
	s.first = false
	if !s.it.Valid() {
		return nil, nil, false, s.it.Error()
	}
	return s.it.Key(), s.it.Value(), true, nil
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

// ScanParts returns scanners over up to n parts of index ix that together
// cover it in order, cut where its table files end (kv.SplitPoints), for
// reading the parts on goroutines of their own; one scanner for a small
// index (under minBytes, or in fewer files than parts). The scanners must be created and closed on the transaction's
// goroutine, and the transaction must have no writes (every part reads its
// snapshot).
func (t *Table) ScanParts(tx *txn.Txn, ix *catalog.Index, n int, minBytes uint64) ([]*Scanner, error) {
	lo := IndexPrefix(nil, ix)
	hi := encoding.PrefixEnd(IndexPrefix(nil, ix))
	cuts, err := t.store.db.KV().SplitPoints(lo, hi, n, minBytes)
	if err != nil {
		return nil, err
	}
	bounds := append(append([][]byte{lo}, cuts...), hi)
	scans := make([]*Scanner, 0, len(bounds)-1)
	for i := range len(bounds) - 1 {
		sc, err := t.NewScan(tx, ix, bounds[i], bounds[i+1], false, false)
		if err != nil {
			for _, s := range scans {
				_ = s.Close()
			}
			return nil, err
		}
		scans = append(scans, sc)
	}
	return scans, nil
}

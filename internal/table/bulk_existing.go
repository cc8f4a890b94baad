package table

import (
	"bytes"
	"fmt"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/encoding"
	"github.com/strata-db/strata/internal/kv"
)

// A bulk load into a table that already has rows (CheckExisting) checks
// each loaded primary key, and each unique secondary key, against the
// table's committed entries: a key there is a duplicate as one within the
// load is (1062, or skipped with KeepFirst). The caller keeps every other
// writer of the table out until the ingest (the exclusive metadata lock),
// so the entries read are the ones the loaded rows go in beside. Loaded
// keys come in increasing order on both paths (the direct path and the
// merge), so each index is probed by one iterator moving forward (once
// more from the start when a key out of order moves the direct path's
// entries into the sort); keys
// outside an index's current key range need no probe at all (a load that
// appends after the last key, as time-ordered data does, probes nothing).

// existing probes one index's committed entries.
type existing struct {
	it       *kv.Iterator
	min, max []byte // the index's first and last key (nil: empty index)
}

func newExisting(db *kv.DB, ix *catalog.Index) (*existing, error) {
	lo := IndexPrefix(nil, ix)
	hi := encoding.PrefixEnd(IndexPrefix(nil, ix))
	it, err := db.NewIter(kv.IterOptions{Lower: lo, Upper: hi})
	if err != nil {
		return nil, fmt.Errorf("table: bulk load: %w", err)
	}
	e := &existing{it: it}
	if it.First() {
		e.min = append([]byte(nil), it.Key()...)
		if it.Last() {
			e.max = append([]byte(nil), it.Key()...)
		}
	}
	if err := it.Error(); err != nil {
		_ = it.Close()
		return nil, fmt.Errorf("table: bulk load: %w", err)
	}
	return e, nil
}

// has reports whether the index holds a key starting with prefix (the
// whole key for a primary key, the unique part for a unique secondary).
func (e *existing) has(prefix []byte) (bool, error) {
	if e.min == nil || bytes.Compare(prefix, e.max) > 0 {
		return false, nil
	}
	if bytes.Compare(prefix, e.min) < 0 && !bytes.HasPrefix(e.min, prefix) {
		return false, nil
	}
	if !e.it.SeekGE(prefix) {
		return false, e.it.Error()
	}
	return bytes.HasPrefix(e.it.Key(), prefix), nil
}

func (e *existing) close() error { return e.it.Close() }

// CheckExisting makes the loader check its keys against the rows the
// table has now (see existing). Call it before the first row.
func (l *BulkLoader) CheckExisting() error {
	l.existing = map[uint32]*existing{}
	for _, ix := range l.t.Def.Indexes {
		if !ix.Primary && !ix.Unique {
			continue
		}
		e, err := newExisting(l.kv, ix)
		if err != nil {
			return err
		}
		l.existing[ix.ID] = e
	}
	return nil
}

// inTable reports whether key (of index ix; for a unique secondary its
// unique part) is already in the table: false for every key without
// CheckExisting (a nil map has no probe).
func (l *BulkLoader) inTable(ix *catalog.Index, key []byte) (bool, error) {
	e := l.existing[ix.ID]
	if e == nil {
		return false, nil
	}
	return e.has(key)
}

// closeExisting releases the probes.
func (l *BulkLoader) closeExisting() error {
	var err error
	for _, e := range l.existing {
		if cerr := e.close(); err == nil {
			err = cerr
		}
	}
	l.existing = nil
	return err
}

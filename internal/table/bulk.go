package table

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/table/codec"
	"github.com/strata-db/strata/internal/table/extsort"
	"github.com/strata-db/strata/internal/txn"
)

// Bulk loading. A BulkLoader writes rows into an empty table without the
// transaction's write buffer: every row's primary entry and secondary
// entries go into one external sort (extsort, bounded memory, spilling
// sorted runs to the temporary directory); Finish merges the runs in key
// order straight into table files (kv.SSTWriter, cut every SSTSize bytes)
// and adds them to the database with one atomic kv.Ingest. Duplicate keys
// are found during the merge: equal primary keys are adjacent, and so are
// equal values of a unique secondary index (its entries sort by the
// indexed values first), so a violation costs no lookup; Finish then
// fails with the same *DupKeyError an INSERT would give and nothing is
// ingested.
//
// Atomicity and crash safety come from the ingest: before it nothing of
// the load is in the database (a crash leaves only temporary files, which
// the next start removes), after it every row is. The rows become visible
// at the ingest, not at a transaction's commit, so the caller uses a
// loader only where that is the statement's own commit (autocommit) and
// keeps other writers out of the table meanwhile (an exclusive metadata
// lock), and only for a table it saw empty: the merge checks the loaded
// rows against each other, not against stored ones.
type BulkLoader struct {
	t    *Table
	kv   *kv.DB
	dir  string
	sst  uint64
	tx   *txn.Txn
	rows int64
	// idx are the secondary indexes written (all of the table's for a
	// load; the new ones for an index build).
	idx []*catalog.Index
	// index by id, for the merge to know what a key belongs to.
	byID map[uint32]*catalog.Index

	// entrySink holds the sort of every entry added through the loader;
	// parts are the sorts of its IndexParts.
	entrySink
	parts  []*extsort.Sorter
	budget int
	pk     []byte

	// KeepFirst, when set, makes a duplicate primary key keep the row
	// added first: the others are skipped (with their secondary entries)
	// and each is passed to KeepFirst, as INSERT IGNORE warns. It needs a
	// table without unique secondary indexes (a row skipped for one of
	// those would have had its primary entry written already).
	KeepFirst func(*DupKeyError)
	skipped   int64

	// direct writes the primary entries of a load while they come in
	// key order (bulk_direct.go); unsorted once one did not.
	direct   *directWriter
	unsorted bool

	// existing probes the table's committed keys (CheckExisting; nil for
	// a load into an empty table).
	existing map[uint32]*existing
}

// Skipped is the number of rows Finish skipped for KeepFirst.
func (l *BulkLoader) Skipped() int64 { return l.skipped }

// BulkOptions configures a BulkLoader.
type BulkOptions struct {
	// Dir holds the sort runs and the table files until they are
	// ingested; it must be on the database's filesystem (the ingest links
	// the files).
	Dir string
	// MemoryBudget bounds the rows buffered in memory (default 256 MiB).
	MemoryBudget int
	// SSTSize is the size at which a table file is cut (default 128 MiB).
	SSTSize uint64
}

// NewBulkLoader returns a loader for t. tx is the statement's transaction,
// used only to allocate hidden row ids.
func (t *Table) NewBulkLoader(tx *txn.Txn, o BulkOptions) *BulkLoader {
	if o.MemoryBudget <= 0 {
		o.MemoryBudget = 256 << 20
	}
	if o.SSTSize == 0 {
		o.SSTSize = 128 << 20
	}
	l := &BulkLoader{t: t, kv: t.store.db.KV(), dir: o.Dir, sst: o.SSTSize, tx: tx,
		entrySink: entrySink{sorter: extsort.New(o.Dir, o.MemoryBudget)}, budget: o.MemoryBudget, byID: map[uint32]*catalog.Index{}, idx: t.Def.Indexes[1:]}
	for _, ix := range t.Def.Indexes {
		l.byID[ix.ID] = ix
	}
	return l
}

// NewIndexBuilder returns a loader that writes the entries of the
// secondary indexes idx only (an index build: AddEntries gives each row
// with its stored primary key); its Finish checks and ingests them as a
// load's.
func (t *Table) NewIndexBuilder(idx []*catalog.Index, o BulkOptions) *BulkLoader {
	l := t.NewBulkLoader(nil, o)
	l.idx = idx
	for _, ix := range idx {
		l.byID[ix.ID] = ix
	}
	return l
}

// Add adds a full table row (as Insert takes it).
func (l *BulkLoader) Add(row []sqltypes.Value) error {
	t := l.t
	var rowID uint64
	if t.Def.HiddenPK {
		id, err := t.nextRowID(l.tx)
		if err != nil {
			return err
		}
		rowID = id
	}
	var err error
	if l.pk, err = t.PKKey(l.pk[:0], row, rowID); err != nil {
		return err
	}
	if l.val, err = t.rc.EncodeRow(l.val[:0], row); err != nil {
		return err
	}
	if ok, err := l.addDirect(func() ([]sqltypes.Value, error) { return row, nil }); err != nil || !ok {
		return err
	}
	if err := l.AddEntries(row, l.pk); err != nil {
		return err
	}
	l.rows++
	return nil
}

// addDirect adds the primary entry of a row (key l.pk, value l.val; row
// gives the row's values, for a duplicate's message): to the direct path
// while keys increase, else to the sort. It reports false for a row
// skipped as a duplicate (KeepFirst).
func (l *BulkLoader) addDirect(row func() ([]sqltypes.Value, error)) (bool, error) {
	if !l.unsorted {
		if l.direct == nil {
			l.direct = newDirectWriter(l.kv, l.dir, l.sst, fmt.Sprintf("%p", l))
		}
		order := l.direct.order(l.pk)
		if order == 1 && l.existing != nil {
			in, err := l.inTable(l.t.Def.Primary(), l.pk)
			if err != nil {
				return false, err
			}
			if in {
				order = 0 // a duplicate of a row the table has
			}
		}
		switch order {
		case 1:
			return true, l.direct.add(l.pk, l.val)
		case 0:
			r, err := row()
			if err != nil {
				return false, err
			}
			dup := l.t.dupError(l.t.Def.Primary(), r)
			if l.KeepFirst == nil {
				return false, dup
			}
			l.KeepFirst(dup.(*DupKeyError))
			l.rows++
			l.skipped++
			return false, nil
		}
		if err := l.undirect(); err != nil {
			return false, err
		}
	}
	// Sort keys carry a tag byte: primary entries (0) sort before every
	// secondary one (1), so a duplicate primary key is met first, with
	// its row at hand for the error.
	l.tag = append(append(l.tag[:0], 0), l.pk...)
	return true, l.sorter.Add(l.tag, l.val)
}

// undirect ends the direct path: the entries it wrote go into the sort,
// before any later one (so the first of duplicates stays first).
func (l *BulkLoader) undirect() error {
	d := l.direct
	l.direct, l.unsorted = nil, true
	files, err := d.finish()
	defer d.remove()
	if err != nil {
		return err
	}
	var tag []byte
	for _, f := range files {
		err := l.kv.ReadSST(f, func(k, v []byte) error {
			tag = append(append(tag[:0], 0), k...)
			return l.sorter.Add(tag, v)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// AddEntries adds the entries of the loader's secondary indexes for row,
// stored under the primary key pk.
func (l *BulkLoader) AddEntries(row []sqltypes.Value, pk []byte) error {
	return l.addEntries(&l.entrySink, row, pk)
}

// entrySink is a sort that secondary entries go into, with the scratch
// buffers of their keys and values.
type entrySink struct {
	sorter       *extsort.Sorter
	kb, val, tag []byte
}

// addEntries adds the entries of the loader's secondary indexes for row
// (stored under pk) to sink.
func (l *BulkLoader) addEntries(sink *entrySink, row []sqltypes.Value, pk []byte) error {
	for _, ix := range l.idx {
		if err := l.secondaryEntry(sink, ix, row, pk); err != nil {
			return err
		}
		if err := sink.sorter.Add(sink.tag, sink.val); err != nil {
			return err
		}
	}
	return nil
}

// secondaryEntry builds the sort entry of row's key in index ix (stored
// under pk) in sink.tag (the key with its sort tag) and sink.val.
func (l *BulkLoader) secondaryEntry(sink *entrySink, ix *catalog.Index, row []sqltypes.Value, pk []byte) error {
	var (
		n       int
		hasNull bool
		err     error
	)
	sink.kb, n, hasNull, err = l.t.secondaryKey(sink.kb[:0], ix, row, pk)
	if err != nil {
		return err
	}
	sink.val = sink.val[:0]
	if ix.Unique && !hasNull {
		// The merge needs the unique prefix's length, and the 1062
		// text, which the key alone cannot give back.
		sink.val = binary.AppendUvarint(sink.val, uint64(n))
		sink.val = append(sink.val, dupEntry(ix, row)...)
	}
	sink.tag = append(append(sink.tag[:0], 1), sink.kb...)
	return nil
}

// IndexPart takes the secondary entries of one part of an index build's
// rows into a sort of its own, so that several parts can be read and
// added at once, each on its own goroutine (Parts). Finish merges them.
type IndexPart struct {
	l    *BulkLoader
	sink entrySink
	// trans[i] builds index l.idx[i]'s keys from stored rows (nil: the
	// row is decoded); the part's own, as a transcoder keeps per-row
	// state.
	trans []*codec.KeyTranscoder
	// need marks the columns of the indexes built (the decoded fallback);
	// row and buf are its scratch.
	need []bool
	row  []sqltypes.Value
	buf  []byte
}

// Parts returns n parts for concurrent AddEntries calls, splitting the
// loader's memory budget between them and the loader itself (which keeps
// its share for entries added through it).
func (l *BulkLoader) Parts(n int) []*IndexPart {
	budget := l.budget / (n + 1)
	l.sorter.SetBudget(budget)
	parts := make([]*IndexPart, n)
	for i := range parts {
		parts[i] = &IndexPart{l: l, sink: entrySink{sorter: extsort.New(l.dir, budget)}}
		parts[i].trans, parts[i].need = l.transcoders()
		l.parts = append(l.parts, parts[i].sink.sorter)
	}
	return parts
}

// transcoders returns a key transcoder per index built (nil for one that
// needs the decoded row: a unique index, whose duplicate error quotes the
// values, or one with a column the transcoder does not read), and the
// columns the indexes read.
func (l *BulkLoader) transcoders() ([]*codec.KeyTranscoder, []bool) {
	trans := make([]*codec.KeyTranscoder, len(l.idx))
	need := make([]bool, len(l.t.Def.Columns))
	for i, ix := range l.idx {
		if !ix.Unique {
			trans[i] = l.t.rc.NewKeyTranscoder(ix.Columns)
		}
		for _, ic := range ix.Columns {
			need[ic.Col] = true
		}
	}
	return trans, need
}

// AddStored adds the index entries of the row stored as value under pk
// (NextRaw's pair): each key is built from the stored bytes where the
// index allows it, else from the row decoded once.
func (p *IndexPart) AddStored(pk, value []byte) error {
	l, sink := p.l, &p.sink
	decoded := false
	for i, ix := range l.idx {
		done := false
		if kt := p.trans[i]; kt != nil {
			kb := IndexPrefix(sink.kb[:0], ix)
			kb, _, err := kt.AppendKey(kb, value)
			switch {
			case err == nil:
				kb = append(kb, pk[4:]...)
				sink.kb = kb
				sink.val = sink.val[:0]
				sink.tag = append(append(sink.tag[:0], 1), kb...)
				done = true
			case !errors.Is(err, codec.ErrNoTranscode):
				return fmt.Errorf("index %s: %w", ix.Name, err)
			}
		}
		if !done {
			if !decoded {
				var err error
				if p.row, p.buf, err = l.t.rc.DecodeColumns(p.row[:0], p.buf[:0], pk[4:], value, p.need); err != nil {
					return err
				}
				decoded = true
			}
			if err := l.secondaryEntry(sink, ix, p.row, pk); err != nil {
				return err
			}
		}
		if err := sink.sorter.Add(sink.tag, sink.val); err != nil {
			return err
		}
	}
	return nil
}

// Finish writes and ingests the loaded rows, or returns the first
// duplicate-key error (nothing ingested). The loader is closed either way.
func (l *BulkLoader) Finish() (err error) {
	defer func() {
		if cerr := l.Close(); err == nil {
			err = cerr
		}
	}()
	var files []string
	if l.direct != nil {
		// The direct path's files (removed by Close).
		direct, err := l.direct.finish()
		if err != nil {
			return err
		}
		files = append(files, direct...)
	}
	it, err := extsort.Merge(append([]*extsort.Sorter{l.sorter}, l.parts...)...)
	if err != nil {
		return err
	}
	// The merged entries are written into table files on a goroutine of
	// their own (compression beside the merge).
	w := newDirectWriter(l.kv, l.dir, l.sst, fmt.Sprintf("%p-m", l))
	var (
		prev    []byte
		prevN   int // unique prefix length of prev (0: not a unique entry)
		prevIdx *catalog.Index
	)
	defer func() {
		if w != nil {
			_, _ = w.finish()
			w.remove()
		}
		// After an ingest the database has its own links to (or copies
		// of) the files; before one they are garbage.
		for _, f := range files {
			_ = l.kv.RemoveFile(f)
		}
	}()
	primary := l.t.Def.Primary()
	// dropped: with KeepFirst, the secondary entries of the rows skipped
	// for a duplicate primary key (counted: identical rows give one key
	// twice).
	var dropped map[string]int
	for it.Next() {
		k, v := it.Key(), it.Value()
		k = k[1:] // the tag
		if len(k) < 4 {
			return fmt.Errorf("table: bulk load: short key")
		}
		ix := l.byID[binary.BigEndian.Uint32(k)]
		if ix == nil {
			return fmt.Errorf("table: bulk load: key of unknown index %x", k[:4])
		}
		n := 0
		switch {
		case ix == primary:
			dupKey := ix == prevIdx && bytes.Equal(k, prev)
			if !dupKey {
				if dupKey, err = l.inTable(ix, k); err != nil {
					return err
				}
			}
			if dupKey {
				row, err := l.t.DecodeRow(nil, k, v)
				if err != nil {
					return err
				}
				dup := l.t.dupError(ix, row)
				if l.KeepFirst == nil {
					return dup
				}
				// The first row of the key stays (the sort is stable:
				// rows come in the order they were added); this one
				// goes, with its secondary entries.
				l.KeepFirst(dup.(*DupKeyError))
				l.skipped++
				if dropped == nil {
					dropped = map[string]int{}
				}
				for _, sx := range l.idx {
					sk, _, _, err := l.t.secondaryKey(nil, sx, row, k)
					if err != nil {
						return err
					}
					dropped[string(sk)]++
				}
				continue
			}
		case dropped != nil && (bytes.Equal(k, prev) || dropped[string(k)] > 0):
			// A skipped row's entry (or the second of two identical
			// ones: the kept row's comes first).
			if !bytes.Equal(k, prev) {
				dropped[string(k)]--
			}
			continue
		case len(v) > 0:
			un, sz := binary.Uvarint(v)
			if sz <= 0 || int(un) > len(k) {
				return fmt.Errorf("table: bulk load: bad unique entry")
			}
			n = int(un)
			dupKey := ix == prevIdx && prevN == n && bytes.Equal(k[:n], prev[:n])
			if !dupKey {
				if dupKey, err = l.inTable(ix, k[:n]); err != nil {
					return err
				}
			}
			if dupKey {
				return &DupKeyError{Table: l.t.Def.Name, Index: ix, Entry: string(v[sz:])}
			}
			v = nil
		}
		// A new file where the stream goes from the primary entries to a
		// secondary index with a smaller id (each file must be sorted;
		// files never overlap); the writer cuts big files itself.
		if prevIdx != nil && ix != prevIdx && bytes.Compare(k, prev) <= 0 {
			w.cut()
		}
		if err := w.add(k, v); err != nil {
			return err
		}
		prev, prevN, prevIdx = append(prev[:0], k...), n, ix
	}
	if err := it.Err(); err != nil {
		return err
	}
	merged, err := w.finish()
	files = append(files, merged...)
	w = nil
	if err != nil {
		return err
	}
	if err := l.closeExisting(); err != nil {
		return err
	}
	if err := l.kv.Ingest(files); err != nil {
		return err
	}
	l.t.mods.insertedN(l.rows - l.skipped)
	return nil
}

// Close drops the loader's temporary files; a loader closed before Finish
// loads nothing.
func (l *BulkLoader) Close() error {
	if d := l.direct; d != nil {
		l.direct = nil
		_, _ = d.finish()
		d.remove()
	}
	err := l.closeExisting()
	if serr := l.sorter.Close(); err == nil {
		err = serr
	}
	for _, p := range l.parts {
		if perr := p.Close(); err == nil {
			err = perr
		}
	}
	return err
}

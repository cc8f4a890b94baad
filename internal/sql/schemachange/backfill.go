package schemachange

import (
	"context"
	"fmt"
	"strings"
	"time"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/encoding"
	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/txn"
)

// Bound limits one chunk of a back-fill: a chunk is committed as soon as
// it holds Rows rows or Bytes bytes of batch (keys, values and Pebble's
// per-entry overhead), whichever comes first. Zero fields take
// DefaultBound's.
type Bound struct {
	Rows  int
	Bytes int
}

// DefaultBound is the chunk bound of back-fills: 10,000 rows or 1 MiB.
// A Pebble batch holds all of its writes in memory until it commits, and
// one larger than half a memtable (strata's smallest memtable is 4 MiB)
// is committed as a memtable of its own, forcing a flush; 1 MiB chunks
// keep a back-fill's memory flat and its writes on the ordinary commit
// path.
var DefaultBound = Bound{Rows: 10000, Bytes: 1 << 20}

func (b Bound) orDefault() Bound {
	if b.Rows <= 0 {
		b.Rows = DefaultBound.Rows
	}
	if b.Bytes <= 0 {
		b.Bytes = DefaultBound.Bytes
	}
	return b
}

// Progress counts what a back-fill has done: rows read, chunks committed
// and the bytes of those chunks.
type Progress struct {
	Rows   int64
	Chunks int64
	Bytes  int64
}

// Row is a table row, one value per column in definition order.
type Row = []sqltypes.Value

// ConvertFunc turns a row of the old definition into a row of the new one
// (dst has one slot per new column) for a table rebuild; rowNum counts
// rows from 1 (the row number of MySQL's conversion warnings).
type ConvertFunc func(old Row, rowNum int, dst Row) error

// backfill copies the rows of old, read at one snapshot in primary-key
// order, into entries of nt. With convert (a rebuild) it writes every
// index of nt, rows converted; otherwise the entries of the secondary
// indexes idx only. Entries go into chunks of at most bound, each
// committed on its own: the ids written must be reserved first
// (catalog.DDL.ReserveIndexData), since nothing is published until the
// DDL change commits. Unique indexes are checked against every entry
// written so far (MySQL's 1062; see unique).
type backfill struct {
	db      *txn.DB
	store   *table.Store
	old, nt *catalog.Table
	idx     []*catalog.Index
	convert ConvertFunc
	bound   Bound
	// lockTimeout is the read transaction's lock wait (it takes none).
	lockTimeout time.Duration
	// afterChunk, when set (tests), runs after each committed chunk; an
	// error it returns stops the back-fill.
	afterChunk func(Progress) error
	// uniqueBudget overrides uniqueMemory (tests; 0: uniqueMemory).
	uniqueBudget int

	progress Progress
	// uniques tracks the unique indexes written (nil for the others).
	uniques []*unique
}

func (bf *backfill) run(ctx context.Context) error {
	tx := bf.db.Begin(ctx, txn.ReadCommitted, bf.lockTimeout)
	defer tx.Rollback()
	src := bf.store.Open(bf.old)
	dst := bf.store.Open(bf.nt)
	sc, err := src.NewScan(tx, bf.old.Primary(), nil, nil, false, true)
	if err != nil {
		return fmt.Errorf("back-fill %s.%s: %w", bf.old.DB, bf.old.Name, err)
	}
	defer sc.Close()
	bound := bf.bound.orDefault()
	idx := bf.idx
	if bf.convert != nil {
		idx = bf.nt.Indexes
	}
	bf.uniques = make([]*unique, len(idx))
	for i, ix := range idx {
		if ix.Unique && !(ix.Primary && bf.nt.HiddenPK) {
			bf.uniques[i] = newUnique(tx, bf.uniqueBudget)
		}
	}
	seen := bf.uniques
	c := &chunk{db: bf.db, bound: bound}
	defer c.close()
	var nrow Row
	if bf.convert != nil {
		nrow = make(Row, len(bf.nt.Columns))
	}
	var kb, vb []byte
	var rowID uint64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		row, pk, ok, err := sc.Next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		bf.progress.Rows++
		b := c.batch()
		if bf.convert != nil {
			if err := bf.convert(row, int(bf.progress.Rows), nrow); err != nil {
				return err
			}
			row = nrow
			rowID++
			if pk, err = dst.PKKey(kb[:0], nrow, rowID); err != nil {
				return err
			}
			pk = append([]byte(nil), pk...)
			if seen[0] != nil {
				dup, err := seen[0].add(pk)
				if err != nil {
					return err
				}
				if dup {
					return (&table.DupKeyError{Table: bf.nt.Name, Index: bf.nt.Primary(), Entry: dupEntryText(bf.nt.Primary(), nrow)}).SQLError()
				}
			}
			if vb, err = dst.EncodeValue(vb[:0], nrow); err != nil {
				return err
			}
			if err := b.Set(pk, vb); err != nil {
				return err
			}
		}
		for i, ix := range idx {
			if ix.Primary {
				continue
			}
			if kb, err = putSecondaryEntry(b, dst, ix, row, pk, seen[i], kb); err != nil {
				return err
			}
		}
		if c.full() {
			if err := bf.commit(c); err != nil {
				return err
			}
		}
	}
	return bf.commit(c)
}

// commit commits the chunk being filled, if any, and counts it.
func (bf *backfill) commit(c *chunk) error {
	n, err := c.commit()
	if err != nil || n == 0 {
		return err
	}
	bf.progress.Chunks++
	bf.progress.Bytes += int64(n)
	for _, u := range bf.uniques {
		if u != nil {
			u.committed()
		}
	}
	if bf.afterChunk != nil {
		return bf.afterChunk(bf.progress)
	}
	return nil
}

// chunk is the batch a back-fill is filling.
type chunk struct {
	db    *txn.DB
	bound Bound
	b     *txn.Batch
	rows  int
}

func (c *chunk) batch() *txn.Batch {
	if c.b == nil {
		c.b = c.db.NewBatch()
	}
	c.rows++
	return c.b
}

func (c *chunk) full() bool {
	return c.b != nil && (c.rows >= c.bound.Rows || c.b.Len() >= c.bound.Bytes)
}

// commit applies the chunk's batch and returns its size (0: nothing to
// commit).
func (c *chunk) commit() (int, error) {
	if c.b == nil || c.b.Empty() {
		c.rows = 0
		return 0, nil
	}
	n := c.b.Len()
	// Not synced: nothing reads a chunk before the DDL change that
	// publishes it commits, and that commit is synced, which makes every
	// earlier WAL write durable too. A crash before it loses at most chunks
	// that Load deletes anyway (their ids are marked pending, synced).
	err := c.b.Commit(false)
	c.close()
	if err != nil {
		return 0, fmt.Errorf("back-fill chunk: %w", err)
	}
	return n, nil
}

func (c *chunk) close() {
	if c.b != nil {
		_ = c.b.Close()
		c.b = nil
	}
	c.rows = 0
}

// putSecondaryEntry writes row's entry of secondary index ix into b; seen
// (nil for non-unique indexes) holds the unique prefixes written so far,
// for the 1062 check. kb is a reusable key buffer.
func putSecondaryEntry(b *txn.Batch, t *table.Table, ix *catalog.Index, row Row, pk []byte, seen *unique, kb []byte) ([]byte, error) {
	kb, n, hasNull, err := t.SecondaryKey(kb[:0], ix, row, pk)
	if err != nil {
		return kb, err
	}
	if seen != nil && !hasNull {
		dup, err := seen.add(kb[:n])
		if err != nil {
			return kb, err
		}
		if dup {
			return kb, (&table.DupKeyError{Table: t.Def.Name, Index: ix, Entry: dupEntryText(ix, row)}).SQLError()
		}
	}
	return kb, b.Set(kb, nil)
}

// uniqueMemory is how many bytes of unique key prefixes a back-fill keeps
// in memory per unique index before it looks committed chunks up in the
// store instead: a set in memory costs ~0.25 µs a row, a seek ~1.2 µs (50k
// rows, BenchmarkAlterAddIndex), so tables whose keys fit in 16 MiB take
// the fast path and larger ones stay bounded.
const uniqueMemory = 16 << 20

// unique holds the unique key prefixes a back-fill wrote into one index:
// all of them in memory while they fit in budget bytes; past that, those
// of the chunk being filled in memory and those of committed chunks in the
// store (nothing else writes under the index's new id).
type unique struct {
	// tx reads the latest committed state.
	tx    *txn.Txn
	chunk map[string]struct{}
	// all: chunk holds every prefix written so far (bytes of them, up to
	// budget).
	all    bool
	bytes  int
	budget int
}

func newUnique(tx *txn.Txn, budget int) *unique {
	if budget <= 0 {
		budget = uniqueMemory
	}
	return &unique{tx: tx, chunk: map[string]struct{}{}, all: true, budget: budget}
}

// committed is called after each committed chunk: past the budget, the
// prefixes in memory are dropped (the store has them).
func (u *unique) committed() {
	if u.all && u.bytes <= u.budget {
		return
	}
	u.all = false
	clear(u.chunk)
}

// add records prefix and reports whether it was written before.
func (u *unique) add(prefix []byte) (bool, error) {
	if _, ok := u.chunk[string(prefix)]; ok {
		return true, nil
	}
	if u.all {
		u.chunk[string(prefix)] = struct{}{}
		u.bytes += len(prefix)
		return false, nil
	}
	hi := encoding.PrefixEnd(append([]byte(nil), prefix...))
	it, err := u.tx.NewIter(txn.IterOptions{Lower: prefix, Upper: hi, Latest: true})
	if err != nil {
		return false, err
	}
	found := it.Valid()
	err = it.Error()
	if cerr := it.Close(); err == nil {
		err = cerr
	}
	if err != nil || found {
		return found, err
	}
	u.chunk[string(prefix)] = struct{}{}
	return false, nil
}

// dupEntryText is the entry a 1062 error names: the key's column values
// joined by '-'.
func dupEntryText(ix *catalog.Index, row Row) string {
	parts := make([]string, 0, len(ix.Columns))
	for _, ic := range ix.Columns {
		parts = append(parts, row[ic.Col].ToString())
	}
	return strings.Join(parts, "-")
}

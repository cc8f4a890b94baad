package table

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/encoding"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/txn"
)

// Writes during an online index build (catalog/building.go). While an
// index is in Def.Building, Insert, Update and Delete record what they do
// to its entries in its delta index: under DeltaID, the entry's key
// (without its own index prefix) holds deltaPresent or deltaAbsent — the
// entry's latest state, since a later write to the same key replaces the
// value. The build makes the index's entries from a snapshot of the rows
// and then applies the deltas over them (ApplyBuildDeltas): every change
// committed after the snapshot is in the deltas, and applying one that
// the snapshot already holds changes nothing.
const (
	deltaPresent = 'P' // followed, for a unique entry, by uvarint(prefix length) and its 1062 text
	deltaAbsent  = 'D'
)

// recordBuilding records the change of one row (old stored under oldPK,
// replaced by row under pk; old nil for an insert, row nil for a delete)
// in the delta index of each building index.
func (t *Table) recordBuilding(tx *txn.Txn, old []sqltypes.Value, oldPK []byte, row []sqltypes.Value, pk []byte) error {
	var ok, nk, v []byte
	for _, ix := range t.Def.Building {
		var n int
		var hasNull bool
		var err error
		if old != nil {
			if ok, _, _, err = t.secondaryKey(ok[:0], ix, old, oldPK); err != nil {
				return err
			}
		}
		if row != nil {
			if nk, n, hasNull, err = t.secondaryKey(nk[:0], ix, row, pk); err != nil {
				return err
			}
		}
		if old != nil && row != nil && bytes.Equal(ok, nk) {
			continue
		}
		if old != nil {
			if err := tx.Set(deltaKey(ix, ok), []byte{deltaAbsent}); err != nil {
				return err
			}
		}
		if row != nil {
			v = append(v[:0], deltaPresent)
			if ix.Unique && !hasNull {
				v = binary.AppendUvarint(v, uint64(n))
				v = append(v, dupEntry(ix, row)...)
			}
			if err := tx.Set(deltaKey(ix, nk), v); err != nil {
				return err
			}
		}
	}
	return nil
}

// deltaKey is the delta-index key of an entry key of ix (a fresh slice:
// the transaction keeps it).
func deltaKey(ix *catalog.Index, key []byte) []byte {
	k := make([]byte, 0, len(key))
	k = encoding.EncodeUint32(k, ix.DeltaID)
	return append(k, key[4:]...)
}

// ApplyBuildDeltas applies the delta index of the building index ix over
// its entries, in batches of about batchBytes committed without a sync
// (the change that publishes the index syncs), then checks a unique index
// for the values the deltas added: a value held by two entries is the
// 1062 of an INSERT. The caller keeps writers out of the table.
func (t *Table) ApplyBuildDeltas(ctx context.Context, ix *catalog.Index, batchBytes int) error {
	db := t.store.db
	lo := encoding.EncodeUint32(nil, ix.DeltaID)
	hi := encoding.EncodeUint32(nil, ix.DeltaID+1)
	it, err := db.KV().NewIter(kv.IterOptions{Lower: lo, Upper: hi})
	if err != nil {
		return err
	}
	defer it.Close()
	b := db.NewBatch()
	defer func() { _ = b.Close() }()
	var key []byte
	var uniques [][]byte // entry keys whose unique prefix the deltas set
	for ok := it.First(); ok; ok = it.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		v, vok := it.Value()
		if !vok || len(v) == 0 {
			return fmt.Errorf("table: index build %s: bad delta: %w", ix.Name, it.Error())
		}
		key = encoding.EncodeUint32(key[:0], ix.ID)
		key = append(key, it.Key()[4:]...)
		switch v[0] {
		case deltaPresent:
			if err := b.Set(key, nil); err != nil {
				return err
			}
			if len(v) > 1 {
				n, sz := binary.Uvarint(v[1:])
				if sz <= 0 || int(n) > len(key) {
					return fmt.Errorf("table: index build %s: bad delta", ix.Name)
				}
				uniques = append(uniques, append([]byte(nil), key[:n]...), v[1+sz:])
			}
		case deltaAbsent:
			if err := b.Delete(key); err != nil {
				return err
			}
		default:
			return fmt.Errorf("table: index build %s: bad delta kind %q", ix.Name, v[0])
		}
		if b.Len() >= batchBytes {
			if err := db.ApplyBatch(b); err != nil {
				return err
			}
			_ = b.Close()
			b = db.NewBatch()
		}
	}
	if err := it.Error(); err != nil {
		return err
	}
	if !b.Empty() {
		if err := db.ApplyBatch(b); err != nil {
			return err
		}
	}
	for i := 0; i < len(uniques); i += 2 {
		n, err := t.countPrefix(uniques[i], 2)
		if err != nil {
			return err
		}
		if n > 1 {
			return &DupKeyError{Table: t.Def.Name, Index: ix, Entry: string(uniques[i+1])}
		}
	}
	return nil
}

// countPrefix counts the latest entries with the given key prefix, up to
// limit.
func (t *Table) countPrefix(prefix []byte, limit int) (int, error) {
	it, err := t.store.db.KV().NewIter(kv.IterOptions{Lower: prefix, Upper: encoding.PrefixEnd(append([]byte(nil), prefix...))})
	if err != nil {
		return 0, err
	}
	n, err := it.Count(int64(limit))
	return int(n), err
}

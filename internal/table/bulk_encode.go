package table

import (
	"encoding/binary"
	"fmt"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/table/extsort"
)

// Encoding rows apart from adding them. The entries of a row (its primary
// key and value, its secondary index entries) depend only on the row and
// the table's definition, so a load can encode rows on several goroutines
// (Encode) and add them, in file order, on one (AddEncoded) — the adding
// is what must be serial: the direct path's order, the sort, duplicates.
//
// An encoding is uvarint(entries) and per entry uvarint(len(key))
// uvarint(len(value)) key value: the primary entry first (its key
// untagged), then the secondary ones with their sort tag.

// EncodeScratch holds one encoding goroutine's buffers.
type EncodeScratch struct {
	sink entrySink // its sorter unused
	pk   []byte
}

// CanEncode reports whether rows can be encoded apart: not for a table
// with a hidden primary key (its row ids come from the transaction).
func (l *BulkLoader) CanEncode() bool { return !l.t.Def.HiddenPK }

// Encode appends the encoding of row's entries to dst. It reads only the
// table's definition, so several goroutines may encode at once, each with
// its own scratch.
func (l *BulkLoader) Encode(dst []byte, row []sqltypes.Value, s *EncodeScratch) ([]byte, error) {
	t := l.t
	if t.Def.HiddenPK {
		return dst, fmt.Errorf("table: bulk load: rows of %s cannot be encoded apart", t.Def.Name)
	}
	var err error
	if s.pk, err = t.PKKey(s.pk[:0], row, 0); err != nil {
		return dst, err
	}
	if s.sink.val, err = t.rc.EncodeRow(s.sink.val[:0], row); err != nil {
		return dst, err
	}
	dst = binary.AppendUvarint(dst, uint64(1+len(l.idx)))
	dst = appendEntry(dst, s.pk, s.sink.val)
	for _, ix := range l.idx {
		if err := l.secondaryEntry(&s.sink, ix, row, s.pk); err != nil {
			return dst, err
		}
		dst = appendEntry(dst, s.sink.tag, s.sink.val)
	}
	return dst, nil
}

func appendEntry(dst, key, value []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(key)))
	dst = binary.AppendUvarint(dst, uint64(len(value)))
	return append(append(dst, key...), value...)
}

// nextEntry reads one entry of an encoding.
func nextEntry(b []byte) (key, value, rest []byte, err error) {
	kl, n1 := binary.Uvarint(b)
	if n1 <= 0 {
		return nil, nil, nil, extsort.ErrCorrupt
	}
	vl, n2 := binary.Uvarint(b[n1:])
	if n2 <= 0 || uint64(len(b)-n1-n2) < kl+vl {
		return nil, nil, nil, extsort.ErrCorrupt
	}
	b = b[n1+n2:]
	return b[:kl], b[kl : kl+vl], b[kl+vl:], nil
}

// AddEncoded adds a row by its encoding (Encode), as Add adds it.
func (l *BulkLoader) AddEncoded(enc []byte) error {
	n, sz := binary.Uvarint(enc)
	if sz <= 0 || n == 0 {
		return fmt.Errorf("table: bulk load: bad encoding: %w", extsort.ErrCorrupt)
	}
	pk, val, rest, err := nextEntry(enc[sz:])
	if err != nil {
		return fmt.Errorf("table: bulk load: bad encoding: %w", err)
	}
	// Copied: l.pk and l.val are Add's buffers too.
	l.pk, l.val = append(l.pk[:0], pk...), append(l.val[:0], val...)
	ok, err := l.addDirect(func() ([]sqltypes.Value, error) { return l.t.DecodeRow(nil, pk, val) })
	if err != nil || !ok {
		return err
	}
	for range n - 1 {
		var k, v []byte
		if k, v, rest, err = nextEntry(rest); err != nil {
			return fmt.Errorf("table: bulk load: bad encoding: %w", err)
		}
		if err := l.sorter.Add(k, v); err != nil {
			return err
		}
	}
	l.rows++
	return nil
}

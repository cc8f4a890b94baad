package txn

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/strata-db/strata/internal/kv"
)

// IterOptions select the range and view of an Iterator.
type IterOptions struct {
	// Lower is the inclusive lower bound, Upper the exclusive upper bound.
	Lower, Upper []byte
	// Reverse iterates from the largest key down.
	Reverse bool
	// Latest reads the latest committed state (current read) instead of the
	// transaction's snapshot.
	Latest bool
}

// Iterator walks the merge of the transaction's pending writes and the
// committed state over a key range. It is a stable view: writes made by the
// transaction after the iterator was created are not seen (this avoids the
// Halloween problem in UPDATE scans). Key and Value are valid until Next.
type Iterator struct {
	db      *DB
	it      *kv.Iterator
	pending []*item
	pos     int
	// start is the bound the scan starts from, kept when the scan is
	// sampled for warm restarts (readsample.go).
	start []byte

	// current entry
	curKey, curVal []byte
	err            error

	// The flags share a word: the struct stays in its allocation size
	// class (144 bytes).
	itValid bool
	reverse bool
	valid   bool
	fromKV  bool // current entry came from the committed side
	sampled bool // the scan is recorded at Close
}

// NewIter returns an iterator positioned at the first entry (the last with
// Reverse).
func (t *Txn) NewIter(o IterOptions) (*Iterator, error) {
	if t.done {
		return nil, ErrDone
	}
	iopts := kv.IterOptions{Lower: o.Lower, Upper: o.Upper}
	var (
		pit *kv.Iterator
		err error
	)
	if o.Latest {
		pit, err = t.db.kv.NewIter(iopts)
	} else {
		pit, err = t.snapshot().NewIter(iopts)
	}
	if err != nil {
		return nil, fmt.Errorf("txn iterator: %w", err)
	}
	it := &Iterator{db: t.db, it: pit, reverse: o.Reverse}
	if t.sampleRead() {
		it.sampled, it.start = true, o.Lower
		if o.Reverse {
			it.start = o.Upper
		}
	}
	if t.buf != nil && t.buf.Len() > 0 {
		visit := func(x *item) bool {
			if o.Upper != nil && bytes.Compare(x.key, o.Upper) >= 0 {
				return false
			}
			it.pending = append(it.pending, x)
			return true
		}
		if o.Lower != nil {
			t.probe.key = o.Lower
			t.buf.AscendGreaterOrEqual(&t.probe, visit)
			t.probe.key = nil
		} else {
			t.buf.Ascend(visit)
		}
		if o.Reverse {
			for i, j := 0, len(it.pending)-1; i < j; i, j = i+1, j-1 {
				it.pending[i], it.pending[j] = it.pending[j], it.pending[i]
			}
		}
	}
	if o.Reverse {
		it.itValid = pit.Last()
	} else {
		it.itValid = pit.First()
	}
	it.settle()
	return it, nil
}

// cmp orders keys in the iteration direction.
func (i *Iterator) cmp(a, b []byte) int {
	c := bytes.Compare(a, b)
	if i.reverse {
		return -c
	}
	return c
}

func (i *Iterator) advanceKV() {
	if i.reverse {
		i.itValid = i.it.Prev()
	} else {
		i.itValid = i.it.Next()
	}
}

// settle positions the current entry at the next visible key, skipping
// pending deletes and committed keys shadowed by pending writes.
func (i *Iterator) settle() {
	for {
		hasP := i.pos < len(i.pending)
		if !i.itValid {
			if err := i.it.Error(); err != nil {
				i.err = err
				i.valid = false
				return
			}
		}
		switch {
		case !hasP && !i.itValid:
			i.valid = false
			return
		case hasP && (!i.itValid || i.cmp(i.pending[i.pos].key, i.it.Key()) <= 0):
			p := i.pending[i.pos]
			if i.itValid && bytes.Equal(p.key, i.it.Key()) {
				i.advanceKV()
			}
			i.pos++
			if p.del {
				continue
			}
			i.curKey, i.curVal, i.valid, i.fromKV = p.key, p.value, true, false
			return
		default:
			v, ok := i.it.Value()
			if !ok {
				i.err = i.it.Error()
				i.valid = false
				return
			}
			i.curKey, i.curVal, i.valid, i.fromKV = i.it.Key(), v, true, true
			return
		}
	}
}

// Valid reports whether the iterator is at an entry.
func (i *Iterator) Valid() bool { return i.valid }

// Key returns the current key.
func (i *Iterator) Key() []byte { return i.curKey }

// Value returns the current value.
func (i *Iterator) Value() []byte { return i.curVal }

// Next moves to the next entry in iteration order.
func (i *Iterator) Next() {
	if !i.valid {
		return
	}
	// Entries from the pending side already advanced pos in settle.
	if i.fromKV {
		i.advanceKV()
	}
	i.settle()
}

// Error returns the first error met.
func (i *Iterator) Error() error { return i.err }

// Close releases the iterator.
func (i *Iterator) Close() error {
	s := i.it.StepStats()
	i.db.noteIterator(s)
	if i.sampled {
		i.noteScan(s)
	}
	err := i.it.Close()
	if i.err != nil {
		return i.err
	}
	return err
}

// CountRange counts the keys in [lo, hi) the transaction sees. Without
// buffered writes it counts on the snapshot, in up to parallel parts at
// once (kv.DB.SplitPoints) for a large range; otherwise through the
// transaction's merged iterator.
func (t *Txn) CountRange(lo, hi []byte, parallel int) (int64, error) {
	if t.HasWrites() || t.readLatest {
		it, err := t.NewIter(IterOptions{Lower: lo, Upper: hi})
		if err != nil {
			return 0, err
		}
		var n int64
		for ; it.Valid(); it.Next() {
			n++
		}
		if err := it.Error(); err != nil {
			_ = it.Close()
			return 0, err
		}
		return n, it.Close()
	}
	snap := t.snapshot()
	cuts, err := t.db.kv.SplitPoints(lo, hi, parallel, parallelCountMin)
	if err != nil {
		return 0, err
	}
	bounds := make([][]byte, 0, len(cuts)+2)
	bounds = append(append(append(bounds, lo), cuts...), hi)
	counts := make([]int64, len(bounds)-1)
	errs := make([]error, len(bounds)-1)
	var wg sync.WaitGroup
	for i := range counts {
		count := func() {
			counts[i], errs[i] = countSnapshot(snap, bounds[i], bounds[i+1])
		}
		if i == len(counts)-1 {
			count() // the last part on this goroutine
			continue
		}
		wg.Add(1)
		go func() { defer wg.Done(); count() }()
	}
	wg.Wait()
	var n int64
	for i, c := range counts {
		if errs[i] != nil {
			return 0, errs[i]
		}
		n += c
	}
	return n, nil
}

// parallelCountMin is the data size below which a count is not split (a
// variable for tests).
var parallelCountMin uint64 = 64 << 20

func countSnapshot(snap *kv.Snapshot, lo, hi []byte) (int64, error) {
	it, err := snap.NewIter(kv.IterOptions{Lower: lo, Upper: hi})
	if err != nil {
		return 0, err
	}
	return it.Count(-1)
}

package kv

import (
	"github.com/cockroachdb/pebble/v2"
)

// IterOptions bound an Iterator. Zero values mean unbounded.
type IterOptions struct {
	// Lower is the inclusive lower bound, Upper the exclusive upper bound.
	Lower, Upper []byte
}

func (o IterOptions) pebble() *pebble.IterOptions {
	return &pebble.IterOptions{LowerBound: o.Lower, UpperBound: o.Upper}
}

// Iterator walks the keys of a DB or a Snapshot within its bounds, in
// either direction. It is Pebble's iterator under strata's narrower API (a
// defined type over pebble.Iterator: its methods inline to Pebble's, with no
// allocation or interface dispatch per key). Key and value are valid until
// the next positioning call. An Iterator is not safe for concurrent use and
// must be closed.
type Iterator pebble.Iterator

// NewIter returns an unpositioned iterator over the latest committed state.
func (db *DB) NewIter(o IterOptions) (*Iterator, error) {
	it, err := db.pdb.NewIter(o.pebble())
	if err != nil {
		return nil, opError("new iterator", err)
	}
	return (*Iterator)(it), nil
}

func (i *Iterator) pebble() *pebble.Iterator { return (*pebble.Iterator)(i) }

// First moves to the first key and reports whether there is one.
func (i *Iterator) First() bool { return i.pebble().First() }

// Last moves to the last key and reports whether there is one.
func (i *Iterator) Last() bool { return i.pebble().Last() }

// Next moves to the next key and reports whether there is one.
func (i *Iterator) Next() bool { return i.pebble().Next() }

// SeekGE moves to the first key at or after key and reports whether there
// is one. Seeks to increasing keys step forward instead of searching
// again where they can (Pebble's own optimisation).
func (i *Iterator) SeekGE(key []byte) bool { return i.pebble().SeekGE(key) }

// Prev moves to the previous key and reports whether there is one.
func (i *Iterator) Prev() bool { return i.pebble().Prev() }

// Key returns the current key.
func (i *Iterator) Key() []byte { return i.pebble().Key() }

// Value returns the current value. Reading it can fail when the value is
// stored apart from its key (in a blob file): ok is then false, the
// iterator is exhausted and Error reports why. The split into Value and
// Error keeps this per-key call small enough to inline.
func (i *Iterator) Value() (value []byte, ok bool) {
	v, err := i.pebble().ValueAndErr()
	return v, err == nil
}

// Error returns the error that stopped the iteration, if any: an iterator
// that reports no key either reached its bound or failed.
func (i *Iterator) Error() error {
	if err := i.pebble().Error(); err != nil {
		return opError("iterator step", err)
	}
	return nil
}

// StepStats is the work an iterator has done: Visible counts the seeks and
// steps its caller asked for, Internal the internal entries Pebble stepped
// over to serve them — superseded versions and tombstones included, so
// Internal far above Visible means many dead versions (see
// txn's read-triggered flushes).
type StepStats struct {
	Internal, Visible int
}

// StepStats returns the iterator's work so far.
func (i *Iterator) StepStats() StepStats {
	s := i.pebble().Stats()
	return StepStats{
		Internal: s.ForwardStepCount[pebble.InternalIterCall] + s.ReverseStepCount[pebble.InternalIterCall],
		Visible: s.ForwardStepCount[pebble.InterfaceCall] + s.ReverseStepCount[pebble.InterfaceCall] +
			s.ForwardSeekCount[pebble.InterfaceCall] + s.ReverseSeekCount[pebble.InterfaceCall],
	}
}

// Close releases the iterator and returns its error, if any.
func (i *Iterator) Close() error {
	if err := i.pebble().Close(); err != nil {
		return opError("iterator close", err)
	}
	return nil
}

// Count counts the keys from the iterator's first position, up to limit
// (limit < 0: all), and closes the iterator.
func (i *Iterator) Count(limit int64) (int64, error) {
	var n int64
	for ok := i.First(); ok && (limit < 0 || n < limit); ok = i.Next() {
		n++
	}
	if err := i.Error(); err != nil {
		_ = i.Close()
		return 0, err
	}
	return n, i.Close()
}

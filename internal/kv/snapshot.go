package kv

import (
	"errors"
	"io"

	"github.com/cockroachdb/pebble/v2"
)

// Snapshot is a consistent read-only view of the DB as of its creation:
// later commits are invisible to its reads. It is Pebble's snapshot under
// strata's narrower API (a defined type over pebble.Snapshot). It pins the
// versions it can see, so long-lived snapshots hold back space reclamation;
// it must be closed.
type Snapshot pebble.Snapshot

// NewSnapshot returns a snapshot of the latest committed state.
func (db *DB) NewSnapshot() *Snapshot { return (*Snapshot)(db.pdb.NewSnapshot()) }

func (s *Snapshot) pebble() *pebble.Snapshot { return (*pebble.Snapshot)(s) }

// Get returns a copy of the value of key in the snapshot; found is false if
// the key does not exist.
func (s *Snapshot) Get(key []byte) (value []byte, found bool, err error) {
	return copyValue(s.pebble().Get(key))
}

// NewIter returns an unpositioned iterator over the snapshot.
func (s *Snapshot) NewIter(o IterOptions) (*Iterator, error) {
	it, err := s.pebble().NewIter(o.pebble())
	if err != nil {
		return nil, opError("new snapshot iterator", err)
	}
	return (*Iterator)(it), nil
}

// Close releases the snapshot.
func (s *Snapshot) Close() error {
	if err := s.pebble().Close(); err != nil {
		return opError("close snapshot", err)
	}
	return nil
}

// Get returns a copy of the latest committed value of key; found is false if
// the key does not exist.
func (db *DB) Get(key []byte) (value []byte, found bool, err error) {
	return copyValue(db.pdb.Get(key))
}

// View calls fn with the snapshot's value of key, without copying it: the
// value is valid only during fn, which must not keep or modify it. found
// is false (and fn not called) if the key does not exist; fn's error is
// returned.
func (s *Snapshot) View(key []byte, fn func(value []byte) error) (found bool, err error) {
	v, closer, err := s.pebble().Get(key)
	return viewValue(v, closer, err, fn)
}

// View is Snapshot.View of the latest committed value.
func (db *DB) View(key []byte, fn func(value []byte) error) (found bool, err error) {
	v, closer, err := db.pdb.Get(key)
	return viewValue(v, closer, err, fn)
}

// viewValue shows the result of a Pebble Get to fn, then closes the closer.
func viewValue(v []byte, closer io.Closer, err error, fn func([]byte) error) (bool, error) {
	if err != nil {
		if errors.Is(err, pebble.ErrNotFound) {
			return false, nil
		}
		return false, opError("get", err)
	}
	ferr := fn(v)
	_ = closer.Close()
	return true, ferr
}

// copyValue turns the result of a Pebble Get into a copy of the value that
// outlives the closer, which it closes.
func copyValue(v []byte, closer io.Closer, err error) ([]byte, bool, error) {
	if err != nil {
		if errors.Is(err, pebble.ErrNotFound) {
			return nil, false, nil
		}
		return nil, false, opError("get", err)
	}
	out := make([]byte, len(v))
	copy(out, v)
	_ = closer.Close()
	return out, true, nil
}

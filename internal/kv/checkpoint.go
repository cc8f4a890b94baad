package kv

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// OnDisk reports whether the store lives on the operating system's
// filesystem (not an in-memory one of a test), so that its checkpoints
// can be read with the os package.
func (db *DB) OnDisk() bool { return isOSFS(db.fs) }

// Checkpoint writes a consistent copy of the open database into dir, which
// must not exist: Pebble's MANIFEST, OPTIONS, WAL and every live table file,
// table files hard-linked where the filesystem allows (they are immutable),
// the rest copied. The WAL is synced first, so every batch committed before
// the call is in the copy — whether or not it was committed with fsync —
// and no batch is in it partly: a transaction's commit is one batch.
// Writes continue meanwhile. The copy is a data directory a server can open.
func (db *DB) Checkpoint(dir string) error {
	if err := db.pdb.Checkpoint(dir, pebble.WithFlushedWAL()); err != nil {
		return fmt.Errorf("kv: checkpoint %s into %s: %w", db.dir, dir, err)
	}
	return nil
}

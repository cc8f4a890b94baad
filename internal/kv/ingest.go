package kv

import (
	"context"
	"fmt"

	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
)

// SSTWriter writes one sorted table file for Ingest, in the database's own
// table format and bottom-level options (compression, filters, block
// sizes), so an ingested file is what a compaction into the bottom level
// would have written. Keys must be added in strictly increasing order.
type SSTWriter struct {
	w    *sstable.Writer
	path string
	size uint64
}

// NewSSTWriter creates the file path (on the database's filesystem) and
// returns a writer for it.
func (db *DB) NewSSTWriter(path string) (*SSTWriter, error) {
	f, err := db.fs.Create(path, "")
	if err != nil {
		return nil, fmt.Errorf("kv: create sstable %s: %w", path, err)
	}
	wo := db.opts.MakeWriterOptions(len(db.opts.Levels)-1, db.pdb.FormatMajorVersion().MaxTableFormat())
	return &SSTWriter{w: sstable.NewWriter(objstorageprovider.NewFileWritable(f), wo), path: path}, nil
}

// Set adds a key. Keys must be strictly increasing.
func (w *SSTWriter) Set(key, value []byte) error {
	if err := w.w.Set(key, value); err != nil {
		return fmt.Errorf("kv: sstable %s: %w", w.path, err)
	}
	w.size += uint64(len(key) + len(value))
	return nil
}

// Size is the bytes of keys and values added so far (before compression).
func (w *SSTWriter) Size() uint64 { return w.size }

// Path is the file being written.
func (w *SSTWriter) Path() string { return w.path }

// Close finishes and syncs the file. A writer that was given no key leaves
// an empty table file, which Ingest must not be given.
func (w *SSTWriter) Close() error {
	if err := w.w.Close(); err != nil {
		return fmt.Errorf("kv: finish sstable %s: %w", w.path, err)
	}
	return nil
}

// Ingest adds the given table files to the database atomically: after it
// returns, every key of every file is visible (newer than every earlier
// write), and after a crash either all of them are or none. The files
// must not overlap each other. Pebble moves (links) them into the
// database, placing each at the lowest level it does not overlap.
func (db *DB) Ingest(paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	if err := db.pdb.Ingest(context.Background(), paths); err != nil {
		return opError("ingest", err)
	}
	return nil
}

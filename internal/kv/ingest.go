package kv

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/cockroachdb/errors/oserror"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/sstable/block"
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
	if err := db.fs.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("kv: create sstable %s: %w", path, err)
	}
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

// ReadSST calls fn with every key and value of a table file written by an
// SSTWriter (not yet ingested), in key order. The slices are valid only
// during the call.
func (db *DB) ReadSST(path string, fn func(key, value []byte) error) (err error) {
	f, err := db.fs.Open(path)
	if err != nil {
		return fmt.Errorf("kv: open sstable %s: %w", path, err)
	}
	readable, err := sstable.NewSimpleReadable(f)
	if err != nil {
		_ = f.Close()
		return fmt.Errorf("kv: open sstable %s: %w", path, err)
	}
	o := db.opts.Clone()
	o.EnsureDefaults()
	r, err := sstable.NewReader(context.Background(), readable, o.MakeReaderOptions())
	if err != nil {
		_ = readable.Close()
		return fmt.Errorf("kv: open sstable %s: %w", path, err)
	}
	defer func() {
		if cerr := r.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("kv: close sstable %s: %w", path, cerr)
		}
	}()
	it, err := r.NewIter(block.NoTransforms, nil, nil, sstable.AssertNoBlobHandles)
	if err != nil {
		return fmt.Errorf("kv: read sstable %s: %w", path, err)
	}
	var buf []byte
	for kv := it.First(); kv != nil; kv = it.Next() {
		v, _, verr := kv.Value(buf[:0])
		if verr != nil {
			_ = it.Close()
			return fmt.Errorf("kv: read sstable %s: %w", path, verr)
		}
		if err := fn(kv.K.UserKey, v); err != nil {
			_ = it.Close()
			return err
		}
	}
	if err := it.Close(); err != nil {
		return fmt.Errorf("kv: read sstable %s: %w", path, err)
	}
	return nil
}

// RemoveFile removes a file written by an SSTWriter (on the database's
// filesystem); a missing file is not an error.
func (db *DB) RemoveFile(path string) error {
	if err := db.fs.Remove(path); err != nil && !oserror.IsNotExist(err) {
		return fmt.Errorf("kv: remove %s: %w", path, err)
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

package table

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"sync/atomic"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/table/extsort"
)

// The direct path of a bulk load. Files to load are usually in primary
// key order (dumps, exports, generated ids), and sorting entries that are
// already sorted costs a run written to disk, read back and merged. So a
// BulkLoader writes primary entries straight into table files for as
// long as their keys come in strictly increasing order, on a goroutine of
// its own (compression then runs beside the parsing). An equal key is a
// duplicate, found on the spot. The first key out of order ends the
// direct path: the files written so far are read back into the sort and
// every later entry goes there too, as if there had been no direct path
// (each entry is then written twice, as it would have been anyway).

// directBufSize is the size at which a buffer of entries is handed to the
// writing goroutine.
const directBufSize = 1 << 20

// directWriter writes increasing keys into table files on a goroutine.
// Entries are framed uvarint(len(key)) uvarint(len(value)) key value.
type directWriter struct {
	kv   *kv.DB
	dir  string
	sst  uint64
	name string // file name prefix

	cur  []byte        // entries being collected by the caller
	work chan []byte   // full buffers, for the goroutine
	free chan []byte   // buffers the goroutine is done with
	done chan struct{} // closed when the goroutine ends

	// Set by the goroutine; read after done.
	files  []string
	err    error
	failed atomic.Bool // err is set: the caller stops early

	prev []byte // the last key added (caller side)
	n    int64
}

func newDirectWriter(db *kv.DB, dir string, sst uint64, name string) *directWriter {
	d := &directWriter{kv: db, dir: dir, sst: sst, name: name,
		work: make(chan []byte, 2), free: make(chan []byte, 3), done: make(chan struct{})}
	for range 3 {
		d.free <- make([]byte, 0, directBufSize+4096)
	}
	d.cur = <-d.free
	go d.run(d.work)
	return d
}

// order tells how key compares with the last key added: -1 before it, 0
// equal, 1 after it (or the first key).
func (d *directWriter) order(key []byte) int {
	if d.n == 0 {
		return 1
	}
	return bytes.Compare(key, d.prev)
}

// add adds an entry whose key follows the last one (order(key) == 1). It
// fails once writing failed (finish tells why).
func (d *directWriter) add(key, value []byte) error {
	d.cur = binary.AppendUvarint(d.cur, uint64(len(key)))
	d.cur = binary.AppendUvarint(d.cur, uint64(len(value)))
	d.cur = append(append(d.cur, key...), value...)
	d.prev = append(d.prev[:0], key...)
	d.n++
	if len(d.cur) >= directBufSize {
		if d.failed.Load() {
			_, err := d.finish()
			return err
		}
		d.work <- d.cur
		d.cur = (<-d.free)[:0]
	}
	return nil
}

// cut makes the next entry start a new file (its key may then be smaller
// than the last one's: the files are ingested together, never overlapping).
// It is an entry with an empty key, which no table key is.
func (d *directWriter) cut() {
	d.cur = append(d.cur, 0, 0)
}

// finish writes what is left and waits for the goroutine: the files
// written, in key order, or the first error.
func (d *directWriter) finish() ([]string, error) {
	if d.work == nil {
		return d.files, d.err
	}
	if len(d.cur) > 0 {
		d.work <- d.cur
		d.cur = nil
	}
	close(d.work)
	d.work = nil
	<-d.done
	return d.files, d.err
}

// run writes the buffers it is given, cutting a file every sst bytes.
func (d *directWriter) run(work <-chan []byte) {
	defer close(d.done)
	var w *kv.SSTWriter
	closeFile := func() {
		if w == nil {
			return
		}
		if err := w.Close(); err != nil && d.err == nil {
			d.err = err
		}
		w = nil
	}
	defer closeFile()
	for buf := range work {
		for b := buf; len(b) > 0 && d.err == nil; {
			kl, n1 := binary.Uvarint(b)
			vl, n2 := binary.Uvarint(b[n1:])
			b = b[n1+n2:]
			key, value := b[:kl], b[kl:kl+vl]
			b = b[kl+vl:]
			if kl == 0 { // cut
				closeFile()
				continue
			}
			if w == nil || w.Size() >= d.sst {
				closeFile()
				if d.err != nil {
					break
				}
				path := filepath.Join(d.dir, fmt.Sprintf("%s%s-d%d.sst", extsort.FilePrefix, d.name, len(d.files)))
				nw, err := d.kv.NewSSTWriter(path)
				if err != nil {
					d.err = err
					break
				}
				w = nw
				d.files = append(d.files, path)
			}
			if err := w.Set(key, value); err != nil {
				d.err = err
			}
		}
		if d.err != nil {
			d.failed.Store(true)
		}
		d.free <- buf[:0]
	}
}

// remove deletes the files written (after finish).
func (d *directWriter) remove() {
	for _, f := range d.files {
		_ = d.kv.RemoveFile(f)
	}
	d.files = nil
}

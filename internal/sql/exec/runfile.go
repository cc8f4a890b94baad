package exec

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/encoding"
)

// Sorted runs on disk. A sort that outgrows its memory bound writes each
// sorted run to the end of one temporary file and remembers where it
// starts and how many rows it has; the merge reads the runs back through
// buffered section readers. Layout (varints as internal/encoding's):
//
//	run     = record*
//	record  = uvarint(len(body)) || body
//	body    = uvarint(ncols) || value* || uvarint(coll)*nkeys
//	value   = uvarint(type) || uvarint(len(raw)) || raw
//
// type is the value's querypb.Type (NULL_TYPE for NULL, which has no raw
// bytes), so a value comes back with exactly its type and bytes; coll is
// the collation its sort key was prepared under (SortVal), so the merge
// compares exactly as the in-memory sort did.

// TempPrefix starts the name of every file a sort creates.
const TempPrefix = "strata-sort-"

// ErrCorruptRun means a run read back is not what was written.
var ErrCorruptRun = errors.New("exec: corrupt sort run")

// PrepareTempDir creates dir (and its parents) and removes the sort files
// a previous process left in it (a crash leaves them behind); call it once
// at start-up, before any sort runs in dir.
func PrepareTempDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("exec: temporary directory: %w", err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("exec: temporary directory: %w", err)
	}
	for _, e := range ents {
		if !e.IsDir() && strings.HasPrefix(e.Name(), TempPrefix) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !os.IsNotExist(err) {
				return fmt.Errorf("exec: remove stale sort file: %w", err)
			}
		}
	}
	return nil
}

// run is one sorted run in a runFile.
type run struct {
	off, size int64
	rows      uint64
}

// runFile is a temporary file of runs, written front to back.
type runFile struct {
	f    *os.File
	w    *bufio.Writer
	size int64 // bytes written (buffered included)
	buf  []byte
}

// createRunFile creates an empty run file in dir.
func createRunFile(dir string) (*runFile, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	f, err := os.CreateTemp(dir, TempPrefix+"*")
	if err != nil {
		return nil, fmt.Errorf("exec: create sort file: %w", err)
	}
	return &runFile{f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// appendRow writes one record: row with the collations of its keys.
func (rf *runFile) appendRow(row Row, keys []SortVal) error {
	b := rf.buf[:0]
	b = encoding.AppendUvarint(b, uint64(len(row)))
	for _, v := range row {
		if v.IsNull() {
			b = encoding.AppendUvarint(b, uint64(sqltypes.Null))
			b = encoding.AppendUvarint(b, 0)
			continue
		}
		b = encoding.AppendUvarint(b, uint64(v.Type()))
		b = encoding.AppendUvarint(b, uint64(len(v.Raw())))
		b = append(b, v.Raw()...)
	}
	for k := range keys {
		b = encoding.AppendUvarint(b, uint64(keys[k].coll))
	}
	var hdr [10]byte
	h := encoding.AppendUvarint(hdr[:0], uint64(len(b)))
	rf.buf = b
	if _, err := rf.w.Write(h); err != nil {
		return fmt.Errorf("exec: write sort run: %w", err)
	}
	if _, err := rf.w.Write(b); err != nil {
		return fmt.Errorf("exec: write sort run: %w", err)
	}
	rf.size += int64(len(h) + len(b))
	return nil
}

// flush writes the buffered records to the file.
func (rf *runFile) flush() error {
	if err := rf.w.Flush(); err != nil {
		return fmt.Errorf("exec: write sort run: %w", err)
	}
	return nil
}

// remove closes and deletes the file.
func (rf *runFile) remove() error {
	if rf == nil || rf.f == nil {
		return nil
	}
	name := rf.f.Name()
	err := rf.f.Close()
	rf.f = nil
	if rerr := os.Remove(name); rerr != nil && err == nil {
		err = rerr
	}
	if err != nil {
		return fmt.Errorf("exec: remove sort file: %w", err)
	}
	return nil
}

// runReader reads one run back.
type runReader struct {
	idx  int // the run's position among those merged (ties: lower first)
	r    *bufio.Reader
	left uint64 // rows not yet read
	rec  []byte
	row  Row
	keys []SortVal
}

// reset points rr at run r of f.
func (rr *runReader) reset(f *os.File, r run, bufSize int) {
	sr := io.NewSectionReader(f, r.off, r.size)
	if rr.r == nil {
		rr.r = bufio.NewReaderSize(sr, bufSize)
	} else {
		rr.r.Reset(sr)
	}
	rr.left = r.rows
}

// next reads the next record into rr.row and rr.keys (prepared for keys);
// false at the end of the run. The row aliases rr's buffer until the next
// call.
func (rr *runReader) next(keys []Key) (bool, error) {
	if rr.left == 0 {
		return false, nil
	}
	rr.left--
	n, err := readUvarint(rr.r)
	if err != nil {
		return false, err
	}
	if uint64(cap(rr.rec)) < n {
		rr.rec = make([]byte, n)
	}
	rr.rec = rr.rec[:n]
	if _, err := io.ReadFull(rr.r, rr.rec); err != nil {
		return false, fmt.Errorf("exec: read sort run: %w", err)
	}
	if rr.row, err = decodeRecord(rr.rec, rr.row[:0], &rr.keys, keys); err != nil {
		return false, err
	}
	return true, nil
}

func readUvarint(r *bufio.Reader) (uint64, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return 0, fmt.Errorf("exec: read sort run: %w", err)
	}
	return n, nil
}

// decodeRecord decodes a record body into row (appended to) and prepares
// its sort keys into *kv. The values alias b.
func decodeRecord(b []byte, row Row, kv *[]SortVal, keys []Key) (Row, error) {
	b, n, err := encoding.DecodeUvarint(b)
	if err != nil || n > uint64(len(b)) {
		return nil, fmt.Errorf("%w: column count", ErrCorruptRun)
	}
	for i := uint64(0); i < n; i++ {
		var typ, l uint64
		if b, typ, err = encoding.DecodeUvarint(b); err != nil {
			return nil, fmt.Errorf("%w: type", ErrCorruptRun)
		}
		if b, l, err = encoding.DecodeUvarint(b); err != nil || l > uint64(len(b)) {
			return nil, fmt.Errorf("%w: value length", ErrCorruptRun)
		}
		if querypb.Type(typ) == sqltypes.Null {
			row = append(row, sqltypes.NULL)
		} else {
			row = append(row, sqltypes.MakeTrusted(querypb.Type(typ), b[:l:l]))
		}
		b = b[l:]
	}
	if cap(*kv) < len(keys) {
		*kv = make([]SortVal, len(keys))
	}
	*kv = (*kv)[:len(keys)]
	for k, key := range keys {
		var coll uint64
		if b, coll, err = encoding.DecodeUvarint(b); err != nil || key.Col >= len(row) {
			return nil, fmt.Errorf("%w: key collation", ErrCorruptRun)
		}
		(*kv)[k] = MakeSortVal(row[key.Col], collations.ID(coll))
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("%w: trailing bytes", ErrCorruptRun)
	}
	return row, nil
}

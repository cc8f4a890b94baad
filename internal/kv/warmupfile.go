package kv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// The warmup file, <datadir>/warmup, holds the recorded hot reads:
//
//	file    = magic count read* crc
//	magic   = "strata-warmup\x01"
//	count   = uvarint
//	read    = kind(1) rows(uvarint) hits(uvarint) bound(lower) bound(upper)
//	bound   = 0x00                      (none)
//	        | 0x01 len(uvarint) bytes   (a key)
//	crc     = CRC-32C (Castagnoli) of everything before it, 4 bytes little-endian
//
// It is written to warmup.tmp, synced, renamed over warmup and the
// directory synced, so a crash leaves either file whole. A file that does
// not parse is ignored (and logged) by its reader: warming up is an
// optimisation and never a reason to fail a start.

// WarmupFile is the name of the warmup file in the data directory.
const WarmupFile = "warmup"

const warmupMagic = "strata-warmup\x01"

// Bounds of a valid file, so a damaged one cannot make its reader
// allocate without limit.
const (
	maxWarmupReads = 1 << 20
	maxWarmupKey   = 64 << 10
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errWarmupCorrupt is wrapped by every parse failure of a warmup file.
var errWarmupCorrupt = errors.New("corrupt warmup file")

// EncodeHotReads returns the warmup file's bytes for reads.
func EncodeHotReads(reads []HotRead) []byte {
	b := append([]byte(nil), warmupMagic...)
	b = binary.AppendUvarint(b, uint64(len(reads)))
	for i := range reads {
		h := &reads[i]
		b = append(b, byte(h.Kind))
		b = binary.AppendUvarint(b, uint64(h.Rows))
		b = binary.AppendUvarint(b, uint64(h.Hits))
		b = appendFileBound(b, h.Lower)
		b = appendFileBound(b, h.Upper)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func appendFileBound(b, k []byte) []byte {
	if k == nil {
		return append(b, 0)
	}
	b = append(b, 1)
	b = binary.AppendUvarint(b, uint64(len(k)))
	return append(b, k...)
}

// DecodeHotReads parses a warmup file's bytes. Errors wrap a corruption
// sentinel and say what was wrong.
func DecodeHotReads(b []byte) ([]HotRead, error) {
	if len(b) < len(warmupMagic)+4 || string(b[:len(warmupMagic)]) != warmupMagic {
		return nil, fmt.Errorf("%w: bad header", errWarmupCorrupt)
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", errWarmupCorrupt)
	}
	d := decoder{b: body[len(warmupMagic):]}
	n := d.uvarint()
	if n > maxWarmupReads {
		return nil, fmt.Errorf("%w: %d reads", errWarmupCorrupt, n)
	}
	reads := make([]HotRead, 0, n)
	for range n {
		var h HotRead
		h.Kind = ReadKind(d.byte())
		h.Rows = uint32(min(d.uvarint(), 1<<31))
		h.Hits = uint32(min(d.uvarint(), 1<<31))
		h.Lower = d.bound()
		h.Upper = d.bound()
		if d.err != nil {
			return nil, d.err
		}
		if h.Kind < ReadPoint || h.Kind > ReadReverse || (h.Kind == ReadPoint && h.Lower == nil) {
			return nil, fmt.Errorf("%w: bad read kind %d", errWarmupCorrupt, h.Kind)
		}
		reads = append(reads, h)
	}
	if d.err != nil {
		return nil, d.err
	}
	if len(d.b) != 0 {
		return nil, fmt.Errorf("%w: %d trailing bytes", errWarmupCorrupt, len(d.b))
	}
	return reads, nil
}

// decoder reads the file's fields; the first failure sticks in err.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: truncated %s", errWarmupCorrupt, what)
	}
	d.b = nil
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.fail("read")
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("number")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bound() []byte {
	switch d.byte() {
	case 0:
		return nil
	case 1:
	default:
		if d.err == nil {
			d.err = fmt.Errorf("%w: bad key marker", errWarmupCorrupt)
		}
		return nil
	}
	n := d.uvarint()
	if n > maxWarmupKey || n > uint64(len(d.b)) {
		d.fail("key")
		return nil
	}
	k := append(make([]byte, 0, n), d.b[:n]...)
	d.b = d.b[n:]
	return k
}

// WriteHotReads writes reads to dir/warmup atomically (temporary file,
// fsync, rename, directory fsync).
func WriteHotReads(fs vfs.FS, dir string, reads []HotRead) error {
	path := fs.PathJoin(dir, WarmupFile)
	tmp := path + ".tmp"
	f, err := fs.Create(tmp, vfs.WriteCategoryUnspecified)
	if err != nil {
		return fmt.Errorf("kv: write warmup file: %w", err)
	}
	_, err = f.Write(EncodeHotReads(reads))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fs.Rename(tmp, path)
	}
	if err == nil {
		var d vfs.File
		if d, err = fs.OpenDir(dir); err == nil {
			err = d.Sync()
			if cerr := d.Close(); err == nil {
				err = cerr
			}
		}
	}
	if err != nil {
		_ = fs.Remove(tmp)
		return fmt.Errorf("kv: write warmup file %s: %w", path, err)
	}
	return nil
}

// ReadHotReads reads dir/warmup. A missing file is an error satisfying
// errors.Is(err, os.ErrNotExist); a damaged one an error saying why.
func ReadHotReads(fs vfs.FS, dir string) ([]HotRead, error) {
	path := fs.PathJoin(dir, WarmupFile)
	f, err := fs.Open(path)
	if err != nil {
		return nil, fmt.Errorf("kv: read warmup file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("kv: read warmup file %s: %w", path, err)
	}
	if st.Size() > int64(maxWarmupReads)*64 {
		return nil, fmt.Errorf("kv: read warmup file %s: %w: %d bytes", path, errWarmupCorrupt, st.Size())
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("kv: read warmup file %s: %w", path, err)
	}
	reads, err := DecodeHotReads(b)
	if err != nil {
		return nil, fmt.Errorf("kv: read warmup file %s: %w", path, err)
	}
	return reads, nil
}

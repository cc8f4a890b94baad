package kv

import (
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// Disk-write categories Pebble creates files under.
const (
	walCategory        vfs.DiskWriteCategory = "pebble-wal"
	flushCategory      vfs.DiskWriteCategory = "pebble-memtable-flush"
	compactionCategory vfs.DiskWriteCategory = "pebble-compaction"
)

// osFS is the operating system's filesystem as strata gives it to Pebble:
// WAL files preallocated with their size and their fsyncs timed, flush and
// compaction output paced by those times (pacing.go).
//
// Pebble preallocates each WAL with fallocate(FALLOC_FL_KEEP_SIZE): the
// blocks are reserved but the file's size still grows with every write, so
// each durable commit's fdatasync must also commit the inode's new size to
// the filesystem journal. Pebble's answer is WAL recycling (an obsolete WAL
// is renamed and overwritten), but the recycler starts empty at every open
// and holds WALs as small as the ramping-up memtables were, so for the first
// minutes after a start — all of a benchmark step, much of a busy server's
// life after a restart — every commit paid that journal commit. Here the
// preallocation sets the size (fallocate mode 0, the blocks read as zeros):
// writes fill blocks the file already has and fdatasync persists data and
// the extents' written state only. On this project's VM (ext4, virtio) a
// 300-byte write + fdatasync takes 163–196 µs (median) and 50–59 µs of
// system time into such a file against 247–257 µs and 82–84 µs appended
// with the size kept, and 337–361 against 406–458 µs under four fio jobs.
//
// Pebble's WAL reader treats the zeroed tail of the live WAL as its end, as
// it treats a recycled WAL's stale tail (record.ErrUnexpectedEOF is tolerated
// for the most recent WAL; older WALs end with an EOF trailer written when
// they were closed, before the next one took commits).
type osFS struct {
	vfs.FS
	p *pacer
}

func newOSFS() *osFS { return &osFS{FS: vfs.Default, p: newPacer()} }

// isOSFS reports whether fs is the operating system's filesystem, as
// PebbleOptions wraps it or not.
func isOSFS(fs vfs.FS) bool {
	_, wrapped := fs.(*osFS)
	return wrapped || fs == vfs.Default
}

func (fs *osFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.Create(name, category)
	return fs.wrap(f, category), err
}

func (fs *osFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname, category)
	return fs.wrap(f, category), err
}

func (fs *osFS) wrap(f vfs.File, category vfs.DiskWriteCategory) vfs.File {
	if f == nil {
		return f
	}
	switch category {
	case walCategory:
		if f.Fd() != vfs.InvalidFd {
			return walFile{File: f, p: fs.p}
		}
	case flushCategory:
		return &pacedFile{File: f, wait: fs.p.waitFlush}
	case compactionCategory:
		return &pacedFile{File: f, wait: fs.p.waitCompaction}
	}
	return f
}

// walFile is a WAL file whose Preallocate extends its size and whose
// syncs are timed for the pacer.
type walFile struct {
	vfs.File
	p *pacer
}

// Preallocate reserves [offset, offset+length) and extends the file over
// it; where the filesystem cannot (no fallocate), it falls back to Pebble's
// size-keeping preallocation.
func (f walFile) Preallocate(offset, length int64) error {
	if err := extendAllocate(f.Fd(), offset, length); err == nil {
		return nil
	}
	return f.File.Preallocate(offset, length)
}

// SyncData is the fdatasync of a durable commit (Pebble's syncing file
// calls it for the WAL).
func (f walFile) SyncData() error {
	start := time.Now()
	err := f.File.SyncData()
	f.p.observeSync(time.Since(start))
	return err
}

// Sync is timed as SyncData.
func (f walFile) Sync() error {
	start := time.Now()
	err := f.File.Sync()
	f.p.observeSync(time.Since(start))
	return err
}

// pacedFile is a flush's or compaction's output file: each write first
// waits for the pacer.
type pacedFile struct {
	vfs.File
	wait func(n int)
}

func (f *pacedFile) Write(p []byte) (int, error) {
	f.wait(len(p))
	return f.File.Write(p)
}

func (f *pacedFile) WriteAt(p []byte, off int64) (int, error) {
	f.wait(len(p))
	return f.File.WriteAt(p, off)
}

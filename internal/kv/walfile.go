package kv

import (
	"github.com/cockroachdb/pebble/v2/vfs"
)

// walCategory is the disk-write category Pebble creates and recycles WAL
// files under (wal.StandaloneManager.Create).
const walCategory vfs.DiskWriteCategory = "pebble-wal"

// walFS makes Pebble's WAL preallocation extend the file for real.
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
// 300-byte write + fdatasync costs 70–90 µs of system time appended against
// 47–59 µs into such a file, about what an overwrite costs.
//
// Pebble's WAL reader treats the zeroed tail of the live WAL as its end, as
// it treats a recycled WAL's stale tail (record.ErrUnexpectedEOF is tolerated
// for the most recent WAL; older WALs end with an EOF trailer written when
// they were closed, before the next one took commits).
type walFS struct{ vfs.FS }

// isOSFS reports whether fs is the operating system's filesystem, as
// PebbleOptions wraps it or not.
func isOSFS(fs vfs.FS) bool { return fs == vfs.Default || fs == walFS{vfs.Default} }

func (fs walFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.Create(name, category)
	return wrapWAL(f, category), err
}

func (fs walFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname, category)
	return wrapWAL(f, category), err
}

func wrapWAL(f vfs.File, category vfs.DiskWriteCategory) vfs.File {
	if f == nil || category != walCategory || f.Fd() == vfs.InvalidFd {
		return f
	}
	return walFile{f}
}

// walFile is a WAL file whose Preallocate extends its size.
type walFile struct{ vfs.File }

// Preallocate reserves [offset, offset+length) and extends the file over
// it; where the filesystem cannot (no fallocate), it falls back to Pebble's
// size-keeping preallocation.
func (f walFile) Preallocate(offset, length int64) error {
	if err := extendAllocate(f.Fd(), offset, length); err == nil {
		return nil
	}
	return f.File.Preallocate(offset, length)
}

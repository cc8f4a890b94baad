package kv

import (
	"errors"
	"fmt"
	"path/filepath"
	"syscall"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// lockFileName is the file Pebble locks (fcntl F_SETLK) for as long as a
// process has the database open.
const lockFileName = "LOCK"

// LockedError is returned by Open when another process holds the database
// directory: a second server on the same data would corrupt it, so Pebble
// refuses to open it.
type LockedError struct {
	Dir      string // the data directory
	LockFile string // the lock file inside it
	PID      int    // the process holding the lock; 0 when unknown
	Err      error  // the error of the lock call
}

func (e *LockedError) Error() string {
	holder := "another process"
	if e.PID > 0 {
		holder = fmt.Sprintf("another process (pid %d)", e.PID)
	}
	return fmt.Sprintf("data directory %s is held by %s: lock file %s is locked", e.Dir, holder, e.LockFile)
}

func (e *LockedError) Unwrap() error { return e.Err }

// lockedError turns Pebble's failure to lock dir into a *LockedError, or
// returns nil when err is not a lock conflict.
func lockedError(dir string, fs vfs.FS, err error) error {
	// fcntl(F_SETLK) fails with EAGAIN or EACCES when another process holds
	// the lock.
	if !errors.Is(err, syscall.EAGAIN) && !errors.Is(err, syscall.EACCES) {
		return nil
	}
	lock := filepath.Join(dir, lockFileName)
	if _, serr := fs.Stat(lock); serr != nil {
		return nil // EACCES on something else (a permission problem)
	}
	if abs, aerr := filepath.Abs(lock); aerr == nil && isOSFS(fs) {
		lock = abs
	}
	e := &LockedError{Dir: filepath.Dir(lock), LockFile: lock, Err: err}
	if isOSFS(fs) {
		e.PID = lockHolder(lock)
	}
	return e
}

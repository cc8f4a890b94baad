// Package durable writes small files so that a crash leaves either their
// old content or the new, never a torn file or a lost name.
package durable

import (
	"os"
	"path/filepath"
)

// WriteFile replaces path with data: written to a temporary file beside
// it (path + ".tmp", mode perm), fsynced, renamed over path, and the
// directory fsynced so the rename survives a crash.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err == nil {
		err = SyncDir(filepath.Dir(path))
	}
	return err
}

// SyncDir fsyncs a directory, making the names created or renamed in it
// durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

package backup

import (
	"fmt"
	"os"
	"path/filepath"
)

// Restore copies a backup into datadir, which must be missing or empty,
// checking every file's size and SHA-256 against the manifest; on a
// mismatch it removes what it wrote and fails. from is a backup directory,
// or a directory of backups, of which the newest complete one is restored.
// It returns the restored backup's directory and manifest.
func Restore(from, datadir string) (string, *Manifest, error) {
	dir, m, err := Resolve(from)
	if err != nil {
		return "", nil, err
	}
	created := false
	if ents, err := os.ReadDir(datadir); err == nil {
		if len(ents) > 0 {
			return "", nil, fmt.Errorf("backup: restore into %s: the directory is not empty", datadir)
		}
	} else if os.IsNotExist(err) {
		if err := os.MkdirAll(datadir, 0o750); err != nil {
			return "", nil, fmt.Errorf("backup: %w", err)
		}
		created = true
	} else {
		return "", nil, fmt.Errorf("backup: %w", err)
	}
	if err := restoreFiles(dir, datadir, m); err != nil {
		if created {
			_ = os.RemoveAll(datadir)
		} else {
			for _, f := range m.Files {
				_ = os.Remove(filepath.Join(datadir, f.Name))
			}
		}
		return "", nil, err
	}
	return dir, m, nil
}

// Resolve finds the backup Restore(from, …) restores: from itself, or the
// newest complete backup in it. It returns its directory and manifest.
func Resolve(from string) (string, *Manifest, error) {
	m, err := ReadManifest(from)
	if err == nil {
		return from, m, nil
	}
	if _, statErr := os.Stat(filepath.Join(from, ManifestName)); statErr == nil {
		return "", nil, err // a backup with a bad manifest: say so
	}
	dir, m, err := Latest(from)
	if err != nil {
		return "", nil, err
	}
	if m == nil {
		return "", nil, fmt.Errorf("backup: %s holds no backup (no %s in it or its subdirectories)", from, ManifestName)
	}
	return dir, m, nil
}

// restoreFiles copies and checks the manifest's files.
func restoreFiles(dir, datadir string, m *Manifest) error {
	for _, f := range m.Files {
		if f.Name != filepath.Base(f.Name) || f.Name == "." || f.Name == ".." {
			return fmt.Errorf("backup: manifest of %s names %q, not a plain file name", dir, f.Name)
		}
		sum, n, err := copyFile(filepath.Join(dir, f.Name), filepath.Join(datadir, f.Name))
		if err != nil {
			return err
		}
		if n != f.Size || sum != f.SHA256 {
			return fmt.Errorf("backup: %s in %s is damaged: %d bytes, SHA-256 %s; the manifest says %d bytes, %s", f.Name, dir, n, sum, f.Size, f.SHA256)
		}
	}
	return syncDir(datadir)
}

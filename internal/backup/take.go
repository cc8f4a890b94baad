package backup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/strata-db/strata/internal/kv"
)

// ErrExists is returned by Take when the backup directory already exists
// (MySQL's CLONE answers 1007 for it).
var ErrExists = errors.New("backup directory exists")

// Options configures Take.
type Options struct {
	// StrataVersion is recorded in the manifest.
	StrataVersion string
	// BinlogPosition is the binary log's hook: when set, Take calls it
	// with the function that makes the checkpoint, and it must run that
	// function while no transaction can enter the binary log (holding its
	// commit-order lock) and return the log's position at that moment, so
	// that the checkpoint holds exactly the logged transactions before the
	// position; the answer is recorded in the manifest. nil leaves the
	// manifest without a binlog position.
	BinlogPosition func(checkpoint func() error) (*BinlogPosition, error)
}

// stagingName is the directory inside the data directory that checkpoints
// are made in before they are copied out (same filesystem: hard links).
const stagingName = "backup-staging"

// ClearStaging removes what a backup interrupted by a crash left in the
// data directory (hard links that would keep deleted table files' space).
// The server calls it at start, holding the data directory.
func ClearStaging(datadir string) error {
	if err := os.RemoveAll(filepath.Join(datadir, stagingName)); err != nil {
		return fmt.Errorf("backup: clear %s: %w", stagingName, err)
	}
	return nil
}

// partialSuffix marks a backup directory still being written; it is renamed
// to its final name once the manifest is in it.
const partialSuffix = ".strata-partial"

// mu serialises backups within the process.
var mu sync.Mutex

// Take backs up the open store db into the new directory to (its parent
// must exist; to must not), reusing the files of the newest earlier backup
// in to's parent (see the package comment). It returns the manifest.
func Take(db *kv.DB, to string, opts Options) (*Manifest, error) {
	if !db.OnDisk() {
		return nil, fmt.Errorf("backup: the store is not on the operating system's filesystem")
	}
	mu.Lock()
	defer mu.Unlock()
	to, err := filepath.Abs(to)
	if err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	datadir, err := filepath.Abs(db.Dir())
	if err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	if to == datadir || strings.HasPrefix(to, datadir+string(filepath.Separator)) {
		return nil, fmt.Errorf("backup: %s is inside the data directory %s", to, datadir)
	}
	if _, err := os.Lstat(to); err == nil {
		return nil, fmt.Errorf("backup: %s: %w", to, ErrExists)
	}
	parent := filepath.Dir(to)
	if fi, err := os.Stat(parent); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("backup: parent directory %s does not exist", parent)
	}
	m := &Manifest{Format: FormatVersion, StrataVersion: opts.StrataVersion, Started: time.Now().UTC(), SourceDatadir: datadir}
	baseDir, base, err := Latest(parent)
	if err != nil {
		return nil, err
	}
	if base != nil {
		m.Base = filepath.Base(baseDir)
	}

	staging := filepath.Join(datadir, stagingName)
	if err := os.RemoveAll(staging); err != nil { // a crashed backup's leftovers
		return nil, fmt.Errorf("backup: clear %s: %w", staging, err)
	}
	if err := os.Mkdir(staging, 0o700); err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	defer os.RemoveAll(staging)
	ck := filepath.Join(staging, "checkpoint")
	checkpoint := func() error {
		m.Checkpoint = time.Now().UTC()
		if err := db.Checkpoint(ck); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		return nil
	}
	if opts.BinlogPosition == nil {
		if err := checkpoint(); err != nil {
			return nil, err
		}
	} else {
		pos, err := opts.BinlogPosition(checkpoint)
		if err != nil {
			return nil, fmt.Errorf("backup: binlog position: %w", err)
		}
		m.Binlog = pos
	}

	partial := to + partialSuffix
	if err := os.RemoveAll(partial); err != nil {
		return nil, fmt.Errorf("backup: clear %s: %w", partial, err)
	}
	if err := os.Mkdir(partial, 0o750); err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			_ = os.RemoveAll(partial)
		}
	}()
	if err := fillBackup(m, ck, partial, baseDir, base); err != nil {
		return nil, err
	}
	m.Finished = time.Now().UTC()
	if err := writeManifest(partial, m); err != nil {
		return nil, err
	}
	if err := syncDir(partial); err != nil {
		return nil, err
	}
	if err := os.Rename(partial, to); err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	ok = true
	if err := syncDir(parent); err != nil {
		return nil, err
	}
	return m, nil
}

// fillBackup writes the checkpoint's files into dst, reusing those of the
// base backup (baseDir, base; nil for none) that are immutable and the same.
func fillBackup(m *Manifest, ck, dst, baseDir string, base *Manifest) error {
	ents, err := os.ReadDir(ck)
	if err != nil {
		return fmt.Errorf("backup: list checkpoint: %w", err)
	}
	inBase := map[string]File{}
	if base != nil {
		for _, f := range base.Files {
			inBase[f.Name] = f
		}
	}
	for _, e := range ents {
		if !e.Type().IsRegular() {
			return fmt.Errorf("backup: checkpoint holds %s, which is not a regular file", e.Name())
		}
		name := e.Name()
		src := filepath.Join(ck, name)
		fi, err := os.Stat(src)
		if err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		if bf, ok := inBase[name]; ok && immutable(name) && bf.Size == fi.Size() {
			if reused, err := reuse(filepath.Join(baseDir, name), filepath.Join(dst, name), bf); err != nil {
				return err
			} else if reused {
				bf.Reused = true
				m.Files = append(m.Files, bf)
				m.BytesReused += uint64(bf.Size)
				continue
			}
		}
		sum, n, err := copyFile(src, filepath.Join(dst, name))
		if err != nil {
			return err
		}
		m.Files = append(m.Files, File{Name: name, Size: n, SHA256: sum})
		m.BytesCopied += uint64(n)
	}
	sort.Slice(m.Files, func(i, j int) bool { return m.Files[i].Name < m.Files[j].Name })
	return nil
}

// immutable reports whether a store file never changes once written, so
// that equal name and size mean equal contents: table and blob files.
func immutable(name string) bool {
	return strings.HasSuffix(name, ".sst") || strings.HasSuffix(name, ".blob")
}

// reuse puts the base backup's file src at dst: a hard link, or a copy
// checked against the base manifest's checksum when linking fails (another
// filesystem). It reports false, having done nothing, when src is missing
// or no longer of the recorded size.
func reuse(src, dst string, f File) (bool, error) {
	fi, err := os.Stat(src)
	if err != nil || fi.Size() != f.Size {
		return false, nil
	}
	if err := os.Link(src, dst); err == nil {
		return true, nil
	}
	sum, _, err := copyFile(src, dst)
	if err != nil {
		return false, err
	}
	if sum != f.SHA256 {
		_ = os.Remove(dst)
		return false, nil
	}
	return true, nil
}

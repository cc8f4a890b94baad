package backup

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// ManifestName is the manifest file of a backup directory. Pebble's own
// MANIFEST-nnnnnn files are a different thing and sit beside it.
const ManifestName = "strata-backup.json"

// FormatVersion is the manifest format this package writes and reads.
const FormatVersion = 1

// Manifest describes one backup.
type Manifest struct {
	// Format is FormatVersion.
	Format int `json:"format"`
	// StrataVersion is the version of the server that took the backup.
	StrataVersion string `json:"strata_version,omitempty"`
	// Started is when the backup began; Checkpoint is the instant the store
	// was checkpointed — the backup holds exactly the transactions
	// committed before it —; Finished is when the last file was written.
	Started    time.Time `json:"started"`
	Checkpoint time.Time `json:"checkpoint"`
	Finished   time.Time `json:"finished"`
	// SourceDatadir is the data directory of the server backed up.
	SourceDatadir string `json:"source_datadir"`
	// Base names the earlier backup (a sibling directory) files were reused
	// from; "" for a full backup.
	Base string `json:"base,omitempty"`
	// Files are the backup's files, sorted by name.
	Files []File `json:"files"`
	// BytesCopied are the bytes read from the store's checkpoint;
	// BytesReused those taken from Base instead.
	BytesCopied uint64 `json:"bytes_copied"`
	BytesReused uint64 `json:"bytes_reused"`
	// Binlog is the binary log position the backup corresponds to, set
	// only through Options.BinlogPosition (see there).
	Binlog *BinlogPosition `json:"binlog,omitempty"`
}

// File is one file of a backup.
type File struct {
	// Name is the file's name in the backup directory (no subdirectories).
	Name string `json:"name"`
	// Size is its length in bytes; SHA256 the hex SHA-256 of its contents.
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	// Reused is true when the file was taken from the base backup.
	Reused bool `json:"reused,omitempty"`
}

// BinlogPosition is where the binary log stood at the checkpoint: the
// position a point-in-time recovery replays from.
type BinlogPosition struct {
	// File and Position name the first event not in the backup.
	File     string `json:"file"`
	Position uint64 `json:"position"`
	// GTIDExecuted is the GTID set the backup contains, "" without GTIDs.
	GTIDExecuted string `json:"gtid_executed,omitempty"`
}

// ReadManifest reads the manifest of the backup in dir.
func ReadManifest(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, fmt.Errorf("backup: read manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("backup: manifest of %s: %w", dir, err)
	}
	if m.Format != FormatVersion {
		return nil, fmt.Errorf("backup: manifest of %s has format %d; this strata reads format %d", dir, m.Format, FormatVersion)
	}
	return &m, nil
}

// writeManifest writes m into dir durably (temporary file, fsync, rename).
func writeManifest(dir string, m *Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("backup: encode manifest: %w", err)
	}
	tmp := filepath.Join(dir, ManifestName+".tmp")
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("backup: write manifest: %w", err)
	}
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, ManifestName))
	}
	if err != nil {
		return fmt.Errorf("backup: write manifest: %w", err)
	}
	return nil
}

// Latest returns the newest complete backup directly under dir (the one
// whose manifest has the latest Finished), "" when there is none.
func Latest(dir string) (string, *Manifest, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", nil, fmt.Errorf("backup: list %s: %w", dir, err)
	}
	var best string
	var bm *Manifest
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		m, err := ReadManifest(p)
		if err != nil {
			continue // not a backup, or an unfinished one
		}
		if bm == nil || m.Finished.After(bm.Finished) {
			best, bm = p, m
		}
	}
	return best, bm, nil
}

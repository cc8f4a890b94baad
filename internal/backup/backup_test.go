package backup

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-db/strata/internal/kv"
)

func openDB(t *testing.T, dir string) *kv.DB {
	t.Helper()
	db, err := kv.Open(kv.Options{Dir: dir, MemoryBudget: 256 << 20, Logger: kv.NewSlogLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// put writes keys [from, to) in one batch and flushes them into a table file.
func put(t *testing.T, db *kv.DB, from, to int) {
	t.Helper()
	b := db.NewBatch()
	for i := from; i < to; i++ {
		if err := b.Set([]byte(fmt.Sprintf("k%06d", i)), make([]byte, 100)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
	done, err := db.AsyncFlush()
	if err != nil {
		t.Fatal(err)
	}
	<-done
}

// count counts the keys of a restored data directory.
func count(t *testing.T, dir string) int {
	t.Helper()
	db := openDB(t, dir)
	defer db.Close()
	it, err := db.NewIter(kv.IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		n++
	}
	return n
}

func TestTakeIncrementalRestore(t *testing.T) {
	root := t.TempDir()
	db := openDB(t, filepath.Join(root, "data"))
	defer db.Close()
	put(t, db, 0, 5000)
	backups := filepath.Join(root, "backups")
	if err := os.Mkdir(backups, 0o755); err != nil {
		t.Fatal(err)
	}
	m1, err := Take(db, filepath.Join(backups, "b1"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m1.Base != "" || m1.BytesReused != 0 || m1.BytesCopied == 0 {
		t.Fatalf("first backup: base %q, copied %d, reused %d", m1.Base, m1.BytesCopied, m1.BytesReused)
	}
	put(t, db, 5000, 5100) // unflushed writes must be in the backup too
	b := db.NewBatch()
	_ = b.Set([]byte("unflushed"), []byte("x"))
	if err := b.Commit(false); err != nil {
		t.Fatal(err)
	}
	m2, err := Take(db, filepath.Join(backups, "b2"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m2.Base == "" || m2.BytesReused == 0 || m2.BytesCopied >= m1.BytesCopied {
		t.Fatalf("second backup not incremental: base %q, copied %d (first %d), reused %d", m2.Base, m2.BytesCopied, m1.BytesCopied, m2.BytesReused)
	}
	if _, err := Take(db, filepath.Join(backups, "b2"), Options{}); !errors.Is(err, ErrExists) {
		t.Fatalf("backup into an existing directory: %v, want ErrExists", err)
	}
	if _, err := Take(db, filepath.Join(db.Dir(), "inside"), Options{}); err == nil {
		t.Fatal("backup into the data directory succeeded")
	}
	if _, err := os.Stat(filepath.Join(db.Dir(), stagingName)); !os.IsNotExist(err) {
		t.Fatalf("staging directory left behind: %v", err)
	}

	dir1, _, err := Restore(filepath.Join(backups, "b1"), filepath.Join(root, "r1"))
	if err != nil || dir1 != filepath.Join(backups, "b1") {
		t.Fatalf("restore b1: %q %v", dir1, err)
	}
	if n := count(t, filepath.Join(root, "r1")); n != 5000 {
		t.Fatalf("restored b1 holds %d keys, want 5000", n)
	}
	// A directory of backups restores the newest.
	dir2, _, err := Restore(backups, filepath.Join(root, "r2"))
	if err != nil || dir2 != filepath.Join(backups, "b2") {
		t.Fatalf("restore newest: %q %v", dir2, err)
	}
	if n := count(t, filepath.Join(root, "r2")); n != 5101 {
		t.Fatalf("restored b2 holds %d keys, want 5101", n)
	}
	if _, _, err := Restore(backups, filepath.Join(root, "r2")); err == nil {
		t.Fatal("restore into a non-empty directory succeeded")
	}
}

func TestRestoreDetectsDamage(t *testing.T) {
	root := t.TempDir()
	db := openDB(t, filepath.Join(root, "data"))
	put(t, db, 0, 1000)
	bdir := filepath.Join(root, "b")
	m, err := Take(db, bdir, Options{})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	var sst string
	for _, f := range m.Files {
		if immutable(f.Name) {
			sst = f.Name
		}
	}
	if sst == "" {
		t.Fatal("backup has no table file")
	}
	p := filepath.Join(bdir, sst)
	// Break the link to the live store's inode before writing into it.
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o640); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(root, "r")
	if _, _, err := Restore(bdir, target); err == nil {
		t.Fatal("restore of a damaged backup succeeded")
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("failed restore left %s behind: %v", target, err)
	}
}

// TestBinlogPositionHook: the hook runs the checkpoint itself (so it can
// hold the binary log's commit order around it), a write made inside the
// hook after the checkpoint is not in the backup, the position it returns
// is in the manifest, and a failing hook fails the backup and leaves
// nothing.
func TestBinlogPositionHook(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	db := openDB(t, src)
	defer db.Close()
	put(t, db, 0, 10)
	dir := t.TempDir()
	calls := 0
	opts := Options{BinlogPosition: func(checkpoint func() error) (*BinlogPosition, error) {
		calls++
		if _, err := os.Stat(filepath.Join(src, stagingName, "checkpoint")); !os.IsNotExist(err) {
			t.Errorf("checkpoint made before the hook ran (%v)", err)
		}
		if err := checkpoint(); err != nil {
			return nil, err
		}
		put(t, db, 10, 15) // after the checkpoint: not in the backup
		return &BinlogPosition{File: "binlog.000007", Position: 1234, GTIDExecuted: "u:1-9"}, nil
	}}
	m, err := Take(db, filepath.Join(dir, "b1"), opts)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || m.Binlog == nil || *m.Binlog != (BinlogPosition{File: "binlog.000007", Position: 1234, GTIDExecuted: "u:1-9"}) {
		t.Fatalf("hook called %d times, manifest binlog %+v", calls, m.Binlog)
	}
	if rm, err := ReadManifest(filepath.Join(dir, "b1")); err != nil || rm.Binlog == nil || rm.Binlog.Position != 1234 {
		t.Fatalf("manifest on disk: %+v, %v", rm, err)
	}
	restored := filepath.Join(t.TempDir(), "r")
	if _, _, err := Restore(filepath.Join(dir, "b1"), restored); err != nil {
		t.Fatal(err)
	}
	if n := count(t, restored); n != 10 {
		t.Errorf("restored %d keys, want the 10 written before the checkpoint", n)
	}

	boom := errors.New("boom")
	opts.BinlogPosition = func(func() error) (*BinlogPosition, error) { return nil, boom }
	if _, err := Take(db, filepath.Join(dir, "b2"), opts); !errors.Is(err, boom) {
		t.Fatalf("failing hook: %v, want boom", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "b2")); !os.IsNotExist(err) {
		t.Errorf("failed backup left b2 (%v)", err)
	}
}

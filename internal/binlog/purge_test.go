package binlog

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPurge: PURGE TO and BEFORE remove leading files and their index
// lines, never the current file; @@gtid_purged follows; expiry at Open.
func TestPurge(t *testing.T) {
	dir := t.TempDir()
	k, l := openTest(t, dir, 600)
	def := testDef()
	for i := 1; i <= 12; i++ {
		commitRows(t, k, l, func(c *Changes) {
			must(t, c.Insert(def, row("1", "a fairly long value", "1.00", "NULL", "a", "00:00:00", "0")))
		})
	}
	files := l.Files()
	if len(files) < 4 {
		t.Fatalf("want several files, got %v", files)
	}
	if err := l.PurgeTo("binlog.999999"); err != ErrUnknownFile {
		t.Fatalf("PurgeTo an unknown file: %v", err)
	}
	must(t, l.PurgeTo(files[2].Name))
	if got := l.Files(); len(got) != len(files)-2 || got[0].Name != files[2].Name {
		t.Fatalf("after PurgeTo(%s): %v", files[2].Name, got)
	}
	if _, err := os.Stat(filepath.Join(dir, files[0].Name)); !os.IsNotExist(err) {
		t.Fatalf("%s not removed", files[0].Name)
	}
	if l.GTIDPurged() == "" {
		t.Fatal("@@gtid_purged empty after a purge")
	}
	// Everything older than now, except the current file.
	old := time.Now().Add(-time.Hour)
	for _, f := range l.Files() {
		must(t, os.Chtimes(filepath.Join(dir, f.Name), old, old))
	}
	must(t, l.PurgeBefore(time.Now().Unix()))
	if got := l.Files(); len(got) != 1 || got[0].Name != files[len(files)-1].Name {
		t.Fatalf("after PurgeBefore(now): %v, want only %s", got, files[len(files)-1].Name)
	}
	must(t, l.Close())
	// Reopen with expiry: the current file stays, the index agrees.
	l, err := Open(k, Options{Dir: dir, ServerUUID: testUUID, MaxSize: 600, ExpireSeconds: 1, Version: "8.0.40-strata"})
	must(t, err)
	if got := l.Files(); len(got) != 1 {
		t.Fatalf("after expiry at open: %v", got)
	}
	idx, err := os.ReadFile(filepath.Join(dir, "binlog.index"))
	must(t, err)
	if string(idx) != "./"+files[len(files)-1].Name+"\n" {
		t.Fatalf("index %q", idx)
	}
	must(t, l.Close())
	must(t, k.Close())
}

package kv

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestWALPreallocatedWithSize checks that the live WAL of a store on disk is
// extended ahead of its writes (so a durable commit's fdatasync does not
// change the file's size), and that a copy of the directory taken while the
// store is open — the state a kill -9 leaves, with the WAL's zeroed tail —
// opens with every synced write.
func TestWALPreallocatedWithSize(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the WAL is extended with fallocate on Linux only")
	}
	dir := t.TempDir()
	db, err := Open(Options{Dir: dir, MemoryBudget: testBudget})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	val := bytes.Repeat([]byte("v"), 200)
	const n = 500
	for i := range n {
		b := db.NewBatch()
		if err := b.Set(key(i), val); err != nil {
			t.Fatal(err)
		}
		if err := b.Commit(true); err != nil {
			t.Fatal(err)
		}
		b.Close()
	}

	// The WAL holds about n × 220 bytes; its size must be the preallocation.
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var walSize int64
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".log") {
			fi, err := e.Info()
			if err != nil {
				t.Fatal(err)
			}
			walSize = max(walSize, fi.Size())
		}
	}
	if walSize < 1<<20 {
		t.Fatalf("largest WAL is %d bytes after %d commits of ~220 bytes: not extended ahead of its writes", walSize, n)
	}

	// Copy the directory while the store is open, as a crash leaves it.
	crash := t.TempDir()
	for _, e := range entries {
		if e.IsDir() || e.Name() == lockFileName {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(crash, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db2, err := Open(Options{Dir: crash, MemoryBudget: testBudget})
	if err != nil {
		t.Fatalf("open the crashed copy (WAL with a zeroed tail): %v", err)
	}
	defer db2.Close()
	for i := range n {
		v, found, err := db2.Get(key(i))
		if err != nil || !found || !bytes.Equal(v, val) {
			t.Fatalf("key %d after the crash: found=%v err=%v", i, found, err)
		}
	}
}

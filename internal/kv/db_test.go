package kv

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/cockroachdb/pebble/v2/vfs/errorfs"
)

// testBudget keeps tests small: a 64 MiB cache and 4 MiB memtables.
const testBudget = 256 << 20

// syncBuffer is a bytes.Buffer safe for Pebble's background goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func testLogger(t *testing.T) (Logger, *syncBuffer) {
	t.Helper()
	buf := &syncBuffer{}
	return NewSlogLogger(slog.New(slog.NewTextHandler(buf, nil))), buf
}

func key(i int) []byte { return fmt.Appendf(nil, "key-%06d", i) }

func mustGet(t *testing.T, db *pebble.DB, k []byte) []byte {
	t.Helper()
	v, closer, err := db.Get(k)
	if err != nil {
		t.Fatalf("get %q: %v", k, err)
	}
	defer closer.Close()
	return bytes.Clone(v)
}

func TestOpenWriteReopen(t *testing.T) {
	dir := t.TempDir() + "/nested/db" // Open must create missing parents
	logger, _ := testLogger(t)
	db, err := Open(Options{Dir: dir, MemoryBudget: testBudget, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	const n = 2000
	b := db.Pebble().NewBatch()
	for i := range n {
		if err := b.Set(key(i), bytes.Repeat([]byte{byte(i)}, 100), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
	// Push data into sstables so compression and filters are exercised.
	if err := db.Pebble().Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Pebble().Set([]byte("after-flush"), []byte("wal-only"), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if got := db.Pebble().FormatMajorVersion(); got != FormatMajorVersion {
		t.Errorf("format major version = %d, want %d", got, FormatMajorVersion)
	}
	if db.DiskUsage() == 0 {
		t.Error("DiskUsage() = 0 after a flush")
	}
	if m := db.Metrics(); m.Total().TablesCount == 0 {
		t.Errorf("no sstables after flush: %s", m)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, err = Open(Options{Dir: dir, MemoryBudget: testBudget, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	}()
	for _, i := range []int{0, 1, n / 2, n - 1} {
		if got := mustGet(t, db.Pebble(), key(i)); !bytes.Equal(got, bytes.Repeat([]byte{byte(i)}, 100)) {
			t.Errorf("key %d: got %q", i, got)
		}
	}
	if got := mustGet(t, db.Pebble(), []byte("after-flush")); string(got) != "wal-only" {
		t.Errorf("WAL-only key: got %q", got)
	}
	// Prefix reads through PointIterOptions see every key exactly once.
	opts := PointIterOptions([]byte("key-"), []byte("key."))
	it, err := db.Pebble().NewIter(&opts)
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	for valid := it.First(); valid; valid = it.Next() {
		count++
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	if count != n {
		t.Errorf("iterated %d keys, want %d", count, n)
	}
	if _, _, err := db.Pebble().Get([]byte("absent")); !errors.Is(err, pebble.ErrNotFound) {
		t.Errorf("get absent key: err = %v, want ErrNotFound", err)
	}
}

func TestOpenReadOnly(t *testing.T) {
	dir := t.TempDir()
	logger, _ := testLogger(t)
	db, err := Open(Options{Dir: dir, MemoryBudget: testBudget, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Pebble().Set([]byte("k"), []byte("v"), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := Open(Options{Dir: dir, MemoryBudget: testBudget, ReadOnly: true, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if got := mustGet(t, ro.Pebble(), []byte("k")); string(got) != "v" {
		t.Errorf("got %q, want v", got)
	}
	// A failing batch commit says what failed.
	b := ro.NewBatch()
	defer b.Close()
	if err := b.Set([]byte("k2"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(true); err == nil {
		t.Error("write to read-only DB succeeded")
	} else if !strings.HasPrefix(err.Error(), "kv: batch commit: ") {
		t.Errorf("commit error %q lacks its context", err)
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(Options{}); err == nil {
		t.Error("Open with empty Dir succeeded")
	}
	logger, _ := testLogger(t)
	if _, err := Open(Options{Dir: t.TempDir() + "/missing", ReadOnly: true, MemoryBudget: testBudget, Logger: logger}); err == nil {
		t.Error("read-only Open of a missing directory succeeded")
	}
}

// TestCrashKeepsSyncedWrites simulates power loss: every batch acknowledged
// by Commit(true) survives, whatever happened to unsynced data.
func TestCrashKeepsSyncedWrites(t *testing.T) {
	fs := vfs.NewCrashableMem()
	logger, _ := testLogger(t)
	db, err := Open(Options{Dir: "/db", FS: fs, MemoryBudget: testBudget, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	const synced = 500
	for i := range synced + 500 {
		commitSet(t, db, key(i), []byte("v"), i < synced)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, pct := range []int{0, 50} {
		clone := fs.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: pct, RNG: rng})
		cdb, err := Open(Options{Dir: "/db", FS: clone, MemoryBudget: testBudget, Logger: logger})
		if err != nil {
			t.Fatalf("reopen after crash (%d%% unsynced kept): %v", pct, err)
		}
		for i := range synced {
			if got, ok, err := cdb.Get(key(i)); err != nil || !ok || string(got) != "v" {
				t.Fatalf("synced key %d lost after crash: %q (present %v, err %v)", i, got, ok, err)
			}
		}
		if err := cdb.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestWALWriteErrorPanics injects a write error into the WAL: Pebble calls
// Logger.Fatalf, which must surface as a recoverable *FatalError panic in the
// committing goroutine, not an os.Exit.
func TestWALWriteErrorPanics(t *testing.T) {
	toggle := &errorfs.Toggle{Injector: errorfs.InjectorFunc(func(op errorfs.Op) error {
		if strings.HasSuffix(op.Path, ".log") && op.Kind.ReadOrWrite() == errorfs.OpIsWrite {
			return errorfs.ErrInjected
		}
		return nil
	})}
	fs := errorfs.Wrap(vfs.NewMem(), toggle)
	logger, logBuf := testLogger(t)
	db, err := Open(Options{Dir: "/db", FS: fs, MemoryBudget: testBudget, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Pebble().Set([]byte("a"), []byte("1"), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	toggle.On()

	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		_ = db.Pebble().Set([]byte("b"), []byte("2"), pebble.Sync)
	}()
	select {
	case r := <-done:
		fe, ok := r.(*FatalError)
		if !ok {
			t.Fatalf("recovered %T %v, want *FatalError", r, r)
		}
		if !strings.Contains(fe.Error(), "injected") {
			t.Errorf("fatal error %q does not carry the injected error", fe)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("commit with a failing WAL neither returned nor panicked")
	}
	if !strings.Contains(logBuf.String(), "fatal=true") {
		t.Errorf("fatal line not logged; log:\n%s", logBuf.String())
	}
	// The DB is unusable now; do not Close it (Close may block on the
	// broken commit pipeline).
}

package txn_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/txn"
)

// testBudget keeps Pebble small in tests: 64 MiB of block cache, 32 MiB
// memtables.
const testBudget = 256 << 20

// long bounds every wait in these tests; nothing should come near it.
const long = 10 * time.Second

// quietLogger drops Pebble's informational lines ("Found 0 WALs") and keeps
// warnings and errors.
var quietLogger = kv.NewSlogLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))

// store is an open Pebble store that the test may close early; Close is
// idempotent and also runs at the end of the test.
type store struct {
	*kv.DB
	once sync.Once
	err  error
}

// Close closes the store once.
func (s *store) Close() error {
	s.once.Do(func() { s.err = s.DB.Close() })
	return s.err
}

// openKV opens a Pebble store in dir on fs (nil = the OS filesystem).
func openKV(t *testing.T, fs vfs.FS, dir string) *store {
	t.Helper()
	db, err := kv.Open(kv.Options{Dir: dir, FS: fs, MemoryBudget: testBudget, Logger: quietLogger})
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	s := &store{DB: db}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// openMem opens a transactional store on an in-memory crashable filesystem.
func openMem(t *testing.T, opts txn.Options) (*txn.DB, *vfs.MemFS) {
	t.Helper()
	fs := vfs.NewCrashableMem()
	k := openKV(t, fs, "/db")
	return txn.New(k.DB, opts), fs
}

func bg() context.Context { return context.Background() }

// begin starts a REPEATABLE READ transaction with a long lock timeout and
// rolls it back at the end of the test if it is still open.
func begin(t *testing.T, db *txn.DB) *txn.Txn {
	t.Helper()
	return beginIso(t, db, txn.RepeatableRead)
}

func beginIso(t *testing.T, db *txn.DB, iso txn.Isolation) *txn.Txn {
	t.Helper()
	tx := db.Begin(bg(), iso, long)
	t.Cleanup(tx.Rollback)
	return tx
}

func mustSet(t *testing.T, tx *txn.Txn, k, v string) {
	t.Helper()
	if err := tx.Set([]byte(k), []byte(v)); err != nil {
		t.Fatalf("set %q: %v", k, err)
	}
}

func mustDelete(t *testing.T, tx *txn.Txn, k string) {
	t.Helper()
	if err := tx.Delete([]byte(k)); err != nil {
		t.Fatalf("delete %q: %v", k, err)
	}
}

func mustCommit(t *testing.T, tx *txn.Txn) {
	t.Helper()
	if err := tx.Commit(); err != nil {
		t.Fatalf("commit: %v", err)
	}
}

// commitKVs commits the pairs k1, v1, k2, v2, ... in one transaction.
func commitKVs(t *testing.T, db *txn.DB, kvs ...string) {
	t.Helper()
	tx := begin(t, db)
	for i := 0; i+1 < len(kvs); i += 2 {
		mustSet(t, tx, kvs[i], kvs[i+1])
	}
	mustCommit(t, tx)
}

// wantGet asserts the result of tx.Get (latest=false) or tx.GetLatest.
// want "" with ok=false means "absent".
func wantGet(t *testing.T, tx *txn.Txn, latest bool, k string, want string, wantOK bool) {
	t.Helper()
	get := tx.Get
	if latest {
		get = tx.GetLatest
	}
	v, ok, err := get([]byte(k))
	if err != nil {
		t.Fatalf("get %q: %v", k, err)
	}
	if ok != wantOK || (ok && string(v) != want) {
		t.Fatalf("get(latest=%v) %q = (%q, %v), want (%q, %v)", latest, k, v, ok, want, wantOK)
	}
	if latest {
		return
	}
	// View reads what Get reads, without the copy.
	var seen string
	calls := 0
	ok, err = tx.View([]byte(k), func(v []byte) error { seen, calls = string(v), calls+1; return nil })
	if err != nil || ok != wantOK || (ok && (seen != want || calls != 1)) || (!ok && calls != 0) {
		t.Fatalf("view %q = (%q, %v, %v, %d calls), want (%q, %v)", k, seen, ok, err, calls, want, wantOK)
	}
	if ok {
		boom := errors.New("boom")
		if _, err := tx.View([]byte(k), func([]byte) error { return boom }); !errors.Is(err, boom) {
			t.Fatalf("view %q: fn's error lost: %v", k, err)
		}
	}
}

// scan returns the iterator's output as "k=v" strings and closes it.
func scan(t *testing.T, it *txn.Iterator) []string {
	t.Helper()
	var out []string
	for ; it.Valid(); it.Next() {
		out = append(out, string(it.Key())+"="+string(it.Value()))
	}
	if err := it.Close(); err != nil {
		t.Fatalf("iterator: %v", err)
	}
	return out
}

func scanOpts(t *testing.T, tx *txn.Txn, o txn.IterOptions) []string {
	t.Helper()
	it, err := tx.NewIter(o)
	if err != nil {
		t.Fatalf("NewIter: %v", err)
	}
	return scan(t, it)
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func wantScan(t *testing.T, got []string, want ...string) {
	t.Helper()
	if !equalStrings(got, want) {
		t.Fatalf("scan = %q\nwant   %q", got, want)
	}
}

// readAll returns the whole committed state as seen by a fresh transaction.
func readAll(t *testing.T, db *txn.DB) []string {
	t.Helper()
	tx := begin(t, db)
	defer tx.Rollback()
	return scanOpts(t, tx, txn.IterOptions{})
}

func key(i int) string { return fmt.Sprintf("k%05d", i) }

func val(i, gen int) string {
	return fmt.Sprintf("v%05d-%d-%s", i, gen, bytes.Repeat([]byte{'x'}, i%7))
}

package kv_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/cockroachdb/pebble/v2/vfs/errorfs"

	"github.com/strata-db/strata/internal/kv"
)

// I/O fault and power-loss tests. What they establish (docs/reliability.md
// cites them):
//
//   - A failed WAL write or fsync (including ENOSPC) fails the commit that
//     hit it with a *kv.FatalError panic in the committing goroutine, after
//     the batch was already applied to the memtable: until the process
//     stops, readers of that DB can see the unacknowledged batch, and every
//     later commit fails the same way (the WAL error is sticky; turning the
//     fault off does not help). Only a restart recovers: after it, every
//     commit acknowledged before the fault is present, the failed batch is
//     present entirely or not at all, and writes succeed again.
//   - A failed SST write during a flush (including ENOSPC) is a background
//     error, logged and retried: commits keep succeeding (the WAL holds them)
//     until the memtables fill up, then writes stall until the flush
//     succeeds; once the fault is gone the flush completes in place, no
//     restart needed, nothing lost.
//   - A failed MANIFEST write or fsync panics with *kv.FatalError in
//     Pebble's background flush goroutine, which nothing can recover: the
//     process dies with the "fatal=true" log line. Reopening the directory
//     finds every acknowledged commit.
//   - Power loss (a crash clone of the in-memory filesystem) keeps every
//     synced commit, including under concurrent group commits, flushes and
//     compactions, and batches are atomic.

// faultBudget keeps the block cache (and memtables: 4 MiB) small.
const faultBudget = 64 << 20

// lockedBuffer is a log sink safe for Pebble's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func faultLogger() (kv.Logger, *lockedBuffer) {
	buf := &lockedBuffer{}
	return kv.NewSlogLogger(slog.New(slog.NewTextHandler(buf, nil))), buf
}

// fileClass selects the files a fault applies to.
type fileClass string

const (
	walFiles      fileClass = ".log"
	sstFiles      fileClass = ".sst"
	manifestFiles fileClass = "MANIFEST-"
)

func (c fileClass) matches(path string) bool {
	if c == manifestFiles {
		return strings.Contains(path, string(c))
	}
	return strings.HasSuffix(path, string(c))
}

// opClass selects the operations a fault applies to.
type opClass int

const (
	writeOps opClass = iota // Write, WriteAt, Preallocate
	syncOps                 // Sync, SyncData, SyncTo
)

func (c opClass) matches(k errorfs.OpKind) bool {
	switch c {
	case writeOps:
		return k == errorfs.OpFileWrite || k == errorfs.OpFileWriteAt || k == errorfs.OpFilePreallocate
	default:
		return k == errorfs.OpFileSync || k == errorfs.OpFileSyncData || k == errorfs.OpFileSyncTo
	}
}

// fault is an errorfs injector that, while on, fails the operations of one
// class on one class of files with err, and counts the failures.
type fault struct {
	files fileClass
	ops   opClass
	err   error
	on    atomic.Bool
	hits  atomic.Int64
}

func (f *fault) String() string { return fmt.Sprintf("fault(%s %d)", f.files, f.ops) }

func (f *fault) MaybeError(op errorfs.Op) error {
	if !f.on.Load() || !f.files.matches(op.Path) || !f.ops.matches(op.Kind) {
		return nil
	}
	f.hits.Add(1)
	return f.err
}

// errNoSpace is what a full disk returns.
var errNoSpace = &fs.PathError{Op: "write", Path: "(injected)", Err: syscall.ENOSPC}

// faultStore is a DB on a crashable in-memory filesystem behind an error
// injector, with the set of commits it acknowledged.
type faultStore struct {
	t     *testing.T
	mem   *vfs.MemFS
	fault *fault
	db    *kv.DB
	log   *lockedBuffer
	acked map[string]string
}

func openFaultStore(t *testing.T, mem *vfs.MemFS, f *fault) *faultStore {
	t.Helper()
	logger, buf := faultLogger()
	db, err := kv.Open(kv.Options{Dir: "/db", FS: errorfs.Wrap(mem, f), MemoryBudget: faultBudget, Logger: logger})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return &faultStore{t: t, mem: mem, fault: f, db: db, log: buf, acked: map[string]string{}}
}

// outcome is how one commit ended.
type outcome struct {
	err   error
	fatal *kv.FatalError
	hung  bool
}

func (o outcome) String() string {
	switch {
	case o.hung:
		return "blocked"
	case o.fatal != nil:
		return "panic " + o.fatal.Error()
	case o.err != nil:
		return "error " + o.err.Error()
	}
	return "ok"
}

// commit writes a synced batch of keys (all with value v), recording it as
// acknowledged when Commit returns nil. A *kv.FatalError panic is recovered;
// any other panic fails the test. A commit still blocked after wait is
// reported as hung (it keeps running in the background).
func (s *faultStore) commit(keys []string, v string, wait time.Duration) outcome {
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				fe, ok := r.(*kv.FatalError)
				if !ok {
					done <- outcome{err: fmt.Errorf("unexpected panic %T: %v", r, r)}
					return
				}
				done <- outcome{fatal: fe}
			}
		}()
		// Not closed: after a fatal panic or while hung, Pebble may still
		// hold the batch.
		b := s.db.NewBatch()
		for _, k := range keys {
			if err := b.Set([]byte(k), []byte(v)); err != nil {
				done <- outcome{err: err}
				return
			}
		}
		done <- outcome{err: b.Commit(true)}
	}()
	select {
	case o := <-done:
		if o.err != nil && strings.HasPrefix(o.err.Error(), "unexpected panic") {
			s.t.Fatal(o.err)
		}
		if o.err == nil && o.fatal == nil {
			for _, k := range keys {
				s.acked[k] = v
			}
		}
		return o
	case <-time.After(wait):
		return outcome{hung: true}
	}
}

// batchKeys are the keys of batch i (n keys, spread over the key space).
func batchKeys(i, n int) []string {
	keys := make([]string, n)
	for j := range keys {
		keys[j] = fmt.Sprintf("k%02d-%06d", j, i)
	}
	return keys
}

// get reads k, reporting whether it exists.
func get(t *testing.T, db *kv.DB, k string) (string, bool) {
	t.Helper()
	v, ok, err := db.Get([]byte(k))
	if err != nil {
		t.Fatalf("get %s: %v", k, err)
	}
	return string(v), ok
}

// crashAndReopen simulates power loss of the store's process: the clone
// keeps only synced data (plus unsyncedPct percent of the rest), and a new
// DB opens on it without faults. The old DB is abandoned like a dead
// process; its goroutines are idle once the fault is off.
func (s *faultStore) crashAndReopen(unsyncedPct int, rng *rand.Rand) *faultStore {
	s.t.Helper()
	s.fault.on.Store(false)
	clone := s.mem.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: unsyncedPct, RNG: rng})
	ns := openFaultStore(s.t, clone, &fault{})
	for k, v := range s.acked {
		ns.acked[k] = v
	}
	s.t.Cleanup(func() { ns.db.Close() })
	return ns
}

// checkAcked fails if an acknowledged commit is missing or differs.
func (s *faultStore) checkAcked() {
	s.t.Helper()
	for k, v := range s.acked {
		if got, ok := get(s.t, s.db, k); !ok || got != v {
			s.t.Fatalf("acknowledged key %s: got %q (present %v), want %q", k, got, ok, v)
		}
	}
}

// checkAtomic fails unless the keys are all present with value v or all
// absent; it reports which.
func (s *faultStore) checkAtomic(keys []string, v string) (present bool) {
	s.t.Helper()
	n := 0
	for _, k := range keys {
		if got, ok := get(s.t, s.db, k); ok {
			if got != v {
				s.t.Fatalf("key %s of the failed batch: %q, want %q", k, got, v)
			}
			n++
		}
	}
	if n != 0 && n != len(keys) {
		s.t.Fatalf("failed batch partially present: %d of %d keys", n, len(keys))
	}
	return n == len(keys)
}

// TestFaultWAL fails WAL writes and WAL fsyncs (EIO-like and ENOSPC) under a
// store with acknowledged commits.
func TestFaultWAL(t *testing.T) {
	for _, tc := range []struct {
		name string
		ops  opClass
		err  error
	}{
		{"write-error", writeOps, errorfs.ErrInjected},
		{"sync-error", syncOps, errorfs.ErrInjected},
		{"write-enospc", writeOps, errNoSpace},
		{"sync-enospc", syncOps, errNoSpace},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fault{files: walFiles, ops: tc.ops, err: tc.err}
			s := openFaultStore(t, vfs.NewCrashableMem(), f)
			for i := range 50 {
				if o := s.commit(batchKeys(i, 3), "v1", 10*time.Second); o.String() != "ok" {
					t.Fatalf("commit %d before the fault: %s", i, o)
				}
			}
			f.on.Store(true)
			failed := batchKeys(1000, 3)
			o := s.commit(failed, "lost", 10*time.Second)
			if o.fatal == nil {
				t.Fatalf("commit with a failing WAL %s: %s, want a *kv.FatalError panic", tc.name, o)
			}
			wantMsg := "injected"
			if tc.err == errNoSpace {
				wantMsg = "no space left on device"
			}
			if !strings.Contains(o.fatal.Error(), wantMsg) {
				t.Errorf("fatal error %q does not carry %q", o.fatal, wantMsg)
			}
			if !strings.Contains(s.log.String(), "fatal=true") {
				t.Errorf("no fatal log line; log:\n%s", s.log)
			}
			// The unacknowledged batch is visible in this process: the
			// memtable applied it before the sync error surfaced. The
			// process must stop rather than keep serving reads.
			visible := s.checkAtomic(failed, "lost")
			t.Logf("%s: failed batch visible before restart: %v", tc.name, visible)

			// The WAL error is sticky: with the fault gone, the next commit
			// fails too.
			f.on.Store(false)
			o2 := s.commit(batchKeys(1001, 1), "after", 5*time.Second)
			if o2.String() == "ok" {
				t.Fatalf("commit after a WAL failure succeeded in the same process")
			}
			t.Logf("%s: next commit after the fault was removed: %s", tc.name, o2)

			// Restart: every acknowledged commit, the failed batch atomic,
			// and writes work again.
			for _, pct := range []int{0, 100} {
				ns := s.crashAndReopen(pct, rand.New(rand.NewPCG(uint64(pct), 7)))
				ns.checkAcked()
				present := ns.checkAtomic(failed, "lost")
				if pct == 0 && present {
					t.Errorf("failed batch survived a crash that kept no unsynced data")
				}
				t.Logf("%s: after restart (%d%% unsynced kept) failed batch present: %v", tc.name, pct, present)
				if o := ns.commit(batchKeys(2000+pct, 3), "again", 10*time.Second); o.String() != "ok" {
					t.Fatalf("commit after restart: %s", o)
				}
				ns.checkAcked()
			}
		})
	}
}

// TestFaultFlushSST fails SST writes (EIO-like and ENOSPC) while memtables
// flush: commits keep succeeding until writes stall, nothing is lost, and
// the flush completes once the fault is gone, without a restart.
func TestFaultFlushSST(t *testing.T) {
	for _, tc := range []struct {
		name string
		ops  opClass
		err  error
	}{
		{"write-enospc", writeOps, errNoSpace},
		{"sync-error", syncOps, errorfs.ErrInjected},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fault{files: sstFiles, ops: tc.ops, err: tc.err}
			s := openFaultStore(t, vfs.NewCrashableMem(), f)
			defer s.db.Close()
			for i := range 20 {
				if o := s.commit(batchKeys(i, 3), "v1", 10*time.Second); o.String() != "ok" {
					t.Fatalf("commit %d: %s", i, o)
				}
			}
			f.on.Store(true)
			flushed, err := s.db.Pebble().AsyncFlush()
			if err != nil {
				t.Fatalf("AsyncFlush: %v", err)
			}
			deadline := time.Now().Add(10 * time.Second)
			for f.hits.Load() == 0 || !strings.Contains(s.log.String(), "background error") {
				if time.Now().After(deadline) {
					t.Fatalf("flush did not hit the fault (hits %d); log:\n%s", f.hits.Load(), s.log)
				}
				time.Sleep(5 * time.Millisecond)
			}
			// Commits and reads still work while the flush fails.
			for i := 20; i < 40; i++ {
				if o := s.commit(batchKeys(i, 3), "v2", 10*time.Second); o.String() != "ok" {
					t.Fatalf("commit %d during failing flushes: %s", i, o)
				}
			}
			s.checkAcked()
			// Fill the memtables: writes stall (block) instead of failing.
			big := strings.Repeat("x", 64<<10)
			stalled := false
			for i := 0; i < 1000 && !stalled; i++ {
				o := s.commit([]string{fmt.Sprintf("big-%05d", i)}, big, 1500*time.Millisecond)
				switch {
				case o.hung:
					stalled = true
				case o.String() != "ok":
					t.Fatalf("big commit %d during failing flushes: %s", i, o)
				}
			}
			if !stalled {
				t.Fatalf("64 MiB written with failing flushes and no write stall")
			}
			t.Logf("%s: %d fault hits, writes stalled after %d acknowledged commits", tc.name, f.hits.Load(), len(s.acked))
			// Space returns: the flush completes and the stalled commit
			// finishes.
			f.on.Store(false)
			select {
			case <-flushed:
			case <-time.After(30 * time.Second):
				t.Fatal("flush did not complete after the fault was removed")
			}
			if err := s.db.Pebble().Flush(); err != nil {
				t.Fatal(err)
			}
			if o := s.commit(batchKeys(5000, 3), "v3", 10*time.Second); o.String() != "ok" {
				t.Fatalf("commit after the fault: %s", o)
			}
			s.checkAcked()
			if n := s.db.Metrics().Total().TablesCount; n == 0 {
				t.Errorf("no sstables after the flush completed")
			}
			ns := s.crashAndReopen(0, nil)
			ns.checkAcked()
		})
	}
}

// manifestChildEnv makes the test binary run manifestChild instead of the
// tests: the MANIFEST fault kills the process, so it runs in a child.
const manifestChildEnv = "STRATA_KV_MANIFEST_FAULT_DIR"

// manifestAcked is how many synced commits the child makes before the fault.
const manifestAcked = 200

func TestMain(m *testing.M) {
	if dir := os.Getenv(manifestChildEnv); dir != "" {
		manifestChild(dir, os.Getenv("STRATA_KV_MANIFEST_FAULT_OPS") == "sync")
		// manifestChild returns only if the fault did not kill it.
		os.Exit(3)
	}
	os.Exit(m.Run())
}

// manifestChild opens dir, commits manifestAcked synced batches, then
// fails MANIFEST writes (or fsyncs) and flushes. Pebble's flush goroutine
// hits the fault in logAndApply and calls Fatalf, which panics there.
func manifestChild(dir string, syncFault bool) {
	f := &fault{files: manifestFiles, ops: writeOps, err: errorfs.ErrInjected}
	if syncFault {
		f.ops = syncOps
	}
	logger := kv.NewSlogLogger(slog.New(slog.NewTextHandler(os.Stderr, nil)))
	db, err := kv.Open(kv.Options{Dir: dir, FS: errorfs.Wrap(vfs.Default, f), MemoryBudget: faultBudget, Logger: logger})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		os.Exit(4)
	}
	for i := range manifestAcked {
		if err := db.Pebble().Set(fmt.Appendf(nil, "m-%06d", i), []byte("acked"), pebble.Sync); err != nil {
			fmt.Fprintln(os.Stderr, "commit:", err)
			os.Exit(4)
		}
	}
	fmt.Println("ACKED", manifestAcked)
	f.on.Store(true)
	_ = db.Pebble().Flush()
	fmt.Println("FLUSH RETURNED")
	time.Sleep(2 * time.Second)
}

// TestFaultManifest runs manifestChild in a child process: the process must
// die with a *kv.FatalError and the fatal log line, and a reopen must find
// every acknowledged commit and accept writes.
func TestFaultManifest(t *testing.T) {
	for _, ops := range []string{"write", "sync"} {
		t.Run(ops, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), manifestChildEnv+"="+dir, "STRATA_KV_MANIFEST_FAULT_OPS="+ops)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("child did not die (err %v); output:\n%s", err, out)
			}
			text := string(out)
			if !strings.Contains(text, fmt.Sprintf("ACKED %d", manifestAcked)) {
				t.Fatalf("child failed before the fault (exit %d):\n%s", ee.ExitCode(), text)
			}
			if strings.Contains(text, "FLUSH RETURNED") {
				t.Errorf("Flush returned although the MANIFEST could not be written")
			}
			if !strings.Contains(text, "panic: pebble fatal error: MANIFEST") || !strings.Contains(text, "fatal=true") {
				t.Fatalf("child exit %d without the fatal MANIFEST panic and log line:\n%s", ee.ExitCode(), text)
			}
			t.Logf("child exit status %d; fatal line: %s", ee.ExitCode(), firstLineWith(text, "fatal=true"))

			logger, _ := faultLogger()
			db, err := kv.Open(kv.Options{Dir: dir, MemoryBudget: faultBudget, Logger: logger})
			if err != nil {
				t.Fatalf("reopen after the MANIFEST fault: %v", err)
			}
			defer db.Close()
			for i := range manifestAcked {
				if v, ok := get(t, db, fmt.Sprintf("m-%06d", i)); !ok || v != "acked" {
					t.Fatalf("acknowledged key %d lost after the MANIFEST fault", i)
				}
			}
			if err := db.Pebble().Set([]byte("after"), []byte("ok"), pebble.Sync); err != nil {
				t.Fatalf("write after reopen: %v", err)
			}
			if err := db.Pebble().Flush(); err != nil {
				t.Fatalf("flush after reopen: %v", err)
			}
		})
	}
}

func firstLineWith(text, sub string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

// TestPowerLossConcurrent crashes the filesystem while writers group-commit
// synced batches and flushes and compactions run, several generations in a
// row: every batch acknowledged before the crash is present after it, and
// every batch is all-or-nothing.
func TestPowerLossConcurrent(t *testing.T) {
	const (
		writers     = 4
		generations = 4
		batchSize   = 4
	)
	mem := vfs.NewCrashableMem()
	rng := rand.New(rand.NewPCG(42, 4242))
	acked := map[string]string{} // key -> value, acknowledged before a crash
	var started []string         // tags of all batches ever started
	for gen := range generations {
		logger, _ := faultLogger()
		db, err := kv.Open(kv.Options{Dir: "/db", FS: mem, MemoryBudget: faultBudget, Logger: logger})
		if err != nil {
			t.Fatalf("generation %d: open: %v", gen, err)
		}
		// Everything acknowledged so far survived the previous crash.
		for k, v := range acked {
			if got, ok := get(t, db, k); !ok || got != v {
				t.Fatalf("generation %d: acknowledged key %s = %q (present %v), want %q", gen, k, got, ok, v)
			}
		}
		// Batches are atomic: a batch's keys all carry its tag or none does.
		for _, tag := range started {
			n := 0
			for j := range batchSize {
				if v, ok := get(t, db, fmt.Sprintf("%s/%d", tag, j)); ok && v == tag {
					n++
				}
			}
			if n != 0 && n != batchSize {
				t.Fatalf("generation %d: batch %s partially present (%d of %d)", gen, tag, n, batchSize)
			}
		}

		var mu sync.Mutex
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					tag := fmt.Sprintf("g%d-w%d-%05d", gen, w, i)
					mu.Lock()
					started = append(started, tag)
					mu.Unlock()
					b := db.NewBatch()
					for j := range batchSize {
						_ = b.Set(fmt.Appendf(nil, "%s/%d", tag, j), []byte(tag))
					}
					err := b.Commit(true)
					_ = b.Close()
					if err != nil {
						t.Errorf("commit %s: %v", tag, err)
						return
					}
					mu.Lock()
					for j := range batchSize {
						acked[fmt.Sprintf("%s/%d", tag, j)] = tag
					}
					mu.Unlock()
				}
			}()
		}
		wg.Add(1)
		go func() { // background flushes and compactions
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				case <-time.After(20 * time.Millisecond):
				}
				if err := db.Pebble().Flush(); err != nil {
					t.Errorf("flush: %v", err)
					return
				}
				if err := db.Pebble().Compact(context.Background(), []byte("g"), []byte("h"), false); err != nil {
					t.Errorf("compact: %v", err)
					return
				}
			}
		}()
		time.Sleep(150 * time.Millisecond)
		// Power loss: the clone is taken while commits are in flight.
		// Everything acknowledged before this point must survive.
		mu.Lock()
		before := make(map[string]string, len(acked))
		for k, v := range acked {
			before[k] = v
		}
		mu.Unlock()
		clone := mem.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: rng.IntN(3) * 50, RNG: rng})
		close(stop)
		wg.Wait()
		if err := db.Close(); err != nil {
			t.Fatalf("generation %d: close: %v", gen, err)
		}
		acked = before
		mem = clone
		t.Logf("generation %d: %d keys acknowledged before the crash, %d batches started", gen, len(acked), len(started))
	}
}

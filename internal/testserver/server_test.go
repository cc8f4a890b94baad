package testserver

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeBinary is testdata/fakestrata, built once by TestMain.
var fakeBinary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fakestrata-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fakeBinary = filepath.Join(dir, "fakestrata")
	out, err := exec.Command("go", "build", "-o", fakeBinary, "./testdata/fakestrata").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build fakestrata: %v\n%s", err, out)
		_ = os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

func useFake(t *testing.T) {
	t.Setenv(BinaryEnv, fakeBinary)
}

func selectOneOn(t *testing.T, db *sql.DB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var v int
	if err := db.QueryRowContext(ctx, "SELECT 1").Scan(&v); err != nil || v != 1 {
		t.Fatalf("SELECT 1 = %d, %v", v, err)
	}
}

func startsRecorded(t *testing.T, dataDir string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dataDir, "starts"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

func TestLifecycle(t *testing.T) {
	useFake(t)
	dataDir := filepath.Join(t.TempDir(), "data")
	s := Start(t, Options{DataDir: dataDir, Args: []string{"extra-arg"}})
	if s.DataDir != dataDir || s.Port == 0 || s.LogPath == "" {
		t.Fatalf("server = %+v", s)
	}
	pid1 := s.PID()
	if pid1 <= 0 {
		t.Fatalf("PID() = %d", pid1)
	}
	db := s.DB(t, "")
	selectOneOn(t, db)
	if starts := startsRecorded(t, dataDir); len(starts) != 1 || !strings.HasSuffix(starts[0], "extra-arg") {
		t.Errorf("starts = %q, want one start with extra-arg", starts)
	}

	s.Kill()
	if s.PID() != 0 {
		t.Errorf("PID() = %d after Kill", s.PID())
	}
	if c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)), time.Second); err == nil {
		_ = c.Close()
		t.Error("port still accepts connections after Kill")
	}
	s.Kill() // no-op when not running

	port := s.Port
	s.Restart(t)
	if s.Port != port {
		t.Errorf("Restart moved the port from %d to %d", port, s.Port)
	}
	if pid2 := s.PID(); pid2 <= 0 || pid2 == pid1 {
		t.Errorf("PID after restart = %d (before %d)", pid2, pid1)
	}
	selectOneOn(t, s.DB(t, "somedb"))
	if starts := startsRecorded(t, dataDir); len(starts) != 2 {
		t.Errorf("starts = %q, want 2", starts)
	}

	// Restart of a running server stops it cleanly first.
	s.Restart(t)
	if starts := startsRecorded(t, dataDir); len(starts) != 3 {
		t.Errorf("starts = %q, want 3", starts)
	}

	if err := s.Stop(); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if err := s.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	log := s.LogTail()
	for _, want := range []string{"=== testserver: start #3", "fakestrata starting", "fakestrata stopping", "--port"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

func TestStopReportsNonZeroExit(t *testing.T) {
	useFake(t)
	s := Start(t, Options{Env: []string{"FAKESTRATA_TERM_EXIT=3"}})
	err := s.Stop()
	if err == nil || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("Stop() = %v, want exit status 3", err)
	}
}

func TestStopKillsAfterTimeout(t *testing.T) {
	useFake(t)
	defer func(d time.Duration) { stopTimeout = d }(stopTimeout)
	stopTimeout = 300 * time.Millisecond
	s := Start(t, Options{Env: []string{"FAKESTRATA_IGNORE_TERM=1"}})
	err := s.Stop()
	if err == nil || !strings.Contains(err.Error(), "did not exit") {
		t.Errorf("Stop() = %v, want a timeout error", err)
	}
	if s.PID() != 0 {
		t.Error("server still running after Stop timed out")
	}
}

// recorder is a testing.TB that records Fatal/Error calls instead of
// failing the real test; Fatal ends the calling goroutine like the real one.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed []string
}

func (r *recorder) record(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = append(r.failed, msg)
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.record(fmt.Sprintf(format, args...))
	runtime.Goexit()
}

func (r *recorder) Errorf(format string, args ...any) { r.record(fmt.Sprintf(format, args...)) }

func (r *recorder) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.failed) > 0
}

func (r *recorder) messages() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.failed, "\n")
}

// runRecorded runs f with a recorder in its own goroutine (Fatalf exits it).
func runRecorded(t *testing.T, f func(tb testing.TB)) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

func TestStartFailsWhenServerExits(t *testing.T) {
	useFake(t)
	start := time.Now()
	r := runRecorded(t, func(tb testing.TB) {
		Start(tb, Options{Env: []string{"FAKESTRATA_EXIT_ON_START=4"}})
		tb.Errorf("Start returned")
	})
	msg := r.messages()
	if !strings.Contains(msg, "exited before it was ready") || !strings.Contains(msg, "exit status 4") ||
		!strings.Contains(msg, "fakestrata starting") {
		t.Errorf("failure message = %q", msg)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("noticing the exit took %v", d)
	}
}

func TestStartTimesOut(t *testing.T) {
	// A "server" that runs but never listens.
	script := filepath.Join(t.TempDir(), "silent")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(BinaryEnv, script)
	defer func(d time.Duration) { readyTimeout = d }(readyTimeout)
	readyTimeout = 500 * time.Millisecond
	r := runRecorded(t, func(tb testing.TB) {
		Start(tb, Options{})
		tb.Errorf("Start returned")
	})
	if msg := r.messages(); !strings.Contains(msg, "not ready") || strings.Contains(msg, "Start returned") {
		t.Errorf("failure message = %q", msg)
	}
}

func TestBinaryEnvMissingFile(t *testing.T) {
	t.Setenv(BinaryEnv, filepath.Join(t.TempDir(), "nope"))
	r := runRecorded(t, func(tb testing.TB) { Binary(tb) })
	if msg := r.messages(); !strings.Contains(msg, BinaryEnv) {
		t.Errorf("failure message = %q", msg)
	}
}

func TestDSN(t *testing.T) {
	s := &Server{Port: 4123}
	got := s.DSN("sbtest")
	want := "root@tcp(127.0.0.1:4123)/sbtest?"
	if !strings.HasPrefix(got, want) {
		t.Errorf("DSN = %q, want prefix %q", got, want)
	}
	for _, p := range []string{"interpolateParams=false", "parseTime=false", "multiStatements=false"} {
		if !strings.Contains(got, p) {
			t.Errorf("DSN %q lacks %s", got, p)
		}
	}
}

func TestModuleRoot(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := moduleRoot(wd)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(wd) != "testserver" || root != filepath.Dir(filepath.Dir(wd)) {
		t.Errorf("moduleRoot(%s) = %s", wd, root)
	}
	if _, err := os.Stat(filepath.Join(root, "cmd")); err != nil {
		t.Errorf("module root %s has no cmd directory: %v", root, err)
	}
	if _, err := moduleRoot(t.TempDir()); err == nil {
		t.Error("moduleRoot found a go.mod above a temp dir")
	}
}

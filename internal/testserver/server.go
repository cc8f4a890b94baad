package testserver

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	// Registers the "mysql" database/sql driver.
	_ "github.com/go-sql-driver/mysql"
)

// logTailBytes is how much of the server log LogTail returns.
const logTailBytes = 8 << 10

// Variables so that this package's tests can shorten them.
var (
	// readyTimeout bounds how long Start and Restart wait for `SELECT 1`.
	readyTimeout = 60 * time.Second
	// stopTimeout bounds how long Stop waits after SIGTERM before SIGKILL.
	stopTimeout = 30 * time.Second
)

// Options configures Start.
type Options struct {
	// DataDir is the server's data directory; empty means t.TempDir().
	DataDir string
	// Args are extra arguments appended after
	// `serve --datadir D --port P --bind 127.0.0.1`.
	Args []string
	// Env holds extra KEY=VALUE environment entries added to the test
	// process's environment.
	Env []string
}

// Server is a strata process started by Start. Its methods are safe for
// concurrent use.
type Server struct {
	// Port is the loopback TCP port the server listens on; it stays the same
	// across Restart.
	Port int
	// DataDir is the server's data directory.
	DataDir string
	// LogPath is the file receiving the server's stdout and stderr (appended
	// across restarts).
	LogPath string

	bin  string
	args []string
	env  []string

	mu struct {
		sync.Mutex
		cmd  *exec.Cmd
		done chan struct{} // closed when cmd has been reaped
		err  error         // cmd.Wait's result, valid once done is closed
		log  *os.File
		runs int
		// stopping is set by Kill and Stop: the next exit is expected.
		stopping bool
	}
}

// Start spawns `strata serve` on a free loopback port and waits (up to
// 60 s) until `SELECT 1` works. It registers a cleanup that stops the
// server with SIGTERM — reporting a test error if it does not exit cleanly —
// and, if the test failed, prints the tail of the server log.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	bin := Binary(t)
	s := &Server{
		DataDir: opts.DataDir,
		LogPath: filepath.Join(t.TempDir(), "strata.log"),
		bin:     bin,
		args:    opts.Args,
		env:     append(os.Environ(), opts.Env...),
	}
	if s.DataDir == "" {
		s.DataDir = t.TempDir()
	}
	port, err := freePort()
	if err != nil {
		t.Fatalf("testserver: %v", err)
	}
	s.Port = port
	t.Cleanup(func() {
		if s.running() {
			if err := s.Stop(); err != nil {
				t.Errorf("testserver: strata did not shut down cleanly: %v", err)
			}
		} else if crashed, err := s.unexpectedExit(); crashed && !t.Failed() {
			t.Errorf("testserver: strata exited on its own during the test: %v", err)
		}
		if t.Failed() {
			t.Logf("testserver: tail of %s:\n%s", s.LogPath, s.LogTail())
		}
		s.closeLog()
	})
	s.startAndWait(t)
	return s
}

// DSN returns a go-sql-driver/mysql DSN for user root (empty password) and
// database db ("" for none), with client-side interpolation, time parsing
// and multi-statements off so every statement reaches the server as written.
func (s *Server) DSN(db string) string {
	return "root@tcp(127.0.0.1:" + strconv.Itoa(s.Port) + ")/" + db +
		"?interpolateParams=false&parseTime=false&multiStatements=false&timeout=10s"
}

// DB opens a *sql.DB on database db, closed when the test ends.
func (s *Server) DB(t testing.TB, db string) *sql.DB {
	t.Helper()
	h, err := sql.Open("mysql", s.DSN(db))
	if err != nil {
		t.Fatalf("testserver: open %s: %v", s.DSN(db), err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

// PID returns the process id of the running server, or 0 if it is not
// running.
func (s *Server) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.cmd == nil || isClosed(s.mu.done) {
		return 0
	}
	return s.mu.cmd.Process.Pid
}

// Kill sends SIGKILL to the server and waits until the process is reaped.
// It does nothing if the server is not running.
func (s *Server) Kill() {
	cmd, done := s.current()
	if cmd == nil {
		return
	}
	s.setStopping()
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-done
}

// Stop sends SIGTERM and waits up to 30 s for the server to exit. It
// returns an error if the server had to be killed or exited with a non-zero
// status. Stopping a server that is not running returns nil.
func (s *Server) Stop() error {
	cmd, done := s.current()
	if cmd == nil {
		return nil
	}
	s.setStopping()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("send SIGTERM to strata (pid %d): %w", cmd.Process.Pid, err)
	}
	select {
	case <-done:
	case <-time.After(stopTimeout):
		_ = cmd.Process.Signal(syscall.SIGKILL)
		<-done
		return fmt.Errorf("strata (pid %d) did not exit within %v of SIGTERM; killed", cmd.Process.Pid, stopTimeout)
	}
	s.mu.Lock()
	err := s.mu.err
	s.mu.Unlock()
	if err != nil {
		return fmt.Errorf("strata (pid %d) exited after SIGTERM: %w", cmd.Process.Pid, err)
	}
	return nil
}

// Restart starts the server again with the same data directory, port and
// arguments and waits until it is ready. A running server is stopped first
// (a failed clean stop fails the test).
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	if s.running() {
		if err := s.Stop(); err != nil {
			t.Fatalf("testserver: restart: %v", err)
		}
	}
	s.startAndWait(t)
}

// LogTail returns up to the last 8 KiB of the server log.
func (s *Server) LogTail() string {
	f, err := os.Open(s.LogPath)
	if err != nil {
		return fmt.Sprintf("(cannot read log: %v)", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Sprintf("(cannot stat log: %v)", err)
	}
	off := max(fi.Size()-logTailBytes, 0)
	buf := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Sprintf("(cannot read log: %v)", err)
	}
	return string(buf)
}

// startAndWait spawns the process and waits until it answers SELECT 1,
// failing the test if it exits or readyTimeout passes first.
func (s *Server) startAndWait(t testing.TB) {
	t.Helper()
	if err := s.spawn(); err != nil {
		t.Fatalf("testserver: %v", err)
	}
	if err := s.waitReady(readyTimeout); err != nil {
		s.Kill()
		t.Fatalf("testserver: %v\nlog tail (%s):\n%s", err, s.LogPath, s.LogTail())
	}
}

// spawn starts the server process with output appended to LogPath.
func (s *Server) spawn() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.cmd != nil && !isClosed(s.mu.done) {
		return fmt.Errorf("strata (pid %d) is already running", s.mu.cmd.Process.Pid)
	}
	if s.mu.log == nil {
		f, err := os.OpenFile(s.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("open server log: %w", err)
		}
		s.mu.log = f
	}
	s.mu.runs++
	args := append([]string{"serve",
		"--datadir", s.DataDir,
		"--port", strconv.Itoa(s.Port),
		"--bind", "127.0.0.1",
	}, s.args...)
	fmt.Fprintf(s.mu.log, "=== testserver: start #%d: %s %q\n", s.mu.runs, s.bin, args)
	cmd := exec.Command(s.bin, args...)
	cmd.Env = s.env
	cmd.Stdout = s.mu.log
	cmd.Stderr = s.mu.log
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", s.bin, err)
	}
	done := make(chan struct{})
	s.mu.cmd, s.mu.done, s.mu.err, s.mu.stopping = cmd, done, nil, false
	go func() {
		err := cmd.Wait()
		s.mu.Lock()
		s.mu.err = err
		s.mu.Unlock()
		close(done)
	}()
	return nil
}

// waitReady polls `SELECT 1` until it succeeds, the process exits or the
// timeout passes.
func (s *Server) waitReady(timeout time.Duration) error {
	_, done := s.current()
	if done == nil {
		return errors.New("strata is not running")
	}
	db, err := sql.Open("mysql", s.DSN(""))
	if err != nil {
		return fmt.Errorf("open DSN: %w", err)
	}
	defer db.Close()
	deadline := time.Now().Add(timeout)
	var lastErr error
	for {
		select {
		case <-done:
			s.mu.Lock()
			werr := s.mu.err
			s.mu.Unlock()
			return fmt.Errorf("strata exited before it was ready: %v", werr)
		default:
		}
		// Dial first: it is cheap and keeps go-sql-driver from logging
		// connection errors while the port is still closed.
		if lastErr = dialOnce(s.Port); lastErr == nil {
			lastErr = selectOne(db)
			if lastErr == nil {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("strata not ready on port %d within %v: %v", s.Port, timeout, lastErr)
		}
		select {
		case <-done:
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func dialOnce(port int) error {
	c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), time.Second)
	if err != nil {
		return err
	}
	return c.Close()
}

func selectOne(db *sql.DB) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var v int
	if err := db.QueryRowContext(ctx, "SELECT 1").Scan(&v); err != nil {
		return fmt.Errorf("SELECT 1: %w", err)
	}
	if v != 1 {
		return fmt.Errorf("SELECT 1 returned %d", v)
	}
	return nil
}

// current returns the running command and its done channel, or nils.
func (s *Server) current() (*exec.Cmd, chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.cmd == nil {
		return nil, nil
	}
	if isClosed(s.mu.done) {
		return nil, nil
	}
	return s.mu.cmd, s.mu.done
}

func (s *Server) setStopping() {
	s.mu.Lock()
	s.mu.stopping = true
	s.mu.Unlock()
}

// unexpectedExit reports whether the last process exited without Kill or
// Stop, and with what result.
func (s *Server) unexpectedExit() (crashed bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.cmd == nil || !isClosed(s.mu.done) || s.mu.stopping {
		return false, nil
	}
	return true, s.mu.err
}

func (s *Server) running() bool {
	cmd, _ := s.current()
	return cmd != nil
}

func (s *Server) closeLog() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.log != nil {
		_ = s.mu.log.Close()
		s.mu.log = nil
	}
}

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// freePort asks the kernel for a free loopback TCP port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

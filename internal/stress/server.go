package stress

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// readyTimeout bounds how long a (re)started server may take to answer.
const readyTimeout = 60 * time.Second

// server is one strata process driven by the reaper.
type server struct {
	bin     string
	dataDir string
	port    int
	logPath string
	args    []string

	mu struct {
		sync.Mutex
		cmd      *exec.Cmd
		done     chan struct{}
		err      error
		expected bool // the next exit is ours (kill or stop)
		starts   int
	}
	log *os.File
}

func newServer(bin, dataDir, logPath string, port int, extra []string) (*server, error) {
	if port == 0 {
		p, err := freePort()
		if err != nil {
			return nil, err
		}
		port = p
	}
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("server log: %w", err)
	}
	return &server{bin: bin, dataDir: dataDir, port: port, logPath: logPath, args: extra, log: f}, nil
}

// freePort asks the kernel for an unused loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// dsn is the go-sql-driver DSN of database db ("" for none).
func (s *server) dsn(db string) string {
	return "root@tcp(127.0.0.1:" + strconv.Itoa(s.port) + ")/" + db +
		"?timeout=5s&readTimeout=60s&writeTimeout=60s&interpolateParams=false"
}

// start spawns the server and waits until it answers SELECT 1.
func (s *server) start(ctx context.Context) error {
	s.mu.Lock()
	if s.mu.cmd != nil && !isClosed(s.mu.done) {
		s.mu.Unlock()
		return errors.New("server already running")
	}
	args := append([]string{"serve", "--datadir", s.dataDir, "--port", strconv.Itoa(s.port), "--bind", "127.0.0.1"}, s.args...)
	cmd := exec.Command(s.bin, args...)
	cmd.Stdout = s.log
	cmd.Stderr = s.log
	cmd.SysProcAttr = procAttr()
	s.mu.starts++
	fmt.Fprintf(s.log, "--- stress: start %d: %s %v\n", s.mu.starts, s.bin, args)
	if err := cmd.Start(); err != nil {
		s.mu.Unlock()
		return fmt.Errorf("start %s: %w", s.bin, err)
	}
	done := make(chan struct{})
	s.mu.cmd, s.mu.done, s.mu.err, s.mu.expected = cmd, done, nil, false
	s.mu.Unlock()
	go func() {
		err := cmd.Wait()
		s.mu.Lock()
		s.mu.err = err
		s.mu.Unlock()
		close(done)
	}()
	return s.waitReady(ctx, done)
}

func (s *server) waitReady(ctx context.Context, done chan struct{}) error {
	db, err := sql.Open("mysql", s.dsn(""))
	if err != nil {
		return fmt.Errorf("open client: %w", err)
	}
	defer db.Close()
	deadline := time.Now().Add(readyTimeout)
	var last error
	for time.Now().Before(deadline) {
		if isClosed(done) {
			return fmt.Errorf("server exited during startup: %v", s.exitErr())
		}
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, last = db.ExecContext(pctx, "SELECT 1")
		cancel()
		if last == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("server not ready after %v: %v", readyTimeout, last)
}

// kill sends SIGKILL and waits for the process to be reaped.
func (s *server) kill() error { return s.signal(syscall.SIGKILL, 10*time.Second) }

// stop sends SIGTERM and waits for a clean exit (SIGKILL after timeout).
func (s *server) stop(timeout time.Duration) error {
	err := s.signal(syscall.SIGTERM, timeout)
	if err != nil {
		_ = s.kill()
		return err
	}
	if e := s.exitErr(); e != nil {
		return fmt.Errorf("server exit after SIGTERM: %w", e)
	}
	return nil
}

func (s *server) signal(sig syscall.Signal, timeout time.Duration) error {
	s.mu.Lock()
	cmd, done := s.mu.cmd, s.mu.done
	if cmd == nil || isClosed(done) {
		s.mu.Unlock()
		return nil
	}
	s.mu.expected = true
	s.mu.Unlock()
	if err := cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("signal %v: %w", sig, err)
	}
	select {
	case <-done:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("server did not exit within %v after %v", timeout, sig)
	}
}

// exitedUnexpectedly reports whether the process ended without kill or stop.
func (s *server) exitedUnexpectedly() (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.cmd == nil || !isClosed(s.mu.done) || s.mu.expected {
		return false, nil
	}
	return true, s.mu.err
}

func (s *server) exitErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mu.err
}

func (s *server) close() { _ = s.log.Close() }

// logTail returns the last n bytes of the server log.
func (s *server) logTail(n int64) string {
	f, err := os.Open(s.logPath)
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > n {
		_, _ = f.Seek(fi.Size()-n, io.SeekStart)
	}
	b, _ := io.ReadAll(f)
	if i := bytes.IndexByte(b, '\n'); i >= 0 && int64(len(b)) == n {
		b = b[i+1:]
	}
	return string(b)
}

func isClosed(c chan struct{}) bool {
	if c == nil {
		return false
	}
	select {
	case <-c:
		return true
	default:
		return false
	}
}

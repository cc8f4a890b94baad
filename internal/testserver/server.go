package testserver

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	// Registers the "mysql" database/sql driver.
	_ "github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/proc"
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
		p    *proc.Process // the current run; nil before the first
		runs int
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
	port, err := proc.FreePort()
	if err != nil {
		t.Fatalf("testserver: %v", err)
	}
	s.Port = port
	t.Cleanup(func() {
		if s.running() {
			if err := s.Stop(); err != nil {
				t.Errorf("testserver: strata did not shut down cleanly: %v", err)
			}
		} else if p := s.current(); p != nil && !t.Failed() {
			if crashed, err := p.Unexpected(); crashed {
				t.Errorf("testserver: strata exited on its own during the test: %v", err)
			}
		}
		if t.Failed() {
			t.Logf("testserver: tail of %s:\n%s", s.LogPath, s.LogTail())
		}
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
	if p := s.current(); p != nil && !p.Exited() {
		return p.PID()
	}
	return 0
}

// Kill sends SIGKILL to the server and waits until the process is reaped.
// It does nothing if the server is not running.
func (s *Server) Kill() {
	if p := s.current(); p != nil {
		_ = p.Kill()
	}
}

// Stop sends SIGTERM and waits up to 30 s for the server to exit. It
// returns an error if the server had to be killed or exited with a non-zero
// status. Stopping a server that is not running returns nil.
func (s *Server) Stop() error {
	if p := s.current(); p != nil {
		return p.Stop(stopTimeout)
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
func (s *Server) LogTail() string { return proc.Tail(s.LogPath, logTailBytes) }

// startAndWait spawns the process and waits until it answers SELECT 1,
// failing the test if it exits or readyTimeout passes first.
func (s *Server) startAndWait(t testing.TB) {
	t.Helper()
	p, err := s.spawn()
	if err != nil {
		t.Fatalf("testserver: %v", err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port))
	if err := p.WaitReady(context.Background(), addr, readyTimeout, proc.SelectOne("mysql", s.DSN(""))); err != nil {
		_ = p.Kill()
		t.Fatalf("testserver: %v\nlog tail (%s):\n%s", err, s.LogPath, s.LogTail())
	}
}

// spawn starts the server process with output appended to LogPath.
func (s *Server) spawn() (*proc.Process, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.mu.p; p != nil && !p.Exited() {
		return nil, fmt.Errorf("strata (pid %d) is already running", p.PID())
	}
	s.mu.runs++
	p, err := proc.Start(proc.Spec{
		Name: "strata",
		Path: s.bin,
		Args: append([]string{"serve",
			"--datadir", s.DataDir,
			"--port", strconv.Itoa(s.Port),
			"--bind", "127.0.0.1",
		}, s.args...),
		Env:     s.env,
		LogPath: s.LogPath,
		Banner:  fmt.Sprintf("testserver: start #%d", s.mu.runs),
	})
	if err != nil {
		return nil, err
	}
	s.mu.p = p
	return p, nil
}

// current returns the latest run, or nil before the first.
func (s *Server) current() *proc.Process {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mu.p
}

func (s *Server) running() bool {
	p := s.current()
	return p != nil && !p.Exited()
}

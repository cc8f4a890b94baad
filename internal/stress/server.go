package stress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/strata-db/strata/internal/proc"
)

// readyTimeout bounds how long a (re)started server may take to answer.
const readyTimeout = 60 * time.Second

// server is one strata process driven by the reaper (from one goroutine).
type server struct {
	bin     string
	dataDir string
	port    int
	logPath string
	args    []string

	p      *proc.Process // the current run; nil before the first
	starts int
}

func newServer(bin, dataDir, logPath string, port int, extra []string) (*server, error) {
	if port == 0 {
		p, err := proc.FreePort()
		if err != nil {
			return nil, err
		}
		port = p
	}
	return &server{bin: bin, dataDir: dataDir, port: port, logPath: logPath, args: extra}, nil
}

// dsn is the go-sql-driver DSN of database db ("" for none).
func (s *server) dsn(db string) string {
	return "root@tcp(127.0.0.1:" + strconv.Itoa(s.port) + ")/" + db +
		"?timeout=5s&readTimeout=60s&writeTimeout=60s&interpolateParams=false"
}

// start spawns the server and waits until it answers SELECT 1.
func (s *server) start(ctx context.Context) error {
	if s.p != nil && !s.p.Exited() {
		return errors.New("server already running")
	}
	s.starts++
	p, err := proc.Start(proc.Spec{
		Name:    "strata",
		Path:    s.bin,
		Args:    append([]string{"serve", "--datadir", s.dataDir, "--port", strconv.Itoa(s.port), "--bind", "127.0.0.1"}, s.args...),
		LogPath: s.logPath,
		Banner:  fmt.Sprintf("stress: start %d", s.starts),
	})
	if err != nil {
		return err
	}
	s.p = p
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port))
	return p.WaitReady(ctx, addr, readyTimeout, proc.SelectOne("mysql", s.dsn("")))
}

// kill sends SIGKILL and waits for the process to be reaped.
func (s *server) kill() error {
	if s.p == nil {
		return nil
	}
	return s.p.Kill()
}

// stop sends SIGTERM and waits for a clean exit (SIGKILL after timeout).
// A server that already exited on its own is an error too.
func (s *server) stop(timeout time.Duration) error {
	if s.p == nil {
		return nil
	}
	if crashed, err := s.p.Unexpected(); crashed {
		return fmt.Errorf("server exited on its own before the stop: %v", err)
	}
	return s.p.Stop(timeout)
}

// exitedUnexpectedly reports whether the process ended without kill or stop.
func (s *server) exitedUnexpectedly() (bool, error) {
	if s.p == nil {
		return false, nil
	}
	return s.p.Unexpected()
}

// close kills a server the run left behind (after a violation).
func (s *server) close() { _ = s.kill() }

// logTail returns the end of the server log (at most n bytes).
func (s *server) logTail(n int64) string { return proc.Tail(s.logPath, n) }

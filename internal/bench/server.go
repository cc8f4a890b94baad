package bench

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	_ "github.com/go-sql-driver/mysql" // driver "mysql" for readiness checks
)

// Engine names accepted by --engines, in report order.
const (
	EngineStrata  = "strata"
	EngineInnoDB  = "innodb"
	EngineMyRocks = "myrocks"
)

// AllEngines is the default --engines list; strata first, as the reference.
var AllEngines = []string{EngineStrata, EngineInnoDB, EngineMyRocks}

// EngineLabel is the human name of an engine in reports.
func EngineLabel(e string) string {
	switch e {
	case EngineStrata:
		return "strata"
	case EngineInnoDB:
		return "MariaDB InnoDB"
	case EngineMyRocks:
		return "MariaDB MyRocks"
	}
	return e
}

// Setting is one configuration value of an engine, recorded in the report.
type Setting struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Server is a database server process the bench started.
type Server struct {
	Engine   string    `json:"engine"`
	Version  string    `json:"version"`
	Port     int       `json:"port"`
	Dir      string    `json:"dir"`     // private directory: data, socket, log
	DataDir  string    `json:"datadir"` // the engine's data directory
	Args     []string  `json:"args"`    // command line
	Settings []Setting `json:"settings"`
	// CacheBytes is the cache the engine runs with: strata's block cache,
	// InnoDB's buffer pool or MyRocks' block cache as the server reports it.
	CacheBytes int64 `json:"cache_bytes"`
	// tableFiles selects the files holding table data (for the "tables"
	// size figure), relative to DataDir.
	tableFiles func(rel string) bool

	cmd     *exec.Cmd
	logFile *os.File
	done    chan struct{}
	waitErr error
	stopped sync.Once
	cgroups []string
}

// PID is the server's process id.
func (s *Server) PID() int { return s.cmd.Process.Pid }

// DSN is a go-sql-driver DSN for user root over TCP.
func (s *Server) DSN(db string) string {
	return fmt.Sprintf("root@tcp(127.0.0.1:%d)/%s?timeout=5s&readTimeout=120s&writeTimeout=120s", s.Port, db)
}

// LongDSN is DSN without the read timeout, for statements that may run
// longer than DSN's 120 s (analytical queries, bulk loads); the caller
// bounds them itself.
func (s *Server) LongDSN(db string) string {
	return fmt.Sprintf("root@tcp(127.0.0.1:%d)/%s?timeout=5s&writeTimeout=120s", s.Port, db)
}

// spawn starts the server command in its own process group with output
// appended to Dir/server.log (a restart on the same directory keeps the
// first run's log). The kernel kills it if the bench dies (Pdeathsig).
func (s *Server) spawn(name string, args ...string) error {
	lf, err := os.OpenFile(filepath.Join(s.Dir, "server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("create server log: %w", err)
	}
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = lf, lf
	cmd.Dir = s.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		lf.Close()
		return fmt.Errorf("start %s: %w", name, err)
	}
	s.Args = append([]string{name}, args...)
	s.cmd, s.logFile, s.done = cmd, lf, make(chan struct{})
	go func() {
		s.waitErr = cmd.Wait()
		close(s.done)
	}()
	return nil
}

// waitReady polls SELECT 1 until it works, the process exits or the timeout
// passes.
func (s *Server) waitReady(ctx context.Context, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	db, err := sql.Open("mysql", fmt.Sprintf("root@tcp(127.0.0.1:%d)/?timeout=2s", s.Port))
	if err != nil {
		return fmt.Errorf("open client: %w", err)
	}
	defer db.Close()
	for {
		select {
		case <-s.done:
			return fmt.Errorf("%s exited during startup (%v); log tail:\n%s", s.Engine, s.waitErr, s.LogTail(20))
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		var one int
		qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := db.QueryRowContext(qctx, "SELECT 1").Scan(&one)
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready after %v: %v; log tail:\n%s", s.Engine, timeout, err, s.LogTail(20))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Query runs a statement returning one string (or nothing).
func (s *Server) Query(ctx context.Context, q string) (string, error) {
	db, err := sql.Open("mysql", s.DSN(""))
	if err != nil {
		return "", err
	}
	defer db.Close()
	var v sql.NullString
	err = db.QueryRowContext(ctx, q).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("%s: %q: %w", s.Engine, q, err)
	}
	return v.String, nil
}

// Exec runs statements.
func (s *Server) Exec(ctx context.Context, stmts ...string) error {
	db, err := sql.Open("mysql", s.DSN(""))
	if err != nil {
		return err
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %q: %w", s.Engine, q, err)
		}
	}
	return nil
}

// Stop sends SIGTERM to the server's process group, waits up to timeout for
// a clean shutdown, then SIGKILLs the group. Safe to call more than once.
func (s *Server) Stop(timeout time.Duration) error {
	var err error
	s.stopped.Do(func() {
		if s.cmd == nil || s.cmd.Process == nil {
			return
		}
		pgid := s.cmd.Process.Pid
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(timeout):
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-s.done
			err = fmt.Errorf("%s did not stop within %v; killed", s.Engine, timeout)
		}
		s.logFile.Close()
		for i := len(s.cgroups) - 1; i >= 0; i-- {
			_ = os.Remove(s.cgroups[i])
		}
	})
	return err
}

// Exited reports whether the process has exited.
func (s *Server) Exited() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// LogTail returns the last n lines of the server log.
func (s *Server) LogTail(n int) string {
	b, err := os.ReadFile(filepath.Join(s.Dir, "server.log"))
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// freePort returns a TCP port on loopback that is free right now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

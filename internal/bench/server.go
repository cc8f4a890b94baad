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
	"strconv"
	"sync"
	"time"

	_ "github.com/go-sql-driver/mysql" // driver "mysql" for readiness checks

	"github.com/strata-db/strata/internal/proc"
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

	p       *proc.Process
	stopped sync.Once
	cgroups []string
}

// logTailBytes is how much of the server log LogTail returns.
const logTailBytes = 4 << 10

// PID is the server's process id.
func (s *Server) PID() int { return s.p.PID() }

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
	p, err := proc.Start(proc.Spec{
		Name:    s.Engine,
		Path:    name,
		Args:    args,
		Dir:     s.Dir,
		LogPath: filepath.Join(s.Dir, "server.log"),
	})
	if err != nil {
		return err
	}
	s.Args = append([]string{name}, args...)
	s.p = p
	return nil
}

// waitReady polls SELECT 1 until it works, the process exits or the timeout
// passes.
func (s *Server) waitReady(ctx context.Context, timeout time.Duration) error {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port))
	check := proc.SelectOne("mysql", fmt.Sprintf("root@tcp(%s)/?timeout=2s", addr))
	if err := s.p.WaitReady(ctx, addr, timeout, check); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%w; log tail:\n%s", err, s.LogTail())
	}
	return nil
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
// a clean shutdown, then SIGKILLs the group; having to kill it is an error,
// the exit status is not (it is no measurement). Safe to call more than
// once.
func (s *Server) Stop(timeout time.Duration) error {
	var err error
	s.stopped.Do(func() {
		if s.p == nil {
			return
		}
		var exit *exec.ExitError
		if serr := s.p.Stop(timeout); !errors.As(serr, &exit) {
			err = serr
		}
		for i := len(s.cgroups) - 1; i >= 0; i-- {
			_ = os.Remove(s.cgroups[i])
		}
	})
	return err
}

// Exited reports whether the process has exited.
func (s *Server) Exited() bool { return s.p.Exited() }

// LogTail returns the end of the server log (at most 4 KiB).
func (s *Server) LogTail() string { return proc.Tail(filepath.Join(s.Dir, "server.log"), logTailBytes) }

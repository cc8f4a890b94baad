package stress

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Config configures Run. Zero values take the documented defaults.
type Config struct {
	// Binary is the strata executable to run as `serve`. Required.
	Binary string
	// DataDir is the server's data directory; it must not exist or be
	// empty. Empty means a fresh temporary directory, removed after a run
	// without violations unless Keep is set.
	DataDir string
	// Keep keeps a temporary DataDir (and the server log) after the run.
	Keep bool
	// Port is the loopback port of the server; 0 picks a free one.
	Port int
	// ServerArgs are extra arguments for `strata serve`.
	ServerArgs []string
	// Kills is the number of kill -9 cycles. Default 10.
	Kills int
	// Loaders and Checkers are the numbers of worker connections.
	// Defaults 4 and 2; a negative Checkers means none.
	Loaders, Checkers int
	// Accounts is the number of accounts transfers move money between.
	// Default 100.
	Accounts int
	// MinInterval and MaxInterval bound the random time between the start
	// of the workload and the kill. Defaults 2 s and 5 s.
	MinInterval, MaxInterval time.Duration
	// Duration bounds the whole run: no new cycle starts after it (0 = no
	// bound).
	Duration time.Duration
	// Seed seeds the random choices (0 = time-based); it is reported.
	Seed uint64
	// Log receives progress lines; nil discards them.
	Log io.Writer
}

func (c *Config) setDefaults() {
	if c.Kills <= 0 {
		c.Kills = 10
	}
	if c.Loaders <= 0 {
		c.Loaders = 4
	}
	if c.Checkers < 0 {
		c.Checkers = 0
	} else if c.Checkers == 0 {
		c.Checkers = 2
	}
	if c.Accounts < 2 {
		c.Accounts = 100
	}
	if c.MinInterval <= 0 {
		c.MinInterval = 2 * time.Second
	}
	if c.MaxInterval <= 0 {
		c.MaxInterval = max(5*time.Second, c.MinInterval)
	}
	if c.MaxInterval < c.MinInterval {
		c.MaxInterval = c.MinInterval
	}
	if c.Seed == 0 {
		c.Seed = uint64(time.Now().UnixNano())
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
}

// workerStopTimeout bounds how long workers may take to notice a kill.
const workerStopTimeout = 60 * time.Second

// driverLogOnce silences go-sql-driver's logger, which prints every broken
// connection — hundreds per kill.
var driverLogOnce sync.Once

// Run executes the crash loop described in the package comment and returns
// its report. The error is for failures to run at all (bad configuration,
// the first server start); violations, including a server that does not
// come back after a kill, are in the report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cfg.setDefaults()
	if cfg.Binary == "" {
		return nil, errors.New("stress: no strata binary given")
	}
	driverLogOnce.Do(func() { _ = mysql.SetLogger(log.New(io.Discard, "", 0)) })
	start := time.Now()
	rep := &Report{Config: cfg}
	tmp := cfg.DataDir == ""
	workDir := ""
	if tmp {
		d, err := os.MkdirTemp("", "strata-stress-")
		if err != nil {
			return nil, fmt.Errorf("stress: %w", err)
		}
		workDir = d
		cfg.DataDir = filepath.Join(d, "data")
	} else {
		workDir = filepath.Dir(filepath.Clean(cfg.DataDir))
	}
	rep.DataDir = cfg.DataDir
	logPath := filepath.Join(workDir, "strata-stress-server.log")
	if !tmp {
		logPath = filepath.Clean(cfg.DataDir) + ".log"
	}
	rep.ServerLog = logPath
	srv, err := newServer(cfg.Binary, cfg.DataDir, logPath, cfg.Port, cfg.ServerArgs)
	if err != nil {
		return nil, fmt.Errorf("stress: %w", err)
	}
	defer srv.close()
	r := &runner{cfg: &cfg, srv: srv, rep: rep, rng: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed>>1|1))}
	err = r.run(ctx, start)
	rep.finish(r, time.Since(start))
	if err == nil && tmp && !cfg.Keep && rep.Violations == 0 {
		_ = os.RemoveAll(workDir)
		rep.DataDir, rep.ServerLog = "(removed)", "(removed)"
	}
	return rep, err
}

// runner holds the state of one Run.
type runner struct {
	cfg    *Config
	srv    *server
	rep    *Report
	rng    *rand.Rand
	ledger ledger
	stats  runStats
	ct     checkTableState

	kills, restarts, verifications int
	resolvedCommitted              int64
	resolvedAborted                int64
	xlogRows                       int
	stopNote                       string
}

func (r *runner) logf(format string, args ...any) {
	fmt.Fprintf(r.cfg.Log, "stress: "+format+"\n", args...)
}

func (r *runner) run(ctx context.Context, start time.Time) error {
	cfg := r.cfg
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
		return fmt.Errorf("stress: %w", err)
	}
	if err := r.srv.start(ctx); err != nil {
		return fmt.Errorf("stress: first server start: %w\n%s", err, r.srv.logTail(4<<10))
	}
	r.logf("server on 127.0.0.1:%d, datadir %s, log %s, seed %d", r.srv.port, cfg.DataDir, r.srv.logPath, cfg.Seed)
	db, err := sql.Open("mysql", r.srv.dsn(""))
	if err != nil {
		return fmt.Errorf("stress: %w", err)
	}
	err = setupSchema(ctx, db, cfg.Accounts)
	_ = db.Close()
	if err != nil {
		_ = r.srv.kill()
		return fmt.Errorf("stress: %w", err)
	}
	if !r.verifyNow(ctx, "initial state") {
		_ = r.srv.kill()
		return nil
	}
	for r.kills < cfg.Kills {
		if ctx.Err() != nil {
			r.stopNote = "interrupted"
			break
		}
		if cfg.Duration > 0 && time.Since(start) >= cfg.Duration {
			r.stopNote = fmt.Sprintf("duration %v reached after %d of %d kills", cfg.Duration, r.kills, cfg.Kills)
			break
		}
		if !r.cycle(ctx) {
			return nil
		}
		if r.stats.violationCount() > 0 {
			r.stopNote = "stopped at the first violation"
			_ = r.srv.kill()
			return nil
		}
	}
	if err := r.srv.stop(30 * time.Second); err != nil {
		r.stats.violation("clean shutdown at the end: %v", err)
	}
	return nil
}

// cycle runs the workload on the live server, kills it, restarts it and
// verifies. It returns false when the run cannot go on.
func (r *runner) cycle(ctx context.Context) bool {
	cfg := r.cfg
	db, err := sql.Open("mysql", r.srv.dsn(dbName))
	if err != nil {
		r.stats.violation("open client: %v", err)
		return false
	}
	db.SetMaxOpenConns(cfg.Loaders + cfg.Checkers + 2)
	db.SetMaxIdleConns(cfg.Loaders + cfg.Checkers + 2)
	p := &phase{cfg: cfg, db: db, ledger: &r.ledger, rep: &r.stats}
	wctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i := 0; i < cfg.Loaders; i++ {
		seed := r.rng.Uint64()
		wg.Add(1)
		go func() { defer wg.Done(); p.loader(wctx, seed) }()
	}
	for i := 0; i < cfg.Checkers; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); p.checker(wctx) }()
	}
	wait := cfg.MinInterval
	if span := cfg.MaxInterval - cfg.MinInterval; span > 0 {
		wait += time.Duration(r.rng.Int64N(int64(span)))
	}
	sleepCtx(ctx, wait)
	if crashed, err := r.srv.exitedUnexpectedly(); crashed {
		r.stats.violation("server exited on its own before kill %d: %v\n%s", r.kills+1, err, r.srv.logTail(4<<10))
	}
	p.killed.Store(true)
	if err := r.srv.kill(); err != nil {
		r.stats.violation("kill %d: %v", r.kills+1, err)
	}
	r.kills++
	cancel()
	stopped := make(chan struct{})
	go func() { wg.Wait(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(workerStopTimeout):
		r.stats.violation("workers did not stop within %v after kill %d", workerStopTimeout, r.kills)
		_ = db.Close()
		return false
	}
	_ = db.Close()
	if err := r.srv.start(ctx); err != nil {
		if ctx.Err() != nil {
			r.stopNote = "interrupted"
			return false
		}
		r.stats.violation("server did not come back after kill %d: %v\n%s", r.kills, err, r.srv.logTail(4<<10))
		return false
	}
	r.restarts++
	if !r.verifyNow(ctx, fmt.Sprintf("after kill %d", r.kills)) {
		return false
	}
	c := r.ledger.counts()
	r.logf("kill %d/%d after %v: %d acknowledged, %d in doubt resolved (%d committed), %d aborted, %d rolled back, %d checker rounds, %d violations",
		r.kills, cfg.Kills, wait.Round(time.Millisecond), c[stateAcked], r.resolvedCommitted+r.resolvedAborted, r.resolvedCommitted,
		c[stateAborted], c[stateRolledBack], r.stats.checkerRounds.Load(), r.stats.violationCount())
	return true
}

// verifyNow verifies the restarted server. It returns false when the
// verification could not run (recorded as a violation).
func (r *runner) verifyNow(ctx context.Context, label string) bool {
	db, err := sql.Open("mysql", r.srv.dsn(dbName))
	if err != nil {
		r.stats.violation("%s: open client: %v", label, err)
		return false
	}
	defer db.Close()
	vs, err := verify(ctx, db, r.cfg.Accounts, &r.ledger, &r.stats, &r.ct, label)
	if err != nil {
		r.stats.violation("%s: verification failed: %v", label, err)
		return false
	}
	r.verifications++
	r.resolvedCommitted += vs.resolvedCommitted
	r.resolvedAborted += vs.resolvedAborted
	r.xlogRows = vs.xlogRows
	return true
}

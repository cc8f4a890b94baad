package bench

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// This file is the seed's Redmine load: per engine, one Redmine instance
// (redmine_app.go) over a timing proxy (dbproxy.go), the dataset
// (redmine_data.go), then the grid operation × noise × clients, each step
// running one operation (redmine_client.go) in a loop on every client for
// --time.

// RedmineSetup records how Redmine was set up on one engine.
type RedmineSetup struct {
	Engine  string      `json:"engine"`
	Version string      `json:"version"` // Debian's redmine package
	Puma    string      `json:"puma"`    // workers × threads
	Data    redmineData `json:"data"`
	// Seconds are the setup phases' times (bundle lock, migrate, default
	// data, enabling the API, puma start, dataset, warm-up).
	Seconds map[string]float64 `json:"seconds"`
	// Settings are changes made to the engine for Redmine.
	Settings []string `json:"settings,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// engineStartPlan is the planned time to start an engine without loading
// anything.
const engineStartPlan = 10 * time.Second

// redmineSetupPlan is the planned time to set Redmine up on an engine.
const redmineSetupPlan = 4 * time.Minute

// redmineStepPlan is the planned wall time of one Redmine step: noise
// start, the step, the operations still running at its end.
func (r *runner) redmineStepPlan() time.Duration { return r.o.Time + 6*time.Second }

// redmineCells is the number of Redmine steps per engine.
func (r *runner) redmineCells() int {
	return len(redmineOps) * len(r.o.Noise) * len(r.o.Threads) * r.o.Reps
}

// redmineEnv is Redmine running against one engine.
type redmineEnv struct {
	app      *redmineApp
	proxy    *dbProxy
	client   *redmineClient
	db       *sql.DB // the engine directly (dataset, pool resets)
	refs     redmineRefs
	projects []redmineProject
	serial   atomic.Int64 // varies the created issues
}

func (e *redmineEnv) close() error {
	var errs []error
	if e.app != nil {
		errs = append(errs, e.app.Close())
	}
	if e.proxy != nil {
		errs = append(errs, e.proxy.Close())
	}
	if e.db != nil {
		errs = append(errs, e.db.Close())
	}
	return errors.Join(errs...)
}

// setupRedmine installs, starts and seeds Redmine on s.
func (r *runner) setupRedmine(s *Server, rec *RedmineSetup) (*redmineEnv, error) {
	ctx := r.ctx
	env := &redmineEnv{}
	var err error
	if env.proxy, err = newDBProxy(net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port))); err != nil {
		return env, err
	}
	if s.Engine == EngineMyRocks {
		// MyRocks limits index keys to 767 bytes unless large prefixes
		// are on; Redmine's utf8mb4 VARCHAR(255) indexes need 1020 (InnoDB
		// and strata allow 3072 by default).
		if err := s.Exec(ctx, "SET GLOBAL rocksdb_large_prefix = ON"); err != nil {
			return env, err
		}
		rec.Settings = append(rec.Settings, "SET GLOBAL rocksdb_large_prefix = ON (index keys up to 3072 bytes, as InnoDB's default; Redmine's utf8mb4 VARCHAR(255) indexes need 1020)")
	}
	dir := filepath.Join(r.work, "redmine-"+s.Engine)
	if env.app, err = newRedmineApp(dir, env.proxy.Port()); err != nil {
		return env, err
	}
	phases, err := env.app.Install(ctx)
	for k, v := range phases {
		rec.Seconds[k] = v
	}
	if err != nil {
		return env, err
	}
	t0 := time.Now()
	if err := env.app.Start(ctx, 3*time.Minute); err != nil {
		return env, err
	}
	rec.Seconds["puma-start"] = time.Since(t0).Seconds()
	env.client = newRedmineClient(env.app.Port, env.app.APIKey)
	if env.refs, err = env.client.loadRefs(ctx); err != nil {
		return env, err
	}
	if env.db, err = sql.Open("mysql", s.DSN("redmine")); err != nil {
		return env, err
	}
	t0 = time.Now()
	if env.projects, err = seedRedmine(ctx, env.client, env.db, env.refs, rec.Data); err != nil {
		return env, err
	}
	rec.Seconds["dataset"] = time.Since(t0).Seconds()
	// Warm-up, untimed: each operation on as many clients as the grid's
	// largest count, so every puma thread has its database connection
	// and Rails its schema cache before the first measurement.
	t0 = time.Now()
	for _, op := range redmineOps {
		rs := env.runOp(ctx, op, slices.Max(r.o.Threads), 0)
		if rs.Failed > 0 {
			return env, fmt.Errorf("warm-up %s: %s", op, rs.FirstError)
		}
	}
	rec.Seconds["warm-up"] = time.Since(t0).Seconds()
	return env, nil
}

// runOp runs op on clients parallel clients: each repeats it until d has
// passed since the start (d = 0: once), then finishes the operation in
// flight. Client c works on the projects whose index ≡ c (mod clients).
func (e *redmineEnv) runOp(ctx context.Context, op string, clients int, d time.Duration) *RedmineStep {
	rs := &RedmineStep{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	t0 := time.Now()
	for c := 0; c < clients; c++ {
		var mine []redmineProject
		for i, p := range e.projects {
			if i%clients == c {
				mine = append(mine, p)
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; ; k++ {
				if ctx.Err() != nil || (k > 0 && time.Since(t0) >= d) || len(mine) == 0 {
					return
				}
				p := mine[k%len(mine)]
				start := time.Now()
				var err error
				if op == opCreateIssue {
					err = e.client.createIssue(ctx, e.refs, p, int(e.serial.Add(1)))
				} else {
					err = e.client.processIssues(ctx, e.refs, p)
				}
				s := OpSample{T: start.Sub(t0).Seconds(), Ms: float64(time.Since(start).Microseconds()) / 1000, Failed: err != nil}
				mu.Lock()
				rs.Ops = append(rs.Ops, s)
				if err != nil {
					rs.Failed++
					if rs.FirstError == "" {
						rs.FirstError = err.Error()
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return rs
}

// runRedmine sets Redmine up on s and runs the Redmine grid.
func (r *runner) runRedmine(s *Server) error {
	o := r.o
	cells := r.redmineCells()
	rec := RedmineSetup{Engine: s.Engine, Version: redmineVersion(), Puma: fmt.Sprintf("%d workers × %d threads", pumaWorkers, pumaThreads),
		Data: redmineDataFor(o.Quick, slices.Max(o.Threads)), Seconds: map[string]float64{}}
	r.prog.begin(fmt.Sprintf("%s: Redmine: migrate, start puma, seed %d issues", s.Engine, rec.Data.Issues()), redmineSetupPlan)
	env, err := r.setupRedmine(s, &rec)
	r.prog.end()
	defer func() {
		if cerr := env.close(); cerr != nil {
			r.prog.logf("strata bench: %s: stopping Redmine: %v", s.Engine, cerr)
		}
	}()
	if err != nil {
		rec.Error = err.Error()
		r.res.Redmine = append(r.res.Redmine, rec)
		r.skip(cells)
		return fmt.Errorf("redmine: %w", err)
	}
	r.res.Redmine = append(r.res.Redmine, rec)
	for _, op := range redmineOps {
		for _, n := range r.res.Noise {
			for _, clients := range o.Threads {
				for rep := 1; rep <= o.Reps; rep++ {
					st := Step{Engine: s.Engine, Script: op, Threads: clients, Noise: n.Name, Kind: KindRedmine, Rep: rep}
					if err := r.runRedmineStep(s, env, st, n); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// runRedmineStep runs one Redmine step; like runStep it returns an error
// only when the engine or Redmine cannot go on.
func (r *runner) runRedmineStep(s *Server, env *redmineEnv, st Step, n Noise) error {
	label := fmt.Sprintf("%s redmine %s clients=%d noise=%s", st.Engine, st.Script, st.Threads, st.Noise)
	if r.o.Reps > 1 {
		label += fmt.Sprintf(" rep %d/%d", st.Rep, r.o.Reps)
	}
	r.prog.begin(label, r.redmineStepPlan())
	defer r.prog.end()
	reset := false
	if st.Script == opProcessIssues {
		if err := resetRedmineIssues(r.ctx, env.db, env.refs); err != nil {
			return err
		}
		reset = true
	}
	var running *runningNoise
	if n.Jobs > 0 {
		var err error
		if running, err = r.fio.start(n, r.work); err != nil {
			return err
		}
		time.Sleep(time.Second)
	}
	before, cerr := ReadProcCounters(s.PID())
	app0, aerr := GroupCPU(env.app.puma.cmd.Process.Pid)
	db0 := env.proxy.Counters()
	req0 := env.client.requests.Load()
	t0 := time.Now()
	rs := env.runOp(r.ctx, st.Script, st.Threads, r.o.Time)
	st.Seconds = time.Since(t0).Seconds()
	dbc := env.proxy.Counters().Sub(db0)
	rs.Requests = env.client.requests.Load() - req0
	after, cerr2 := ReadProcCounters(s.PID())
	if app1, aerr2 := GroupCPU(env.app.puma.cmd.Process.Pid); aerr == nil && aerr2 == nil {
		rs.AppCPUSeconds = app1 - app0
	}
	st.LoadAvg = loadAvg1()
	running.stop()
	rs.DBSeconds, rs.Statements, rs.PoolReset = dbc.DB.Seconds(), dbc.Commands, reset
	st.Redmine = rs
	delta := after.Sub(before)
	if cerr != nil || cerr2 != nil {
		delta = ProcCounters{}
	}
	st.Metrics = ComputeRedmineMetrics(rs, st.Seconds, delta)
	if st.Metrics.Transactions == 0 {
		st.Error = "no operation succeeded"
		if rs.FirstError != "" {
			st.Error += ": " + rs.FirstError
		}
	}
	if rs.Failed > 0 {
		r.prog.logf("strata bench: %s: %d of %d operations failed; first: %s", label, rs.Failed, len(rs.Ops), clipError(rs.FirstError))
	}
	r.res.Steps = append(r.res.Steps, st)
	if r.ctx.Err() != nil {
		return r.ctx.Err()
	}
	if s.Exited() {
		return fmt.Errorf("server exited during %s; log tail:\n%s", label, s.LogTail())
	}
	if env.app.puma.Exited() {
		return fmt.Errorf("puma exited during %s:\n%s", label, env.app.puma.LogTail(2048))
	}
	return nil
}

// runRedmineOnly starts engine and runs only the Redmine load on it
// (`--loads redmine`).
func (r *runner) runRedmineOnly(engine string) (err error) {
	r.prog.begin(fmt.Sprintf("%s: start", engine), engineStartPlan)
	s, _, err := r.startEngine(engine, r.engineConfig(r.o.CacheBytes))
	r.prog.end()
	if err != nil {
		r.skip(r.redmineCells())
		return err
	}
	defer func() {
		if serr := r.stopServer(s); serr != nil && err == nil {
			err = serr
		}
	}()
	return r.runRedmine(s)
}

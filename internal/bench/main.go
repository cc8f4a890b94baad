package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Main runs `strata bench` with args (after "bench") and returns the exit
// code. Ctrl-C and SIGTERM stop the run: engines are shut down, data
// directories removed (unless --keep) and the partial report written.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "-h", "--help", "-help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "sysbench", "seed", "tpch", "tpcc", "pageviews":
	case "report":
		return reportMain(args[1:], stdout, stderr)
	default:
		fmt.Fprintf(stderr, "strata bench: unknown workload %q\n\n%s", args[0], usage)
		return 2
	}
	o, err := parseOptions(args[0], args[1:], stderr)
	if err != nil {
		if errors.Is(err, errHelp) {
			fmt.Fprint(stdout, usage)
			return 0
		}
		fmt.Fprintf(stderr, "strata bench: %v\n\n%s", err, usage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	go func() { // a second Ctrl-C gets the default behaviour (exit at once)
		<-ctx.Done()
		stop()
	}()

	r := newRunner(ctx, o, stderr)
	r.res.Command = "strata bench " + strings.Join(args, " ")
	runErr := r.run()
	r.cleanup()
	r.res.Finished = time.Now()
	r.res.Aggs = AggregateSteps(r.res.Steps)
	if len(r.res.Steps) > 0 || len(r.res.Loads) > 0 {
		if err := WriteReport(o.Out, r.res); err != nil {
			fmt.Fprintf(stderr, "strata bench: writing the report: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "report: %s\n", filepath.Join(o.Out, "report.html"))
		fmt.Fprintf(stdout, "summary: %s\n", filepath.Join(o.Out, "summary.md"))
	}
	if runErr != nil {
		fmt.Fprintf(stderr, "strata bench: %v\n", runErr)
		if ctx.Err() != nil {
			return 130
		}
		return 1
	}
	return 0
}

var errHelp = errors.New("help requested")

// reportMain is `strata bench report RESULTS.json [OUTDIR]`: it rewrites
// the report files from a results.json (by default next to it).
func reportMain(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "-h", "--help", "-help", "help":
			fmt.Fprint(stdout, usage)
			return 0
		}
	}
	if len(args) < 1 || len(args) > 2 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	b, err := os.ReadFile(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "strata bench report: %v\n", err)
		return 1
	}
	var res Results
	if err := json.Unmarshal(b, &res); err != nil {
		fmt.Fprintf(stderr, "strata bench report: %s: %v\n", args[0], err)
		return 1
	}
	dir := filepath.Dir(args[0])
	if len(args) == 2 {
		dir = args[1]
	}
	res.Aggs = AggregateSteps(res.Steps)
	if err := WriteReport(dir, &res); err != nil {
		fmt.Fprintf(stderr, "strata bench report: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "report: %s\n", filepath.Join(dir, "report.html"))
	return 0
}

// runner runs one bench invocation.
type runner struct {
	ctx  context.Context
	o    *Options
	log  io.Writer
	in   *installer
	prog *progress
	res  *Results
	work string
	fio  *fioNoise

	mu      sync.Mutex
	servers []*Server
}

func newRunner(ctx context.Context, o *Options, stderr io.Writer) *runner {
	return &runner{
		ctx: ctx, o: o, log: stderr,
		in:  &installer{log: stderr},
		res: &Results{Options: o, Started: time.Now(), Tools: map[string]string{}},
	}
}

// stepPlan is the planned wall time of one step (sysbench start/stop and
// counters on top of --time).
func (r *runner) stepPlan() time.Duration { return r.o.Time + 2*time.Second }

// loadPlan is the planned time to start an engine and load the tables.
func (r *runner) loadPlan() time.Duration {
	return 6*time.Second + time.Duration(r.o.Tables*r.o.TableSize/20000)*time.Second
}

// setup creates the work and results directories, describes the machine
// and starts the progress line.
func (r *runner) setup() error {
	if err := os.MkdirAll(r.o.WorkDir, 0o755); err != nil {
		return fmt.Errorf("work directory: %w", err)
	}
	work, err := os.MkdirTemp(r.o.WorkDir, "strata-bench-")
	if err != nil {
		return fmt.Errorf("work directory: %w", err)
	}
	r.work = work
	r.res.Machine = describeMachine(work)
	if err := os.MkdirAll(filepath.Join(r.o.Out, "raw"), 0o755); err != nil {
		return fmt.Errorf("results directory: %w", err)
	}
	r.prog = newProgress(r.log)
	return nil
}

func (r *runner) run() error {
	o := r.o
	switch o.Workload {
	case "tpch":
		return r.runTPCH()
	case "tpcc":
		return r.runTPCC()
	case "pageviews":
		return r.runPageViews()
	}
	sysbench := o.Workload != "seed" || o.HasSeedLoad("sysbench")
	redmine := o.Workload == "seed" && o.HasSeedLoad("redmine")
	if sysbench {
		if err := r.in.ensure("sysbench", "sysbench", func() bool { _, ok := lookPath("sysbench"); return ok }); err != nil {
			return err
		}
		r.res.Tools["sysbench"] = toolVersion("sysbench", "--version")
	}
	if o.Workload == "seed" {
		if err := r.in.ensure("fio", "fio", func() bool { _, ok := lookPath("fio"); return ok }); err != nil {
			return err
		}
		r.res.Tools["fio"] = toolVersion("fio", "--version")
	}
	if redmine {
		if err := ensureRedmine(r.in); err != nil {
			return err
		}
		r.res.Tools["redmine"] = redmineVersion()
	}
	if err := r.setup(); err != nil {
		return err
	}
	defer r.prog.close()
	cells := len(o.Scripts) * len(o.Threads) * o.Reps
	if o.Workload == "seed" {
		cells *= len(o.Noise)
		r.prog.plan(1, o.Calibrate+3*time.Second)
	}
	if sysbench {
		r.prog.plan(len(o.Engines), r.loadPlan())
		r.prog.plan(len(o.Engines)*cells, r.stepPlan())
	}
	if redmine {
		if !sysbench {
			r.prog.plan(len(o.Engines), engineStartPlan)
		}
		r.prog.plan(len(o.Engines), redmineSetupPlan)
		r.prog.plan(len(o.Engines)*r.redmineCells(), r.redmineStepPlan())
	}
	if o.Conns > 0 {
		r.prog.plan(len(o.Engines)*o.Reps, r.connsPlan())
		// sysbench needs a socket per connection, the engines as many more.
		if lim, err := raiseOpenFiles(uint64(o.Conns)*2 + 512); err != nil {
			r.prog.logf("strata bench: %v", err)
			r.res.Notes = append(r.res.Notes, err.Error())
		} else {
			r.prog.logf("strata bench: open-files limit %d (for %d connections)", lim, o.Conns)
		}
	}
	if o.WACacheBytes > 0 {
		r.prog.plan(len(o.Engines), restartPlan)
		r.prog.plan(len(o.Engines)*o.Reps, r.stepPlan())
	}

	if o.Workload == "seed" {
		if err := r.calibrateNoise(); err != nil {
			return err
		}
	}
	driver := sysbenchLoad{tables: o.Tables, tableSize: o.TableSize}
	var errs []error
	for _, e := range o.Engines {
		run := func() error { return r.runEngine(e, driver, cells) }
		if !sysbench {
			run = func() error { return r.runRedmineOnly(e) }
		}
		if err := run(); err != nil {
			if r.ctx.Err() != nil {
				return fmt.Errorf("interrupted: %w", err)
			}
			r.prog.logf("strata bench: %s: %v", e, err)
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("%s: %v", EngineLabel(e), err))
			errs = append(errs, fmt.Errorf("%s: %w", e, err))
		}
	}
	return errors.Join(errs...)
}

// calibrateNoise measures one unthrottled fio job and resolves the levels.
func (r *runner) calibrateNoise() error {
	r.fio = &fioNoise{file: filepath.Join(r.work, "fio-noise.dat"), size: r.o.FioSize}
	r.prog.begin("fio: measuring the IOPS of one job alone", r.o.Calibrate+3*time.Second)
	iops, err := r.fio.calibrate(r.ctx, r.o.Calibrate)
	r.prog.end()
	if err != nil {
		return fmt.Errorf("fio calibration: %w", err)
	}
	r.res.SoloIOPS = iops
	for _, name := range r.o.Noise {
		n, err := NoisePlan(name, iops)
		if err != nil {
			return err
		}
		r.res.Noise = append(r.res.Noise, n)
	}
	r.prog.logf("fio: one job alone reached %.0f IOPS (50/50 random 4 KiB, %s); 25%% = %d read + %d write IOPS",
		iops, r.fio.ioengine, max(1, int(iops/8+0.5)), max(1, int(iops/8+0.5)))
	return nil
}

// connsScript is the script of the connections step; writeAmpScript and
// writeAmpThreads those of the write-amplification step.
const (
	connsScript     = "oltp_read_only"
	writeAmpScript  = "oltp_update_index"
	writeAmpThreads = 4
)

// engineConfig is the configuration of every engine with cache budget
// cacheBytes.
func (r *runner) engineConfig(cacheBytes int64) EngineConfig {
	cfg := EngineConfig{CacheBytes: cacheBytes, StrataBin: r.o.StrataBin, Isolation: "REPEATABLE-READ"}
	if r.o.Conns > 0 {
		cfg.MaxConnections = r.o.Conns + 32
	}
	return cfg
}

// extraSteps is the number of steps per engine after the grid (the
// connections and write-amplification steps, each --reps times).
func (r *runner) extraSteps() int {
	n := 0
	if r.o.Conns > 0 {
		n += r.o.Reps
	}
	if r.o.WACacheBytes > 0 {
		n += r.o.Reps
	}
	return n
}

// runEngine starts one engine, loads it, runs the grid, the connections
// step and the write-amplification step (after a restart on the same data
// with the small cache) and stops it.
func (r *runner) runEngine(engine string, d Driver, cells int) (err error) {
	o := r.o
	cells += r.extraSteps()
	r.prog.begin(fmt.Sprintf("%s: start and load %d×%d rows", engine, o.Tables, o.TableSize), r.loadPlan())
	s, ei, err := r.startEngine(engine, r.engineConfig(o.CacheBytes))
	if err != nil {
		r.prog.end()
		r.skip(cells)
		return err
	}
	cur := s // the server to stop at the end (replaced by the restart)
	defer func() {
		if serr := r.stopServer(cur); serr != nil && err == nil {
			err = serr
		}
	}()

	var raw []byte
	load := r.measureLoad(s, func() error {
		raw, err = d.Prepare(r.ctx, s)
		return err
	})
	_ = os.WriteFile(filepath.Join(o.Out, "raw", engine+"-prepare.txt"), raw, 0o644)
	r.prog.end()
	if err != nil {
		r.res.Loads = append(r.res.Loads, load)
		r.skip(cells)
		return fmt.Errorf("load: %w\n%s", err, tail(raw, 10))
	}
	li := len(r.res.Loads)
	r.res.Loads = append(r.res.Loads, load)

	noise := []Noise{{Name: ""}}
	if o.Workload == "seed" {
		noise = r.res.Noise
	}
	for _, script := range o.Scripts {
		for _, n := range noise {
			for _, threads := range o.Threads {
				for rep := 1; rep <= o.Reps; rep++ {
					st := Step{Engine: engine, Script: script, Threads: threads, Noise: n.Name, Rep: rep}
					if err := r.runStep(s, d, st, n); err != nil {
						return err
					}
				}
			}
		}
	}
	for rep := 1; o.Conns > 0 && rep <= o.Reps; rep++ {
		st := Step{Engine: engine, Script: connsScript, Threads: o.Conns, Kind: KindConns, Rep: rep}
		if err := r.runStep(s, d, st, Noise{}); err != nil {
			return err
		}
	}
	r.res.Loads[li].DataDirBytesAfter, _ = DiskUsage(s.DataDir, nil)
	r.res.Loads[li].TableBytesAfter, _ = DiskUsage(s.DataDir, s.tableFiles)
	if o.Workload == "seed" && o.HasSeedLoad("redmine") {
		// After the sysbench grid and its size figures, on the same
		// server: Redmine's database is a second schema beside sbtest.
		return r.runRedmine(s)
	}
	if o.WACacheBytes <= 0 {
		return nil
	}
	small, err := r.restart(s, o.WACacheBytes)
	if err != nil {
		r.skip(o.Reps)
		r.res.Steps = append(r.res.Steps, Step{Engine: engine, Script: writeAmpScript, Threads: writeAmpThreads, Kind: KindWriteAmp, Rep: 1,
			CacheBytes: o.WACacheBytes, Error: err.Error()})
		return err
	}
	cur = small
	r.res.Engines[ei].Notes = append(r.res.Engines[ei].Notes, fmt.Sprintf("write-amplification step: restarted on the same data with a %s cache budget (%s as the engine runs it)",
		fmtBytes(float64(o.WACacheBytes)), fmtBytes(float64(small.CacheBytes))))
	for _, n := range applyLimits(small, o.Limits) {
		r.res.Engines[ei].Notes = append(r.res.Engines[ei].Notes, "after the restart: "+n)
	}
	for rep := 1; rep <= o.Reps; rep++ {
		st := Step{Engine: engine, Script: writeAmpScript, Threads: writeAmpThreads, Kind: KindWriteAmp, Rep: rep, CacheBytes: small.CacheBytes, RandType: "uniform"}
		if n, err := d.Rows(r.ctx, small); err != nil {
			r.prog.logf("strata bench: %s: counting rows: %v", engine, err)
		} else {
			st.Rows = n
		}
		st.TableBytes, _ = DiskUsage(small.DataDir, small.tableFiles)
		st.DataDirBytes, _ = DiskUsage(small.DataDir, nil)
		if err := r.runStep(small, d, st, Noise{}); err != nil {
			return err
		}
	}
	return nil
}

// startEngine starts engine in its private directory under the work
// directory with cfg, registers it for cleanup, applies the limits and
// records its configuration; it returns the server and the index of its
// EngineInfo.
func (r *runner) startEngine(engine string, cfg EngineConfig) (*Server, int, error) {
	s, err := StartEngine(r.ctx, engine, filepath.Join(r.work, engine), cfg, r.in)
	if err != nil {
		return nil, -1, fmt.Errorf("start: %w", err)
	}
	r.track(s)
	info := EngineInfo{Engine: engine, Label: EngineLabel(engine), Version: s.Version, Args: s.Args, Settings: s.Settings}
	for _, n := range applyLimits(s, r.o.Limits) {
		info.Notes = append(info.Notes, n)
		r.prog.logf("%s", n)
	}
	r.res.Engines = append(r.res.Engines, info)
	return s, len(r.res.Engines) - 1, nil
}

// measureLoad runs load against s and returns its time, the server's CPU
// and bytes written during it and the on-disk size after it (and its
// error, if any).
func (r *runner) measureLoad(s *Server, load func() error) Load {
	l := Load{Engine: s.Engine}
	before, _ := ReadProcCounters(s.PID())
	t0 := time.Now()
	err := load()
	l.Seconds = time.Since(t0).Seconds()
	if after, cerr := ReadProcCounters(s.PID()); cerr == nil {
		delta := after.Sub(before)
		l.WriteBytes, l.CPUSeconds = delta.WriteBytes, delta.CPUSeconds
	}
	l.DataDirBytes, _ = DiskUsage(s.DataDir, nil)
	l.TableBytes, _ = DiskUsage(s.DataDir, s.tableFiles)
	if err != nil {
		l.Error = err.Error()
	}
	return l
}

// Settling after a load: the server is idle once its CPU stays under
// settleIdle of a core for a second (background flushes, compactions,
// purge and page flushing done), or after settleMax.
const (
	settleIdle = 0.05
	settleMax  = 60 * time.Second
)

// settle waits until s is idle (see settleIdle) and returns how long it
// waited.
func (r *runner) settle(s *Server) time.Duration {
	start := time.Now()
	prev, err := ReadProcCounters(s.PID())
	for err == nil && time.Since(start) < settleMax && r.ctx.Err() == nil {
		time.Sleep(time.Second)
		var cur ProcCounters
		if cur, err = ReadProcCounters(s.PID()); err != nil || cur.Sub(prev).CPUSeconds < settleIdle {
			break
		}
		prev = cur
	}
	return time.Since(start)
}

// restartPlan is the planned time to stop an engine and start it again.
const restartPlan = 15 * time.Second

// restart stops s (keeping its directory) and starts the same engine on
// the same data with cache budget cacheBytes.
func (r *runner) restart(s *Server, cacheBytes int64) (*Server, error) {
	r.prog.begin(fmt.Sprintf("%s: restart with a %s cache", s.Engine, fmtBytes(float64(cacheBytes))), restartPlan)
	defer r.prog.end()
	if err := s.Stop(2 * time.Minute); err != nil {
		r.prog.logf("strata bench: %v (restarting anyway: the engine recovers)", err)
	}
	cfg := r.engineConfig(cacheBytes)
	cfg.Reuse = true
	small, err := StartEngine(r.ctx, s.Engine, s.Dir, cfg, r.in)
	if err != nil {
		return nil, fmt.Errorf("restart with a %s cache: %w", fmtBytes(float64(cacheBytes)), err)
	}
	r.track(small)
	return small, nil
}

// track registers s for cleanup.
func (r *runner) track(s *Server) {
	r.mu.Lock()
	r.servers = append(r.servers, s)
	r.mu.Unlock()
}

// stepLabel names a step in the progress line.
func (r *runner) stepLabel(st Step) string {
	label := fmt.Sprintf("%s %s threads=%d", st.Engine, st.Script, st.Threads)
	switch {
	case st.Noise != "":
		label = fmt.Sprintf("%s %s clients=%d noise=%s", st.Engine, st.Script, st.Threads, st.Noise)
	case st.Kind == KindConns:
		label = fmt.Sprintf("%s %s connections=%d", st.Engine, st.Script, st.Threads)
	case st.Kind == KindWriteAmp:
		label = fmt.Sprintf("%s %s threads=%d cache=%s (write amplification)", st.Engine, st.Script, st.Threads, fmtBytes(float64(st.CacheBytes)))
	}
	if r.o.Reps > 1 {
		label += fmt.Sprintf(" rep %d/%d", st.Rep, r.o.Reps)
	}
	return label
}

// connsPlan is the planned wall time of the connections step: sysbench
// opens and prepares every connection before its clock starts.
func (r *runner) connsPlan() time.Duration {
	return r.stepPlan() + time.Duration(r.o.Conns/50)*time.Second
}

// runStep runs one step (st names it; n is its noise level); it returns an
// error only when the engine cannot go on (it died, or the run was
// interrupted). Failed steps are recorded.
func (r *runner) runStep(s *Server, d Driver, st Step, n Noise) error {
	label := r.stepLabel(st)
	plan := r.stepPlan()
	if st.Kind == KindConns {
		plan = r.connsPlan()
	}
	r.prog.begin(label, plan)
	defer r.prog.end()
	var running *runningNoise
	if n.Jobs > 0 {
		var err error
		if running, err = r.fio.start(n, r.work); err != nil {
			return err
		}
		time.Sleep(time.Second) // let the noise reach its level
	}
	before, cerr := ReadProcCounters(s.PID())
	t0 := time.Now()
	out, raw, err := d.Run(r.ctx, s, st.Script, st.Threads, r.o.Time, RunOptions{Uniform: st.RandType == "uniform"})
	st.Seconds = time.Since(t0).Seconds()
	st.LoadAvg = loadAvg1()
	after, cerr2 := ReadProcCounters(s.PID())
	running.stop()
	name := fmt.Sprintf("%s-%s-t%d", s.Engine, st.Script, st.Threads)
	if n.Name != "" {
		name += "-noise_" + strings.ReplaceAll(n.Name, "%", "pct")
	}
	if st.Kind != KindGrid {
		name += "-" + st.Kind
	}
	_ = os.WriteFile(filepath.Join(r.o.Out, "raw", fmt.Sprintf("%s-r%d.txt", name, st.Rep)), raw, 0o644)
	st.Output = out
	if cerr != nil || cerr2 != nil {
		st.Metrics = ComputeMetrics(out, st.Threads, ProcCounters{})
		st.Error = fmt.Sprintf("server counters unavailable: %v %v", cerr, cerr2)
	} else {
		st.Metrics = ComputeMetrics(out, st.Threads, after.Sub(before))
	}
	if err != nil {
		st.Error = err.Error()
		r.prog.logf("strata bench: %s: %v", label, err)
	}
	r.res.Steps = append(r.res.Steps, st)
	if r.ctx.Err() != nil {
		return r.ctx.Err()
	}
	if s.Exited() {
		return fmt.Errorf("server exited during %s; log tail:\n%s", label, s.LogTail())
	}
	return nil
}

// skip marks n planned steps as not run (keeps the ETA honest).
func (r *runner) skip(n int) {
	r.prog.mu.Lock()
	r.prog.total -= n
	r.prog.planned -= time.Duration(n) * r.stepPlan()
	r.prog.mu.Unlock()
}

// stopServer stops s and removes its directory unless --keep.
func (r *runner) stopServer(s *Server) error {
	err := s.Stop(2 * time.Minute)
	if err != nil {
		r.prog.logf("strata bench: %v", err)
	}
	if !r.o.Keep {
		if rerr := os.RemoveAll(s.Dir); rerr != nil {
			return fmt.Errorf("remove %s: %w", s.Dir, rerr)
		}
	} else {
		r.prog.logf("strata bench: kept %s data directory %s", s.Engine, s.DataDir)
	}
	return err
}

// cleanup stops every engine still running and removes the work directory
// (unless --keep). It runs on every exit path, including Ctrl-C.
func (r *runner) cleanup() {
	r.mu.Lock()
	servers := append([]*Server(nil), r.servers...)
	r.mu.Unlock()
	for _, s := range servers {
		_ = s.Stop(2 * time.Minute)
	}
	if r.work != "" && !r.o.Keep {
		_ = os.RemoveAll(r.work)
	} else if r.work != "" && r.fio != nil {
		_ = os.Remove(r.fio.file)
	}
}

// tail returns the last n lines of b.
func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

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
	case "sysbench", "seed":
	case "report":
		return reportMain(args[1:], stdout, stderr)
	default:
		fmt.Fprintf(stderr, "strata bench: unknown workload %q\n\n%s", args[0], usage)
		return 2
	}
	o, err := parseOptions(args[0], args[1:], stderr)
	if err != nil {
		if !errors.Is(err, errHelp) {
			fmt.Fprintf(stderr, "strata bench: %v\n", err)
		}
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

func (r *runner) run() error {
	o := r.o
	if err := r.in.ensure("sysbench", "sysbench", func() bool { _, ok := lookPath("sysbench"); return ok }); err != nil {
		return err
	}
	if o.Workload == "seed" {
		if err := r.in.ensure("fio", "fio", func() bool { _, ok := lookPath("fio"); return ok }); err != nil {
			return err
		}
		r.res.Tools["fio"] = toolVersion("fio", "--version")
	}
	r.res.Tools["sysbench"] = toolVersion("sysbench", "--version")
	if err := os.MkdirAll(o.WorkDir, 0o755); err != nil {
		return fmt.Errorf("work directory: %w", err)
	}
	work, err := os.MkdirTemp(o.WorkDir, "strata-bench-")
	if err != nil {
		return fmt.Errorf("work directory: %w", err)
	}
	r.work = work
	r.res.Machine = describeMachine(work)
	if err := os.MkdirAll(filepath.Join(o.Out, "raw"), 0o755); err != nil {
		return fmt.Errorf("results directory: %w", err)
	}

	r.prog = newProgress(r.log)
	defer r.prog.close()
	cells := len(o.Scripts) * len(o.Threads) * o.Reps
	if o.Workload == "seed" {
		cells *= len(o.Noise)
		r.prog.plan(1, o.Calibrate+3*time.Second)
	}
	r.prog.plan(len(o.Engines), r.loadPlan())
	r.prog.plan(len(o.Engines)*cells, r.stepPlan())

	if o.Workload == "seed" {
		if err := r.calibrateNoise(); err != nil {
			return err
		}
	}
	driver := sysbenchLoad{tables: o.Tables, tableSize: o.TableSize}
	var errs []error
	for _, e := range o.Engines {
		if err := r.runEngine(e, driver, cells); err != nil {
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

// runEngine starts one engine, loads it, runs every step and stops it.
func (r *runner) runEngine(engine string, d Driver, cells int) (err error) {
	o := r.o
	dir := filepath.Join(r.work, engine)
	r.prog.begin(fmt.Sprintf("%s: start and load %d×%d rows", engine, o.Tables, o.TableSize), r.loadPlan())
	s, err := StartEngine(r.ctx, engine, dir, EngineConfig{CacheBytes: o.CacheBytes, StrataBin: o.StrataBin, Isolation: "REPEATABLE-READ"}, r.in)
	if err != nil {
		r.prog.end()
		r.skip(cells)
		return fmt.Errorf("start: %w", err)
	}
	r.mu.Lock()
	r.servers = append(r.servers, s)
	r.mu.Unlock()
	defer func() {
		if serr := r.stopServer(s); serr != nil && err == nil {
			err = serr
		}
	}()
	info := EngineInfo{Engine: engine, Label: EngineLabel(engine), Version: s.Version, Args: s.Args, Settings: s.Settings}
	for _, n := range applyLimits(s, o.Limits) {
		info.Notes = append(info.Notes, n)
		r.prog.logf("%s", n)
	}
	r.res.Engines = append(r.res.Engines, info)

	load := Load{Engine: engine}
	before, _ := ReadProcCounters(s.PID())
	t0 := time.Now()
	raw, err := d.Prepare(r.ctx, s)
	load.Seconds = time.Since(t0).Seconds()
	_ = os.WriteFile(filepath.Join(o.Out, "raw", engine+"-prepare.txt"), raw, 0o644)
	if after, cerr := ReadProcCounters(s.PID()); cerr == nil {
		delta := after.Sub(before)
		load.WriteBytes, load.CPUSeconds = delta.WriteBytes, delta.CPUSeconds
	}
	load.DataDirBytes, _ = DiskUsage(s.DataDir, nil)
	load.TableBytes, _ = DiskUsage(s.DataDir, s.tableFiles)
	r.prog.end()
	if err != nil {
		load.Error = err.Error()
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
					if err := r.runStep(s, d, script, threads, n, rep); err != nil {
						return err
					}
				}
			}
		}
	}
	r.res.Loads[li].DataDirBytesAfter, _ = DiskUsage(s.DataDir, nil)
	r.res.Loads[li].TableBytesAfter, _ = DiskUsage(s.DataDir, s.tableFiles)
	return nil
}

// runStep runs one step; it returns an error only when the engine cannot go
// on (it died, or the run was interrupted). Failed steps are recorded.
func (r *runner) runStep(s *Server, d Driver, script string, threads int, n Noise, rep int) error {
	label := fmt.Sprintf("%s %s threads=%d", s.Engine, script, threads)
	if n.Name != "" {
		label = fmt.Sprintf("%s %s clients=%d noise=%s", s.Engine, script, threads, n.Name)
	}
	if r.o.Reps > 1 {
		label += fmt.Sprintf(" rep %d/%d", rep, r.o.Reps)
	}
	r.prog.begin(label, r.stepPlan())
	defer r.prog.end()
	st := Step{Engine: s.Engine, Script: script, Threads: threads, Noise: n.Name, Rep: rep}
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
	out, raw, err := d.Run(r.ctx, s, script, threads, r.o.Time)
	st.Seconds = time.Since(t0).Seconds()
	st.LoadAvg = loadAvg1()
	after, cerr2 := ReadProcCounters(s.PID())
	running.stop()
	name := fmt.Sprintf("%s-%s-t%d", s.Engine, script, threads)
	if n.Name != "" {
		name += "-noise_" + strings.ReplaceAll(n.Name, "%", "pct")
	}
	_ = os.WriteFile(filepath.Join(r.o.Out, "raw", fmt.Sprintf("%s-r%d.txt", name, rep)), raw, 0o644)
	st.Output = out
	if cerr != nil || cerr2 != nil {
		st.Metrics = ComputeMetrics(out, threads, ProcCounters{})
		st.Error = fmt.Sprintf("server counters unavailable: %v %v", cerr, cerr2)
	} else {
		st.Metrics = ComputeMetrics(out, threads, after.Sub(before))
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
		return fmt.Errorf("server exited during %s; log tail:\n%s", label, s.LogTail(20))
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

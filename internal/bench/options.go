package bench

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/strata-db/strata/internal/bench/tpch"
)

// SysbenchScripts are the eight oltp_* scripts of Debian's sysbench, in the
// order they run (read-only first; insert and delete change the tables).
var SysbenchScripts = []string{
	"oltp_point_select", "oltp_read_only", "oltp_read_write", "oltp_write_only",
	"oltp_update_index", "oltp_update_non_index", "oltp_insert", "oltp_delete",
}

// SeedScripts are the write-heavy scripts the seed workload runs.
var SeedScripts = []string{"oltp_update_index", "oltp_write_only"}

// SeedLoads are the loads of the seed workload: sysbench's write-heavy
// scripts and Redmine's two operations through its REST API.
var SeedLoads = []string{"sysbench", "redmine"}

// Workloads are the workloads of `strata bench`.
var Workloads = []string{"sysbench", "seed", "tpch", "tpcc", "pageviews"}

// Options are the flags of `strata bench <workload>`.
type Options struct {
	Workload   string        `json:"workload"` // one of Workloads
	Engines    []string      `json:"engines"`
	Out        string        `json:"out"`
	Quick      bool          `json:"quick"`
	Keep       bool          `json:"keep"`
	CacheBytes int64         `json:"cache_bytes"`
	Reps       int           `json:"reps"`
	Tables     int           `json:"tables"`
	TableSize  int           `json:"table_size"`
	Threads    []int         `json:"threads"` // sysbench: thread counts; seed: parallel clients
	Time       time.Duration `json:"time"`
	Scripts    []string      `json:"scripts"`
	// Conns is the connection count of the connections step (oltp_read_only
	// after the grid); 0 skips it. Sysbench only.
	Conns int `json:"conns,omitempty"`
	// WACacheBytes is the cache budget of the write-amplification step
	// (engines restarted on the same data, oltp_update_index at 4 threads);
	// 0 skips it. Sysbench only.
	WACacheBytes int64         `json:"wa_cache_bytes,omitempty"`
	Noise        []string      `json:"noise,omitempty"`      // seed only
	SeedLoads    []string      `json:"seed_loads,omitempty"` // seed only: SeedLoads, default both
	Limits       Limits        `json:"limits"`
	StrataBin    string        `json:"strata_bin,omitempty"`
	WorkDir      string        `json:"workdir"`
	Calibrate    time.Duration `json:"fio_calibrate"`
	FioSize      string        `json:"fio_size"`

	// Seed seeds the data generators and the TPC-C terminals (tpch, tpcc).
	Seed uint64 `json:"seed,omitempty"`
	// QueryTimeout bounds each TPC-H query and each TPC-C consistency
	// check (KILL QUERY after it).
	QueryTimeout time.Duration `json:"query_timeout,omitempty"`
	// LoadWorkers is the number of connections loading data (tpch, tpcc).
	LoadWorkers int `json:"load_workers,omitempty"`
	// ScaleFactor is TPC-H's SF (tpch).
	ScaleFactor float64 `json:"scale_factor,omitempty"`
	// Queries are the TPC-H queries to run (tpch; default all 22).
	Queries []int `json:"queries,omitempty"`
	// Warehouses is TPC-C's W (tpcc); the terminals are Threads[0].
	Warehouses int `json:"warehouses,omitempty"`
	// PVSize is the size of the generated page_views.csv (pageviews).
	PVSize int64 `json:"pv_size,omitempty"`
}

const usage = `strata bench — measure strata side by side with MariaDB InnoDB and MariaDB MyRocks

Usage:
  strata bench sysbench [flags]   the eight sysbench oltp_* scripts at each thread count,
                                  then oltp_read_only at --conns connections and
                                  oltp_update_index with a small cache (--wa-cache-mb)
  strata bench seed [flags]       the MyRocks seed study: parallel clients × disk noise
  strata bench tpch [flags]       TPC-H: generate and load the data, run the 22 queries on
                                  every engine, compare the results with InnoDB's
  strata bench tpcc [flags]       TPC-C: load W warehouses, run the transaction mix for
                                  --time, report tpmC and latencies, check consistency
  strata bench pageviews [flags]  the seed's bulk-load workflow: generate a page_views CSV,
                                  LOAD DATA it into a table with only its primary key,
                                  ADD INDEX ×3, COUNT(*), a join + ORDER BY … DESC LIMIT 10
                                  cold (after a restart) and warm
  strata bench report RESULTS.json [DIR]
                                  rewrite the report files from a results.json

A default sysbench run took 27 minutes on a 2-core VM (per engine: load 1M rows,
8 scripts × 4 thread counts × 15 s, the connections step and the write-amplification
step); the sysbench part of a default seed run about 47 minutes (32 with --time 20), the
Redmine part comes on top; --quick runs in minutes.

Common flags:
  --engines LIST      engines to compare (default strata,innodb,myrocks;
                      tpch and tpcc: strata,innodb)
  --out DIR           results directory (default ./bench-out-<timestamp>)
  --quick             a short run (1 table × 10k rows, 8 s per step, reduced grid;
                      tpch: SF 0.01; tpcc: 1 warehouse, 20 s)
  --cache-mb N        cache budget per engine in MiB: strata's block cache
                      (--memory 4×N), innodb_buffer_pool_size,
                      rocksdb_block_cache_size (default 128)
  --tables N          sysbench tables (default sysbench 10, seed 8; quick 1)
  --table-size N      rows per table (default 100000; quick 10000)
  --time S            seconds per step (default sysbench 15, seed 30; quick 8)
  --scripts LIST      sysbench scripts (default: all eight / seed: oltp_update_index,oltp_write_only)
  --reps N            repetitions of every step; reports min/median/max (default 1)
  --keep              keep the engines' data directories
  --mem-limit SIZE    cgroup memory limit on each engine process, e.g. 1G (default none)
  --hdd-iops N        throttle each engine's read and write IOPS on the data disk (default none)
  --strata-bin PATH   strata binary to benchmark (default: this executable)
  --workdir DIR       where private data directories go (default $TMPDIR)

sysbench flags:
  --threads LIST      client threads (default 1,2,4,16; quick 4)
  --conns N           after the grid, oltp_read_only at N connections, compared with
                      the engine's own best oltp_read_only QPS (default 1024; quick 64;
                      0 skips the step)
  --wa-cache-mb N     then restart each engine on the same data with an N MiB cache and
                      run oltp_update_index at 4 threads, measuring bytes written per
                      transaction (default 16; quick 8; 0 skips the step)

seed flags:
  --clients LIST      parallel clients (default 1,2,4; quick 1,4)
  --noise LIST        disk noise levels (default none,25%,x1,x2,x4; quick none,x1)
  --loads LIST        loads under noise (default sysbench,redmine): sysbench's scripts,
                      and Redmine 5 (Debian's package, puma 2 workers × 2 threads) on each
                      engine driven through its REST API: create an issue + assign +
                      10 comments; move 10 issues In Progress → Resolved, reassigned
  --fio-calibrate S   seconds of the solo fio run that sizes "25%" (default 5)
  --fio-size SIZE     size of the fio noise file (default 1G; quick 256M)

tpch flags:
  --scale SF          TPC-H scale factor (default 0.1 ≈ 100 MB of data, 866k rows;
                      quick 0.01; at least 0.01)
  --queries LIST      queries to run, e.g. 1,3,6 (default all 22)
  --query-timeout S   seconds before a query is stopped with KILL QUERY (default 300)
  --reps N            runs of every query; the report shows the median

tpcc flags:
  --warehouses N      warehouses (default 2; quick 1), TPC-C's full size per warehouse
  --threads N         terminals (default 4)
  --time S            seconds of the timed run (default 60; quick 20)
  --query-timeout S   seconds allowed to each consistency check (default 300)

tpch and tpcc flags:
  --seed N            seed of the data generator and terminals (default 1)
  --load-workers N    connections inserting the data (default 2)

pageviews flags:
  --size SIZE         size of the generated page_views.csv, e.g. 300M, 2G, 90G
                      (default 2G ≈ 9M rows, for a 2-core VM; quick 4M)
  --reps N            warm runs of the join query after the cold one (default 5)
  --seed N            seed of the data generator (default 1)
  --query-timeout S   seconds allowed to each query (default 600)
`

// parseOptions parses the flags of workload.
func parseOptions(workload string, args []string, stderr io.Writer) (*Options, error) {
	fs := flag.NewFlagSet("bench "+workload, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // Main prints the usage: to stdout for --help, stderr on errors
	engines := fs.String("engines", strings.Join(AllEngines, ","), "")
	out := fs.String("out", "", "")
	quick := fs.Bool("quick", false, "")
	keep := fs.Bool("keep", false, "")
	cacheMB := fs.Int64("cache-mb", 128, "")
	reps := fs.Int("reps", 1, "")
	tables := fs.Int("tables", 10, "")
	tableSize := fs.Int("table-size", 100000, "")
	timeS := fs.Int("time", 15, "")
	scripts := fs.String("scripts", "", "")
	memLimit := fs.String("mem-limit", "", "")
	hddIOPS := fs.Int("hdd-iops", 0, "")
	strataBin := fs.String("strata-bin", "", "")
	workdir := fs.String("workdir", os.TempDir(), "")
	var threads, clients, noise, load, queries *string
	var calib, conns, waCacheMB, warehouses, queryTimeout, loadWorkers *int
	var fioSize, pvSize *string
	var scale *float64
	var seed *uint64
	switch workload {
	case "sysbench":
		threads = fs.String("threads", "1,2,4,16", "")
		conns = fs.Int("conns", 1024, "")
		waCacheMB = fs.Int("wa-cache-mb", 16, "")
	case "seed":
		clients = fs.String("clients", "1,2,4", "")
		noise = fs.String("noise", strings.Join(NoiseLevels, ","), "")
		load = fs.String("loads", strings.Join(SeedLoads, ","), "")
		calib = fs.Int("fio-calibrate", 5, "")
		fioSize = fs.String("fio-size", "1G", "")
	case "pageviews":
		seed = fs.Uint64("seed", 1, "")
		queryTimeout = fs.Int("query-timeout", 600, "")
		pvSize = fs.String("size", "2G", "")
	case "tpch", "tpcc":
		seed = fs.Uint64("seed", 1, "")
		queryTimeout = fs.Int("query-timeout", 300, "")
		loadWorkers = fs.Int("load-workers", 2, "")
		if workload == "tpch" {
			scale = fs.Float64("scale", 0.1, "")
			queries = fs.String("queries", "", "")
		} else {
			warehouses = fs.Int("warehouses", 2, "")
			threads = fs.String("threads", "4", "")
		}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, errHelp
		}
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	o := &Options{Workload: workload, Quick: *quick, Keep: *keep, Reps: *reps, StrataBin: *strataBin, WorkDir: *workdir}
	o.CacheBytes = *cacheMB << 20
	o.Tables, o.TableSize = *tables, *tableSize
	o.Time = time.Duration(*timeS) * time.Second
	if workload == "seed" && !set["time"] {
		o.Time = 30 * time.Second
	}
	if workload == "seed" && !set["tables"] {
		o.Tables = 8
	}
	if o.Quick {
		if !set["tables"] {
			o.Tables = 1
		}
		if !set["table-size"] {
			o.TableSize = 10000
		}
		if !set["time"] {
			o.Time = 8 * time.Second
		}
	}
	var err error
	if o.Engines, err = parseEngines(*engines); err != nil {
		return nil, err
	}
	o.Out = *out
	if o.Out == "" {
		o.Out = "bench-out-" + time.Now().Format("20060102-150405")
	}
	if o.Out, err = filepath.Abs(o.Out); err != nil {
		return nil, err
	}
	if *memLimit != "" {
		if o.Limits.MemBytes, err = parseSize(*memLimit); err != nil {
			return nil, fmt.Errorf("--mem-limit: %w", err)
		}
	}
	o.Limits.IOPS = *hddIOPS
	if o.Reps < 1 || o.Tables < 1 || o.TableSize < 1 || o.Time < time.Second || o.CacheBytes <= 0 {
		return nil, fmt.Errorf("--reps, --tables, --table-size, --time and --cache-mb must be positive")
	}
	if workload == "pageviews" {
		return o, parsePageViewsOptions(o, set, *seed, *queryTimeout, *pvSize)
	}
	if workload == "tpch" || workload == "tpcc" {
		if !set["engines"] {
			o.Engines = []string{EngineStrata, EngineInnoDB}
		}
		return o, parseTPCOptions(o, set, tpcFlags{seed, queryTimeout, loadWorkers, scale, queries, warehouses, threads})
	}

	defScripts := SysbenchScripts
	if workload == "sysbench" {
		list := *threads
		if o.Quick && !set["threads"] {
			list = "4"
		}
		if o.Threads, err = parseInts(list); err != nil {
			return nil, fmt.Errorf("--threads: %w", err)
		}
		o.Conns, o.WACacheBytes = *conns, int64(*waCacheMB)<<20
		if o.Quick && !set["conns"] {
			o.Conns = 64
		}
		if o.Quick && !set["wa-cache-mb"] {
			o.WACacheBytes = 8 << 20
		}
		if o.Conns < 0 || o.WACacheBytes < 0 {
			return nil, fmt.Errorf("--conns and --wa-cache-mb must not be negative")
		}
	} else {
		defScripts = SeedScripts
		cl, nz := *clients, *noise
		if o.Quick && !set["clients"] {
			cl = "1,4"
		}
		if o.Quick && !set["noise"] {
			nz = "none,x1"
		}
		if o.Threads, err = parseInts(cl); err != nil {
			return nil, fmt.Errorf("--clients: %w", err)
		}
		o.Noise = splitList(nz)
		for _, n := range o.Noise {
			if _, err := NoisePlan(n, 1); err != nil {
				return nil, err
			}
		}
		for _, l := range splitList(strings.ToLower(*load)) {
			switch l {
			case "sysbench", "redmine":
				if !o.HasSeedLoad(l) {
					o.SeedLoads = append(o.SeedLoads, l)
				}
			default:
				return nil, fmt.Errorf("--loads: unknown load %q (want sysbench, redmine)", l)
			}
		}
		if len(o.SeedLoads) == 0 {
			return nil, fmt.Errorf("--loads: empty list")
		}
		o.Calibrate = time.Duration(*calib) * time.Second
		o.FioSize = *fioSize
		if o.Quick && !set["fio-size"] {
			o.FioSize = "256M"
		}
	}
	o.Scripts = defScripts
	if *scripts != "" {
		o.Scripts = splitList(*scripts)
	}
	for i, s := range o.Scripts {
		s = strings.TrimSuffix(s, ".lua")
		if !strings.HasPrefix(s, "oltp_") {
			s = "oltp_" + s
		}
		o.Scripts[i] = s
	}
	return o, nil
}

// HasSeedLoad reports whether the seed run includes load ("sysbench" or
// "redmine").
func (o *Options) HasSeedLoad(load string) bool {
	for _, l := range o.SeedLoads {
		if l == load {
			return true
		}
	}
	return false
}

// parsePageViewsOptions fills the pageviews options in o (set tells
// which flags were given).
func parsePageViewsOptions(o *Options, set map[string]bool, seed uint64, queryTimeout int, size string) error {
	o.Seed, o.QueryTimeout = seed, time.Duration(queryTimeout)*time.Second
	if o.QueryTimeout <= 0 {
		return fmt.Errorf("--query-timeout must be positive")
	}
	if o.Quick && !set["size"] {
		size = "4M"
	}
	n, err := parseSize(size)
	if err != nil {
		return fmt.Errorf("--size: %w", err)
	}
	if n < 64<<10 {
		return fmt.Errorf("--size %s: want at least 64K", size)
	}
	o.PVSize = n
	if !set["reps"] {
		o.Reps = 5
	}
	return nil
}

// tpcFlags are the values of the tpch and tpcc flags.
type tpcFlags struct {
	seed                      *uint64
	queryTimeout, loadWorkers *int
	scale                     *float64
	queries                   *string
	warehouses                *int
	threads                   *string
}

// parseTPCOptions fills the tpch and tpcc options in o from the flags
// (set tells which were given).
func parseTPCOptions(o *Options, set map[string]bool, f tpcFlags) error {
	o.Seed, o.QueryTimeout, o.LoadWorkers = *f.seed, time.Duration(*f.queryTimeout)*time.Second, *f.loadWorkers
	if o.QueryTimeout <= 0 || o.LoadWorkers < 1 {
		return fmt.Errorf("--query-timeout and --load-workers must be positive")
	}
	if o.Workload == "tpch" {
		o.ScaleFactor = *f.scale
		if o.Quick && !set["scale"] {
			o.ScaleFactor = 0.01
		}
		if o.ScaleFactor < tpch.MinScale || o.ScaleFactor > 1000 {
			return fmt.Errorf("--scale %v: want %v to 1000", o.ScaleFactor, tpch.MinScale)
		}
		if *f.queries == "" {
			for n := 1; n <= 22; n++ {
				o.Queries = append(o.Queries, n)
			}
			return nil
		}
		qs, err := parseInts(strings.ReplaceAll(strings.ToUpper(*f.queries), "Q", ""))
		if err != nil {
			return fmt.Errorf("--queries: %w", err)
		}
		for _, n := range qs {
			if n > 22 {
				return fmt.Errorf("--queries: there is no Q%d (1–22)", n)
			}
		}
		o.Queries = qs
		return nil
	}
	o.Warehouses = *f.warehouses
	if !set["time"] {
		o.Time = 60 * time.Second
		if o.Quick {
			o.Time = 20 * time.Second
		}
	}
	if o.Quick && !set["warehouses"] {
		o.Warehouses = 1
	}
	threads, err := parseInts(*f.threads)
	if err != nil || len(threads) != 1 {
		return fmt.Errorf("--threads: want one positive number of terminals")
	}
	o.Threads = threads
	if o.Warehouses < 1 {
		return fmt.Errorf("--warehouses must be positive")
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty list")
	}
	return out, nil
}

func parseEngines(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, e := range splitList(strings.ToLower(s)) {
		switch e {
		case EngineStrata, EngineInnoDB, EngineMyRocks:
		default:
			return nil, fmt.Errorf("--engines: unknown engine %q (want strata, innodb, myrocks)", e)
		}
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--engines: empty list")
	}
	// Keep the canonical order so strata, the reference, comes first.
	var ordered []string
	for _, e := range AllEngines {
		if seen[e] {
			ordered = append(ordered, e)
		}
	}
	return ordered, nil
}

// parseSize parses a byte count with an optional K/M/G/T suffix (powers of
// 1024; a trailing B or iB is allowed).
func parseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return int64(v * float64(mult)), nil
}

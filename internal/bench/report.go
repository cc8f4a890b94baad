package bench

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// WriteReport writes the results directory: results.json, loads.csv,
// steps.csv, samples.csv, aggregates.csv (tpch: tpch.csv instead of the
// last three; tpcc: tpcc.csv), charts/*.svg, summary.md and a
// self-contained report.html.
func WriteReport(dir string, res *Results) error {
	if err := os.MkdirAll(filepath.Join(dir, "charts"), 0o755); err != nil {
		return fmt.Errorf("create results directory: %w", err)
	}
	if res.Aggs == nil {
		res.Aggs = AggregateSteps(res.Steps)
	}
	b, err := json.MarshalIndent(res, "", " ")
	if err != nil {
		return fmt.Errorf("encode results: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), b, 0o644); err != nil {
		return fmt.Errorf("write results.json: %w", err)
	}
	if err := writeCSVs(dir, res); err != nil {
		return err
	}
	doc := buildDoc(res)
	for _, bl := range doc {
		if bl.Chart != nil {
			if err := os.WriteFile(filepath.Join(dir, "charts", bl.Chart.Name+".svg"), []byte(bl.Chart.SVG), 0o644); err != nil {
				return fmt.Errorf("write chart: %w", err)
			}
		}
	}
	if err := writeFile(filepath.Join(dir, "summary.md"), func(w io.Writer) { renderMarkdown(w, doc) }); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, "report.html"), func(w io.Writer) { renderHTML(w, doc) })
}

func writeFile(path string, f func(io.Writer)) error {
	fh, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	w := bufio.NewWriter(fh)
	f(w)
	if err := w.Flush(); err != nil {
		fh.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return fh.Close()
}

func writeCSVs(dir string, res *Results) error {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	var loads [][]string
	loads = append(loads, []string{"engine", "load_seconds", "datadir_bytes", "table_bytes", "datadir_bytes_after_run", "table_bytes_after_run", "load_write_bytes", "load_cpu_seconds", "error"})
	for _, l := range res.Loads {
		loads = append(loads, []string{l.Engine, f(l.Seconds), i(l.DataDirBytes), i(l.TableBytes), i(l.DataDirBytesAfter), i(l.TableBytesAfter), i(l.WriteBytes), f(l.CPUSeconds), l.Error})
	}
	steps := [][]string{{"engine", "script", "threads", "noise", "rep", "tps", "qps", "lat_mean_ms", "lat_p95_ms", "lat_p99_ms",
		"cpu_ms_per_txn", "write_bytes_per_txn", "transactions", "ignored_errors", "reconnects", "errors", "sysbench_tps", "sysbench_lat_avg_ms", "sysbench_lat_p95_ms", "sysbench_lat_max_ms", "error", "kind", "cache_bytes", "table_bytes_before"}}
	samples := [][]string{{"engine", "script", "threads", "noise", "rep", "t", "tps", "qps", "reads_ps", "writes_ps", "other_ps", "lat_p95_ms", "err_ps", "reconn_ps", "kind"}}
	for _, s := range res.Steps {
		m := s.Metrics
		var sum Summary
		if s.Output != nil {
			sum = s.Output.Summary
			for _, x := range s.Output.Samples {
				samples = append(samples, []string{s.Engine, s.Script, strconv.Itoa(s.Threads), s.Noise, strconv.Itoa(s.Rep),
					f(x.T), f(x.TPS), f(x.QPS), f(x.Reads), f(x.Writes), f(x.Other), f(x.LatPct), f(x.ErrPS), f(x.ReconnPS), s.Kind})
			}
		}
		steps = append(steps, []string{s.Engine, s.Script, strconv.Itoa(s.Threads), s.Noise, strconv.Itoa(s.Rep), f(m.TPS), f(m.QPS), f(m.LatMean), f(m.LatP95), f(m.LatP99),
			f(m.CPUPerTxn * 1000), f(m.WriteBytesPerTxn), i(m.Transactions), i(m.IgnoredErrors), i(m.Reconnects), strconv.Itoa(m.Errors),
			f(sum.TPS), f(sum.LatAvg), f(sum.LatPct), f(sum.LatMax), s.Error, s.Kind, i(s.CacheBytes), i(s.TableBytes)})
	}
	aggs := [][]string{{"engine", "script", "threads", "noise", "reps", "failed", "tps_min", "tps_median", "tps_max", "qps_median", "lat_mean_ms_median",
		"lat_p95_ms_min", "lat_p95_ms_median", "lat_p95_ms_max", "lat_p99_ms_median", "cpu_ms_per_txn_median", "write_bytes_per_txn_median", "ignored_errors", "reconnects", "errors", "kind"}}
	for _, a := range res.Aggs {
		aggs = append(aggs, []string{a.Engine, a.Script, strconv.Itoa(a.Threads), a.Noise, strconv.Itoa(a.Reps), strconv.Itoa(a.Failed),
			f(a.TPS.Min), f(a.TPS.Median), f(a.TPS.Max), f(a.QPS.Median), f(a.LatMean.Median), f(a.LatP95.Min), f(a.LatP95.Median), f(a.LatP95.Max),
			f(a.LatP99.Median), f(a.CPUPerTxn.Median * 1000), f(a.WriteBytesPerTxn.Median), i(a.IgnoredErrors), i(a.Reconnects), strconv.Itoa(a.Errors), a.Kind})
	}
	files := map[string][][]string{"loads.csv": loads}
	if len(res.PageViewsRuns) > 0 {
		files["pageviews.csv"] = pageViewsCSV(res)
	}
	for name, rows := range redmineCSVs(res) {
		files[name] = rows
	}
	if len(res.TPCH) == 0 && len(res.TPCC) == 0 && res.PageViews == nil { // sysbench steps
		files["steps.csv"], files["samples.csv"], files["aggregates.csv"] = steps, samples, aggs
	}
	if len(res.TPCH) > 0 {
		q := [][]string{{"engine", "query", "name", "status", "seconds", "cpu_seconds", "result_rows", "match", "error", "diff"}}
		for _, run := range res.TPCH {
			for _, x := range run.Queries {
				q = append(q, []string{run.Engine, strconv.Itoa(x.N), x.Name, x.Status, f(x.Seconds), f(x.CPUSeconds), strconv.Itoa(x.ResultRows), x.Match, x.Error, x.Diff})
			}
		}
		files["tpch.csv"] = q
	}
	if len(res.TPCC) > 0 {
		tx := [][]string{{"engine", "transaction", "count", "retries", "per_minute", "lat_mean_ms", "lat_p50_ms", "lat_p95_ms", "lat_p99_ms", "lat_max_ms", "run_tpmc"}}
		for _, run := range res.TPCC {
			for _, x := range run.Tx {
				tx = append(tx, []string{run.Engine, x.Name, strconv.Itoa(x.Count), strconv.Itoa(x.Retries), f(x.PerMinute), f(x.LatMean), f(x.LatP50), f(x.LatP95), f(x.LatP99), f(x.LatMax), f(run.TpmC)})
			}
		}
		files["tpcc.csv"] = tx
	}
	for name, rows := range files {
		err := writeFile(filepath.Join(dir, name), func(w io.Writer) {
			cw := csv.NewWriter(w)
			_ = cw.WriteAll(rows)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// block is one piece of the report document.
type block struct {
	Heading string // "## ..." when set
	Level   int
	Text    string   // a paragraph
	Bullets []string // a list
	Table   *table
	Chart   *chart
}

// chart is an SVG chart with its file name (without .svg).
type chart struct {
	Name, Title, SVG string
}

// metric describes one figure in the report tables.
type metric struct {
	key, title    string
	get           func(*Aggregate) Spread
	scale         float64
	higherBetter  bool
	worse, better string
}

var metrics = []metric{
	{"tps", "Throughput (transactions/s)", func(a *Aggregate) Spread { return a.TPS }, 1, true, "slower", "faster"},
	{"qps", "Throughput (queries/s)", func(a *Aggregate) Spread { return a.QPS }, 1, true, "slower", "faster"},
	{"lat_mean", "Mean latency (ms)", func(a *Aggregate) Spread { return a.LatMean }, 1, false, "slower", "faster"},
	{"lat_p95", "95th percentile latency (ms)", func(a *Aggregate) Spread { return a.LatP95 }, 1, false, "slower", "faster"},
	{"lat_p99", "99th percentile latency (ms)", func(a *Aggregate) Spread { return a.LatP99 }, 1, false, "slower", "faster"},
	{"cpu", "Server CPU per transaction (ms)", func(a *Aggregate) Spread { return a.CPUPerTxn }, 1000, false, "more", "less"},
	{"wb", "Bytes written per transaction (KiB)", func(a *Aggregate) Spread { return a.WriteBytesPerTxn }, 1.0 / 1024, false, "more", "less"},
}

func metricByKey(k string) metric {
	for _, m := range metrics {
		if m.key == k {
			return m
		}
	}
	panic("unknown metric " + k)
}

// fmtSpread renders a median, with (min–max) when there were several reps.
func fmtSpread(s Spread, scale float64) string {
	if s.N == 0 {
		return "—"
	}
	v := fmtNum(s.Median * scale)
	if s.N > 1 {
		v += fmt.Sprintf(" (%s–%s)", fmtNum(s.Min*scale), fmtNum(s.Max*scale))
	}
	return v
}

// rowKey is one row of the metric tables: a script at a thread count (and
// noise level).
type rowKey struct {
	Script  string
	Threads int
	Noise   string
}

func (r *Results) rowKeys() []rowKey {
	var out []rowKey
	seen := map[rowKey]bool{}
	for _, s := range r.gridSteps() {
		k := rowKey{s.Script, s.Threads, s.Noise}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

func (r *Results) isSeed() bool {
	return r.Options != nil && r.Options.Workload == "seed"
}

// metricTable builds the study-shaped table of one metric: the reference
// engine's figure, then each peer's figure and how it compares.
func (r *Results) metricTable(m metric, rows []rowKey) *table {
	engines := r.engineList()
	idx := index(r.Aggs)
	t := &table{Header: []string{"script"}}
	seed := r.isSeed()
	if seed {
		t.Header = append(t.Header, "noise", "clients")
	} else {
		t.Header = append(t.Header, "threads")
	}
	ref := engines[0]
	for i, e := range engines {
		t.Header = append(t.Header, EngineLabel(e))
		if i > 0 {
			t.Header = append(t.Header, "vs "+EngineLabel(ref))
		}
	}
	for _, rk := range rows {
		row := []string{rk.Script}
		if seed {
			row = append(row, rk.Noise, strconv.Itoa(rk.Threads))
		} else {
			row = append(row, strconv.Itoa(rk.Threads))
		}
		row = m.engineCells(row, engines, func(e string) *Aggregate {
			return idx[CellKey{Engine: e, Script: rk.Script, Threads: rk.Threads, Noise: rk.Noise}]
		})
		t.Rows = append(t.Rows, row)
	}
	return t
}

// engineCells appends to row each engine's figure of m (agg gives its
// aggregate, nil when it has none) and, after each engine but the first,
// how it compares with the first.
func (m metric) engineCells(row []string, engines []string, agg func(engine string) *Aggregate) []string {
	var refV float64
	for i, e := range engines {
		a := agg(e)
		if a == nil {
			row = append(row, "—")
			if i > 0 {
				row = append(row, "n/a")
			}
			continue
		}
		sp := m.get(a)
		cell := fmtSpread(sp, m.scale)
		if a.Failed > 0 {
			cell += fmt.Sprintf(" (%d failed)", a.Failed)
		}
		row = append(row, cell)
		if i == 0 {
			refV = sp.Median
		} else {
			ratio := "n/a"
			if sp.N > 0 {
				ratio = Ratio(refV, sp.Median, m.higherBetter, m.worse, m.better)
			}
			row = append(row, ratio)
		}
	}
	return row
}

// introBlocks are the report's title and the paragraph naming the
// command, its time and the engines; ratios says how they are compared.
func introBlocks(r *Results, title, ratios string) []block {
	var labels []string
	for _, e := range r.engineList() {
		labels = append(labels, EngineLabel(e))
	}
	if len(labels) == 0 {
		labels = []string{"none"}
	}
	dur := r.Finished.Sub(r.Started)
	if r.Finished.IsZero() {
		dur = 0
	}
	return []block{{Heading: title, Level: 1}, {Text: fmt.Sprintf("Command: `%s`. Started %s, took %s. Engines: %s; %s",
		r.Command, r.Started.Format(time.RFC3339), fmtDuration(dur), strings.Join(labels, ", "), ratios)}}
}

// buildDoc assembles the report.
func buildDoc(r *Results) []block {
	if r.Options != nil {
		switch r.Options.Workload {
		case "tpch":
			return tpchDoc(r)
		case "tpcc":
			return tpccDoc(r)
		case "pageviews":
			return pageViewsDoc(r)
		}
	}
	title := "strata bench: sysbench"
	if r.isSeed() {
		title = "strata bench: seed study (parallel clients × disk noise)"
	}
	engines := r.engineList()
	d := introBlocks(r, title, fmt.Sprintf("ratios compare each peer with %s (“2.00× slower” = half the throughput or twice the latency; “more”/“less” for costs).", EngineLabel(engines[0])))
	if o := r.Options; o != nil {
		p := fmt.Sprintf("Data: %d table(s) × %d rows; %s per step; %d repetition(s); cache budget %s per engine.",
			o.Tables, o.TableSize, o.Time, o.Reps, fmtBytes(float64(o.CacheBytes)))
		if o.Workload == "seed" && len(o.SeedLoads) > 0 {
			p += " Loads: " + strings.Join(o.SeedLoads, ", ") + " (Redmine: see its section)."
		}
		if o.Quick {
			p = "**Quick run** (reduced data, steps and grid; figures are indicative only). " + p
		}
		if o.Workload == "sysbench" && o.Conns > 0 {
			p += fmt.Sprintf(" After the grid: %s at %d connections.", connsScript, o.Conns)
		}
		if o.Workload == "sysbench" && o.WACacheBytes > 0 {
			p += fmt.Sprintf(" Last: %s at %d threads after a restart on the same data with a %s cache budget.", writeAmpScript, writeAmpThreads, fmtBytes(float64(o.WACacheBytes)))
		}
		d = append(d, block{Text: p})
	}
	d = append(d, goalsBlocks(r)...)
	d = append(d, setupBlocks(r)...)
	d = append(d, loadBlocks(r)...)
	rows := r.rowKeys()
	if len(rows) > 0 {
		d = append(d, block{Heading: "Results", Level: 2, Text: "Throughput and p95 latency are trimmed means of sysbench’s per-second reports (first and last 10 % of the seconds dropped); mean latency is client threads ÷ trimmed TPS (Little’s law; sysbench clients have no think time); p99 is from sysbench’s latency histogram of the whole run. CPU and bytes written are the server process’s /proc/PID/stat utime+stime and /proc/PID/io write_bytes over the step ÷ transactions (background flushes and compactions are charged to the step in which they run)."})
		for _, key := range []string{"tps", "lat_p95", "lat_mean", "lat_p99", "qps", "cpu", "wb"} {
			d = append(d, block{Heading: metricByKey(key).title, Level: 3, Table: r.metricTable(metricByKey(key), rows)})
		}
		d = append(d, errorBlock(r))
	}
	d = append(d, connsBlocks(r)...)
	d = append(d, writeAmpBlocks(r)...)
	d = append(d, redmineBlocks(r)...)
	var charts []*chart
	if len(rows) > 0 {
		charts = buildCharts(r)
	}
	charts = append(charts, redmineCharts(r)...)
	if len(charts) > 0 {
		d = append(d, block{Heading: "Charts", Level: 2})
		for _, c := range charts {
			d = append(d, block{Chart: c})
		}
	}
	return d
}

// setupBlocks describe the machine, each engine's configuration, the disk
// noise levels (seed) and the run's problems.
func setupBlocks(r *Results) []block {
	var d []block
	m := r.Machine
	d = append(d, block{Heading: "Machine", Level: 2, Bullets: []string{
		fmt.Sprintf("%d CPUs (%s), %s RAM", m.CPUs, m.CPUModel, fmtBytes(float64(m.MemBytes))),
		"disk: " + m.Disk,
		fmt.Sprintf("%s, kernel %s, cgroup %s, %s", m.OS, m.Kernel, m.Cgroup, m.Go),
	}})
	var loads []float64
	for _, s := range r.Steps {
		if s.LoadAvg > 0 {
			loads = append(loads, s.LoadAvg)
		}
	}
	if len(loads) > 0 {
		sp := SpreadOf(loads)
		d[len(d)-1].Bullets = append(d[len(d)-1].Bullets, fmt.Sprintf(
			"1-minute load average after the steps: median %.1f (%.1f–%.1f); it counts the benchmark's own client threads, so compare it with runs of the same shape to spot other work competing",
			sp.Median, sp.Min, sp.Max))
	}
	var tools []string
	for _, k := range []string{"sysbench", "fio"} {
		if v, ok := r.Tools[k]; ok {
			tools = append(tools, k+": "+v)
		}
	}
	for _, e := range r.Engines {
		tools = append(tools, e.Label+": "+e.Version)
	}
	d[len(d)-1].Bullets = append(d[len(d)-1].Bullets, tools...)

	d = append(d, block{Heading: "Engine configuration", Level: 2, Text: "Each engine ran alone, in a private data directory on a loopback port, started by the bench with these settings (all: same cache budget, fsync on every commit, no binlog, REPEATABLE READ)."})
	for _, e := range r.Engines {
		t := &table{Header: []string{"setting", "value"}, Left: true}
		for _, s := range e.Settings {
			t.Rows = append(t.Rows, []string{s.Name, s.Value})
		}
		d = append(d, block{Heading: e.Label, Level: 3, Table: t})
		if len(e.Notes) > 0 {
			d = append(d, block{Bullets: e.Notes})
		}
	}
	if r.isSeed() && len(r.Noise) > 0 {
		t := &table{Header: []string{"noise", "fio jobs", "IOPS cap (read+write)"}}
		for _, n := range r.Noise {
			c := "none"
			if n.RateIOPS > 0 {
				c = fmt.Sprintf("%d (%d + %d)", n.TotalIOPSCap(), n.RateIOPS*n.Jobs, n.RateIOPS*n.Jobs)
			} else if n.Jobs > 0 {
				c = "unthrottled"
			}
			t.Rows = append(t.Rows, []string{n.Name, strconv.Itoa(n.Jobs), c})
		}
		d = append(d, block{Heading: "Disk noise", Level: 2, Text: fmt.Sprintf("fio, 4 KiB random 50/50 read/write, O_DIRECT, iodepth 1, on a separate file in the work directory. One unthrottled job alone reached %.0f IOPS; “25%%” caps one job at a quarter of that.", r.SoloIOPS), Table: t})
	}
	if len(r.Notes) > 0 {
		d = append(d, block{Heading: "Problems", Level: 2, Bullets: r.Notes})
	}
	return d
}

func loadBlocks(r *Results) []block {
	if len(r.Loads) == 0 {
		return nil
	}
	ref := r.Loads[0]
	refName := EngineLabel(ref.Engine)
	t := &table{Header: []string{"engine", "load time (s)", "data dir after load", "tables after load", "data dir after run", "tables after run",
		"vs " + refName + " (data dir after run)", "vs " + refName + " (tables after run)"}}
	settled := false
	for i, l := range r.Loads {
		var dirRatio, tblRatio string
		if i > 0 {
			dirRatio = Ratio(float64(ref.DataDirBytesAfter), float64(l.DataDirBytesAfter), false, "more", "less")
			tblRatio = Ratio(float64(ref.TableBytesAfter), float64(l.TableBytesAfter), false, "more", "less")
		}
		if l.Error != "" {
			dirRatio, tblRatio = "load failed: "+l.Error, ""
		}
		t.Rows = append(t.Rows, []string{EngineLabel(l.Engine), fmtNum(l.Seconds), fmtBytes(float64(l.DataDirBytes)), fmtBytes(float64(l.TableBytes)),
			fmtBytes(float64(l.DataDirBytesAfter)), fmtBytes(float64(l.TableBytesAfter)), dirRatio, tblRatio})
		if l.SettleSeconds > 0 {
			settled = true
		}
	}
	text := "Allocated bytes (du) of the whole data directory (InnoDB: including its preallocated redo log and system tablespace) and of the table files alone (InnoDB: the benchmark database's *.ibd, MyRocks #rocksdb/*.sst, strata *.sst/*.blob — LSM data still in memtables and WAL is not in the table files)."
	if settled {
		t.Header = append(t.Header, "ANALYZE + settle (s)")
		for i, l := range r.Loads {
			t.Rows[i] = append(t.Rows[i], fmtNum(l.SettleSeconds))
		}
		text += fmt.Sprintf(" After the load every table was analyzed (ANALYZE TABLE) and the bench waited until the server's CPU stayed under %.0f %% of a core for a second (at most %s), so that background flushes and compactions do not land in the first measurement.", settleIdle*100, settleMax)
	}
	return []block{{Heading: "Load and on-disk size", Level: 2, Text: text, Table: t}}
}

// clipError shortens an error message for a report table cell.
func clipError(msg string) string {
	if len(msg) > 160 {
		return msg[:160] + "…"
	}
	return msg
}

func errorBlock(r *Results) block {
	t := &table{Header: []string{"engine", "script", "threads", "ignored errors", "reconnects", "failed steps", "first error"}, Left: true}
	if r.isSeed() {
		t.Header = []string{"engine", "script", "clients", "noise", "ignored errors", "reconnects", "failed steps", "first error"}
	}
	for _, a := range r.Aggs {
		if a.Kind == KindRedmine { // the Redmine section has its own
			continue
		}
		if a.IgnoredErrors == 0 && a.Reconnects == 0 && a.Failed == 0 && a.Errors == 0 {
			continue
		}
		first := a.FirstError
		first = clipError(first)
		script := a.Script
		if a.Kind != KindGrid {
			script += " (" + a.Kind + " step)"
		}
		row := []string{EngineLabel(a.Engine), script, strconv.Itoa(a.Threads)}
		if r.isSeed() {
			row = append(row, a.Noise)
		}
		row = append(row, strconv.FormatInt(a.IgnoredErrors, 10), strconv.FormatInt(a.Reconnects, 10), strconv.Itoa(a.Failed), first)
		t.Rows = append(t.Rows, row)
	}
	if len(t.Rows) == 0 {
		return block{Heading: "Errors", Level: 3, Text: "No errors, ignored errors or reconnects."}
	}
	return block{Heading: "Errors", Level: 3, Text: "Ignored errors are deadlocks/lock-wait timeouts/snapshot conflicts (1213, 1205, 1020) that sysbench retries; a failed step stopped on another error.", Table: t}
}

// buildCharts draws the latency bars, ratio lines and throughput curves.
func buildCharts(r *Results) []*chart {
	engines := r.engineList()
	idx := index(r.Aggs)
	val := func(e, script string, threads int, noise string, m metric) float64 {
		a := idx[CellKey{Engine: e, Script: script, Threads: threads, Noise: noise}]
		if a == nil || m.get(a).N == 0 {
			return math.NaN()
		}
		return m.get(a).Median * m.scale
	}
	p95, tps := metricByKey("lat_p95"), metricByKey("tps")
	scripts, threads, noises := r.scriptsOf(), r.threadsOf(), r.noiseOf()
	short := func(s string) string { return strings.TrimPrefix(s, "oltp_") }
	var out []*chart
	if !r.isSeed() {
		for _, th := range threads {
			var ss []series
			for _, e := range engines {
				s := series{Name: EngineLabel(e)}
				for _, sc := range scripts {
					s.Values = append(s.Values, val(e, sc, th, "", p95))
				}
				ss = append(ss, s)
			}
			out = append(out, &chart{Name: fmt.Sprintf("latency-p95-t%d", th), Title: fmt.Sprintf("p95 latency at %d threads (ms, lower is better)", th),
				SVG: barChart(fmt.Sprintf("p95 latency at %d threads (ms, lower is better)", th), "ms", mapStr(scripts, short), ss)})
		}
		xs := mapStr(intsToStr(threads), func(s string) string { return s + " thr" })
		for _, peer := range engines[1:] {
			var ss []series
			for _, sc := range scripts {
				s := series{Name: short(sc)}
				for _, th := range threads {
					s.Values = append(s.Values, val(engines[0], sc, th, "", tps)/val(peer, sc, th, "", tps))
				}
				ss = append(ss, s)
			}
			t := fmt.Sprintf("%s TPS ÷ %s TPS (above 1: %s faster)", EngineLabel(engines[0]), EngineLabel(peer), EngineLabel(engines[0]))
			out = append(out, &chart{Name: "ratio-tps-" + peer, Title: t, SVG: lineChart(t, "ratio", xs, ss, 1)})
		}
		for _, sc := range scripts {
			var ss []series
			for _, e := range engines {
				s := series{Name: EngineLabel(e)}
				for _, th := range threads {
					s.Values = append(s.Values, val(e, sc, th, "", tps))
				}
				ss = append(ss, s)
			}
			t := fmt.Sprintf("%s: throughput vs threads (TPS)", sc)
			out = append(out, &chart{Name: "tps-" + short(sc), Title: t, SVG: lineChart(t, "transactions/s", xs, ss, 0)})
		}
		return out
	}
	// Seed: per script, categories are noise × clients.
	for _, sc := range scripts {
		var cats []string
		for _, n := range noises {
			for _, th := range threads {
				cats = append(cats, fmt.Sprintf("%s, %d cl", n, th))
			}
		}
		var ss []series
		for _, e := range engines {
			s := series{Name: EngineLabel(e)}
			for _, n := range noises {
				for _, th := range threads {
					s.Values = append(s.Values, val(e, sc, th, n, p95))
				}
			}
			ss = append(ss, s)
		}
		t := fmt.Sprintf("%s: p95 latency by disk noise and clients (ms)", sc)
		out = append(out, &chart{Name: "latency-p95-" + short(sc), Title: t, SVG: barChart(t, "ms", cats, ss)})

		ss = nil
		for _, peer := range engines[1:] {
			for _, th := range threads {
				s := series{Name: fmt.Sprintf("%s, %d cl", EngineLabel(peer), th)}
				for _, n := range noises {
					s.Values = append(s.Values, val(peer, sc, th, n, p95)/val(engines[0], sc, th, n, p95))
				}
				ss = append(ss, s)
			}
		}
		if len(ss) > 0 {
			t = fmt.Sprintf("%s: peer p95 ÷ %s p95 by noise (above 1: %s faster)", sc, EngineLabel(engines[0]), EngineLabel(engines[0]))
			out = append(out, &chart{Name: "ratio-p95-" + short(sc), Title: t, SVG: lineChart(t, "ratio", noises, ss, 1)})
		}
		for _, n := range noises {
			ss = nil
			for _, e := range engines {
				s := series{Name: EngineLabel(e)}
				for _, th := range threads {
					s.Values = append(s.Values, val(e, sc, th, n, tps))
				}
				ss = append(ss, s)
			}
			t = fmt.Sprintf("%s, noise %s: throughput vs clients (TPS)", sc, n)
			out = append(out, &chart{Name: fmt.Sprintf("tps-%s-noise_%s", short(sc), strings.ReplaceAll(n, "%", "pct")), Title: t,
				SVG: lineChart(t, "transactions/s", mapStr(intsToStr(threads), func(s string) string { return s + " cl" }), ss, 0)})
		}
	}
	return out
}

func intsToStr(xs []int) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strconv.Itoa(x)
	}
	return out
}

func renderMarkdown(w io.Writer, doc []block) {
	for _, b := range doc {
		if b.Heading != "" {
			fmt.Fprintf(w, "%s %s\n\n", strings.Repeat("#", max(b.Level, 1)), b.Heading)
		}
		if b.Text != "" {
			fmt.Fprintf(w, "%s\n\n", b.Text)
		}
		for _, x := range b.Bullets {
			fmt.Fprintf(w, "- %s\n", x)
		}
		if len(b.Bullets) > 0 {
			fmt.Fprintln(w)
		}
		if b.Table != nil {
			b.Table.markdown(w)
		}
		if b.Chart != nil {
			fmt.Fprintf(w, "![%s](charts/%s.svg)\n\n", b.Chart.Title, b.Chart.Name)
		}
	}
}

const htmlStyle = `body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:0.5em 0 1.5em}td,th{border:1px solid #ccc;padding:3px 8px}
th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums}
td.worse{color:#a00}td.better{color:#070}code{background:#f3f3f3;padding:1px 3px}
svg{display:block;margin:1em 0;border:1px solid #eee}`

func renderHTML(w io.Writer, doc []block) {
	title := "strata bench"
	if len(doc) > 0 && doc[0].Heading != "" {
		title = doc[0].Heading
	}
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title><style>%s</style></head><body>\n", esc(title), htmlStyle)
	for _, b := range doc {
		if b.Heading != "" {
			l := min(max(b.Level, 1), 6)
			fmt.Fprintf(w, "<h%d>%s</h%d>\n", l, inlineHTML(b.Heading), l)
		}
		if b.Text != "" {
			fmt.Fprintf(w, "<p>%s</p>\n", inlineHTML(b.Text))
		}
		if len(b.Bullets) > 0 {
			fmt.Fprint(w, "<ul>\n")
			for _, x := range b.Bullets {
				fmt.Fprintf(w, "<li>%s</li>\n", inlineHTML(x))
			}
			fmt.Fprint(w, "</ul>\n")
		}
		if b.Table != nil {
			b.Table.html(w)
		}
		if b.Chart != nil {
			fmt.Fprint(w, b.Chart.SVG)
		}
	}
	fmt.Fprint(w, "</body></html>\n")
}

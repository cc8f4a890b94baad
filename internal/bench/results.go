package bench

import (
	"sort"
	"time"
)

// Results is everything one bench run measured; results.json holds it.
type Results struct {
	Command  string       `json:"command"`
	Options  *Options     `json:"options"`
	Started  time.Time    `json:"started"`
	Finished time.Time    `json:"finished"`
	Machine  Machine      `json:"machine"`
	Engines  []EngineInfo `json:"engines"`
	Loads    []Load       `json:"loads"`
	Steps    []Step       `json:"steps"`
	SoloIOPS float64      `json:"fio_solo_iops,omitempty"` // seed: one unthrottled fio job
	Noise    []Noise      `json:"noise,omitempty"`         // seed: resolved levels
	Notes    []string     `json:"notes,omitempty"`
	TPCH     []TPCHRun    `json:"tpch,omitempty"` // tpch: per engine
	TPCC     []TPCCRun    `json:"tpcc,omitempty"` // tpcc: per engine
	// PageViews describes the pageviews workload's data; PageViewsRuns
	// are its per-engine results.
	PageViews     *PageViewsData `json:"pageviews,omitempty"`
	PageViewsRuns []PageViewsRun `json:"pageviews_runs,omitempty"`
	// Redmine records the seed's Redmine setup per engine.
	Redmine []RedmineSetup    `json:"redmine,omitempty"`
	Aggs    []Aggregate       `json:"aggregates"`
	Tools   map[string]string `json:"tools"`
}

// EngineInfo describes how an engine was run.
type EngineInfo struct {
	Engine   string    `json:"engine"`
	Label    string    `json:"label"`
	Version  string    `json:"version"`
	Args     []string  `json:"args"`
	Settings []Setting `json:"settings"`
	Notes    []string  `json:"notes,omitempty"` // limits applied or not, problems
}

// Load is the initial data load (sysbench prepare) of one engine.
type Load struct {
	Engine  string  `json:"engine"`
	Seconds float64 `json:"seconds"`
	// DataDirBytes and TableBytes are the allocated size of the whole data
	// directory and of the table files only (InnoDB sbtest/*.ibd, MyRocks
	// #rocksdb/*.sst, strata *.sst/*.blob), after the load and after all
	// steps.
	DataDirBytes      int64   `json:"datadir_bytes"`
	TableBytes        int64   `json:"table_bytes"`
	DataDirBytesAfter int64   `json:"datadir_bytes_after_run"`
	TableBytesAfter   int64   `json:"table_bytes_after_run"`
	WriteBytes        int64   `json:"write_bytes"` // server write_bytes during the load
	CPUSeconds        float64 `json:"cpu_seconds"`
	Error             string  `json:"error,omitempty"`
	// SettleSeconds is the time the server took after the load to become
	// idle (tpch, tpcc: ANALYZE TABLE, then background work finishing)
	// before the first measurement.
	SettleSeconds float64 `json:"settle_seconds,omitempty"`
}

// Step kinds: the main grid (scripts × threads × noise) and the two extra
// steps of a sysbench run, told apart in results and reports.
const (
	// KindGrid is a step of the main grid (the empty string, so results
	// written before kinds existed read as grid steps).
	KindGrid = ""
	// KindConns is oltp_read_only at --conns connections after the grid.
	KindConns = "conns"
	// KindWriteAmp is oltp_update_index after a restart on the same data
	// with a small cache (--wa-cache-mb), measuring bytes written per
	// transaction with data larger than the cache.
	KindWriteAmp = "write-amp"
	// KindRedmine is a step of the seed's Redmine load: one operation
	// (Script: create_issue or process_10_issues) repeated by Threads
	// parallel clients through Redmine's REST API.
	KindRedmine = "redmine"
)

// Step is one sysbench run of one engine.
type Step struct {
	Engine  string `json:"engine"`
	Script  string `json:"script"`
	Threads int    `json:"threads"`
	Noise   string `json:"noise,omitempty"`
	Kind    string `json:"kind,omitempty"` // KindGrid, KindConns or KindWriteAmp
	Rep     int    `json:"rep"`
	// CacheBytes, TableBytes and DataDirBytes are set on KindWriteAmp
	// steps: the engine's cache as it ran the step (as the server reports
	// it where it can) and the table files and data directory measured
	// right before the step. RandType is sysbench's key distribution when
	// not its default ("uniform" on KindWriteAmp steps); Rows the rows the
	// tables held right before a KindWriteAmp step (COUNT(*): oltp_delete
	// removes some).
	RandType     string          `json:"rand_type,omitempty"`
	Rows         int64           `json:"rows,omitempty"`
	CacheBytes   int64           `json:"cache_bytes,omitempty"`
	TableBytes   int64           `json:"table_bytes,omitempty"`
	DataDirBytes int64           `json:"datadir_bytes,omitempty"`
	Seconds      float64         `json:"wall_seconds"`
	LoadAvg      float64         `json:"loadavg_1m"` // machine load after the step (other work shows here)
	Metrics      Metrics         `json:"metrics"`
	Output       *SysbenchOutput `json:"sysbench,omitempty"`
	// Redmine is the raw record of a KindRedmine step (Script is the
	// operation).
	Redmine *RedmineStep `json:"redmine,omitempty"`
	Error   string       `json:"error,omitempty"`
}

// DataPerCache is the table files ÷ the cache of a KindWriteAmp step.
func (s Step) DataPerCache() float64 { return float64(s.TableBytes) / float64(s.CacheBytes) }

// Key identifies the cell a step belongs to (all reps share it).
func (s Step) Key() CellKey {
	return CellKey{Engine: s.Engine, Script: s.Script, Threads: s.Threads, Noise: s.Noise, Kind: s.Kind}
}

// CellKey identifies one engine's result for a script, thread count, noise
// level and step kind.
type CellKey struct {
	Engine  string `json:"engine"`
	Script  string `json:"script"`
	Threads int    `json:"threads"`
	Noise   string `json:"noise,omitempty"`
	Kind    string `json:"kind,omitempty"`
}

// Metrics are the figures of one step.
type Metrics struct {
	TPS     float64 `json:"tps"`         // trimmed mean of per-second TPS
	QPS     float64 `json:"qps"`         // trimmed mean of per-second QPS
	LatMean float64 `json:"lat_mean_ms"` // threads ÷ trimmed TPS (Little's law)
	LatP95  float64 `json:"lat_p95_ms"`  // trimmed mean of per-second p95
	LatP99  float64 `json:"lat_p99_ms"`  // from sysbench's whole-run histogram
	// CPUPerTxn is server CPU seconds (utime+stime) per transaction.
	CPUPerTxn float64 `json:"cpu_s_per_txn"`
	// WriteBytesPerTxn is the server's /proc/PID/io write_bytes per transaction.
	WriteBytesPerTxn float64 `json:"write_bytes_per_txn"`
	Transactions     int64   `json:"transactions"`
	Samples          int     `json:"samples"`      // per-second samples
	TrimmedSamples   int     `json:"samples_used"` // after trimming
	IgnoredErrors    int64   `json:"ignored_errors"`
	Reconnects       int64   `json:"reconnects"`
	Errors           int     `json:"errors"` // fatal errors (the run failed)
	// DBPerOp and DBShare are set on KindRedmine steps: the database time
	// per operation (ms; see dbProxy) and its share of the operations'
	// latency.
	DBPerOp float64 `json:"db_ms_per_op,omitempty"`
	DBShare float64 `json:"db_share,omitempty"`
	// AppCPUPerOp is the application's (Redmine's puma) CPU seconds per
	// successful operation (KindRedmine).
	AppCPUPerOp float64 `json:"app_cpu_s_per_op,omitempty"`
}

// ComputeMetrics derives a step's figures from sysbench's output, the
// number of client threads and the server's counter deltas over the step.
func ComputeMetrics(out *SysbenchOutput, threads int, delta ProcCounters) Metrics {
	var m Metrics
	if out == nil {
		return m
	}
	tps := make([]float64, 0, len(out.Samples))
	qps := make([]float64, 0, len(out.Samples))
	lat := make([]float64, 0, len(out.Samples))
	for _, s := range out.Samples {
		tps = append(tps, s.TPS)
		qps = append(qps, s.QPS)
		lat = append(lat, s.LatPct)
	}
	m.Samples = len(out.Samples)
	m.TrimmedSamples = len(Trim(tps, TrimFraction))
	m.TPS = TrimmedMean(tps)
	m.QPS = TrimmedMean(qps)
	if m.TPS > 0 {
		m.LatMean = float64(threads) * 1000 / m.TPS
	}
	m.LatP95 = TrimmedMean(lat)
	if len(out.HistCounts) > 0 {
		m.LatP99 = HistogramPercentile(out.HistValues, out.HistCounts, 99)
	}
	if len(out.Samples) == 0 && out.Complete { // runs shorter than a report interval
		m.TPS, m.QPS, m.LatMean, m.LatP95 = out.Summary.TPS, out.Summary.QPS, out.Summary.LatAvg, out.Summary.LatPct
	}
	m.Transactions = out.Summary.Transactions
	if m.Transactions > 0 {
		m.CPUPerTxn = delta.CPUSeconds / float64(m.Transactions)
		m.WriteBytesPerTxn = float64(delta.WriteBytes) / float64(m.Transactions)
	}
	m.IgnoredErrors = out.Summary.IgnoredErrors
	m.Reconnects = out.Summary.Reconnects
	m.Errors = len(out.Fatal)
	return m
}

// Aggregate is a cell's figures over its repetitions.
type Aggregate struct {
	CellKey
	Reps             int    `json:"reps"`
	Failed           int    `json:"failed"` // reps with an error
	TPS              Spread `json:"tps"`
	QPS              Spread `json:"qps"`
	LatMean          Spread `json:"lat_mean_ms"`
	LatP95           Spread `json:"lat_p95_ms"`
	LatP99           Spread `json:"lat_p99_ms"`
	CPUPerTxn        Spread `json:"cpu_s_per_txn"`
	WriteBytesPerTxn Spread `json:"write_bytes_per_txn"`
	DBPerOp          Spread `json:"db_ms_per_op"`
	DBShare          Spread `json:"db_share"`
	AppCPUPerOp      Spread `json:"app_cpu_s_per_op"`
	IgnoredErrors    int64  `json:"ignored_errors"`
	Reconnects       int64  `json:"reconnects"`
	Errors           int    `json:"errors"`
	FirstError       string `json:"first_error,omitempty"`
}

// AggregateSteps groups steps by cell (in first-seen order) and computes
// min/median/max over the reps that produced figures.
func AggregateSteps(steps []Step) []Aggregate {
	var order []CellKey
	groups := map[CellKey][]Step{}
	for _, s := range steps {
		k := s.Key()
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], s)
	}
	out := make([]Aggregate, 0, len(order))
	for _, k := range order {
		a := Aggregate{CellKey: k}
		var tps, qps, lm, l95, l99, cpu, wb, dbo, dbs, app []float64
		for _, s := range groups[k] {
			a.Reps++
			a.IgnoredErrors += s.Metrics.IgnoredErrors
			a.Reconnects += s.Metrics.Reconnects
			a.Errors += s.Metrics.Errors
			if s.Error != "" {
				a.Failed++
				if a.FirstError == "" {
					a.FirstError = s.Error
				}
			}
			if s.Metrics.Transactions == 0 && s.Metrics.TPS == 0 {
				continue
			}
			m := s.Metrics
			tps, qps, lm, l95 = append(tps, m.TPS), append(qps, m.QPS), append(lm, m.LatMean), append(l95, m.LatP95)
			l99, cpu, wb = append(l99, m.LatP99), append(cpu, m.CPUPerTxn), append(wb, m.WriteBytesPerTxn)
			if s.Kind == KindRedmine {
				dbo, dbs, app = append(dbo, m.DBPerOp), append(dbs, m.DBShare), append(app, m.AppCPUPerOp)
			}
		}
		a.DBPerOp, a.DBShare, a.AppCPUPerOp = SpreadOf(dbo), SpreadOf(dbs), SpreadOf(app)
		a.TPS, a.QPS, a.LatMean, a.LatP95 = SpreadOf(tps), SpreadOf(qps), SpreadOf(lm), SpreadOf(l95)
		a.LatP99, a.CPUPerTxn, a.WriteBytesPerTxn = SpreadOf(l99), SpreadOf(cpu), SpreadOf(wb)
		out = append(out, a)
	}
	return out
}

// index returns the aggregates by cell.
func index(aggs []Aggregate) map[CellKey]*Aggregate {
	m := make(map[CellKey]*Aggregate, len(aggs))
	for i := range aggs {
		m[aggs[i].CellKey] = &aggs[i]
	}
	return m
}

// gridSteps are the steps of the main grid (not the connections or
// write-amplification steps).
func (r *Results) gridSteps() []Step {
	var out []Step
	for _, s := range r.Steps {
		if s.Kind == KindGrid {
			out = append(out, s)
		}
	}
	return out
}

// stepsOfKind are the steps of kind in run order.
func (r *Results) stepsOfKind(kind string) []Step {
	var out []Step
	for _, s := range r.Steps {
		if s.Kind == kind {
			out = append(out, s)
		}
	}
	return out
}

// scriptsOf lists the scripts of the grid steps in first-seen order.
func (r *Results) scriptsOf() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range r.gridSteps() {
		if !seen[s.Script] {
			seen[s.Script] = true
			out = append(out, s.Script)
		}
	}
	return out
}

// threadsOf lists the thread counts of the grid steps, ascending.
func (r *Results) threadsOf() []int {
	seen := map[int]bool{}
	var out []int
	for _, s := range r.gridSteps() {
		if !seen[s.Threads] {
			seen[s.Threads] = true
			out = append(out, s.Threads)
		}
	}
	sort.Ints(out)
	return out
}

// noiseOf lists the noise levels of the grid steps in first-seen order.
func (r *Results) noiseOf() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range r.gridSteps() {
		if !seen[s.Noise] {
			seen[s.Noise] = true
			out = append(out, s.Noise)
		}
	}
	return out
}

// engineList lists the engines of the run in report order.
func (r *Results) engineList() []string {
	var out []string
	for _, e := range r.Engines {
		out = append(out, e.Engine)
	}
	if len(out) == 0 {
		seen := map[string]bool{}
		for _, s := range r.Steps {
			if !seen[s.Engine] {
				seen[s.Engine] = true
			}
		}
		for _, e := range AllEngines {
			if seen[e] {
				out = append(out, e)
			}
		}
	}
	return out
}

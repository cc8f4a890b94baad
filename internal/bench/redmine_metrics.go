package bench

import "sort"

// RedmineStep is the raw record of one Redmine step: every operation's
// start and latency, and the counters over the step.
type RedmineStep struct {
	Ops []OpSample `json:"ops"`
	// Requests are the HTTP requests the clients sent.
	Requests int64 `json:"requests"`
	// DBSeconds is the time Redmine's database connections spent waiting
	// for the engine over the step (see dbProxy), Statements the commands
	// they sent.
	DBSeconds  float64 `json:"db_seconds"`
	Statements int64   `json:"statements"`
	// AppCPUSeconds is the CPU time of puma's processes (master and
	// workers) over the step.
	AppCPUSeconds float64 `json:"app_cpu_seconds"`
	Failed        int     `json:"failed_ops"`
	FirstError    string  `json:"first_error,omitempty"`
	// PoolReset is true when In Progress and Resolved issues were set back
	// to New (in SQL, untimed) before the step.
	PoolReset bool `json:"pool_reset,omitempty"`
}

// OpSample is one operation: its start (seconds from the step's start),
// latency and whether it failed.
type OpSample struct {
	T      float64 `json:"t"`
	Ms     float64 `json:"ms"`
	Failed bool    `json:"failed,omitempty"`
}

// ComputeRedmineMetrics derives a Redmine step's figures: operations per
// second (TPS) and HTTP requests per second (QPS) over wall seconds; the
// trimmed mean and p95 of the latencies of the successful operations in
// the order they started, the first and last 10 % dropped (as the
// sysbench figures drop the first and last seconds); p99 over all of
// them; the database time per operation (all operations, failed ones
// included, since their statements are in the total) and its share of
// the operations' summed latency; the database server's CPU and bytes
// written and the application's CPU per successful operation.
func ComputeRedmineMetrics(rs *RedmineStep, wall float64, delta ProcCounters) Metrics {
	var m Metrics
	if rs == nil {
		return m
	}
	ops := append([]OpSample(nil), rs.Ops...)
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].T < ops[j].T })
	var lat []float64
	sum := 0.0
	for _, o := range ops {
		sum += o.Ms
		if !o.Failed {
			lat = append(lat, o.Ms)
		}
	}
	trimmed := Trim(lat, TrimFraction)
	m.Samples, m.TrimmedSamples = len(lat), len(trimmed)
	m.LatMean = Mean(trimmed)
	m.LatP95 = Percentile(trimmed, 95)
	m.LatP99 = Percentile(lat, 99)
	m.Transactions = int64(len(lat))
	m.Errors = rs.Failed
	if wall > 0 {
		m.TPS = float64(len(lat)) / wall
		m.QPS = float64(rs.Requests) / wall
	}
	if len(ops) > 0 {
		m.DBPerOp = rs.DBSeconds * 1000 / float64(len(ops))
	}
	if sum > 0 {
		m.DBShare = rs.DBSeconds * 1000 / sum
	}
	if m.Transactions > 0 {
		m.CPUPerTxn = delta.CPUSeconds / float64(m.Transactions)
		m.WriteBytesPerTxn = float64(delta.WriteBytes) / float64(m.Transactions)
		m.AppCPUPerOp = rs.AppCPUSeconds / float64(m.Transactions)
	}
	return m
}

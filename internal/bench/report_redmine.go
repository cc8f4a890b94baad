package bench

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// This file renders the seed report's Redmine section: per operation ×
// noise × clients, each engine's trimmed-mean and p95 latency, the
// database time per operation and its share, throughput and failures.

// redmineAggs are the aggregates of the Redmine steps.
func (r *Results) redmineAggs() []Aggregate {
	var out []Aggregate
	for _, a := range r.Aggs {
		if a.Kind == KindRedmine {
			out = append(out, a)
		}
	}
	return out
}

// redmineOpsOf lists the Redmine operations the run measured, in run
// order.
func (r *Results) redmineOpsOf() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range r.stepsOfKind(KindRedmine) {
		if !seen[s.Script] {
			seen[s.Script] = true
			out = append(out, s.Script)
		}
	}
	return out
}

// redmineClientsOf lists the client counts of the Redmine steps,
// ascending.
func (r *Results) redmineClientsOf() []int {
	seen := map[int]bool{}
	var out []int
	for _, s := range r.stepsOfKind(KindRedmine) {
		if !seen[s.Threads] {
			seen[s.Threads] = true
			out = append(out, s.Threads)
		}
	}
	sort.Ints(out)
	return out
}

// redmineRows are the (operation, noise, clients) rows in run order.
func (r *Results) redmineRows() []rowKey {
	var out []rowKey
	seen := map[rowKey]bool{}
	for _, s := range r.stepsOfKind(KindRedmine) {
		k := rowKey{s.Script, s.Threads, s.Noise}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// redmineMetrics are the figures of the Redmine tables.
var redmineMetrics = []metric{
	{"lat_p95", "p95 latency per operation (ms)", func(a *Aggregate) Spread { return a.LatP95 }, 1, false, "slower", "faster"},
	{"lat_mean", "Trimmed-mean latency per operation (ms)", func(a *Aggregate) Spread { return a.LatMean }, 1, false, "slower", "faster"},
	{"db_ms", "Database time per operation (ms)", func(a *Aggregate) Spread { return a.DBPerOp }, 1, false, "more", "less"},
	{"db_share", "Database share of the operation's time (%)", func(a *Aggregate) Spread { return a.DBShare }, 100, false, "more", "less"},
	{"ops", "Throughput (operations/s)", func(a *Aggregate) Spread { return a.TPS }, 1, true, "slower", "faster"},
	{"cpu", "Database server CPU per operation (ms)", func(a *Aggregate) Spread { return a.CPUPerTxn }, 1000, false, "more", "less"},
	{"app_cpu", "Redmine (puma, all processes) CPU per operation (ms)", func(a *Aggregate) Spread { return a.AppCPUPerOp }, 1000, false, "more", "less"},
}

// redmineTable is the study-shaped table of one metric over the Redmine
// rows.
func (r *Results) redmineTable(m metric, rows []rowKey) *table {
	engines := r.engineList()
	idx := index(r.Aggs)
	t := &table{Header: []string{"operation", "noise", "clients"}}
	for i, e := range engines {
		t.Header = append(t.Header, EngineLabel(e))
		if i > 0 {
			t.Header = append(t.Header, "vs "+EngineLabel(engines[0]))
		}
	}
	for _, rk := range rows {
		row := []string{rk.Script, rk.Noise, strconv.Itoa(rk.Threads)}
		row = m.engineCells(row, engines, func(e string) *Aggregate {
			return idx[CellKey{Engine: e, Script: rk.Script, Threads: rk.Threads, Noise: rk.Noise, Kind: KindRedmine}]
		})
		t.Rows = append(t.Rows, row)
	}
	return t
}

// redmineText explains how the Redmine figures are measured.
const redmineText = "Redmine 5 from Debian's package on each engine (its own database `redmine` beside sysbench's, migrated with `rake db:migrate` and `redmine:load_default_data`, READ COMMITTED as Redmine recommends for MySQL), served by puma with the same workers × threads for every engine, driven through its REST API by the bench's own HTTP client as the admin. Operations: **create_issue** = POST an issue, PUT its assignee, 10 PUTs each adding a comment (12 requests); **process_10_issues** = list the client's project's 10 oldest New issues, then for each a PUT to In Progress (with a note) and a PUT to Resolved with a new assignee (21 requests). Every client (“process”, as the seed called them) repeats its operation for the step's time on projects of its own, then finishes the one in flight. Latency is per operation: trimmed mean and p95 over the successful operations in start order, the first and last 10 % dropped. Database time: Redmine reaches the engine through a loopback proxy in the bench that times every MySQL command from its arrival to the last byte of its response, summed over all connections during the step ÷ operations — exact on average, since one request uses one connection at a time, but no per-operation distribution; the share is that sum ÷ the operations' summed latency. The rest of an operation's time is Ruby, puma and HTTP. Before every process_10_issues step, In Progress and Resolved issues are set back to New in SQL (untimed)."

// redmineBlocks is the Redmine section of a seed report.
func redmineBlocks(r *Results) []block {
	rows := r.redmineRows()
	if len(rows) == 0 && len(r.Redmine) == 0 {
		return nil
	}
	d := []block{{Heading: "Redmine", Level: 2, Text: redmineText}}
	if len(r.Redmine) > 0 {
		t := &table{Header: []string{"engine", "redmine", "puma", "dataset", "setup (s)", "error"}, Left: true}
		for _, s := range r.Redmine {
			dd := s.Data
			data := fmt.Sprintf("%d users, %d projects × %d members, %d issues × %d comments (SQL bulk insert)", dd.Users, dd.Projects, dd.MembersPerProj, dd.Issues(), dd.JournalsPerIssue)
			var phases []string
			for _, k := range []string{"bundle-lock", "migrate", "default-data", "enable-api", "puma-start", "dataset", "warm-up"} {
				if v, ok := s.Seconds[k]; ok {
					phases = append(phases, fmt.Sprintf("%s %s", k, fmtNum(v)))
				}
			}
			t.Rows = append(t.Rows, []string{EngineLabel(s.Engine), s.Version, s.Puma, data, strings.Join(phases, ", "), clipError(s.Error)})
		}
		d = append(d, block{Heading: "Redmine setup", Level: 3, Table: t})
		var notes []string
		for _, s := range r.Redmine {
			for _, x := range s.Settings {
				notes = append(notes, EngineLabel(s.Engine)+": "+x)
			}
		}
		if len(notes) > 0 {
			d = append(d, block{Bullets: notes})
		}
	}
	if len(rows) == 0 {
		return d
	}
	for _, m := range redmineMetrics {
		d = append(d, block{Heading: "Redmine: " + m.title, Level: 3, Table: r.redmineTable(m, rows)})
	}
	d = append(d, redmineErrorBlock(r))
	return d
}

// redmineErrorBlock lists the Redmine steps with failed operations.
func redmineErrorBlock(r *Results) block {
	t := &table{Header: []string{"engine", "operation", "clients", "noise", "failed operations", "first error"}, Left: true}
	for _, s := range r.stepsOfKind(KindRedmine) {
		if s.Redmine == nil || (s.Redmine.Failed == 0 && s.Error == "") {
			continue
		}
		first := s.Redmine.FirstError
		if first == "" {
			first = s.Error
		}
		t.Rows = append(t.Rows, []string{EngineLabel(s.Engine), s.Script, strconv.Itoa(s.Threads), s.Noise,
			fmt.Sprintf("%d of %d", s.Redmine.Failed, len(s.Redmine.Ops)), clipError(first)})
	}
	if len(t.Rows) == 0 {
		return block{Heading: "Redmine errors", Level: 3, Text: "Every operation succeeded."}
	}
	return block{Heading: "Redmine errors", Level: 3, Table: t}
}

// redmineCharts draws each operation's p95 latency by noise and clients.
func redmineCharts(r *Results) []*chart {
	engines := r.engineList()
	idx := index(r.Aggs)
	clients := r.redmineClientsOf()
	var noises []string
	seen := map[string]bool{}
	for _, s := range r.stepsOfKind(KindRedmine) {
		if !seen[s.Noise] {
			seen[s.Noise] = true
			noises = append(noises, s.Noise)
		}
	}
	var out []*chart
	for _, op := range r.redmineOpsOf() {
		var cats []string
		for _, n := range noises {
			for _, c := range clients {
				cats = append(cats, fmt.Sprintf("%s, %d cl", n, c))
			}
		}
		var ss []series
		for _, e := range engines {
			s := series{Name: EngineLabel(e)}
			for _, n := range noises {
				for _, c := range clients {
					v := math.NaN()
					if a := idx[CellKey{Engine: e, Script: op, Threads: c, Noise: n, Kind: KindRedmine}]; a != nil && a.LatP95.N > 0 {
						v = a.LatP95.Median
					}
					s.Values = append(s.Values, v)
				}
			}
			ss = append(ss, s)
		}
		t := fmt.Sprintf("Redmine %s: p95 latency by disk noise and clients (ms)", op)
		out = append(out, &chart{Name: "redmine-latency-p95-" + op, Title: t, SVG: barChart(t, "ms", cats, ss)})
	}
	return out
}

// redmineCSVs are redmine.csv (one row per step) and redmine_ops.csv
// (one row per operation), or nothing for a run without Redmine steps.
func redmineCSVs(res *Results) map[string][][]string {
	steps := res.stepsOfKind(KindRedmine)
	if len(steps) == 0 {
		return nil
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }
	per := [][]string{{"engine", "operation", "clients", "noise", "rep", "wall_seconds", "ops", "failed_ops", "requests", "db_statements",
		"ops_per_s", "lat_mean_ms", "lat_p95_ms", "lat_p99_ms", "db_ms_per_op", "db_share", "server_cpu_ms_per_op", "server_write_bytes_per_op", "app_cpu_ms_per_op", "error"}}
	ops := [][]string{{"engine", "operation", "clients", "noise", "rep", "start_s", "latency_ms", "failed"}}
	for _, s := range steps {
		rs, m := s.Redmine, s.Metrics
		if rs == nil {
			rs = &RedmineStep{}
		}
		key := []string{s.Engine, s.Script, strconv.Itoa(s.Threads), s.Noise, strconv.Itoa(s.Rep)}
		per = append(per, append(append([]string(nil), key...), f(s.Seconds), strconv.Itoa(len(rs.Ops)), strconv.Itoa(rs.Failed),
			strconv.FormatInt(rs.Requests, 10), strconv.FormatInt(rs.Statements, 10), f(m.TPS), f(m.LatMean), f(m.LatP95), f(m.LatP99),
			f(m.DBPerOp), f(m.DBShare), f(m.CPUPerTxn*1000), f(m.WriteBytesPerTxn), f(m.AppCPUPerOp*1000), s.Error))
		for _, o := range rs.Ops {
			ops = append(ops, append(append([]string(nil), key...), f(o.T), f(o.Ms), strconv.FormatBool(o.Failed)))
		}
	}
	return map[string][][]string{"redmine.csv": per, "redmine_ops.csv": ops}
}

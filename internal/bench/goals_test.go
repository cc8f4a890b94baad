package bench

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// goalResults is a synthetic sysbench run of the three engines: every goal
// row has a known verdict (see TestGoalsSysbench).
func goalResults() *Results {
	res := &Results{Command: "strata bench sysbench", Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Options: &Options{Workload: "sysbench", Tables: 10, TableSize: 100000, Time: 10 * time.Second, Reps: 1, CacheBytes: 128 << 20, Conns: 64, WACacheBytes: 16 << 20}}
	for _, e := range AllEngines {
		res.Engines = append(res.Engines, EngineInfo{Engine: e, Label: EngineLabel(e)})
	}
	grid := func(e, script string, threads int, tps float64) {
		res.Steps = append(res.Steps, step(e, script, threads, "", flatRun(10, tps, 5, threads), 1, 0))
	}
	// point_select at 2 threads: InnoDB 1.00× (met, ≥ 1.0), MyRocks 1.11× (not met, ≥ 1.2).
	grid(EngineStrata, "oltp_point_select", 2, 1000)
	grid(EngineInnoDB, "oltp_point_select", 2, 1000)
	grid(EngineMyRocks, "oltp_point_select", 2, 900)
	// read_only: strata's peak is at 1 thread (150 TPS = 3000 QPS).
	grid(EngineStrata, "oltp_read_only", 1, 150)
	grid(EngineStrata, "oltp_read_only", 4, 100)
	grid(EngineInnoDB, "oltp_read_only", 4, 120) // 0.83× < 0.9
	grid(EngineMyRocks, "oltp_read_only", 4, 50) // 2.00× ≥ 1.2
	// write_only: InnoDB 1.50× (met); MyRocks has no figure.
	grid(EngineStrata, "oltp_write_only", 4, 300)
	grid(EngineInnoDB, "oltp_write_only", 4, 200)
	// update_index in the grid: 1.25× against both (≥ 1.5 not met, ≥ 1.2 met).
	grid(EngineStrata, "oltp_update_index", 4, 500)
	grid(EngineInnoDB, "oltp_update_index", 4, 400)
	grid(EngineMyRocks, "oltp_update_index", 4, 400)
	// Connections: strata 130 TPS = 2600 QPS = 0.87× its peak.
	for e, tps := range map[string]float64{EngineStrata: 130, EngineInnoDB: 10} {
		s := step(e, "oltp_read_only", 64, "", flatRun(10, tps, 900, 64), 1, 0)
		s.Kind = KindConns
		res.Steps = append(res.Steps, s)
	}
	// Write amplification: 1000 transactions each; strata 3000 B/txn,
	// InnoDB 12000 (0.25×, met), MyRocks 2000 (1.5×, not met — and its data
	// is only 2.5× its cache, so the comparison is not valid).
	for _, w := range []struct {
		e          string
		wb, tables int64
	}{{EngineStrata, 3000, 100 << 20}, {EngineInnoDB, 12000, 200 << 20}, {EngineMyRocks, 2000, 40 << 20}} {
		s := step(w.e, "oltp_update_index", 4, "", flatRun(10, 100, 5, 4), 1, 1000*w.wb)
		s.Kind, s.CacheBytes, s.TableBytes, s.Rows = KindWriteAmp, 16<<20, w.tables, 1_000_000
		res.Steps = append(res.Steps, s)
	}
	res.Loads = []Load{
		{Engine: EngineStrata, TableBytes: 100 << 20, DataDirBytes: 150 << 20},
		{Engine: EngineInnoDB, TableBytes: 250 << 20, DataDirBytes: 400 << 20}, // 0.40× ≤ 0.5
		{Engine: EngineMyRocks, TableBytes: 90 << 20, DataDirBytes: 500 << 20}, // 1.11× > 1.0
	}
	res.Aggs = AggregateSteps(res.Steps)
	return res
}

func TestGoalsSysbench(t *testing.T) {
	rows := goalResults().Goals()
	type verdict struct {
		name            string
		innodb, myrocks goalStatus
		strata          string // a part of strata's figure
	}
	want := []verdict{
		{"oltp_point_select QPS, 2 threads", statusMet, statusNotMet, "20000 QPS"},
		{"oltp_point_select QPS, 16 threads", statusMissing, statusMissing, notMeasured},
		{"oltp_read_only QPS, 4 threads", statusNotMet, statusMet, "2000 QPS"},
		{"oltp_read_write TPS, 4 threads", statusMissing, statusMissing, notMeasured},
		{"oltp_write_only TPS, 4 threads", statusMet, statusMissing, "300.0 TPS"},
		{"oltp_update_index TPS, 4 threads", statusNotMet, statusMet, "500.0 TPS"},
		{"oltp_insert TPS, 4 threads", statusMissing, statusMissing, notMeasured},
		{"bytes written per transaction", statusMet, statusInvalid, "2.9 KiB/txn (data 100.0 MiB = 6.2× the 16.0 MiB cache, 1M rows)"},
		{"on-disk size after prepare of 1M rows", statusMet, statusNotMet, "100.0 MiB (150.0 MiB)"},
		{"oltp_read_only at 64 connections (goal: 1024)", statusMet, statusNA, "0.87× its peak (3000 QPS at 1 threads)"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d goal rows, want %d: %+v", len(rows), len(want), rows)
	}
	for i, w := range want {
		r := rows[i]
		if !strings.HasPrefix(r.Goal, w.name) || !strings.Contains(r.Strata, w.strata) {
			t.Errorf("row %d: %q / strata %q; want %q / %q", i, r.Goal, r.Strata, w.name, w.strata)
		}
		if len(r.Peers) != 2 || r.Peers[0].Status != w.innodb || r.Peers[1].Status != w.myrocks {
			t.Errorf("%s: verdicts %+v; want InnoDB %v, MyRocks %v", w.name, r.Peers, w.innodb, w.myrocks)
		}
		for _, c := range r.Peers {
			if c.Status == statusMissing && c.Ratio != "—" {
				t.Errorf("%s: ratio %q without both figures", w.name, c.Ratio)
			}
		}
	}
	if got := rows[0].Peers[1].Ratio; got != "1.11×" {
		t.Errorf("point_select ÷ MyRocks = %q, want 1.11×", got)
	}
	if got := rows[7].Peers[0].Ratio; got != "0.25×" {
		t.Errorf("bytes per txn ÷ InnoDB = %q, want 0.25×", got)
	}
	if note := rows[7].Peers[1].Note; !strings.Contains(note, "MariaDB MyRocks data only 2.5× its cache") {
		t.Errorf("invalid write-amp note %q", note)
	}
	if got := rows[9].Peers[0].Ratio; got != "0.87× (strata's own)" {
		t.Errorf("connections ratio %q", got)
	}
}

// seedResults is a synthetic seed run: p95 at noise none and x4 for one
// script at 1 and 4 clients (x4 missing at 4 clients).
func seedResults() *Results {
	res := &Results{Command: "strata bench seed", Options: &Options{Workload: "seed", Tables: 8, TableSize: 100000, Time: 10 * time.Second, Reps: 1}}
	for _, e := range AllEngines {
		res.Engines = append(res.Engines, EngineInfo{Engine: e, Label: EngineLabel(e)})
	}
	add := func(e, noise string, clients int, p95 float64) {
		res.Steps = append(res.Steps, step(e, "oltp_update_index", clients, noise, flatRun(10, 100, p95, clients), 1, 0))
	}
	add(EngineStrata, "none", 1, 10)
	add(EngineStrata, "x4", 1, 12) // +2 ms
	add(EngineInnoDB, "none", 1, 10)
	add(EngineInnoDB, "x4", 1, 20) // +10 ms: strata 0.20× ≤ 0.3
	add(EngineMyRocks, "none", 1, 10)
	add(EngineMyRocks, "x4", 1, 10) // no growth: no ratio
	for _, e := range AllEngines {
		add(e, "none", 4, 10)
	}
	res.Aggs = AggregateSteps(res.Steps)
	return res
}

func TestGoalsSeed(t *testing.T) {
	rows := seedResults().Goals()
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2 (one per client count): %+v", len(rows), rows)
	}
	r := rows[0]
	if !strings.Contains(r.Goal, "oltp_update_index, 1 client") || r.Strata != "+2 ms (10.00 → 12.00 ms, 1.20×)" {
		t.Errorf("row 0: %q / %q", r.Goal, r.Strata)
	}
	if c := r.Peers[0]; c.Status != statusMet || c.Ratio != "0.20×" || c.Target != "≤ 0.3× the peer's growth" {
		t.Errorf("InnoDB cell %+v", c)
	}
	if c := r.Peers[1]; c.Status != statusNA || !strings.Contains(c.Ratio, "did not grow (+0 ms)") {
		t.Errorf("MyRocks cell with zero growth %+v", c)
	}
	for _, c := range rows[1].Peers {
		if c.Status != statusMissing || c.Figure != notMeasured {
			t.Errorf("4 clients without x4: %+v", c)
		}
	}
	if rows[1].Strata != notMeasured {
		t.Errorf("4 clients strata %q", rows[1].Strata)
	}
	// Growth not measured at all: one row saying so.
	empty := &Results{Options: &Options{Workload: "seed"}}
	if rows := empty.Goals(); len(rows) != 1 || rows[0].Strata != notMeasured || rows[0].Peers[0].Status != statusMissing {
		t.Errorf("empty seed goals %+v", rows)
	}
}

func TestGoalsInReport(t *testing.T) {
	dir := t.TempDir()
	if err := WriteReport(dir, goalResults()); err != nil {
		t.Fatal(err)
	}
	md := readString(t, filepath.Join(dir, "summary.md"))
	g, m := strings.Index(md, "## Goals"), strings.Index(md, "## Machine")
	if g < 0 || m < 0 || g > m {
		t.Fatalf("the Goals section must come first (goals at %d, machine at %d)", g, m)
	}
	for _, want := range []string{
		"| oltp_point_select QPS, 2 threads | 20000 QPS | 20000 QPS | 1.00× | ≥ 1.0× | yes | 18000 QPS | 1.11× | ≥ 1.2× | no |",
		"| oltp_insert TPS, 4 threads | not measured | not measured | — | ≥ 1.5× | not measured |",
		"not valid (MariaDB MyRocks data only 2.5× its cache)",
		"## Many connections", "| MariaDB InnoDB | 64 | 200.0 |",
		"## Write amplification", "| MariaDB MyRocks | 16.0 MiB | 40.0 MiB | 2.5× (below 4×) | 1M |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
	// Extra steps stay out of the grid tables: update_index at 4 threads
	// shows the grid's 500 TPS, not the write-amplification step's 100.
	if !strings.Contains(md, "| oltp_update_index | 4 | 500.0 | 400.0 |") || strings.Contains(md, "| oltp_read_only | 64 |") {
		t.Error("grid tables mix in the connections or write-amplification steps")
	}
	sd := t.TempDir()
	if err := WriteReport(sd, seedResults()); err != nil {
		t.Fatal(err)
	}
	if md := readString(t, filepath.Join(sd, "summary.md")); !strings.Contains(md, "MariaDB MyRocks's p95 did not grow") {
		t.Error("seed summary lacks the zero-growth row")
	}
}

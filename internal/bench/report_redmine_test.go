package bench

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// redmineResults is a synthetic seed run with only the Redmine load:
// create_issue at 1 process, noise none and x4, with every operation
// taking p ms (so trimmed mean = p95 = p) and half of it in the database.
func redmineResults() *Results {
	res := &Results{Command: "strata bench seed --loads redmine", Options: &Options{Workload: "seed", Time: 10 * time.Second, Reps: 1, SeedLoads: []string{"redmine"}}}
	for _, e := range AllEngines {
		res.Engines = append(res.Engines, EngineInfo{Engine: e, Label: EngineLabel(e)})
		res.Redmine = append(res.Redmine, RedmineSetup{Engine: e, Version: "5.0.4", Puma: "2 workers × 2 threads",
			Data: redmineDataFor(false, 4), Seconds: map[string]float64{"migrate": 30}})
	}
	add := func(e, noise string, p float64) {
		rs := &RedmineStep{Requests: 120, DBSeconds: 10 * p / 2 / 1000}
		for i := 0; i < 10; i++ {
			rs.Ops = append(rs.Ops, OpSample{T: float64(i), Ms: p})
		}
		st := Step{Engine: e, Script: opCreateIssue, Threads: 1, Noise: noise, Kind: KindRedmine, Rep: 1, Redmine: rs}
		st.Metrics = ComputeRedmineMetrics(rs, 10, ProcCounters{})
		res.Steps = append(res.Steps, st)
	}
	add(EngineStrata, "none", 100)
	add(EngineStrata, "x4", 110) // +10 ms
	add(EngineInnoDB, "none", 100)
	add(EngineInnoDB, "x4", 200) // +100 ms: 0.10× ≤ 0.3
	add(EngineMyRocks, "none", 100)
	add(EngineMyRocks, "x4", 105) // +5 ms: 2.00× > 1.0
	res.Aggs = AggregateSteps(res.Steps)
	return res
}

func TestGoalsRedmine(t *testing.T) {
	rows := redmineResults().Goals()
	if len(rows) != 1 {
		t.Fatalf("%d rows, want 1 (Redmine create_issue, 1 process): %+v", len(rows), rows)
	}
	r := rows[0]
	if r.Goal != "Redmine create_issue p95 growth, no noise → x4 disk noise, 1 process(es)" || r.Strata != "+10 ms (100.0 → 110.0 ms, 1.10×)" {
		t.Errorf("row: %q / %q", r.Goal, r.Strata)
	}
	if c := r.Peers[0]; c.Status != statusMet || c.Ratio != "0.10×" {
		t.Errorf("InnoDB cell %+v", c)
	}
	if c := r.Peers[1]; c.Status != statusNotMet || c.Ratio != "2.00×" {
		t.Errorf("MyRocks cell %+v", c)
	}
}

func TestRedmineReport(t *testing.T) {
	dir := t.TempDir()
	if err := WriteReport(dir, redmineResults()); err != nil {
		t.Fatal(err)
	}
	md := readString(t, filepath.Join(dir, "summary.md"))
	for _, want := range []string{
		"## Redmine", "### Redmine setup", "2000 issues × 2 comments",
		"### Redmine: p95 latency per operation (ms)",
		"| create_issue | x4 | 1 | 110.0 | 200.0 | 1.82× slower | 105.0 | 1.05× faster |",
		"### Redmine: Database share of the operation's time (%)",
		"| create_issue | none | 1 | 50.00 | 50.00 | same | 50.00 | same |",
		"Every operation succeeded.",
		"charts/redmine-latency-p95-create_issue.svg",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
	csv := readString(t, filepath.Join(dir, "redmine.csv"))
	if !strings.Contains(csv, "innodb,create_issue,1,x4,1,0,10,0,120,0,1,200,200,200,100,0.5,0,0,0,") {
		t.Errorf("redmine.csv:\n%s", csv)
	}
	if ops := readString(t, filepath.Join(dir, "redmine_ops.csv")); strings.Count(ops, "\n") != 1+6*10 {
		t.Errorf("redmine_ops.csv has %d lines, want a header and 60 operations", strings.Count(ops, "\n"))
	}
	// The sysbench tables stay out of a Redmine-only report.
	if strings.Contains(md, "## Results") {
		t.Error("a Redmine-only report has sysbench result tables")
	}
}

func TestParseSeedLoads(t *testing.T) {
	def, err := parseOptions("seed", nil, devNull(t))
	if err != nil || !def.HasSeedLoad("sysbench") || !def.HasSeedLoad("redmine") {
		t.Errorf("seed loads default: %v %v", def.SeedLoads, err)
	}
	one, err := parseOptions("seed", []string{"--loads", "Redmine,redmine"}, devNull(t))
	if err != nil || len(one.SeedLoads) != 1 || one.HasSeedLoad("sysbench") {
		t.Errorf("--loads redmine: %v %v", one.SeedLoads, err)
	}
	for _, bad := range []string{"", "tpcc", "sysbench,wordpress"} {
		if _, err := parseOptions("seed", []string{"--loads", bad}, devNull(t)); err == nil {
			t.Errorf("--loads %q accepted", bad)
		}
	}
}

package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/bench/query"
	"github.com/strata-db/strata/internal/bench/tpcc"
	"github.com/strata-db/strata/internal/bench/tpch"
)

func TestParseTPCOptions(t *testing.T) {
	h, err := parseOptions("tpch", nil, devNull(t))
	if err != nil || h.ScaleFactor != 0.1 || len(h.Queries) != 22 || h.QueryTimeout != 300*time.Second ||
		strings.Join(h.Engines, ",") != "strata,innodb" || h.Seed != 1 || h.LoadWorkers != 2 {
		t.Errorf("tpch defaults: %+v %v", h, err)
	}
	q, err := parseOptions("tpch", []string{"--quick", "--queries", "Q1,6", "--query-timeout", "5", "--engines", "strata,innodb,myrocks"}, devNull(t))
	if err != nil || q.ScaleFactor != 0.01 || len(q.Queries) != 2 || q.Queries[1] != 6 || q.QueryTimeout != 5*time.Second || len(q.Engines) != 3 {
		t.Errorf("tpch flags: %+v %v", q, err)
	}
	for _, bad := range [][]string{{"--queries", "23"}, {"--scale", "0.001"}, {"--query-timeout", "0"}, {"--threads", "4"}} {
		if _, err := parseOptions("tpch", bad, devNull(t)); err == nil {
			t.Errorf("tpch %v accepted", bad)
		}
	}
	c, err := parseOptions("tpcc", nil, devNull(t))
	if err != nil || c.Warehouses != 2 || c.Threads[0] != 4 || c.Time != 60*time.Second || strings.Join(c.Engines, ",") != "strata,innodb" {
		t.Errorf("tpcc defaults: %+v %v", c, err)
	}
	cq, err := parseOptions("tpcc", []string{"--quick", "--threads", "8"}, devNull(t))
	if err != nil || cq.Warehouses != 1 || cq.Threads[0] != 8 || cq.Time != 20*time.Second {
		t.Errorf("tpcc quick: %+v %v", cq, err)
	}
	for _, bad := range [][]string{{"--threads", "1,2"}, {"--warehouses", "0"}, {"--scale", "1"}} {
		if _, err := parseOptions("tpcc", bad, devNull(t)); err == nil {
			t.Errorf("tpcc %v accepted", bad)
		}
	}
}

func tpchResult(rows ...string) *query.Result {
	r := &query.Result{Columns: []string{"k", "v"}}
	for _, row := range rows {
		r.Rows = append(r.Rows, strings.Split(row, ","))
	}
	return r
}

func tpchSample() *Results {
	res := &Results{
		Command: "strata bench tpch --quick",
		Options: &Options{Workload: "tpch", ScaleFactor: 0.01, Reps: 1, QueryTimeout: time.Minute, Queries: []int{1, 2, 3, 4}, Seed: 1, LoadWorkers: 2, CacheBytes: 128 << 20},
		Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	}
	for _, e := range []string{EngineStrata, EngineInnoDB} {
		res.Engines = append(res.Engines, EngineInfo{Engine: e, Label: EngineLabel(e)})
		res.Loads = append(res.Loads, Load{Engine: e, Seconds: 3, SettleSeconds: 2})
	}
	ok := func(n int, secs float64) TPCHQuery {
		return TPCHQuery{N: n, Name: "q", Status: query.OK, Seconds: secs, ResultRows: 2}
	}
	timeout := TPCHQuery{N: 4, Name: "q", Status: query.Timeout, Error: "stopped by KILL QUERY after 1m0s"}
	res.TPCH = []TPCHRun{
		{Engine: EngineStrata, Rows: map[string]int{"lineitem": 60000}, Queries: []TPCHQuery{ok(1, 2), ok(2, 1), ok(3, 8), timeout}},
		{Engine: EngineInnoDB, Rows: map[string]int{"lineitem": 60000}, Queries: []TPCHQuery{ok(1, 1), ok(2, 2), ok(3, 2), ok(4, 1)}},
	}
	results := map[string]map[int]*query.Result{
		EngineStrata: {1: tpchResult("a,1", "b,2"), 2: tpchResult("b,2.0", "a,1"), 3: tpchResult("a,1", "b,3")},
		EngineInnoDB: {1: tpchResult("a,1", "b,2"), 2: tpchResult("a,1", "b,2"), 3: tpchResult("a,1", "b,2"), 4: tpchResult("x,1")},
	}
	qs := []tpch.Query{{N: 1, OrderKeys: []int{0}}, {N: 2}, {N: 3, OrderKeys: []int{0}}, {N: 4}}
	compareTPCH(res.TPCH, tpchReference([]string{EngineStrata, EngineInnoDB}), results, qs)
	return res
}

func TestCompareTPCH(t *testing.T) {
	res := tpchSample()
	got := map[int]string{}
	for _, q := range res.TPCH[0].Queries {
		got[q.N] = q.Match
	}
	if got[1] != matchSame || got[2] != matchSame || got[3] != matchDiffers || got[4] != "" {
		t.Errorf("matches %v", got)
	}
	if d := res.TPCH[0].Queries[2].Diff; !strings.Contains(d, "b | 3") {
		t.Errorf("diff %q", d)
	}
	for _, q := range res.TPCH[1].Queries {
		if q.Match != "" {
			t.Errorf("reference engine compared with itself: %+v", q)
		}
	}
	if tpchReference([]string{EngineStrata}) != "" || tpchReference([]string{EngineStrata, EngineMyRocks}) != EngineMyRocks {
		t.Error("tpchReference")
	}
}

func TestTPCHReport(t *testing.T) {
	dir := t.TempDir()
	if err := WriteReport(dir, tpchSample()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	if csv, err := os.ReadFile(filepath.Join(dir, "tpch.csv")); err != nil || !strings.Contains(string(csv), "strata,4,q,timeout,") {
		t.Errorf("tpch.csv: %v\n%s", err, csv)
	}
	for _, want := range []string{
		"# strata bench: TPC-H",
		"strata: 3 of 4 queries ran (2 with the same result as MariaDB InnoDB, 1 different), 0 failed, 1 timed out",
		"over the 3 queries both ran: strata 11.00 s, MariaDB InnoDB 5.000 s",
		"| Q1 q | 2.000 | 1.000 | 2.00× | same | 2 |",
		"| Q3 q | 8.000 | 2.000 | 4.00× | **differs** | 2 |",
		"| Q4 q | timeout | 1.000 | n/a | **timeout** | 2 |",
		"Q3 on strata: result differs: row",
		"Q4 on strata: timeout: `stopped by KILL QUERY after 1m0s`",
		"ANALYZE + settle (s)",
		"Queries run: Q1, Q2, Q3, Q4.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}
}

func TestTPCCReport(t *testing.T) {
	res := &Results{
		Command: "strata bench tpcc",
		Options: &Options{Workload: "tpcc", Warehouses: 1, Threads: []int{4}, Time: 30 * time.Second, QueryTimeout: time.Minute, Seed: 1, CacheBytes: 128 << 20},
	}
	for _, e := range []string{EngineStrata, EngineInnoDB} {
		res.Engines = append(res.Engines, EngineInfo{Engine: e, Label: EngineLabel(e)})
	}
	var st tpcc.Stats
	st.Committed[0], st.Committed[1] = 2, 1
	st.Latencies[0] = []time.Duration{time.Millisecond, 3 * time.Millisecond}
	st.Latencies[1] = []time.Duration{2 * time.Millisecond}
	st.Errors = []string{"payment (w=1): boom"}
	var run TPCCRun
	run.Engine = EngineStrata
	run.fill(&st, 30*time.Second)
	if run.TpmC != 4 || run.Tx[0].Count != 2 || run.Tx[0].LatMean != 2 || run.Tx[0].LatMax != 3 || run.ErrorCount != 1 {
		t.Errorf("fill: %+v", run)
	}
	run.ChecksAfterRun = []tpcc.CheckResult{{Name: tpcc.Checks[0].Name, Outcome: query.Outcome{Status: query.OK, Seconds: 0.5}},
		{Name: tpcc.Checks[1].Name, Outcome: query.Outcome{Status: query.OK}, Count: 1, Violations: []string{"d_id=1"}}}
	peer := TPCCRun{Engine: EngineInnoDB, TpmC: 8}
	res.TPCC = []TPCCRun{run, peer}
	dir := t.TempDir()
	if err := WriteReport(dir, res); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
	md := string(b)
	for _, want := range []string{
		"# strata bench: TPC-C",
		"| strata | 4.000 |  |",
		"strata ÷ MariaDB InnoDB 0.50×",
		"| new-order | strata | 2 | 4.000 | 0 | 2.000 |",
		"| 1: W_YTD = sum(D_YTD) | after run | holds (0.500 s) | — |",
		"**violated (1 rows): d_id=1** (0 s)",
		"strata: payment (w=1): boom",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}
}

package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/bench/query"
)

// pvResults is a pageviews run of three engines with made-up figures.
func pvResults() *Results {
	top := &query.Result{Columns: []string{"pv_id", "pv_timestamp"}, Rows: [][]string{{"9", "2024-06-01 10:00:00"}, {"7", "2024-05-01 10:00:00"}}}
	idx := func(a, b, c float64) []PVIndexTime {
		return []PVIndexTime{{Name: "idx_ts", Seconds: a}, {Name: "idx_user_ts", Seconds: b}, {Name: "idx_page", Seconds: c}}
	}
	runs := []PageViewsRun{
		{Engine: EngineStrata, LoadSeconds: 10, SizeAfterLoad: 100 << 20, Indexes: idx(1, 1, 1), SizeAfterIndexes: 150 << 20,
			Count: 1000, CountSeconds: 0.5, ColdSeconds: 1.5, WarmSeconds: 0.001, Top: top},
		{Engine: EngineInnoDB, LoadSeconds: 40, SizeAfterLoad: 200 << 20, Indexes: idx(4, 4, 4), SizeAfterIndexes: 400 << 20,
			Count: 1000, CountSeconds: 0.4, ColdSeconds: 0.2, WarmSeconds: 0.001, Top: top},
		{Engine: EngineMyRocks, LoadSeconds: 20, SizeAfterLoad: 90 << 20, Indexes: idx(2, 2, 2), SizeAfterIndexes: 140 << 20,
			Count: 999, CountSeconds: 2, ColdSeconds: 0.3, WarmSeconds: 0.002, Top: top},
	}
	res := &Results{
		Options:   &Options{Workload: "pageviews", Seed: 1, Reps: 5, PVSize: 1 << 20},
		Started:   time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Finished:  time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC),
		PageViews: &PageViewsData{Rows: 1000, Bytes: 1 << 20, Pages: pvPages, QueryUser: 5, Query: pvJoinQuery(5), Indexes: pvIndexes},
		Engines:   []EngineInfo{{Engine: EngineStrata}, {Engine: EngineInnoDB}, {Engine: EngineMyRocks}},
	}
	res.PageViewsRuns = runs
	res.PageViews.ReferenceRun = comparePageViews(res.PageViewsRuns)
	return res
}

func TestPageViewsGoals(t *testing.T) {
	rows := pvResults().PageViewsGoals()
	type want struct {
		strata         string
		innodb, myrock string // ratio
		si, sm         goalStatus
	}
	wants := []want{
		{"10.00", "0.25×", "0.50×", statusMet, statusNotMet},    // load ≤ 0.33× both
		{"3.000", "0.25×", "0.50×", statusMet, statusMet},       // ADD INDEX ≤ 0.33× InnoDB, ≤ 1.0× MyRocks
		{"0.500", "1.25×", "0.25×", statusNotMet, statusNA},     // COUNT(*) ≤ 1.0× InnoDB
		{"150.0 MiB", "0.38×", "1.07×", statusMet, statusNA},    // size ≤ 0.5× InnoDB
		{"1.500", "7.50×", "5.00×", statusNotMet, statusNotMet}, // cold ≤ 1 s, absolute
	}
	if len(rows) != len(wants) {
		t.Fatalf("%d goal rows, want %d", len(rows), len(wants))
	}
	for i, w := range wants {
		r := rows[i]
		if r.Strata != w.strata || r.Peers[0].Ratio != w.innodb || r.Peers[1].Ratio != w.myrock ||
			r.Peers[0].Status != w.si || r.Peers[1].Status != w.sm {
			t.Errorf("row %q: strata %s, ratios %s %s, status %v %v; want %+v", r.Goal, r.Strata, r.Peers[0].Ratio, r.Peers[1].Ratio,
				r.Peers[0].Status, r.Peers[1].Status, w)
		}
	}
	if rows[0].Peers[0].Target != "≤ 0.33×" || rows[4].Peers[0].Target != "strata ≤ 1 s" {
		t.Errorf("targets %q, %q", rows[0].Peers[0].Target, rows[4].Peers[0].Target)
	}
}

func TestPageViewsGoalsMissing(t *testing.T) {
	res := pvResults()
	res.PageViewsRuns = res.PageViewsRuns[:2] // no MyRocks
	res.PageViewsRuns[0].Indexes[1].Error = "boom"
	rows := res.PageViewsGoals()
	if rows[0].Peers[1].Status != statusMissing || rows[0].Peers[1].Figure != notMeasured {
		t.Errorf("load vs missing MyRocks: %+v", rows[0].Peers[1])
	}
	if rows[1].Strata != notMeasured || rows[1].Peers[0].Status != statusMissing {
		t.Errorf("ADD INDEX with a failed index: %q %+v", rows[1].Strata, rows[1].Peers[0])
	}
}

func TestComparePageViews(t *testing.T) {
	res := pvResults()
	runs := res.PageViewsRuns
	if res.PageViews.ReferenceRun != EngineInnoDB {
		t.Fatalf("reference %q", res.PageViews.ReferenceRun)
	}
	if runs[0].Match != matchSame {
		t.Errorf("strata: %q %s", runs[0].Match, runs[0].Diff)
	}
	if runs[2].Match != matchDiffers || !strings.Contains(runs[2].Diff, "COUNT(*) 999") {
		t.Errorf("myrocks: %q %s", runs[2].Match, runs[2].Diff)
	}
	other := &query.Result{Columns: runs[1].Top.Columns, Rows: [][]string{runs[1].Top.Rows[1], runs[1].Top.Rows[0]}}
	runs[0].Top = other
	comparePageViews(runs)
	if runs[0].Match != matchDiffers {
		t.Errorf("rows in another order: %q", runs[0].Match)
	}
	// A tie at the LIMIT broken differently: same timestamps, another row.
	runs[0].Top = &query.Result{Columns: runs[1].Top.Columns, Rows: [][]string{runs[1].Top.Rows[0], {"8", runs[1].Top.Rows[1][1]}}}
	comparePageViews(runs)
	if runs[0].Match != matchSame || !strings.Contains(runs[0].Diff, "tie") {
		t.Errorf("tie at the LIMIT: %q %q", runs[0].Match, runs[0].Diff)
	}
}

func TestPageViewsReport(t *testing.T) {
	dir := t.TempDir()
	if err := WriteReport(dir, pvResults()); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"## Goals",
		"| LOAD DATA page_views (s) | 10.00 | 40.00 | 20.00 | 0.25× | 0.50× |",
		"| ADD INDEX idx_user_ts (user_id, pv_timestamp) (s) | 1.000 | 4.000 | 2.000 | 0.25× | 0.50× |",
		"| COUNT(*) and top 10 vs MariaDB InnoDB | same | reference | **differs** |",
		"WHERE pv.user_id = 5",
	} {
		if !strings.Contains(string(md), s) {
			t.Errorf("summary.md lacks %q", s)
		}
	}
	csv, err := os.ReadFile(filepath.Join(dir, "pageviews.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(csv), "\n"); lines != 4 {
		t.Errorf("pageviews.csv has %d lines, want a header and 3 engines", lines)
	}
	if _, err := os.Stat(filepath.Join(dir, "steps.csv")); err == nil {
		t.Error("a pageviews run wrote steps.csv")
	}
}

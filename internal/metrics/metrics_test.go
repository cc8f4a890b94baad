package metrics

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/strata-db/strata/internal/testengine"
)

// scrape returns the /metrics page.
func scrape(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %d %v\n%s", resp.StatusCode, err, b)
	}
	return string(b)
}

// value returns the value of the sample line starting with series.
func value(t *testing.T, page, series string) float64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no sample %s in:\n%s", series, page)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestScrape(t *testing.T) {
	eng := testengine.Open(t, testengine.Options{Quiet: true})
	reg := NewRegistry(eng)
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Fatalf("lint: %v %v", problems, err)
	}
	srv := httptest.NewServer(NewHandler(reg))
	defer srv.Close()

	before := scrape(t, srv.URL)
	s := eng.NewSession("root", "localhost")
	defer s.Close()
	ctx := context.Background()
	for _, q := range []string{"CREATE DATABASE m", "CREATE TABLE m.t (id INT PRIMARY KEY)", "INSERT INTO m.t VALUES (1), (2)", "SELECT * FROM m.t", "SELECT * FROM m.t WHERE id = 1"} {
		if _, err := s.Query(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	after := scrape(t, srv.URL)
	if d := value(t, after, `strata_commands_total{command="select"}`) - value(t, before, `strata_commands_total{command="select"}`); d != 2 {
		t.Errorf("commands_total{select} grew by %v, want 2", d)
	}
	if d := value(t, after, `strata_commands_total{command="insert"}`) - value(t, before, `strata_commands_total{command="insert"}`); d != 1 {
		t.Errorf("commands_total{insert} grew by %v, want 1", d)
	}
	if d := value(t, after, "strata_commits_total") - value(t, before, "strata_commits_total"); d < 1 {
		t.Errorf("commits_total grew by %v: the autocommit INSERT was not counted", d)
	}
	if value(t, after, `strata_handler_reads_total{kind="key"}`) < 1 {
		t.Error("handler_reads_total{kind=key} did not count the point read")
	}
	if value(t, after, "strata_wal_fsyncs_total") <= value(t, before, "strata_wal_fsyncs_total") {
		t.Error("wal_fsyncs_total did not count the durable commits")
	}
	for _, series := range []string{
		`strata_lsm_level_files{level="6"}`, `strata_lsm_level_bytes{level="0"}`, "strata_compaction_debt_bytes",
		"strata_write_amplification", "strata_block_cache_hit_ratio", "strata_deadlocks_total",
		"strata_row_lock_waits_total", "strata_questions_total", "strata_transactions_open", "strata_memtable_bytes", "go_goroutines",
	} {
		value(t, after, series)
	}

	resp, err := http.Get(srv.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || strings.TrimSpace(string(b)) != "ok" {
		t.Errorf("/healthz: %d %q", resp.StatusCode, b)
	}
}

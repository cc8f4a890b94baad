package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/proc"
	"github.com/strata-db/strata/internal/testserver"
)

// TestAdminMetrics scrapes /metrics of a server started with --admin-addr.
func TestAdminMetrics(t *testing.T) {
	port, err := proc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	srv := testserver.Start(t, testserver.Options{Args: []string{"--admin-addr", addr}})
	mustExec(t, srv.DB(t, ""), "SELECT 1")
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %d %v", resp.StatusCode, err)
	}
	page := string(b)
	for _, want := range []string{
		`strata_commands_total{command="select"} `, `strata_lsm_level_files{level="6"} `,
		"strata_wal_fsyncs_total ", "strata_deadlocks_total ", "strata_block_cache_hit_ratio ",
		"strata_threads_connected ",
	} {
		if !strings.Contains(page, "\n"+want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

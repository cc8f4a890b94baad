package replication

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/proc"
	"github.com/strata-db/strata/internal/testserver"
)

// scrapeMetrics returns the /metrics page of an admin listener.
func scrapeMetrics(t *testing.T, addr string) string {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %d %v", resp.StatusCode, err)
	}
	return string(b)
}

// sample returns the value of an unlabelled series, ok false when absent.
func sample(page, name string) (float64, bool) {
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\S+)$`).FindStringSubmatch(page)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	return v, err == nil
}

// TestReplicaLagMetrics scrapes a strata replica's /metrics: no replica
// series before CHANGE REPLICATION SOURCE; while the applier is held up
// by a row lock on the replica, strata_replica_seconds_behind_source
// grows past the time it has been blocked; caught up it is 0 with both
// threads running; after STOP REPLICA both are 0 and the lag is absent
// (NULL in SHOW REPLICA STATUS).
func TestReplicaLagMetrics(t *testing.T) {
	src := testserver.Start(t, testserver.Options{Args: []string{"--log-bin", "--server-id", "2"}})
	primary := src.DB(t, "")
	mustExec(t, primary, "CREATE DATABASE d")
	mustExec(t, primary, "CREATE TABLE d.t (id INT PRIMARY KEY, n INT)")
	mustExec(t, primary, "INSERT INTO d.t VALUES (1, 0), (2, 0)")

	port, err := proc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	admin := fmt.Sprintf("127.0.0.1:%d", port)
	srv := testserver.Start(t, testserver.Options{Args: []string{"--admin-addr", admin}})
	replica := srv.DB(t, "")
	page := scrapeMetrics(t, admin)
	if _, ok := sample(page, "strata_replica_sql_running"); ok {
		t.Errorf("replica series before any CHANGE REPLICATION SOURCE:\n%s", page)
	}
	mustExec(t, replica, fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='root', SOURCE_CONNECT_RETRY=1", src.Port))
	mustExec(t, replica, "START REPLICA")
	waitCaughtUp(t, primary, replica)
	page = scrapeMetrics(t, admin)
	for name, want := range map[string]float64{
		"strata_replica_io_running": 1, "strata_replica_sql_running": 1, "strata_replica_seconds_behind_source": 0,
		"strata_replica_last_sql_errno": 0, "strata_replica_last_io_errno": 0,
	} {
		if v, ok := sample(page, name); !ok || v != want {
			t.Errorf("caught up: %s = %v (present %v), want %v", name, v, ok, want)
		}
	}

	// Hold the row the next replicated UPDATE needs.
	tx, err := replica.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("SELECT n FROM d.t WHERE id = 1 FOR UPDATE"); err != nil {
		t.Fatal(err)
	}
	mustExec(t, primary, "UPDATE d.t SET n = n + 1 WHERE id = 1")
	blocked := time.Now()
	time.Sleep(2500 * time.Millisecond)
	page = scrapeMetrics(t, admin)
	lag, ok := sample(page, "strata_replica_seconds_behind_source")
	if !ok || lag < 2 || lag > time.Since(blocked).Seconds()+2 {
		t.Errorf("applier blocked for %v: strata_replica_seconds_behind_source = %v (present %v), want about that", time.Since(blocked).Round(time.Millisecond), lag, ok)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	waitCaughtUp(t, primary, replica)
	if v, ok := sample(scrapeMetrics(t, admin), "strata_replica_seconds_behind_source"); !ok || v != 0 {
		t.Errorf("caught up again: lag %v (present %v), want 0", v, ok)
	}

	mustExec(t, replica, "STOP REPLICA")
	page = scrapeMetrics(t, admin)
	for _, name := range []string{"strata_replica_io_running", "strata_replica_sql_running"} {
		if v, ok := sample(page, name); !ok || v != 0 {
			t.Errorf("stopped: %s = %v (present %v), want 0", name, v, ok)
		}
	}
	if v, ok := sample(page, "strata_replica_seconds_behind_source"); ok {
		t.Errorf("stopped: strata_replica_seconds_behind_source = %v, want absent (NULL)", v)
	}
}

// Package crashloop runs the `strata stress` crash loop in CI: at least 10
// kill -9 cycles of a real server under concurrent transfer transactions,
// with zero lost acknowledged transactions and zero invariant or index
// violations. Skipped under -short; STRATA_BINARY selects a prebuilt server,
// STRATA_CRASHLOOP_KILLS more kills (long mode: see docs/reliability.md).
package crashloop_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/stress"
	"github.com/strata-db/strata/internal/testserver"
)

func TestCrashLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("crash loop: kills a server at least 10 times")
	}
	kills := 10
	if v := os.Getenv("STRATA_CRASHLOOP_KILLS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("STRATA_CRASHLOOP_KILLS=%q: want a positive integer", v)
		}
		kills = n
	}
	// 10 cycles of 1–3 s of load plus restart and verification fit in well
	// under a minute; Duration is a safety bound.
	cfg := stress.Config{
		Binary:      testserver.Binary(t),
		DataDir:     t.TempDir() + "/data",
		Kills:       kills,
		Loaders:     4,
		Checkers:    2,
		Accounts:    50,
		MinInterval: time.Second,
		MaxInterval: 3 * time.Second,
		Duration:    time.Duration(kills) * 9 * time.Second,
		Log:         testLog{t},
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.Duration+60*time.Second)
	defer cancel()
	rep, err := stress.Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	_ = rep.Write(&b)
	t.Log("\n" + b.String())
	if !rep.OK() {
		t.Fatalf("crash loop found %d violations (server log %s)", rep.Violations, rep.ServerLog)
	}
	if rep.Kills < kills || rep.Restarts < kills {
		t.Fatalf("only %d kills and %d restarts, want %d", rep.Kills, rep.Restarts, kills)
	}
	if rep.Acknowledged < int64(kills) {
		t.Fatalf("only %d acknowledged transactions: the workload did not run", rep.Acknowledged)
	}
	if rep.CheckerRounds == 0 {
		t.Fatal("no checker round completed")
	}
	if rep.CheckTableNote != "" {
		t.Logf("NOTE: %s", rep.CheckTableNote)
	}
}

// testLog routes progress lines to t.Log.
type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

package sql

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestProcesslistShowsRunningStatements runs a statement on one session
// and reads PROCESSLIST from another while it runs: the running session
// shows Query, its text, its database and a time that counts; afterwards
// it shows Sleep with no text. SHOW PROCESSLIST cuts Info to 100
// characters, SHOW FULL PROCESSLIST does not.
func TestProcesslistShowsRunningStatements(t *testing.T) {
	eng, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d")
	busy := eng.NewSession("root", "localhost")
	t.Cleanup(busy.Close)
	checkExec(t, busy, "USE d")

	long := "SELECT SLEEP(1.5) AS " + strings.Repeat("x", 120)
	done := make(chan error, 1)
	go func() {
		_, err := busy.Query(context.Background(), long)
		done <- err
	}()
	id := busy.ConnID
	row := func(q string) []string {
		t.Helper()
		res, err := s.Query(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for _, r := range res.Rows {
			if r[0].ToString() == strconv.FormatUint(uint64(id), 10) {
				out := make([]string, len(r))
				for i, v := range r {
					out[i] = v.ToString()
					if v.IsNull() {
						out[i] = "NULL"
					}
				}
				return out
			}
		}
		t.Fatalf("%s: thread %d not listed", q, id)
		return nil
	}
	deadline := time.Now().Add(5 * time.Second)
	for row("SHOW FULL PROCESSLIST")[4] != "Query" {
		if time.Now().After(deadline) {
			t.Fatal("the running statement never showed as Query")
		}
		time.Sleep(10 * time.Millisecond)
	}
	full := row("SHOW FULL PROCESSLIST")
	if full[3] != "d" || full[7] != long || full[6] != "executing" {
		t.Errorf("SHOW FULL PROCESSLIST row %q", full)
	}
	if short := row("SHOW PROCESSLIST"); short[7] != long[:100] {
		t.Errorf("SHOW PROCESSLIST Info %q, want the first 100 characters", short[7])
	}
	time.Sleep(1100 * time.Millisecond)
	if tm := row("SELECT ID, USER, HOST, DB, COMMAND, TIME, STATE, INFO FROM information_schema.PROCESSLIST")[5]; tm == "0" {
		t.Errorf("TIME %s after more than a second of running", tm)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if idle := row("SHOW FULL PROCESSLIST"); idle[4] != "Sleep" || idle[7] != "NULL" || idle[6] != "" {
		t.Errorf("idle thread row %q", idle)
	}
}

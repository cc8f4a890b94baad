package limits_test

import (
	"bufio"
	"context"
	"database/sql"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/testserver"
)

// rssBytes reads the resident set size of process pid from /proc.
func rssBytes(t *testing.T, pid int) int64 {
	t.Helper()
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("VmRSS %q: %v", rest, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no VmRSS in /proc/%d/status", pid)
	return 0
}

// TestSelectStreamsInBoundedMemory reads a table twice as large as the
// bound through a slow client, over the text and the binary protocol,
// and checks that the server's resident memory grew by less than the bound:
// the result goes out in batches as the scan produces it instead of being
// built whole first (which grew it by about twice the table's size).
func TestSelectStreamsInBoundedMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	// The bound leaves room for the garbage the server may hold between
	// collections (GOGC=400: up to four times its live heap of a few MiB,
	// ~25 MiB here, most of it from Vitess's binary row encoding) and still
	// catches a result built whole, which grows RSS by twice its size.
	const (
		rows  = 320_000
		bound = 48 << 20
	)
	// A small memory budget keeps the block cache (which a scan fills, and
	// which counts in RSS) at 32 MiB.
	srv := testserver.Start(t, testserver.Options{Args: []string{"--memory", strconv.Itoa(64 << 20)}})
	db := srv.DB(t, "")
	ctx := context.Background()
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"SET SESSION cte_max_recursion_depth = 1000000",
		"CREATE DATABASE mem",
		"CREATE TABLE mem.t (id INT PRIMARY KEY, k INT NOT NULL, c CHAR(255) NOT NULL, pad CHAR(60) NOT NULL)",
	} {
		if _, err := c.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for lo := 0; lo < rows; lo += 80_000 {
		q := "INSERT INTO mem.t WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 80000) " +
			"SELECT n + " + strconv.Itoa(lo) + ", n % 1000, CONCAT(n, '-', REPEAT(CHAR(65 + n % 26), 245)), REPEAT(CHAR(97 + n % 26), 60) FROM s"
		if _, err := c.ExecContext(ctx, q); err != nil {
			t.Fatalf("load: %v", err)
		}
	}
	c.Close()
	// A fresh process: the load's garbage would otherwise be free heap a
	// materialised result could reuse unseen.
	srv.Restart(t)
	db = srv.DB(t, "mem")

	for _, proto := range []struct {
		name string
		q    string
		args []any
	}{
		{"text", "SELECT * FROM t", nil},
		{"binary", "SELECT * FROM t WHERE id > ?", []any{0}},
	} {
		t.Run(proto.name, func(t *testing.T) {
			pid := srv.PID()
			// Warm up the connection and the plan outside the measurement.
			var n int
			if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM t").Scan(&n); err != nil || n != rows {
				t.Fatalf("count %d: %v", n, err)
			}
			before := rssBytes(t, pid)
			var peak atomic.Int64
			peak.Store(before)
			stop := make(chan struct{})
			done := make(chan struct{})
			go func() {
				defer close(done)
				tick := time.NewTicker(5 * time.Millisecond)
				defer tick.Stop()
				for {
					select {
					case <-stop:
						return
					case <-tick.C:
						if r := rssBytes(t, pid); r > peak.Load() {
							peak.Store(r)
						}
					}
				}
			}()
			rs, err := db.QueryContext(ctx, proto.q, proto.args...)
			if err != nil {
				t.Fatal(err)
			}
			var (
				id, k    int
				cv, pad  sql.RawBytes
				got      int
				received int64
			)
			for rs.Next() {
				if err := rs.Scan(&id, &k, &cv, &pad); err != nil {
					t.Fatal(err)
				}
				got++
				received += int64(8 + len(cv) + len(pad))
				if got%25_000 == 0 {
					time.Sleep(20 * time.Millisecond) // a slow client
				}
			}
			if err := rs.Err(); err != nil {
				t.Fatal(err)
			}
			close(stop)
			<-done
			growth := peak.Load() - before
			t.Logf("%d rows, %d MiB received; server RSS %d MiB before, grew by %.1f MiB at most",
				got, received>>20, before>>20, float64(growth)/(1<<20))
			if got != rows {
				t.Fatalf("%d rows, want %d", got, rows)
			}
			if received < 2*bound {
				t.Fatalf("the result (%d MiB) is not much larger than the bound: the test proves nothing", received>>20)
			}
			if growth >= bound {
				t.Fatalf("server RSS grew by %d MiB reading a %d MiB result; want < %d MiB", growth>>20, received>>20, bound>>20)
			}
		})
	}

	// A statement interrupted during its result: the client gets the rows
	// sent so far, then the error, and the connection stays usable.
	for _, tc := range []struct {
		name  string
		setup string
		errno uint16
	}{
		{"kill query", "", 1317},
		{"max_execution_time", "SET SESSION max_execution_time = 200", 3024},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			var id int64
			if err := c.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
				t.Fatal(err)
			}
			if tc.setup != "" {
				if _, err := c.ExecContext(ctx, tc.setup); err != nil {
					t.Fatal(err)
				}
			}
			rs, err := c.QueryContext(ctx, "SELECT * FROM t")
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for rs.Next() {
				if n++; n == 1000 {
					if tc.errno == 1317 {
						if _, err := db.ExecContext(ctx, "KILL QUERY "+strconv.FormatInt(id, 10)); err != nil {
							t.Fatal(err)
						}
					} else {
						time.Sleep(500 * time.Millisecond)
					}
				}
			}
			if errno := mysqlErrNo(rs.Err()); errno != tc.errno || n < 1000 || n >= rows {
				t.Fatalf("after %d rows: %v, want error %d", n, rs.Err(), tc.errno)
			}
			rs.Close()
			if _, err := c.ExecContext(ctx, "SET SESSION max_execution_time = 0"); err != nil {
				t.Fatal(err)
			}
			if err := c.QueryRowContext(ctx, "SELECT COUNT(*) FROM t").Scan(&n); err != nil || n != rows {
				t.Fatalf("after the error: %d rows, %v", n, err)
			}
		})
	}
}

package replication

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/testserver"
)

// TestReplicaDDLKill9: a strata replica follows a strata primary that runs
// a stream of CREATE TABLE, ALTER TABLE … ADD COLUMN, INSERT and DROP
// TABLE, and is killed with SIGKILL at random moments while it applies
// them. A DDL's applied position commits with the DDL, so after each
// restart the replica goes on without running a DDL twice (1050, 1060,
// 1051 would stop it) or skipping one, and ends with the primary's tables,
// columns and rows.
func TestReplicaDDLKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("kill -9 cycles of a real server; skipped under -short")
	}
	if err := mysql.SetLogger(log.New(io.Discard, "", 0)); err != nil {
		t.Fatal(err)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	src := testserver.Start(t, testserver.Options{Args: []string{"--log-bin", "--server-id", "2"}})
	primary := src.DB(t, "")
	mustExec(t, primary, "CREATE DATABASE d")

	srv := testserver.Start(t, testserver.Options{})
	replica := srv.DB(t, "")
	mustExec(t, replica, fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=%d, SOURCE_USER='root', SOURCE_CONNECT_RETRY=1", src.Port))
	mustExec(t, replica, "START REPLICA")
	replica.Close()

	// The primary's DDL stream runs while the replica is killed.
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var streamErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		var prev string
		for i := 0; ctx.Err() == nil; i++ {
			name := fmt.Sprintf("d.t%d", i)
			stmts := []string{
				"CREATE TABLE " + name + " (id INT PRIMARY KEY)",
				"ALTER TABLE " + name + " ADD COLUMN c1 INT",
				"INSERT INTO " + name + " VALUES (1, 1), (2, 2)",
				"ALTER TABLE " + name + " ADD COLUMN c2 INT",
			}
			if prev != "" && i%2 == 0 {
				stmts = append(stmts, "DROP TABLE "+prev)
			}
			for _, q := range stmts {
				if _, err := primary.Exec(q); err != nil {
					streamErr = fmt.Errorf("%s: %w", q, err)
					return
				}
			}
			prev = name
			time.Sleep(2 * time.Millisecond)
		}
	}()
	kills := 0
	for deadline := time.Now().Add(15 * time.Second); kills < 8 && time.Now().Before(deadline); kills++ {
		time.Sleep(time.Duration(200+rng.IntN(600)) * time.Millisecond)
		srv.Kill()
		srv.Restart(t)
	}
	cancel()
	wg.Wait()
	if streamErr != nil {
		t.Fatal(streamErr)
	}
	replica = srv.DB(t, "")
	defer replica.Close()
	waitCaughtUp(t, primary, replica)
	want, got := columnsOf(t, primary), columnsOf(t, replica)
	for tbl, cols := range want {
		if !slices.Equal(got[tbl], cols) {
			t.Errorf("d.%s: primary columns %v, replica %v", tbl, cols, got[tbl])
		}
	}
	for tbl, cols := range got {
		if _, ok := want[tbl]; !ok {
			t.Errorf("d.%s %v is on the replica, not on the primary", tbl, cols)
		}
	}
	if len(want) < 10 {
		t.Fatalf("only %d tables on the primary: the stream proves little", len(want))
	}
	n := 0
	for tbl := range want {
		compare(t, primary, replica, "d."+tbl)
		if n++; n == 20 {
			break
		}
	}
	t.Logf("%d kills of the replica, %d tables", kills, len(want))
}

// columnsOf is database d's tables and their columns in order.
func columnsOf(t *testing.T, db *sql.DB) map[string][]string {
	t.Helper()
	rows, err := db.Query("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'd' ORDER BY table_name, ordinal_position")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var tbl, col string
		if err := rows.Scan(&tbl, &col); err != nil {
			t.Fatal(err)
		}
		out[tbl] = append(out[tbl], col)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

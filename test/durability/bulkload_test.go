package durability_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/testserver"
)

// TestBulkLoadKill9 kills the server (SIGKILL) while LOAD DATA fills an
// empty table through the bulk path, at a random moment: after the
// restart the table holds all of the file's rows or none, its indexes
// agree with its rows (CHECK TABLE), and a load that was acknowledged is
// complete.
func TestBulkLoadKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("durability: kill -9 during bulk loads; skipped under -short")
	}
	if err := mysql.SetLogger(log.New(io.Discard, "", 0)); err != nil {
		t.Fatal(err)
	}
	srv := testserver.Start(t, testserver.Options{})
	db := srv.DB(t, "")
	mustExec(t, db, "CREATE DATABASE bulk")
	var dir string
	if err := db.QueryRow("SELECT @@secure_file_priv").Scan(&dir); err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	const rows = 200_000
	file := filepath.Join(dir, "rows.tsv")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range rows {
		fmt.Fprintf(w, "%d\t%d\tuser%d@example.com\thttps://example.com/p/%d\n", (i*7919)%rows, i%1000, i%5000, i)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()

	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	acked, killedMid := 0, 0
	for c := range 4 {
		db := srv.DB(t, "bulk")
		tbl := fmt.Sprintf("pv%d", c)
		mustExec(t, db, fmt.Sprintf("CREATE TABLE %s (id INT PRIMARY KEY, v INT, email VARCHAR(64), url VARCHAR(128), KEY kv (v), KEY ke (email))", tbl))
		done := make(chan error, 1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), execTimeout*3)
			defer cancel()
			_, err := db.ExecContext(ctx, fmt.Sprintf("LOAD DATA INFILE '%s' INTO TABLE %s", file, tbl))
			done <- err
		}()
		time.Sleep(time.Duration(100+rng.IntN(1400)) * time.Millisecond)
		srv.Kill()
		var loadErr error
		select {
		case loadErr = <-done:
		case <-time.After(writerStopTimeout):
			t.Fatalf("cycle %d: LOAD DATA still running after the kill", c)
		}
		_ = db.Close()
		srv.Restart(t)
		db = srv.DB(t, "bulk")
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM " + tbl).Scan(&n); err != nil {
			t.Fatal(err)
		}
		switch {
		case loadErr == nil:
			acked++
			if n != rows {
				t.Fatalf("cycle %d: the acknowledged load has %d of %d rows after kill -9", c, n, rows)
			}
		case n == 0:
			killedMid++
		case n != rows:
			t.Fatalf("cycle %d: a load killed part way left %d of %d rows (want all or none)", c, n, rows)
		}
		var table, op, typ, msg string
		if err := db.QueryRow("CHECK TABLE "+tbl).Scan(&table, &op, &typ, &msg); err != nil || msg != "OK" {
			t.Fatalf("cycle %d: CHECK TABLE %s %s (%v)", c, typ, msg, err)
		}
		t.Logf("cycle %d: load error %v; %d rows after restart", c, loadErr, n)
		_ = db.Close()
	}
	t.Logf("%d loads acknowledged, %d killed part way", acked, killedMid)
}

package durability_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/testserver"
)

const (
	writers = 4
	// idStride separates the id ranges of (cycle, writer) pairs.
	idStride = 10_000_000
	// execTimeout bounds a single statement.
	execTimeout = 10 * time.Second
	// writerStopTimeout bounds how long writers may take to notice the kill.
	writerStopTimeout = 30 * time.Second
	defaultCycles     = 10
)

func cyclesFromEnv(t *testing.T) int {
	v := os.Getenv("STRATA_DURABILITY_CYCLES")
	if v == "" {
		return defaultCycles
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("STRATA_DURABILITY_CYCLES=%q: want a positive integer", v)
	}
	return n
}

// idFor is the id of the seq-th insert of writer w in cycle c.
func idFor(c, w, seq int) int64 { return int64(c*writers+w)*idStride + int64(seq) }

// owner decodes the (cycle, writer) an id was generated for.
func owner(id int64) (c, w int) {
	r := int(id / idStride)
	return r / writers, r % writers
}

// writerResult is what one writer did in one cycle.
type writerResult struct {
	attempted []int64 // every id an INSERT was sent for
	acked     []int64 // ids whose INSERT returned no error
	// unexpected is the first error seen before the server was killed.
	unexpected error
}

// TestDurabilityKill9 is the kill -9 acceptance check: every INSERT that was
// acknowledged in autocommit mode survives a SIGKILL of the server.
func TestDurabilityKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("durability: kill -9/restart cycles of a real server take ~30 s; skipped under -short")
	}
	cycles := cyclesFromEnv(t)
	// The driver logs every connection torn down by the kill; silence it.
	if err := mysql.SetLogger(log.New(io.Discard, "", 0)); err != nil {
		t.Fatal(err)
	}

	srv := testserver.Start(t, testserver.Options{})
	admin := srv.DB(t, "")
	mustExec(t, admin, "CREATE DATABASE dur")
	mustExec(t, admin, "CREATE TABLE dur.t (id BIGINT NOT NULL PRIMARY KEY, cycle INT NOT NULL, writer INT NOT NULL, pad VARCHAR(64) NOT NULL)")
	_ = admin.Close()

	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	attempted := make(map[int64]bool)
	acked := make(map[int64]bool)
	totalAcked := 0
	for c := range cycles {
		results := runCycle(t, srv, c, time.Duration(500+rng.IntN(1500))*time.Millisecond)
		cycleAcked := 0
		for w, r := range results {
			if r.unexpected != nil {
				t.Errorf("cycle %d writer %d: INSERT failed before the kill: %v", c, w, r.unexpected)
			}
			for _, id := range r.attempted {
				attempted[id] = true
			}
			for _, id := range r.acked {
				acked[id] = true
			}
			cycleAcked += len(r.acked)
		}
		totalAcked += cycleAcked
		t.Logf("cycle %d: %d inserts acknowledged before kill -9", c, cycleAcked)

		srv.Restart(t)
		verify(t, srv, c, attempted, acked)
		if t.Failed() {
			return
		}
	}
	if totalAcked == 0 {
		t.Fatal("no INSERT was acknowledged in any cycle: the test checked nothing")
	}
}

// runCycle runs the writers against srv, SIGKILLs it after d and returns
// what each writer did.
func runCycle(t *testing.T, srv *testserver.Server, c int, d time.Duration) []writerResult {
	t.Helper()
	db, err := sql.Open("mysql", srv.DSN("dur"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(writers)
	db.SetMaxIdleConns(writers)

	var killed atomic.Bool
	results := make([]writerResult, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[w] = write(db, c, w, &killed)
		}()
	}
	time.Sleep(d)
	killed.Store(true)
	srv.Kill()

	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(writerStopTimeout):
		t.Fatalf("cycle %d: writers still running %v after the kill", c, writerStopTimeout)
	}
	return results
}

// write inserts rows with increasing ids until the server is killed (or an
// INSERT fails).
func write(db *sql.DB, c, w int, killed *atomic.Bool) writerResult {
	var r writerResult
	q := make([]byte, 0, 128)
	for seq := 0; seq < idStride; seq++ {
		id := idFor(c, w, seq)
		q = q[:0]
		q = append(q, "INSERT INTO t (id, cycle, writer, pad) VALUES ("...)
		q = strconv.AppendInt(q, id, 10)
		q = append(q, ", "...)
		q = strconv.AppendInt(q, int64(c), 10)
		q = append(q, ", "...)
		q = strconv.AppendInt(q, int64(w), 10)
		q = append(q, ", 'durability-check-padding')"...)
		r.attempted = append(r.attempted, id)
		ctx, cancel := context.WithTimeout(context.Background(), execTimeout)
		_, err := db.ExecContext(ctx, string(q))
		cancel()
		if err != nil {
			if !killed.Load() {
				r.unexpected = fmt.Errorf("INSERT id %d: %w", id, err)
			}
			return r
		}
		r.acked = append(r.acked, id)
		if killed.Load() {
			// Acknowledged just before or during the kill: still must be
			// durable, keep it; then stop.
			return r
		}
	}
	r.unexpected = errors.New("id range exhausted")
	return r
}

// verify checks after the restart following cycle c that every acknowledged
// id is present, that no id is present that was never attempted, and that
// each row's columns match its id.
func verify(t *testing.T, srv *testserver.Server, c int, attempted, acked map[int64]bool) {
	t.Helper()
	db := srv.DB(t, "dur")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rows, err := db.QueryContext(ctx, "SELECT id, cycle, writer FROM t")
	if err != nil {
		t.Fatalf("after cycle %d: SELECT: %v", c, err)
	}
	defer rows.Close()
	present := make(map[int64]bool, len(acked))
	for rows.Next() {
		var id int64
		var rc, rw int
		if err := rows.Scan(&id, &rc, &rw); err != nil {
			t.Fatalf("after cycle %d: scan: %v", c, err)
		}
		if present[id] {
			t.Errorf("after cycle %d: id %d returned twice", c, id)
		}
		present[id] = true
		if !attempted[id] {
			t.Errorf("after cycle %d: id %d is present but was never inserted", c, id)
		}
		if wc, ww := owner(id); rc != wc || rw != ww {
			t.Errorf("after cycle %d: id %d has cycle=%d writer=%d, want %d/%d", c, id, rc, rw, wc, ww)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("after cycle %d: reading rows: %v", c, err)
	}
	lost := 0
	for id := range acked {
		if !present[id] {
			if lost < 10 {
				cyc, w := owner(id)
				t.Errorf("after cycle %d: acknowledged id %d (cycle %d writer %d seq %d) is missing",
					c, id, cyc, w, id%idStride)
			}
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("after cycle %d: %d of %d acknowledged inserts lost", c, lost, len(acked))
	}
	_ = db.Close()
}

func mustExec(t *testing.T, db *sql.DB, q string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := db.ExecContext(ctx, q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

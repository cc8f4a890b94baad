package sql

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

// TestOnlineAddIndexWithDML adds indexes while another session inserts,
// updates and deletes rows: every statement succeeds, and afterwards CHECK
// TABLE finds each index equal to the rows, and a unique index built under
// DML is enforced.
func TestOnlineAddIndexWithDML(t *testing.T) {
	eng, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, v INT, w VARCHAR(20))")
	for i := 0; i < 20000; i += 1000 {
		q := "INSERT INTO t VALUES "
		for j := i; j < i+1000; j++ {
			if j > i {
				q += ","
			}
			q += fmt.Sprintf("(%d, %d, 'w%d')", j, j%97, j)
		}
		checkExec(t, s, q)
	}
	dml := eng.NewSession("root", "localhost")
	t.Cleanup(dml.Close)
	checkExec(t, dml, "USE d")
	var running atomic.Bool
	running.Store(true)
	done := make(chan error, 1)
	go func() {
		_, err := s.Query(context.Background(), "ALTER TABLE t ADD INDEX kv (v), ADD UNIQUE KEY kw (w)")
		running.Store(false)
		done <- err
	}()
	during := 0
	stages := map[string]bool{}
	for i := 0; running.Load() || i < 50; i++ {
		if running.Load() {
			res, err := dml.Query(context.Background(), fmt.Sprintf("SELECT STATE FROM information_schema.PROCESSLIST WHERE ID = %d", s.ConnID))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Rows) == 1 {
				st := res.Rows[0][0].ToString()
				if i := strings.Index(st, ":"); i > 0 {
					st = st[:i] // the row count changes
				}
				stages[st] = true
			}
		}
		for _, q := range []string{
			fmt.Sprintf("INSERT INTO t VALUES (%d, %d, 'n%d')", 100000+i, i%5, i),
			fmt.Sprintf("UPDATE t SET v = v + 1000, w = 'u%d' WHERE id = %d", i, i*3),
			fmt.Sprintf("DELETE FROM t WHERE id = %d", i*3+1),
		} {
			if _, err := dml.Query(context.Background(), q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if running.Load() {
			during++
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	t.Logf("%d rounds of DML ran during the ALTER; states seen: %v", during, stages)
	if !stages["altering table (read rows"] && !stages["altering table (read rows)"] && !stages["altering table (merge sort and ingest)"] {
		t.Errorf("PROCESSLIST never showed the build's stage: %v", stages)
	}
	res, err := s.Query(context.Background(), "CHECK TABLE t")
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Rows[len(res.Rows)-1][3].ToString(); got != "OK" {
		t.Fatalf("CHECK TABLE: %v", res.Rows)
	}
	all, err := s.Query(context.Background(), "SELECT COUNT(*) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	viaIdx, err := s.Query(context.Background(), "SELECT COUNT(*) FROM t FORCE INDEX (kv) WHERE v >= 0")
	if err != nil {
		t.Fatal(err)
	}
	if all.Rows[0][0].ToString() != viaIdx.Rows[0][0].ToString() {
		t.Fatalf("rows %v, through kv %v", all.Rows, viaIdx.Rows)
	}
	if _, err := s.Query(context.Background(), "INSERT INTO t VALUES (999999, 1, 'w5000')"); err == nil {
		t.Fatal("the unique index built online does not hold a loaded value")
	}
}

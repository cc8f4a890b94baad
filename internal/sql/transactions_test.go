package sql

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestInnodbTrxAndLockWaits holds a row lock in one session while another
// waits for it, and reads both through INNODB_TRX and STRATA_LOCK_WAITS.
func TestInnodbTrxAndLockWaits(t *testing.T) {
	eng, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d", "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 0)")
	// The statement reading INNODB_TRX runs in a transaction of its own,
	// which it lists too (as InnoDB lists autocommit reads).
	if got := queryLines(t, s, "SELECT COUNT(*), MIN(trx_mysql_thread_id = CONNECTION_ID()), MIN(trx_query LIKE 'SELECT COUNT(*)%') FROM information_schema.INNODB_TRX"); got != "1|1|1\n" {
		t.Fatalf("INNODB_TRX with no other transaction: %q", got)
	}
	a := eng.NewSession("root", "localhost")
	defer a.Close()
	b := eng.NewSession("root", "localhost")
	defer b.Close()
	checkExec(t, a, "USE d", "BEGIN", "UPDATE t SET v = 1 WHERE id = 1")
	checkExec(t, b, "USE d", "SET innodb_lock_wait_timeout = 20")
	done := make(chan error, 1)
	go func() {
		_, err := b.Query(context.Background(), "UPDATE t SET v = 2 WHERE id = 1")
		done <- err
	}()
	deadline := time.Now().Add(5 * time.Second)
	for eng.DB.Locks().Stats().Waiters != 1 {
		if time.Now().After(deadline) {
			t.Fatal("the second UPDATE does not wait")
		}
		time.Sleep(time.Millisecond)
	}
	got := queryLines(t, s, "SELECT trx_state, trx_mysql_thread_id, trx_query, trx_wait_started IS NULL, trx_requested_lock_id IS NULL, "+
		"trx_started <= NOW() FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id != CONNECTION_ID() ORDER BY trx_id")
	want := fmt.Sprintf("RUNNING|%d|NULL|1|1|1\nLOCK WAIT|%d|UPDATE t SET v = 2 WHERE id = 1|0|0|1\n", a.ConnID, b.ConnID)
	if got != want {
		t.Errorf("INNODB_TRX:\n%s\nwant\n%s", got, want)
	}
	got = queryLines(t, s, "SELECT w.REQUESTING_THREAD_ID, w.BLOCKING_THREAD_ID, w.REQUESTED_LOCK_MODE, w.LOCK_KEY != '', "+
		"w.BLOCKING_TRX_ID = (SELECT trx_id FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id = "+fmt.Sprint(a.ConnID)+") FROM information_schema.STRATA_LOCK_WAITS w")
	if want := fmt.Sprintf("%d|%d|X|1|1\n", b.ConnID, a.ConnID); got != want {
		t.Errorf("STRATA_LOCK_WAITS: %q, want %q", got, want)
	}
	checkExec(t, a, "COMMIT")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := queryLines(t, s, "SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id != CONNECTION_ID()"); got != "0\n" {
		t.Errorf("INNODB_TRX after both ended: %q", got)
	}
	if got := queryLines(t, s, "SELECT COUNT(*) FROM information_schema.STRATA_LOCK_WAITS"); !strings.HasPrefix(got, "0") {
		t.Errorf("STRATA_LOCK_WAITS after the wait: %q", got)
	}
}

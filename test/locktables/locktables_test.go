// Package locktables_test checks LOCK TABLES, UNLOCK TABLES and FLUSH
// TABLES WITH READ LOCK through the real protocol, with statements that
// wait for a lock and go on when it is released (the waits that time out
// are in test/sqltest/testdata/lock_tables.test).
package locktables_test

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/testserver"
)

func errNo(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

type fixture struct {
	t   *testing.T
	srv *testserver.Server
	db  *sql.DB
}

// conn opens a pinned connection.
func (f *fixture) conn() *sql.Conn {
	f.t.Helper()
	c, err := f.db.Conn(context.Background())
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { c.Close() })
	return c
}

func exec(t *testing.T, c *sql.Conn, q string) {
	t.Helper()
	if _, err := c.ExecContext(context.Background(), q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// async runs q on c and reports its error.
func async(c *sql.Conn, q string) <-chan error {
	ch := make(chan error, 1)
	go func() {
		_, err := c.ExecContext(context.Background(), q)
		ch <- err
	}()
	return ch
}

// blocked asserts that q is still waiting.
func blocked(t *testing.T, ch <-chan error, what string) {
	t.Helper()
	select {
	case err := <-ch:
		t.Fatalf("%s returned (%v), want it waiting", what, err)
	case <-time.After(300 * time.Millisecond):
	}
}

// done asserts that q finishes (successfully) soon.
func done(t *testing.T, ch <-chan error, what string) {
	t.Helper()
	select {
	case err := <-ch:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("%s still waiting", what)
	}
}

func count(t *testing.T, c *sql.Conn, q string) int {
	t.Helper()
	var n int
	if err := c.QueryRowContext(context.Background(), q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

func TestLockTables(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{})
	f := &fixture{t: t, srv: srv, db: srv.DB(t, "")}
	admin := f.conn()
	for _, q := range []string{"CREATE DATABASE lt", "CREATE TABLE lt.t1 (id INT PRIMARY KEY, v INT)",
		"CREATE TABLE lt.t2 (id INT PRIMARY KEY, v INT)", "INSERT INTO lt.t1 VALUES (1, 1)"} {
		exec(t, admin, q)
	}

	t.Run("READ holds back another session's INSERT until UNLOCK", func(t *testing.T) {
		a, b := f.conn(), f.conn()
		exec(t, a, "LOCK TABLES lt.t1 READ")
		ins := async(b, "INSERT INTO lt.t1 VALUES (2, 2)")
		blocked(t, ins, "INSERT under another session's READ lock")
		if n := count(t, a, "SELECT COUNT(*) FROM lt.t1"); n != 1 {
			t.Fatalf("holder reads %d rows, want 1", n)
		}
		exec(t, a, "UNLOCK TABLES")
		done(t, ins, "INSERT after UNLOCK TABLES")
	})

	t.Run("WRITE holds back another session's SELECT until UNLOCK", func(t *testing.T) {
		a, b := f.conn(), f.conn()
		exec(t, a, "LOCK TABLES lt.t1 WRITE")
		exec(t, a, "INSERT INTO lt.t1 VALUES (3, 3)")
		sel := async(b, "SELECT * FROM lt.t1")
		blocked(t, sel, "SELECT under another session's WRITE lock")
		exec(t, a, "UNLOCK TABLES")
		done(t, sel, "SELECT after UNLOCK TABLES")
	})

	t.Run("disconnect releases", func(t *testing.T) {
		a, b := f.conn(), f.conn()
		exec(t, a, "LOCK TABLES lt.t1 WRITE")
		sel := async(b, "SELECT * FROM lt.t1")
		blocked(t, sel, "SELECT under another session's WRITE lock")
		// Close the connection itself (database/sql would keep it pooled).
		if err := a.Raw(func(dc any) error { return dc.(interface{ Close() error }).Close() }); err != nil {
			t.Fatal(err)
		}
		done(t, sel, "SELECT after the holder disconnected")
	})

	t.Run("KILL releases", func(t *testing.T) {
		a, b := f.conn(), f.conn()
		exec(t, a, "FLUSH TABLES WITH READ LOCK")
		id := count(t, a, "SELECT CONNECTION_ID()")
		ins := async(b, "INSERT INTO lt.t2 VALUES (1, 1)")
		blocked(t, ins, "INSERT under another session's global read lock")
		exec(t, admin, "KILL "+strconv.Itoa(id))
		done(t, ins, "INSERT after KILL of the holder")
	})

	t.Run("START TRANSACTION releases", func(t *testing.T) {
		a, b := f.conn(), f.conn()
		exec(t, a, "LOCK TABLES lt.t1 READ")
		ins := async(b, "INSERT INTO lt.t1 VALUES (4, 4)")
		blocked(t, ins, "INSERT under another session's READ lock")
		exec(t, a, "START TRANSACTION")
		done(t, ins, "INSERT after START TRANSACTION")
		exec(t, a, "COMMIT")
	})

	t.Run("FLUSH TABLES WITH READ LOCK holds back INSERT and COMMIT", func(t *testing.T) {
		a, b, c := f.conn(), f.conn(), f.conn()
		exec(t, c, "BEGIN")
		exec(t, c, "INSERT INTO lt.t2 VALUES (10, 10)")
		exec(t, a, "FLUSH TABLES WITH READ LOCK")
		ins := async(b, "INSERT INTO lt.t2 VALUES (11, 11)")
		commit := async(c, "COMMIT")
		blocked(t, ins, "INSERT under the global read lock")
		blocked(t, commit, "COMMIT of a transaction that wrote, under the global read lock")
		if _, err := a.ExecContext(context.Background(), "INSERT INTO lt.t2 VALUES (12, 12)"); errNo(err) != 1223 {
			t.Fatalf("holder's INSERT: %v, want 1223", err)
		}
		if n := count(t, f.conn(), "SELECT COUNT(*) FROM lt.t1"); n < 1 {
			t.Fatal("read under the global read lock")
		}
		exec(t, a, "UNLOCK TABLES")
		done(t, ins, "INSERT after UNLOCK TABLES")
		done(t, commit, "COMMIT after UNLOCK TABLES")
		if n := count(t, admin, "SELECT COUNT(*) FROM lt.t2 WHERE id IN (10, 11)"); n != 2 {
			t.Fatalf("%d of the rows written around the global read lock, want 2", n)
		}
	})

	t.Run("FLUSH TABLES WITH READ LOCK waits for a running write", func(t *testing.T) {
		a, b, c := f.conn(), f.conn(), f.conn()
		// b's UPDATE runs (waiting for c's row lock) when a asks for the
		// global read lock; c's COMMIT, which ends it, still goes through.
		exec(t, c, "BEGIN")
		exec(t, c, "UPDATE lt.t1 SET v = 100 WHERE id = 1")
		upd := async(b, "UPDATE lt.t1 SET v = v + 1 WHERE id = 1")
		blocked(t, upd, "UPDATE waiting for a row lock")
		ftwrl := async(a, "FLUSH TABLES WITH READ LOCK")
		blocked(t, ftwrl, "FLUSH TABLES WITH READ LOCK beside a running UPDATE")
		exec(t, c, "COMMIT")
		done(t, upd, "UPDATE")
		done(t, ftwrl, "FLUSH TABLES WITH READ LOCK after the UPDATE")
		exec(t, a, "UNLOCK TABLES")
		if n := count(t, admin, "SELECT v FROM lt.t1 WHERE id = 1"); n != 101 {
			t.Fatalf("v = %d, want 101", n)
		}
	})

	t.Run("no deadlock locking the same tables in another order", func(t *testing.T) {
		for i := 0; i < 20; i++ {
			a, b := f.conn(), f.conn()
			x := async(a, "LOCK TABLES lt.t1 WRITE, lt.t2 WRITE")
			y := async(b, "LOCK TABLES lt.t2 WRITE, lt.t1 WRITE")
			var first, second *sql.Conn
			var rest <-chan error
			select {
			case err := <-x:
				if err != nil {
					t.Fatal(err)
				}
				first, second, rest = a, b, y
			case err := <-y:
				if err != nil {
					t.Fatal(err)
				}
				first, second, rest = b, a, x
			case <-time.After(20 * time.Second):
				t.Fatal("neither LOCK TABLES returned")
			}
			exec(t, first, "UNLOCK TABLES")
			done(t, rest, "second LOCK TABLES")
			exec(t, second, "UNLOCK TABLES")
			a.Close()
			b.Close()
		}
	})

	t.Run("lock_wait_timeout", func(t *testing.T) {
		a, b := f.conn(), f.conn()
		exec(t, a, "LOCK TABLES lt.t1 READ")
		exec(t, b, "SET lock_wait_timeout = 1")
		start := time.Now()
		if _, err := b.ExecContext(context.Background(), "LOCK TABLES lt.t2 WRITE, lt.t1 WRITE"); errNo(err) != 1205 {
			t.Fatalf("LOCK TABLES t1 WRITE under another session's READ: %v, want 1205", err)
		}
		if d := time.Since(start); d < 900*time.Millisecond || d > 10*time.Second {
			t.Fatalf("waited %v, want about 1 s", d)
		}
		// Nothing is held after the failure: t2 (locked before t1 in
		// order) is free.
		exec(t, admin, "INSERT INTO lt.t2 VALUES (20, 20)")
		exec(t, a, "UNLOCK TABLES")
	})
}

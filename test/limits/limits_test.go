// Package limits_test checks server limits and KILL through the real
// protocol: max_connections (1040), max_allowed_packet (1153), KILL QUERY
// (1317), KILL CONNECTION.
package limits_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/testserver"
)

func mysqlErrNo(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

func TestLimitsAndKill(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{})
	db := srv.DB(t, "")
	ctx := context.Background()
	admin, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	for _, q := range []string{"CREATE DATABASE lim", "CREATE TABLE lim.t (id INT PRIMARY KEY, v INT)", "INSERT INTO lim.t VALUES (1, 1)"} {
		if _, err := admin.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}

	t.Run("max_allowed_packet", func(t *testing.T) {
		if _, err := admin.ExecContext(ctx, "SET GLOBAL max_allowed_packet = 4096"); err != nil {
			t.Fatal(err)
		}
		defer admin.ExecContext(ctx, "SET GLOBAL max_allowed_packet = 67108864")
		c, err := sql.Open("mysql", srv.DSN("lim"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, err = c.ExecContext(ctx, "SELECT '"+strings.Repeat("x", 8192)+"'")
		if n := mysqlErrNo(err); n != 1153 {
			t.Fatalf("oversized statement: got %v, want error 1153", err)
		}
		// The server keeps serving other connections.
		var one int
		if err := admin.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
			t.Fatalf("server unusable after 1153: %v", err)
		}
	})

	t.Run("max_connections", func(t *testing.T) {
		if _, err := admin.ExecContext(ctx, "SET GLOBAL max_connections = 3"); err != nil {
			t.Fatal(err)
		}
		defer admin.ExecContext(ctx, "SET GLOBAL max_connections = 1024")
		var conns []*sql.DB
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		var lastErr error
		for i := 0; i < 4 && lastErr == nil; i++ {
			c, err := sql.Open("mysql", srv.DSN("lim"))
			if err != nil {
				t.Fatal(err)
			}
			c.SetMaxOpenConns(1)
			conns = append(conns, c)
			var one int
			lastErr = c.QueryRowContext(ctx, "SELECT 1").Scan(&one)
		}
		if n := mysqlErrNo(lastErr); n != 1040 {
			t.Fatalf("connection over the limit: got %v, want error 1040", lastErr)
		}
	})

	t.Run("kill_query_during_lock_wait", func(t *testing.T) {
		holder, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer holder.Close()
		waiter, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer waiter.Close()
		var waiterID int64
		if err := waiter.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&waiterID); err != nil {
			t.Fatal(err)
		}
		if _, err := holder.ExecContext(ctx, "BEGIN"); err != nil {
			t.Fatal(err)
		}
		if _, err := holder.ExecContext(ctx, "SELECT v FROM lim.t WHERE id = 1 FOR UPDATE"); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := waiter.ExecContext(ctx, "UPDATE lim.t SET v = 2 WHERE id = 1")
			done <- err
		}()
		time.Sleep(300 * time.Millisecond)
		if _, err := admin.ExecContext(ctx, fmt.Sprintf("KILL QUERY %d", waiterID)); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			if n := mysqlErrNo(err); n != 1317 {
				t.Fatalf("killed statement: got %v, want error 1317", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("KILL QUERY did not interrupt the lock wait")
		}
		if _, err := holder.ExecContext(ctx, "ROLLBACK"); err != nil {
			t.Fatal(err)
		}
		// The killed connection is still usable.
		var v int
		if err := waiter.QueryRowContext(ctx, "SELECT v FROM lim.t WHERE id = 1").Scan(&v); err != nil || v != 1 {
			t.Fatalf("after KILL QUERY: v=%d err=%v", v, err)
		}
	})

	t.Run("wait_timeout", func(t *testing.T) {
		idle, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer idle.Close()
		if _, err := idle.ExecContext(ctx, "SET SESSION wait_timeout = 1"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(3 * time.Second)
		var one int
		if err := idle.QueryRowContext(ctx, "SELECT 1").Scan(&one); err == nil {
			t.Fatal("a connection idle past wait_timeout still answers")
		}
	})

	t.Run("kill_connection", func(t *testing.T) {
		victim, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer victim.Close()
		var id int64
		if err := victim.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
			t.Fatal(err)
		}
		if _, err := admin.ExecContext(ctx, fmt.Sprintf("KILL %d", id)); err != nil {
			t.Fatal(err)
		}
		var one int
		if err := victim.QueryRowContext(ctx, "SELECT 1").Scan(&one); err == nil {
			t.Fatal("killed connection still answers")
		}
		if _, err := admin.ExecContext(ctx, "KILL 999999"); mysqlErrNo(err) != 1094 {
			t.Fatalf("KILL of unknown id: got %v, want 1094", err)
		}
	})
}

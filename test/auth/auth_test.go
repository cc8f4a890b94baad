// Package auth_test checks accounts and privileges through the real
// protocol: CREATE/ALTER/DROP USER, GRANT/REVOKE at global, database and
// table level, error codes 1045/1142/1044, persistence across a restart, and
// the refusal to listen on a non-loopback address without a root password.
package auth_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os/exec"
	"strings"
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

func connectAs(t *testing.T, srv *testserver.Server, user, pw, db string) *sql.DB {
	t.Helper()
	dsn := fmt.Sprintf("%s:%s@tcp(127.0.0.1:%d)/%s?timeout=10s", user, pw, srv.Port, db)
	c, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	c.SetMaxOpenConns(1)
	t.Cleanup(func() { c.Close() })
	return c
}

func mustExec(t *testing.T, db *sql.DB, qs ...string) {
	t.Helper()
	for _, q := range qs {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func TestAccountsAndPrivileges(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{})
	root := srv.DB(t, "")
	mustExec(t, root,
		"CREATE DATABASE app",
		"CREATE TABLE app.t (id INT PRIMARY KEY, v INT)",
		"INSERT INTO app.t VALUES (1, 10)",
		"CREATE DATABASE other",
		"CREATE USER 'alice'@'%' IDENTIFIED BY 'secret1'",
	)
	if _, err := root.Exec("CREATE USER 'alice'@'%'"); errNo(err) != 1396 {
		t.Fatalf("duplicate CREATE USER: %v, want 1396", err)
	}

	// Wrong password: 1045.
	bad := connectAs(t, srv, "alice", "nope", "")
	if err := bad.Ping(); errNo(err) != 1045 {
		t.Fatalf("wrong password: %v, want 1045", err)
	}
	nobody := connectAs(t, srv, "nobody", "", "")
	if err := nobody.Ping(); errNo(err) != 1045 {
		t.Fatalf("unknown user: %v, want 1045", err)
	}

	alice := connectAs(t, srv, "alice", "secret1", "")
	var v int
	if err := alice.QueryRow("SELECT v FROM app.t WHERE id = 1").Scan(&v); errNo(err) != 1142 {
		t.Fatalf("SELECT without privilege: %v, want 1142", err)
	}
	if _, err := alice.Exec("CREATE DATABASE mine"); errNo(err) != 1044 {
		t.Fatalf("CREATE DATABASE without privilege: %v, want 1044", err)
	}
	if _, err := alice.Exec("USE app"); errNo(err) != 1044 {
		t.Fatalf("USE without privilege: %v, want 1044", err)
	}

	mustExec(t, root, "GRANT SELECT ON app.* TO 'alice'@'%'")
	if err := alice.QueryRow("SELECT v FROM app.t WHERE id = 1").Scan(&v); err != nil || v != 10 {
		t.Fatalf("SELECT after GRANT: v=%d err=%v", v, err)
	}
	if _, err := alice.Exec("INSERT INTO app.t VALUES (2, 20)"); errNo(err) != 1142 {
		t.Fatalf("INSERT with SELECT only: %v, want 1142", err)
	}
	if err := alice.QueryRow("SELECT COUNT(*) FROM other.t").Scan(&v); errNo(err) != 1142 && errNo(err) != 1146 {
		t.Fatalf("other database: %v", err)
	}

	mustExec(t, root, "GRANT ALL PRIVILEGES ON app.* TO 'alice'@'%'")
	mustExec(t, alice, "INSERT INTO app.t VALUES (2, 20)", "UPDATE app.t SET v = 21 WHERE id = 2", "CREATE TABLE app.u (a INT)", "DROP TABLE app.u")
	mustExec(t, root, "REVOKE INSERT ON app.* FROM 'alice'@'%'")
	if _, err := alice.Exec("INSERT INTO app.t VALUES (3, 30)"); errNo(err) != 1142 {
		t.Fatalf("INSERT after REVOKE: %v, want 1142", err)
	}
	// Table-level grant on another database.
	mustExec(t, root, "CREATE TABLE other.t (id INT PRIMARY KEY)", "INSERT INTO other.t VALUES (7)", "GRANT SELECT ON other.t TO 'alice'@'%'")
	if err := alice.QueryRow("SELECT id FROM other.t").Scan(&v); err != nil || v != 7 {
		t.Fatalf("table-level grant: v=%d err=%v", v, err)
	}

	rows, err := root.Query("SHOW GRANTS FOR 'alice'@'%'")
	if err != nil {
		t.Fatal(err)
	}
	var grants []string
	for rows.Next() {
		var g string
		if err := rows.Scan(&g); err != nil {
			t.Fatal(err)
		}
		grants = append(grants, g)
	}
	rows.Close()
	if !strings.Contains(strings.Join(grants, "\n"), "ON `app`.* TO `alice`@`%`") {
		t.Fatalf("SHOW GRANTS: %q", grants)
	}

	// Non-root users cannot manage accounts.
	if _, err := alice.Exec("CREATE USER 'bob'@'%'"); errNo(err) != 1227 {
		t.Fatalf("CREATE USER by alice: %v, want 1227", err)
	}

	// Password change, and accounts survive a restart.
	mustExec(t, root, "ALTER USER 'alice'@'%' IDENTIFIED BY 'secret2'")
	srv.Restart(t)
	old := connectAs(t, srv, "alice", "secret1", "")
	if err := old.Ping(); errNo(err) != 1045 {
		t.Fatalf("old password after ALTER USER: %v, want 1045", err)
	}
	alice2 := connectAs(t, srv, "alice", "secret2", "app")
	if err := alice2.QueryRow("SELECT v FROM t WHERE id = 2").Scan(&v); err != nil || v != 21 {
		t.Fatalf("after restart: v=%d err=%v", v, err)
	}

	root2 := srv.DB(t, "")
	mustExec(t, root2, "DROP USER 'alice'@'%'")
	gone := connectAs(t, srv, "alice", "secret2", "")
	if err := gone.Ping(); errNo(err) != 1045 {
		t.Fatalf("dropped user: %v, want 1045", err)
	}
	if _, err := root2.Exec("DROP USER 'alice'@'%'"); errNo(err) != 1396 {
		t.Fatalf("DROP USER of a missing account: %v, want 1396", err)
	}
}

func TestNonLoopbackNeedsRootPassword(t *testing.T) {
	bin := testserver.Binary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "serve", "--datadir", t.TempDir(), "--port", "0", "--bind", "0.0.0.0")
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("server started on 0.0.0.0 without a root password:\n%s", out)
	}
	if !strings.Contains(string(out), "root password") {
		t.Fatalf("unclear refusal message:\n%s", out)
	}
}

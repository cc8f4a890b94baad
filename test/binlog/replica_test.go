package binlog_test

import (
	"database/sql"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/proc"
	"github.com/strata-db/strata/internal/testserver"
)

// startMariaDB starts a private MariaDB (server id 2) for the test, or
// skips the test when the binaries are missing.
func startMariaDB(t *testing.T) *sql.DB {
	t.Helper()
	db, _ := startMariaDBPort(t)
	return db
}

// startMariaDBPort is startMariaDB, also returning its port.
func startMariaDBPort(t *testing.T) (*sql.DB, int) {
	t.Helper()
	mariadbd, err := exec.LookPath("mariadbd")
	if err != nil {
		t.Skip("mariadbd not installed")
	}
	install, err := exec.LookPath("mariadb-install-db")
	if err != nil {
		t.Skip("mariadb-install-db not installed")
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if out, err := exec.Command(install, "--no-defaults", "--datadir="+data, "--user=root").CombinedOutput(); err != nil {
		t.Fatalf("mariadb-install-db: %v\n%s", err, out)
	}
	port, err := proc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	p, err := proc.Start(proc.Spec{Path: mariadbd, LogPath: filepath.Join(dir, "mariadbd.log"), Args: []string{
		"--no-defaults", "--datadir=" + data, "--user=root", fmt.Sprintf("--port=%d", port), "--bind-address=127.0.0.1",
		"--socket=" + filepath.Join(dir, "m.sock"), "--server-id=2", "--skip-grant-tables",
		"--character-set-server=utf8mb4", "--collation-server=utf8mb4_general_ci",
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Stop(30 * time.Second) })
	db, err := sql.Open("mysql", fmt.Sprintf("root@tcp(127.0.0.1:%d)/", port))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for deadline := time.Now().Add(30 * time.Second); db.Ping() != nil; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("MariaDB did not start")
		}
	}
	return db, port
}

// TestMariaDBReplica: a MariaDB 10.11 replica follows strata by file and
// position (CHANGE MASTER TO … MASTER_USE_GTID=no), through a rotation,
// and ends with the same rows.
func TestMariaDBReplica(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a MariaDB; skipped under -short")
	}
	replica := startMariaDB(t)
	srv := testserver.Start(t, testserver.Options{Args: []string{"--log-bin", "--max-binlog-size=2048"}})
	db := srv.DB(t, "")
	mustExec(t, db, "CREATE DATABASE rep")
	rep := srv.DB(t, "rep")
	mustExec(t, rep, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(64), d DECIMAL(9,3), ts DATETIME(6), e ENUM('x','y'))")
	for i := 1; i <= 20; i++ {
		mustExec(t, rep, "INSERT INTO t VALUES (?, ?, ?, '2024-01-02 03:04:05.000006', 'y')", i, strings.Repeat("v", i), fmt.Sprintf("%d.5", i))
	}
	mustExec(t, replica, fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=%d, MASTER_USER='root', MASTER_PASSWORD='', "+
		"MASTER_LOG_FILE='binlog.000001', MASTER_LOG_POS=4, MASTER_USE_GTID=no", srv.Port))
	mustExec(t, replica, "START SLAVE")
	// Changes while the replica follows.
	mustExec(t, rep, "UPDATE t SET v = 'updated', e = 'x' WHERE id % 3 = 0")
	mustExec(t, rep, "DELETE FROM t WHERE id > 15")
	mustExec(t, rep, "INSERT INTO t VALUES (100, NULL, NULL, NULL, NULL)")
	// From a connection without a current database: the DDL text is
	// qualified, CREATE TABLE ... SELECT runs its CREATE in rep.
	mustExec(t, db, "CREATE TABLE rep.c AS SELECT id, v FROM rep.t WHERE id < 5")
	// A CREATE TABLE ... SELECT that fails after its CREATE was logged:
	// the binlog drops the table again.
	if _, err := db.Exec("CREATE TABLE rep.failed (id INT PRIMARY KEY) AS SELECT 1 AS id UNION ALL SELECT 1"); errCode(err) != 1062 {
		t.Fatalf("CREATE TABLE ... SELECT with a duplicate key: %v, want 1062", err)
	}
	mustExec(t, db, "CREATE TABLE rep.other (a INT PRIMARY KEY)")
	mustExec(t, db, "INSERT INTO rep.other VALUES (1), (2)")

	var file string
	var pos uint64
	var a, b, gtids string
	if err := db.QueryRow("SHOW MASTER STATUS").Scan(&file, &pos, &a, &b, &gtids); err != nil {
		t.Fatal(err)
	}
	if file == "binlog.000001" {
		t.Fatalf("max_binlog_size 2048: the log did not rotate")
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		rows, err := replica.Query("SHOW SLAVE STATUS")
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		st := map[string]string{}
		if rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, c := range cols {
				st[c] = vals[i].String
			}
		}
		rows.Close()
		if st["Last_SQL_Error"] != "" || st["Last_IO_Error"] != "" {
			t.Fatalf("replica stopped: IO %q SQL %q", st["Last_IO_Error"], st["Last_SQL_Error"])
		}
		if st["Relay_Master_Log_File"] == file && st["Exec_Master_Log_Pos"] == fmt.Sprint(pos) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica did not catch up with %s:%d: %v", file, pos, st)
		}
		time.Sleep(100 * time.Millisecond)
	}
	dump := func(db *sql.DB) string {
		rows, err := db.Query("SELECT id, v, d, ts, e FROM rep.t ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out strings.Builder
		for rows.Next() {
			var id int
			var v, d, ts, e sql.NullString
			if err := rows.Scan(&id, &v, &d, &ts, &e); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, "%d %v %v %v %v\n", id, v, d, ts, e)
		}
		return out.String()
	}
	if got, want := dump(replica), dump(db); got != want {
		t.Fatalf("replica rows:\n%s\nstrata rows:\n%s", got, want)
	}
	for _, q := range []string{"SELECT COUNT(*), SUM(id) FROM rep.c", "SELECT COUNT(*), SUM(a) FROM rep.other"} {
		var n1, s1, n2, s2 int
		if err := replica.QueryRow(q).Scan(&n1, &s1); err != nil {
			t.Fatalf("replica %s: %v", q, err)
		}
		if err := db.QueryRow(q).Scan(&n2, &s2); err != nil {
			t.Fatal(err)
		}
		if n1 != n2 || s1 != s2 {
			t.Fatalf("%s: replica %d/%d, strata %d/%d", q, n1, s1, n2, s2)
		}
	}
	var n int
	if err := replica.QueryRow("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'rep' AND table_name = 'failed'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("the failed CREATE TABLE ... SELECT left a table on the replica (%d, %v)", n, err)
	}
	mustExec(t, replica, "STOP SLAVE")
}

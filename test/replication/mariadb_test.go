package replication

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/proc"
	"github.com/strata-db/strata/internal/testserver"
)

// startMariaDB starts a private MariaDB primary with a row-based binary
// log in a temporary directory, or skips the test.
func startMariaDB(t *testing.T) (*sql.DB, int) {
	t.Helper()
	mariadbd, err1 := exec.LookPath("mariadbd")
	install, err2 := exec.LookPath("mariadb-install-db")
	if err1 != nil || err2 != nil {
		t.Skip("mariadbd / mariadb-install-db not installed: skipping the replication test")
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	out, err := exec.Command(install, "--no-defaults", "--datadir="+data, "--auth-root-authentication-method=normal").CombinedOutput()
	if err != nil {
		t.Fatalf("mariadb-install-db: %v\n%s", err, out)
	}
	port, err := proc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	logf, err := os.Create(filepath.Join(dir, "mariadb.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(mariadbd, "--no-defaults", "--datadir="+data, fmt.Sprintf("--port=%d", port),
		"--bind-address=127.0.0.1", "--socket="+filepath.Join(dir, "m.sock"), "--log-bin=mysql-bin",
		"--binlog-format=ROW", "--server-id=100", "--user=root",
		"--character-set-server=utf8mb4", "--collation-server=utf8mb4_general_ci")
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		logf.Close()
	})
	db, err := sql.Open("mysql", fmt.Sprintf("root@tcp(127.0.0.1:%d)/?loc=UTC&time_zone=%%27%%2B00%%3A00%%27", port))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	deadline := time.Now().Add(60 * time.Second)
	for db.Ping() != nil {
		if time.Now().After(deadline) {
			t.Fatal("MariaDB primary did not start")
		}
		time.Sleep(200 * time.Millisecond)
	}
	return db, port
}

func mustExec(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// replicaStatus returns SHOW REPLICA STATUS as a map.
func replicaStatus(t *testing.T, db *sql.DB) map[string]string {
	t.Helper()
	rows, err := db.Query("SHOW REPLICA STATUS")
	if err != nil {
		t.Fatalf("SHOW REPLICA STATUS: %v", err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	m := map[string]string{}
	if !rows.Next() {
		return m
	}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	for i, c := range cols {
		m[c] = vals[i].String
		if !vals[i].Valid {
			m[c] = "NULL"
		}
	}
	return m
}

// dump is a table's rows as text, ordered by primary key.
func dump(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	rows, err := db.Query("SELECT * FROM " + table + " ORDER BY id")
	if err != nil {
		t.Fatalf("reading %s: %v", table, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]sql.RawBytes, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i, v := range vals {
			if i > 0 {
				b.WriteByte('|')
			}
			if v == nil {
				b.WriteString("NULL")
			} else {
				fmt.Fprintf(&b, "%q", v)
			}
		}
		out = append(out, b.String())
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// load runs n random transactions on the primary.
func load(t *testing.T, db *sql.DB, rng *rand.Rand, n int) {
	t.Helper()
	words := []string{"alpha", "béta", "gamma ", "日本", "", "x'y", `back\slash`}
	for i := 0; i < n; i++ {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < 1+rng.Intn(4); j++ {
			id := rng.Intn(300)
			var err error
			switch rng.Intn(3) {
			case 0:
				_, err = tx.Exec("REPLACE INTO d.t (id, n, u, s, dec1, dt, d, e, st, bl, f, ts, y, bt) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
					id, rng.Int63n(1<<40)-(1<<39), rng.Uint32(), words[rng.Intn(len(words))],
					fmt.Sprintf("%d.%02d", rng.Intn(100000)-50000, rng.Intn(100)),
					fmt.Sprintf("2024-%02d-%02d 12:%02d:%02d.%03d", 1+rng.Intn(12), 1+rng.Intn(28), rng.Intn(60), rng.Intn(60), rng.Intn(1000)),
					fmt.Sprintf("19%02d-01-31", rng.Intn(100)), []string{"a", "b", "c"}[rng.Intn(3)], "x,z",
					[]byte{byte(rng.Intn(256)), 0, byte(rng.Intn(256))}, float64(rng.Intn(1000))/8,
					fmt.Sprintf("2020-06-%02d 10:00:00", 1+rng.Intn(28)), 1990+rng.Intn(50), rng.Intn(32))
			case 1:
				_, err = tx.Exec("UPDATE d.t SET n = n + 1, s = CONCAT(s, 'u'), dt = NULL, c = REPEAT('é', 1 + id % 90) WHERE id = ?", id)
			case 2:
				_, err = tx.Exec("DELETE FROM d.t WHERE id = ?", id)
			}
			if err != nil {
				t.Fatalf("load: %v", err)
			}
		}
		if rng.Intn(10) == 0 {
			if err := tx.Rollback(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
}

// waitCaughtUp waits until the replica has applied the primary's whole
// binary log.
func waitCaughtUp(t *testing.T, primary, replica *sql.DB) {
	t.Helper()
	var file, pos string
	rows, err := primary.Query("SHOW MASTER STATUS")
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := rows.Columns()
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if !rows.Next() {
		t.Fatal("SHOW MASTER STATUS: no row")
	}
	if err := rows.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	file, pos = vals[0].String, vals[1].String
	deadline := time.Now().Add(90 * time.Second)
	for {
		st := replicaStatus(t, replica)
		if st["Last_SQL_Errno"] != "0" || st["Replica_SQL_Running"] == "No" {
			t.Fatalf("replica stopped: SQL %s %s, IO %s %s", st["Last_SQL_Errno"], st["Last_SQL_Error"], st["Last_IO_Errno"], st["Last_IO_Error"])
		}
		if st["Relay_Source_Log_File"] == file && st["Exec_Source_Log_Pos"] == pos {
			if st["Seconds_Behind_Source"] != "0" {
				t.Errorf("caught up, but Seconds_Behind_Source = %s", st["Seconds_Behind_Source"])
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica did not catch up with %s:%s: %v", file, pos, st)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func compare(t *testing.T, primary, replica *sql.DB, table string) {
	t.Helper()
	want, got := dump(t, primary, table), dump(t, replica, table)
	if len(want) != len(got) {
		t.Fatalf("%s: primary has %d rows, replica %d", table, len(want), len(got))
	}
	for i := range want {
		if want[i] != got[i] {
			t.Fatalf("%s row %d differs:\nprimary %s\nreplica %s", table, i, want[i], got[i])
		}
	}
	if len(want) == 0 {
		t.Fatalf("%s is empty: the comparison proves nothing", table)
	}
}

// TestReplicaOfMariaDB: strata follows a MariaDB primary through DDL, a
// mixed write load of many types and a kill -9 of the replica
// mid-stream, and ends with the same rows.
func TestReplicaOfMariaDB(t *testing.T) {
	primary, port := startMariaDB(t)
	mustExec(t, primary, "CREATE DATABASE d")
	mustExec(t, primary, `CREATE TABLE d.t (id INT PRIMARY KEY, n BIGINT, u INT UNSIGNED, s VARCHAR(40),
		dec1 DECIMAL(12,2), dt DATETIME(3), d DATE, e ENUM('a','b','c'), st SET('x','y','z'),
		bl VARBINARY(10), f DOUBLE, ts TIMESTAMP NULL, y YEAR, bt BIT(5), c CHAR(100))`)
	rng := rand.New(rand.NewSource(1))
	load(t, primary, rng, 50)

	srv := testserver.Start(t, testserver.Options{})
	replica := srv.DB(t, "")
	// Not configured yet: an empty status, START answers 1200.
	if st := replicaStatus(t, replica); len(st) != 0 {
		t.Fatalf("SHOW REPLICA STATUS before CHANGE: %v", st)
	}
	if _, err := replica.Exec("START REPLICA"); err == nil || !strings.Contains(err.Error(), "1200") {
		t.Fatalf("START REPLICA unconfigured: %v, want 1200", err)
	}
	mustExec(t, replica, fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=%d, MASTER_USER='root', MASTER_PASSWORD='', MASTER_CONNECT_RETRY=1", port))
	mustExec(t, replica, "START SLAVE")
	waitCaughtUp(t, primary, replica)
	compare(t, primary, replica, "d.t")
	// While running: CHANGE is 3021, RESET 3081, START a note 3083.
	for q, code := range map[string]string{"CHANGE REPLICATION SOURCE TO SOURCE_PORT=1": "3021", "RESET REPLICA": "3081"} {
		if _, err := replica.Exec(q); err == nil || !strings.Contains(err.Error(), code) {
			t.Fatalf("%s while running: %v, want %s", q, err, code)
		}
	}
	conn, err := replica.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "START REPLICA"); err != nil {
		t.Fatal(err)
	}
	var level, msg string
	var code int
	if err := conn.QueryRowContext(context.Background(), "SHOW WARNINGS").Scan(&level, &code, &msg); err != nil || code != 3083 {
		t.Fatalf("START REPLICA while running: warning %d %q (%v), want note 3083", code, msg, err)
	}
	conn.Close()

	// DDL mid-stream, and read_only does not stop the applier.
	mustExec(t, replica, "SET GLOBAL read_only = ON")
	mustExec(t, primary, "CREATE TABLE d.t2 (id INT PRIMARY KEY, v VARCHAR(10))")
	mustExec(t, primary, "INSERT INTO d.t2 VALUES (1,'one'),(2,'two')")
	mustExec(t, primary, "ALTER TABLE d.t2 ADD COLUMN w INT")
	mustExec(t, primary, "UPDATE d.t2 SET w = id * 10")
	mustExec(t, primary, "CREATE TABLE d.t3 AS SELECT id, s FROM d.t")
	load(t, primary, rng, 50)
	// The primary moves to new binary log files.
	mustExec(t, primary, "FLUSH BINARY LOGS")
	load(t, primary, rng, 50)
	mustExec(t, primary, "FLUSH BINARY LOGS")
	waitCaughtUp(t, primary, replica)
	compare(t, primary, replica, "d.t")
	compare(t, primary, replica, "d.t2")
	compare(t, primary, replica, "d.t3")

	// kill -9 of the replica while the primary writes; replication
	// resumes at restart, exactly after the last committed group.
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(300 * time.Millisecond)
		srv.Kill()
	}()
	load(t, primary, rng, 150)
	mustExec(t, primary, "FLUSH BINARY LOGS")
	load(t, primary, rng, 150)
	<-done
	srv.Restart(t)
	replica = srv.DB(t, "")
	load(t, primary, rng, 50)
	waitCaughtUp(t, primary, replica)
	compare(t, primary, replica, "d.t")
	compare(t, primary, replica, "d.t2")

	st := replicaStatus(t, replica)
	if st["Replica_IO_Running"] != "Yes" || st["Replica_SQL_Running"] != "Yes" || !strings.HasPrefix(st["Executed_Gtid_Set"], "0-100-") {
		t.Fatalf("status after catch-up: IO %s SQL %s GTID %q", st["Replica_IO_Running"], st["Replica_SQL_Running"], st["Executed_Gtid_Set"])
	}
	// An event the replica cannot apply stops the SQL thread with MySQL's
	// error: a row the replica does not have.
	mustExec(t, replica, "SET GLOBAL read_only = OFF")
	mustExec(t, replica, "DELETE FROM d.t2 WHERE id = 1")
	mustExec(t, primary, "UPDATE d.t2 SET v = 'uno' WHERE id = 1")
	deadline := time.Now().Add(30 * time.Second)
	for {
		st = replicaStatus(t, replica)
		if st["Replica_SQL_Running"] == "No" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the SQL thread did not stop on a missing row: %v", st)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if st["Last_SQL_Errno"] != "1032" {
		t.Fatalf("Last_SQL_Errno = %s (%s), want 1032", st["Last_SQL_Errno"], st["Last_SQL_Error"])
	}
	mustExec(t, replica, "STOP REPLICA")
	mustExec(t, replica, "RESET REPLICA ALL")
	if st := replicaStatus(t, replica); len(st) != 0 {
		t.Fatalf("SHOW REPLICA STATUS after RESET REPLICA ALL: %v", st)
	}
}

package binlog_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/testserver"
)

func mustExec(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func mustExecConn(t *testing.T, c *sql.Conn, q string) {
	t.Helper()
	if _, err := c.ExecContext(context.Background(), q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func queryString(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	var s string
	if err := db.QueryRow(q).Scan(&s); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s
}

func errCode(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

// mysqlbinlog decodes files with -v, failing the test on any error.
func mysqlbinlog(t *testing.T, files ...string) string {
	t.Helper()
	bin, err := exec.LookPath("mysqlbinlog")
	if err != nil {
		t.Skip("mysqlbinlog not installed (apt-get install mariadb-client)")
	}
	out, err := exec.Command(bin, append([]string{"-v"}, files...)...).Output()
	if err != nil {
		t.Fatalf("mysqlbinlog %v: %v", files, err)
	}
	return string(out)
}

// binlogFiles lists the files of the index, in order.
func binlogFiles(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "binlog.index"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, line := range strings.Fields(string(b)) {
		files = append(files, filepath.Join(dir, filepath.Base(line)))
	}
	return files
}

func TestBinlogStatementsAndRotation(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{Args: []string{"--log-bin", "--server-id=7", "--max-binlog-size=4096"}})
	db := srv.DB(t, "")
	mustExec(t, db, "CREATE DATABASE bl")
	// Unqualified, in the current database: mysqlbinlog --rewrite-db
	// renames the database of the QUERY event, not names in its text.
	bl := srv.DB(t, "bl")
	mustExec(t, bl, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(100), d DECIMAL(12,3), ts DATETIME(6))")
	bl.Close()
	for i := 1; i <= 60; i++ {
		mustExec(t, db, "INSERT INTO bl.t VALUES (?, ?, ?, ?)", i, strings.Repeat("x", i), fmt.Sprintf("%d.125", -i), "2024-05-06 07:08:09.123456")
	}
	mustExec(t, db, "UPDATE bl.t SET v = 'updated' WHERE id <= 10")
	mustExec(t, db, "DELETE FROM bl.t WHERE id > 50")
	const txns = 2 + 60 + 2

	uuid := queryString(t, db, "SELECT @@server_uuid")
	if got, want := queryString(t, db, "SELECT @@gtid_executed"), fmt.Sprintf("%s:1-%d", uuid, txns); got != want {
		t.Fatalf("@@gtid_executed = %q, want %q", got, want)
	}
	var vname, vvalue string
	if err := db.QueryRow("SHOW GLOBAL VARIABLES LIKE 'gtid_executed'").Scan(&vname, &vvalue); err != nil || vvalue != fmt.Sprintf("%s:1-%d", uuid, txns) {
		t.Fatalf("SHOW VARIABLES gtid_executed = %q (%v)", vvalue, err)
	}
	if got := queryString(t, db, "SELECT @@server_id"); got != "7" {
		t.Fatalf("@@server_id = %s", got)
	}
	var file, doDB, ignoreDB, gtids string
	var pos uint64
	if err := db.QueryRow("SHOW BINARY LOG STATUS").Scan(&file, &pos, &doDB, &ignoreDB, &gtids); err != nil {
		t.Fatal(err)
	}
	if gtids != fmt.Sprintf("%s:1-%d", uuid, txns) {
		t.Fatalf("Executed_Gtid_Set %q", gtids)
	}
	files := binlogFiles(t, srv.DataDir)
	if len(files) < 3 {
		t.Fatalf("max_binlog_size=4096: want several files, got %v", files)
	}
	if filepath.Base(files[len(files)-1]) != file {
		t.Fatalf("SHOW MASTER STATUS file %s, index ends with %s", file, files[len(files)-1])
	}
	if fi, err := os.Stat(filepath.Join(srv.DataDir, file)); err != nil || uint64(fi.Size()) != pos {
		t.Fatalf("position %d, file size %v (%v)", pos, fi.Size(), err)
	}
	rows, err := db.Query("SHOW BINARY LOGS")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for rows.Next() {
		var name, enc string
		var size int64
		if err := rows.Scan(&name, &size, &enc); err != nil {
			t.Fatal(err)
		}
		listed = append(listed, name)
	}
	rows.Close()
	if len(listed) != len(files) {
		t.Fatalf("SHOW BINARY LOGS %v, index %v", listed, files)
	}
	// Every file but the last ends with a ROTATE to the next one.
	var evType, info string
	var evPos, endPos uint64
	var sid uint32
	var logName string
	if err := db.QueryRow("SHOW BINLOG EVENTS IN '"+listed[0]+"' LIMIT 1").Scan(&logName, &evPos, &evType, &sid, &endPos, &info); err != nil {
		t.Fatal(err)
	}
	if evType != "Format_desc" || evPos != 4 || sid != 7 || !strings.Contains(info, "Binlog ver: 4") {
		t.Fatalf("first event: %s %d %d %s", evType, evPos, sid, info)
	}
	if _, err := db.Exec("SHOW BINLOG EVENTS IN 'binlog.999999'"); errCode(err) != 1220 {
		t.Fatalf("SHOW BINLOG EVENTS of an unknown file: %v, want 1220", err)
	}
	if _, err := db.Exec("SHOW BINLOG EVENTS IN '" + listed[0] + "' FROM 5"); errCode(err) != 1220 {
		t.Fatalf("SHOW BINLOG EVENTS from inside an event: %v, want 1220", err)
	}

	out := mysqlbinlog(t, files...)
	if n := strings.Count(out, "### INSERT INTO `bl`.`t`"); n != 60 {
		t.Errorf("mysqlbinlog shows %d inserts, want 60", n)
	}
	if n := strings.Count(out, "### UPDATE `bl`.`t`"); n != 10 {
		t.Errorf("mysqlbinlog shows %d updates, want 10", n)
	}
	if n := strings.Count(out, "### DELETE FROM `bl`.`t`"); n != 10 {
		t.Errorf("mysqlbinlog shows %d deletes, want 10", n)
	}
	if !strings.Contains(out, "@3=-7.125") || !strings.Contains(out, "@4='2024-05-06 07:08:09.123456'") {
		t.Errorf("mysqlbinlog output lacks decoded values")
	}
	replayIntoMariaDB(t, db, files)

	// PURGE BINARY LOGS.
	if _, err := db.Exec("PURGE BINARY LOGS TO 'binlog.999999'"); errCode(err) != 1373 {
		t.Fatalf("PURGE TO an unknown file: %v, want 1373", err)
	}
	mustExec(t, db, "PURGE BINARY LOGS TO '"+listed[2]+"'")
	after := binlogFiles(t, srv.DataDir)
	if len(after) != len(files)-2 || filepath.Base(after[0]) != listed[2] {
		t.Fatalf("after PURGE TO %s: %v", listed[2], after)
	}
	if _, err := os.Stat(files[0]); !os.IsNotExist(err) {
		t.Fatalf("%s still exists after PURGE", files[0])
	}
	if purged := queryString(t, db, "SELECT @@gtid_purged"); !strings.HasPrefix(purged, uuid+":1-") {
		t.Fatalf("@@gtid_purged = %q", purged)
	}

	// A restart continues the last file and the GTID sequence.
	srv.Restart(t)
	db = srv.DB(t, "")
	mustExec(t, db, "INSERT INTO bl.t VALUES (1000, 'after restart', 0, NULL)")
	if got, want := queryString(t, db, "SELECT @@gtid_executed"), fmt.Sprintf("%s:1-%d", uuid, txns+1); got != want {
		t.Fatalf("after restart @@gtid_executed = %q, want %q", got, want)
	}
	out = mysqlbinlog(t, binlogFiles(t, srv.DataDir)...)
	if !strings.Contains(out, "'after restart'") {
		t.Fatalf("the insert after the restart is not in the binlog")
	}

	// Not logged: sql_log_bin=0, temporary tables.
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	before := queryString(t, db, "SELECT @@gtid_executed")
	for _, q := range []string{
		"SET SESSION sql_log_bin = 0",
		"INSERT INTO bl.t VALUES (2000, 'unlogged', 0, NULL)",
		"CREATE TABLE bl.unlogged (a INT)",
		"SET SESSION sql_log_bin = 1",
		"CREATE TEMPORARY TABLE bl.tmp (a INT PRIMARY KEY)",
		"INSERT INTO bl.tmp VALUES (1)",
		"DROP TEMPORARY TABLE bl.tmp",
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if after := queryString(t, db, "SELECT @@gtid_executed"); after != before {
		t.Fatalf("unlogged statements moved @@gtid_executed from %q to %q", before, after)
	}
	// Savepoint and statement rollbacks take their rows out of the
	// transaction's events; a rolled-back transaction logs nothing.
	for _, q := range []string{
		"BEGIN",
		"INSERT INTO bl.t VALUES (3001, 'kept', 0, NULL)",
		"SAVEPOINT s",
		"INSERT INTO bl.t VALUES (3002, 'rolled back to savepoint', 0, NULL)",
		"ROLLBACK TO SAVEPOINT s",
		"INSERT INTO bl.t VALUES (3003, 'kept too', 0, NULL), (3001, 'duplicate: the statement fails', 0, NULL)",
	} {
		_, err := conn.ExecContext(ctx, q)
		if strings.HasPrefix(q, "INSERT INTO bl.t VALUES (3003") {
			if errCode(err) != 1062 {
				t.Fatalf("%s: %v, want 1062", q, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	mustExecConn(t, conn, "INSERT INTO bl.t VALUES (3004, 'kept', 0, NULL)")
	mustExecConn(t, conn, "COMMIT")
	mustExecConn(t, conn, "BEGIN")
	mustExecConn(t, conn, "INSERT INTO bl.t VALUES (3005, 'rolled back', 0, NULL)")
	mustExecConn(t, conn, "ROLLBACK")
	out = mysqlbinlog(t, binlogFiles(t, srv.DataDir)...)
	for id, want := range map[int]bool{3001: true, 3002: false, 3003: false, 3004: true, 3005: false} {
		if got := strings.Contains(out, fmt.Sprintf("###   @1=%d\n", id)); got != want {
			t.Errorf("id %d in the binlog: %v, want %v", id, got, want)
		}
	}

	// JSON is logged in MySQL's binary JSON (internal/binlog's tests
	// decode it with Vitess; MariaDB's mysqlbinlog cannot read it, as it
	// cannot read MySQL 8.0's).
	mustExec(t, db, "CREATE TABLE bl.j (id INT PRIMARY KEY, doc JSON)")
	before = queryString(t, db, "SELECT @@gtid_executed")
	mustExec(t, db, `INSERT INTO bl.j VALUES (1, '{"a": [1, 2.5, "x"], "b": null}')`)
	if after := queryString(t, db, "SELECT @@gtid_executed"); after == before {
		t.Fatalf("the JSON insert was not logged")
	}
}

// replayIntoMariaDB pipes mysqlbinlog's output of files into a private
// MariaDB (or the one at STRATA_BINLOG_REPLAY_ADDR, host:port) under a
// rewritten database name and compares the rows. Without the MariaDB
// binaries or client the replay is skipped (logged).
func replayIntoMariaDB(t *testing.T, strata *sql.DB, files []string) {
	client, err := exec.LookPath("mariadb")
	if err != nil {
		t.Log("replay skipped: no mariadb client")
		return
	}
	addr := os.Getenv("STRATA_BINLOG_REPLAY_ADDR")
	var mdb *sql.DB
	if addr != "" {
		if mdb, err = sql.Open("mysql", "root@tcp("+addr+")/"); err == nil {
			err = mdb.Ping()
		}
		if err != nil {
			t.Fatalf("STRATA_BINLOG_REPLAY_ADDR=%s: %v", addr, err)
		}
		defer mdb.Close()
	} else {
		if _, err := exec.LookPath("mariadbd"); err != nil {
			t.Log("replay skipped: no mariadbd")
			return
		}
		var port int
		mdb, port = startMariaDBPort(t)
		addr = fmt.Sprintf("127.0.0.1:%d", port)
	}
	target := fmt.Sprintf("binlog_replay_%d", os.Getpid())
	mustExec(t, mdb, "DROP DATABASE IF EXISTS "+target)
	mustExec(t, mdb, "CREATE DATABASE "+target)
	defer mdb.Exec("DROP DATABASE IF EXISTS " + target)
	host, port, _ := strings.Cut(addr, ":")
	script := fmt.Sprintf("mysqlbinlog --rewrite-db='bl->%s' %s 2>/dev/null | grep -v '^CREATE DATABASE bl$' | %s -h %s -P %s -u root %s",
		target, strings.Join(files, " "), client, host, port, target)
	if out, err := exec.Command("sh", "-c", script).CombinedOutput(); err != nil {
		t.Fatalf("replay: %v\n%s", err, out)
	}
	dump := func(db *sql.DB, name string) string {
		rows, err := db.Query("SELECT id, v, d, ts FROM " + name + ".t ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var b strings.Builder
		for rows.Next() {
			var id int
			var v, d, ts sql.NullString
			if err := rows.Scan(&id, &v, &d, &ts); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%d %v %v %v\n", id, v, d, ts)
		}
		return b.String()
	}
	if got, want := dump(mdb, target), dump(strata, "bl"); got != want {
		t.Fatalf("replayed rows differ:\nMariaDB:\n%s\nstrata:\n%s", got, want)
	}
}

// TestBinlogKill9 commits under load, kills the server with SIGKILL,
// restarts it, and checks that the binlog and the data agree: every
// acknowledged insert is in the table and in the binlog, the binlog's
// inserted ids are exactly the table's, and @@gtid_executed counts the
// binlog's transactions.
func TestBinlogKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("kill -9 cycles of a real server; skipped under -short")
	}
	if _, err := exec.LookPath("mysqlbinlog"); err != nil {
		t.Skip("mysqlbinlog not installed")
	}
	if err := mysql.SetLogger(log.New(io.Discard, "", 0)); err != nil {
		t.Fatal(err)
	}
	srv := testserver.Start(t, testserver.Options{Args: []string{"--log-bin", "--max-binlog-size=65536"}})
	admin := srv.DB(t, "")
	mustExec(t, admin, "CREATE DATABASE k")
	mustExec(t, admin, "CREATE TABLE k.t (id BIGINT PRIMARY KEY, pad VARCHAR(64))")
	admin.Close()

	acked := map[int64]bool{}
	for cycle := 0; cycle < 3; cycle++ {
		db := srv.DB(t, "")
		var mu sync.Mutex
		var wg sync.WaitGroup
		ctx, cancel := context.WithCancel(context.Background())
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for seq := 0; ctx.Err() == nil; seq++ {
					id := int64(cycle*4+w)*10_000_000 + int64(seq)
					cctx, c2 := context.WithTimeout(ctx, 10*time.Second)
					_, err := db.ExecContext(cctx, "INSERT INTO k.t VALUES (?, REPEAT('p', 40))", id)
					c2()
					if err != nil {
						return
					}
					mu.Lock()
					acked[id] = true
					mu.Unlock()
				}
			}(w)
		}
		time.Sleep(700 * time.Millisecond)
		srv.Kill()
		cancel()
		wg.Wait()
		db.Close()
		srv.Restart(t)
	}

	db := srv.DB(t, "")
	inTable := map[int64]bool{}
	rows, err := db.Query("SELECT id FROM k.t")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		inTable[id] = true
	}
	rows.Close()
	out := mysqlbinlog(t, binlogFiles(t, srv.DataDir)...)
	inLog := map[int64]bool{}
	re := regexp.MustCompile(`(?m)^### INSERT INTO ` + "`k`.`t`" + `\n### SET\n###   @1=(\d+)`)
	for _, m := range re.FindAllStringSubmatch(out, -1) {
		id, _ := strconv.ParseInt(m[1], 10, 64)
		if inLog[id] {
			t.Fatalf("id %d logged twice", id)
		}
		inLog[id] = true
	}
	for id := range acked {
		if !inTable[id] {
			t.Fatalf("acknowledged id %d lost from the table", id)
		}
		if !inLog[id] {
			t.Fatalf("acknowledged id %d missing from the binlog", id)
		}
	}
	if len(inLog) != len(inTable) {
		var extra []int64
		for id := range inTable {
			if !inLog[id] {
				extra = append(extra, id)
			}
		}
		for id := range inLog {
			if !inTable[id] {
				extra = append(extra, id)
			}
		}
		sort.Slice(extra, func(i, j int) bool { return extra[i] < extra[j] })
		t.Fatalf("binlog has %d inserted rows, table %d; differing ids %v", len(inLog), len(inTable), extra[:min(10, len(extra))])
	}
	uuid := queryString(t, db, "SELECT @@server_uuid")
	gtids := strings.Count(out, "Ignorable event type 33 (MySQL Gtid)")
	if got, want := queryString(t, db, "SELECT @@gtid_executed"), fmt.Sprintf("%s:1-%d", uuid, gtids); got != want {
		t.Fatalf("@@gtid_executed = %q, the binlog holds %d transactions (%s)", got, gtids, want)
	}
	if len(acked) == 0 {
		t.Fatal("no insert was acknowledged")
	}
	t.Logf("%d acknowledged inserts, %d rows, %d transactions in the binlog", len(acked), len(inTable), gtids)
}

package binlog_test

import (
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/testserver"
)

// TestMysqlbinlogIntoStrata pipes MariaDB's mysqlbinlog output of a strata
// binary log into a second strata through the mariadb client (--force):
// every session SET and every DDL statement of the output runs (the
// second server ends with the source's schema); the only errors are the
// BINLOG '…' statements carrying the row events, refused with 1235, since
// strata does not execute binary log events.
func TestMysqlbinlogIntoStrata(t *testing.T) {
	bin, err := exec.LookPath("mysqlbinlog")
	if err != nil {
		t.Skip("mysqlbinlog not installed (apt-get install mariadb-client)")
	}
	client, err := exec.LookPath("mariadb")
	if err != nil {
		if client, err = exec.LookPath("mysql"); err != nil {
			t.Skip("no mariadb/mysql client")
		}
	}
	src := testserver.Start(t, testserver.Options{Args: []string{"--log-bin"}})
	db := src.DB(t, "")
	mustExec(t, db, "CREATE DATABASE r")
	mustExec(t, db, "CREATE TABLE r.a (id INT PRIMARY KEY, v VARCHAR(40), d DECIMAL(10,2), ts DATETIME(3))")
	mustExec(t, db, "INSERT INTO r.a VALUES (1, 'héllo wörld', 1.25, '2024-01-02 03:04:05.678'), (2, NULL, NULL, NULL)")
	mustExec(t, db, "UPDATE r.a SET v = 'ünïcode' WHERE id = 2")
	mustExec(t, db, "CREATE TABLE r.b (k BIGINT UNSIGNED PRIMARY KEY, j JSON)")
	mustExec(t, db, "ALTER TABLE r.b ADD COLUMN n INT NULL")
	mustExec(t, db, "DELETE FROM r.a WHERE id = 1")

	dst := testserver.Start(t, testserver.Options{})
	files := strings.Join(binlogFiles(t, src.DataDir), " ")
	script := bin + " " + files + " | " + client + " --force -h 127.0.0.1 -P " + strconv.Itoa(dst.Port) + " -u root 2>&1"
	out, _ := exec.Command("sh", "-c", script).CombinedOutput()
	errLine := regexp.MustCompile(`^ERROR (\d+) `)
	binlogErrors := 0
	for _, line := range strings.Split(string(out), "\n") {
		m := errLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if m[1] != "1235" || !strings.Contains(line, "BINLOG") {
			t.Errorf("replay: %s", line)
			continue
		}
		binlogErrors++
	}
	// The format description event and the three row transactions.
	if binlogErrors != 4 {
		t.Errorf("%d BINLOG statements refused, want 4:\n%s", binlogErrors, out)
	}
	ddb := dst.DB(t, "")
	for _, tbl := range []string{"r.a", "r.b"} {
		var n1, n2, s1, s2 string
		if err := db.QueryRow("SHOW CREATE TABLE "+tbl).Scan(&n1, &s1); err != nil {
			t.Fatal(err)
		}
		if err := ddb.QueryRow("SHOW CREATE TABLE "+tbl).Scan(&n2, &s2); err != nil {
			t.Fatalf("%s after the replay: %v", tbl, err)
		}
		if s1 != s2 {
			t.Errorf("%s: replayed\n%s\nsource\n%s", tbl, s2, s1)
		}
	}
}

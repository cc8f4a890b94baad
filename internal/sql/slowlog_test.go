package sql

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSlowQueryLog turns the slow query log on with SET GLOBAL, checks the
// entries are in MySQL's format with the statement's rows, and that
// statements faster than long_query_time and statements run after the
// log is turned off are not written.
func TestSlowQueryLog(t *testing.T) {
	_, s := newTestEngine(t)
	path := filepath.Join(t.TempDir(), "slow.log")
	checkExec(t, s, "CREATE DATABASE d", "USE d", "CREATE TABLE t (id INT PRIMARY KEY, v INT)",
		"INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
	if got := queryLines(t, s, "SELECT @@global.long_query_time, @@slow_query_log"); got != "10.000000|0\n" {
		t.Fatalf("defaults: %q", got)
	}
	checkExec(t, s, "SET GLOBAL long_query_time = 0.25")
	if got := queryLines(t, s, "SELECT @@global.long_query_time"); got != "0.250000\n" {
		t.Fatalf("long_query_time = 0.25 reads %q", got)
	}
	checkExec(t, s, "SET GLOBAL slow_query_log_file = '"+path+"'", "SET GLOBAL slow_query_log = ON")
	checkExec(t, s, "SELECT v FROM t WHERE id = 2")    // fast: not logged
	checkExec(t, s, "SET SESSION long_query_time = 0") // every statement is slow now
	checkExec(t, s, "SELECT v FROM t WHERE id > 1", "UPDATE t SET v = v + 1 WHERE id = 3")
	checkExec(t, s, "SET GLOBAL slow_query_log = OFF", "SELECT 'after'")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	if strings.Contains(log, "id = 2") || strings.Contains(log, "'after'") {
		t.Errorf("slow log holds a statement it should not:\n%s", log)
	}
	entry := regexp.MustCompile(`# Time: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z
# User@Host: root\[root\] @ localhost \[\]  Id: +\d+
# Query_time: \d+\.\d{6}  Lock_time: 0\.000000 Rows_sent: 2  Rows_examined: 3
SET timestamp=\d+;
SELECT v FROM t WHERE id > 1;
`)
	// The key read and two next reads examined the rows; the database
	// was named once, at the first entry.
	if !entry.MatchString(log) || strings.Count(log, "use d;\n") != 1 {
		t.Errorf("no entry for the range SELECT in MySQL's format:\n%s", log)
	}
	if !strings.Contains(log, "Rows_sent: 0  Rows_examined: 1\nSET timestamp=") || !strings.Contains(log, "UPDATE t SET v = v + 1 WHERE id = 3;\n") {
		t.Errorf("no entry for the UPDATE:\n%s", log)
	}
	checkExec(t, s, "SET GLOBAL long_query_time = DEFAULT")
}

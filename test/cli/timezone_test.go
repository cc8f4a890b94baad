package cli_test

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/testserver"
)

// TestMySQLDumpTimeZones: mysqldump writes SET TIME_ZONE='+00:00' before
// the rows (TIMESTAMP values in UTC) and restores the session's zone after
// them, so a dump taken by a session in one zone and loaded by sessions of
// another gives the same instants; DATETIME values are copied as written.
// The server starts with --default-time-zone, which sessions inherit.
func TestMySQLDumpTimeZones(t *testing.T) {
	for _, tool := range []string{"mysql", "mysqldump"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (scripts/test.sh installs mariadb-client)", tool)
		}
	}
	srv := testserver.Start(t, testserver.Options{Args: []string{"--default-time-zone", "America/New_York"}})
	out, err := mysql(t, srv.Port, "", `
SELECT @@global.time_zone, @@time_zone;
CREATE DATABASE tzsrc;
USE tzsrc;
CREATE TABLE t (id INT PRIMARY KEY, ts TIMESTAMP(3) NULL, dt DATETIME NULL, KEY (ts));
INSERT INTO t VALUES (1, '2020-11-01 01:30:00.250', '2020-11-01 01:30:00'), (2, '2021-06-01 12:00:00', '2021-06-01 12:00:00');
SET time_zone = '+00:00';
INSERT INTO t VALUES (3, '2020-11-01 06:30:00', '2020-11-01 06:30:00');
`)
	if err != nil {
		t.Fatalf("setup: %v\n%s", err, out)
	}
	if !strings.Contains(out, "America/New_York\tAmerica/New_York") {
		t.Errorf("--default-time-zone not in effect:\n%s", out)
	}
	const utcRows = "1\t2020-11-01 05:30:00.250\t2020-11-01 01:30:00\n" +
		"2\t2021-06-01 16:00:00.000\t2021-06-01 12:00:00\n" +
		"3\t2020-11-01 06:30:00.000\t2020-11-01 06:30:00\n"
	read := "SET time_zone = '+00:00'; SELECT id, ts, dt FROM t ORDER BY id; SELECT id FROM t FORCE INDEX (ts) WHERE ts > '2020-11-01 06:00:00' ORDER BY id;\n"
	out, err = mysql(t, srv.Port, "tzsrc", read)
	if err != nil || !strings.Contains(out, utcRows) {
		t.Fatalf("source rows: %v\n%s", err, out)
	}

	dump, err := exec.Command("mysqldump", "-h127.0.0.1", "-P"+strconv.Itoa(srv.Port), "-uroot", "tzsrc").CombinedOutput()
	if err != nil {
		t.Fatalf("mysqldump: %v\n%s", err, dump)
	}
	for _, want := range []string{"SET TIME_ZONE='+00:00'", "'2020-11-01 05:30:00.250'", "'2020-11-01 06:30:00.000'", "SET TIME_ZONE=@OLD_TIME_ZONE"} {
		if !strings.Contains(string(dump), want) {
			t.Errorf("dump lacks %q:\n%s", want, dump)
		}
	}
	// New sessions now start in another zone: the restore must not shift
	// the instants.
	if out, err := mysql(t, srv.Port, "", "SET GLOBAL time_zone = 'Asia/Tokyo'; CREATE DATABASE tzdst;"); err != nil {
		t.Fatalf("create: %v\n%s", err, out)
	}
	if out, err := mysql(t, srv.Port, "tzdst", string(dump)+"\nSELECT @@time_zone;\n"); err != nil || !strings.HasSuffix(out, "Asia/Tokyo\n") {
		t.Fatalf("restore (the session's zone must come back): %v\n%s", err, out)
	}
	out, err = mysql(t, srv.Port, "tzdst", read)
	if err != nil || !strings.Contains(out, utcRows) || !strings.HasSuffix(out, "id\n2\n3\n") {
		t.Errorf("restored rows differ: %v\n%s", err, out)
	}
	out, err = mysql(t, srv.Port, "tzdst", "SELECT id, ts FROM t ORDER BY id;\n")
	if err != nil || !strings.Contains(out, "1\t2020-11-01 14:30:00.250\n2\t2021-06-02 01:00:00.000\n3\t2020-11-01 15:30:00.000\n") {
		t.Errorf("restored rows in Asia/Tokyo: %v\n%s", err, out)
	}
}

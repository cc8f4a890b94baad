// Package cli_test drives strata with the real mysql command-line client
// (Debian's mariadb-client), as a user would.
package cli_test

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/testserver"
)

// mysql runs one batch through the mysql client and returns its output and
// exit error.
func mysql(t *testing.T, port int, db, sql string) (string, error) {
	t.Helper()
	args := []string{"-h127.0.0.1", "-P" + strconv.Itoa(port), "-uroot", "--batch"}
	if db != "" {
		args = append(args, db)
	}
	cmd := exec.Command("mysql", args...)
	cmd.Stdin = strings.NewReader(sql)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestMySQLClient(t *testing.T) {
	if _, err := exec.LookPath("mysql"); err != nil {
		t.Skip("mysql client not installed (scripts/test.sh installs mariadb-client)")
	}
	srv := testserver.Start(t, testserver.Options{})

	out, err := mysql(t, srv.Port, "", `
CREATE DATABASE cli;
USE cli;
CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(20) NOT NULL, UNIQUE KEY uk_name (name));
INSERT INTO t (name) VALUES ('alpha'), ('beta');
SELECT id, name FROM t ORDER BY id;
SHOW CREATE TABLE t;
`)
	if err != nil {
		t.Fatalf("mysql failed: %v\n%s", err, out)
	}
	for _, want := range []string{"1\talpha", "2\tbeta", "CREATE TABLE `t`", "UNIQUE KEY `uk_name` (`name`)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	out, err = mysql(t, srv.Port, "cli", "INSERT INTO t (name) VALUES ('alpha');\n")
	if err == nil || !strings.Contains(out, "ERROR 1062 (23000)") || !strings.Contains(out, "Duplicate entry 'alpha'") {
		t.Errorf("duplicate insert: err=%v output:\n%s", err, out)
	}

	out, err = mysql(t, srv.Port, "cli", "SELEC * FROM t;\n")
	if err == nil || !strings.Contains(out, "ERROR 1064 (42000)") {
		t.Errorf("syntax error: err=%v output:\n%s", err, out)
	}

	out, err = mysql(t, srv.Port, "cli", "SELECT * FROM nosuch;\n")
	if err == nil || !strings.Contains(out, "ERROR 1146 (42S02)") {
		t.Errorf("missing table: err=%v output:\n%s", err, out)
	}

	// The failed statements changed nothing.
	out, err = mysql(t, srv.Port, "cli", "SELECT COUNT(*) FROM t;\n")
	if err != nil || !strings.Contains(out, "\n2\n") {
		t.Errorf("count after errors: err=%v output:\n%s", err, out)
	}
}

// Package cli_test drives strata with the real mysql command-line client
// (Debian's mariadb-client), as a user would.
package cli_test

import (
	"os/exec"
	"path/filepath"
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

	// CHECKSUM TABLE: the same rows inserted in another order give the same
	// checksum; different rows do not.
	out, err = mysql(t, srv.Port, "cli", `
CREATE TABLE c1 (a INT PRIMARY KEY, b VARCHAR(10));
CREATE TABLE c2 (a INT PRIMARY KEY, b VARCHAR(10));
CREATE TABLE c3 (a INT PRIMARY KEY, b VARCHAR(10));
INSERT INTO c1 VALUES (1, 'x'), (2, NULL);
INSERT INTO c2 VALUES (2, NULL), (1, 'x');
INSERT INTO c3 VALUES (1, 'y'), (2, NULL);
CHECKSUM TABLE c1, c2, c3;
`)
	if err != nil {
		t.Fatalf("checksum: %v\n%s", err, out)
	}
	sums := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Split(line, "\t"); len(f) == 2 && strings.HasPrefix(f[0], "cli.") {
			sums[f[0]] = f[1]
		}
	}
	if sums["cli.c1"] == "" || sums["cli.c1"] != sums["cli.c2"] || sums["cli.c1"] == sums["cli.c3"] {
		t.Errorf("checksums: %v", sums)
	}

	// The failed statements changed nothing.
	out, err = mysql(t, srv.Port, "cli", "SELECT COUNT(*) FROM t;\n")
	if err != nil || !strings.Contains(out, "\n2\n") {
		t.Errorf("count after errors: err=%v output:\n%s", err, out)
	}
}

// TestFixedDecimalsAndSocket: FLOAT(M,D) and DOUBLE(M,D) columns print
// with their D decimals in the mysql client, as MySQL's do, and so do
// ROUND/TRUNCATE to D decimals, PI() and arithmetic over them; and the client
// logs in as root over the server's Unix socket (DATADIR/mysql.sock)
// without a password, from this (the server's own) OS user. ZEROFILL
// columns print zero-padded; mysqladmin status (COM_STATISTICS) answers.
func TestFixedDecimalsAndSocket(t *testing.T) {
	if _, err := exec.LookPath("mysql"); err != nil {
		t.Skip("mysql client not installed (scripts/test.sh installs mariadb-client)")
	}
	srv := testserver.Start(t, testserver.Options{})
	out, err := mysql(t, srv.Port, "", `
CREATE DATABASE fd;
USE fd;
CREATE TABLE t (id INT PRIMARY KEY, x FLOAT(7,2), y DOUBLE(8,3), z FLOAT);
INSERT INTO t VALUES (1, 1.5, 2.25, 1.5), (2, -3, 0, -3);
SELECT x, y, z FROM t ORDER BY id;
SELECT ROUND(2E0, 1) AS r, TRUNCATE(2E0, 2) AS tr, PI() AS pi, PI() * 2 AS pi2, 2E0 + 1 AS d, x + 1 AS x1, ROUND(z, 3) AS rz FROM t WHERE id = 1;
`)
	if err != nil {
		t.Fatalf("mysql failed: %v\n%s", err, out)
	}
	// Expressions with fixed decimals print them too (MySQL's results).
	want := "x\ty\tz\n1.50\t2.250\t1.5\n-3.00\t0.000\t-3\n" +
		"r\ttr\tpi\tpi2\td\tx1\trz\n2.0\t2.00\t3.141593\t6.283185\t3\t2.50\t1.500\n"
	if out != want {
		t.Errorf("output %q, want %q", out, want)
	}

	// ZEROFILL columns print padded to their display width (YEAR too);
	// an expression over one does not.
	out, err = mysql(t, srv.Port, "", `
USE fd;
CREATE TABLE z (a INT(5) ZEROFILL, b INT ZEROFILL, c DECIMAL(6,2) ZEROFILL, d TINYINT UNSIGNED ZEROFILL, y YEAR, f FLOAT ZEROFILL, g DOUBLE(6,2) ZEROFILL);
INSERT INTO z VALUES (42, 7, 1.5, 3, 0, 1.5, 2.5), (123456, NULL, 1234.56, 255, 2024, 0, 0);
SELECT a, b, c, d, y, a + 1 AS e, f, g FROM z ORDER BY a;
`)
	if err != nil {
		t.Fatalf("mysql failed: %v\n%s", err, out)
	}
	want = "a\tb\tc\td\ty\te\tf\tg\n00042\t0000000007\t0001.50\t003\t0000\t43\t0000000001.5\t002.50\n" +
		"123456\tNULL\t1234.56\t255\t2024\t123457\t000000000000\t000.00\n"
	if out != want {
		t.Errorf("zerofill output %q, want %q", out, want)
	}

	// mysqladmin status is COM_STATISTICS.
	if _, err := exec.LookPath("mysqladmin"); err == nil {
		st, err := exec.Command("mysqladmin", "--protocol=tcp", "-h", "127.0.0.1", "-P", strconv.Itoa(srv.Port), "-uroot", "status").CombinedOutput()
		if err != nil || !strings.HasPrefix(string(st), "Uptime: ") || !strings.Contains(string(st), "Questions: ") {
			t.Errorf("mysqladmin status: %v\n%s", err, st)
		}
	}

	sock := filepath.Join(srv.DataDir, "mysql.sock")
	cmd := exec.Command("mysql", "-S", sock, "-uroot", "--batch", "-e", "SELECT CURRENT_USER(), @@socket")
	got, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(got), "root@localhost\t"+sock) {
		t.Errorf("mysql over the socket: %v\n%s", err, got)
	}
}

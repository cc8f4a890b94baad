package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/testserver"
)

// TestLoadDataLocalClients loads client files with the mysql client
// (--local-infile=1; the OK packet's info string is printed with -vvv),
// refuses them when the client does not allow it (3948), keeps the
// connection in step after a load that fails part way (--force runs the
// next statement), and imports with mysqlimport --local (the table named
// after the file).
func TestLoadDataLocalClients(t *testing.T) {
	if _, err := exec.LookPath("mysql"); err != nil {
		t.Skip("mysql client not installed (scripts/test.sh installs mariadb-client)")
	}
	srv := testserver.Start(t, testserver.Options{})
	port := strconv.Itoa(srv.Port)
	run := func(stdin string, args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command("mysql", append([]string{"-h127.0.0.1", "-P" + port, "-uroot"}, args...)...)
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("CREATE DATABASE ld; CREATE TABLE ld.items (id INT PRIMARY KEY, name VARCHAR(20), price DECIMAL(6,2));", "--batch"); err != nil {
		t.Fatalf("setup: %v\n%s", err, out)
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "items.txt")
	if err := os.WriteFile(data, []byte("1\tapple\t0.50\n2\tpear\t0.75\n3\tplum\t\\N\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	out, err := run("LOAD DATA LOCAL INFILE '"+data+"' INTO TABLE items;\nSELECT COUNT(*), SUM(price) FROM items;\n", "--local-infile=1", "-vvv", "ld")
	if err != nil {
		t.Fatalf("mysql --local-infile=1: %v\n%s", err, out)
	}
	for _, want := range []string{"Query OK, 3 rows affected", "Records: 3  Deleted: 0  Skipped: 0  Warnings: 0", "|        3 |       1.25 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	out, err = run("LOAD DATA LOCAL INFILE '"+data+"' INTO TABLE items;\n", "--local-infile=0", "--batch", "ld")
	if err == nil || !strings.Contains(out, "ERROR 3948 (42000)") {
		t.Errorf("--local-infile=0: err=%v\n%s", err, out)
	}

	// A load that fails part way: the mysql client has sent the whole
	// file, the server read it all before answering, the next statement
	// runs on the same connection.
	var b strings.Builder
	for i := 0; i < 50000; i++ {
		if i == 3 {
			b.WriteString("x\tbad\t1\n")
			continue
		}
		b.WriteString(strconv.Itoa(100+i) + "\tname\t1.00\n")
	}
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = run("SELECT CONNECTION_ID() INTO @c;\nLOAD DATA LOCAL INFILE '"+big+"' REPLACE INTO TABLE items;\nSELECT COUNT(*), @c = CONNECTION_ID() FROM items;\n", "--local-infile=1", "--batch", "--force", "ld")
	if !strings.Contains(out, "ERROR 1366") || !strings.Contains(out, "3\t1") {
		t.Errorf("failed load: err=%v\n%s", err, out)
	}

	// mysqlimport --local: the table is the file's base name.
	if _, err := exec.LookPath("mysqlimport"); err != nil {
		t.Log("mysqlimport not installed")
		return
	}
	csv := filepath.Join(dir, "items.csv")
	if err := os.WriteFile(csv, []byte("id,name,price\n10,\"fig, dried\",2.00\n11,kiwi,0.30\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("mysqlimport", "--local", "-h127.0.0.1", "-P"+port, "-uroot",
		"--fields-terminated-by=,", "--fields-optionally-enclosed-by=\"", "--ignore-lines=1", "ld", csv)
	imp, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(imp), "ld.items: Records: 2  Deleted: 0  Skipped: 0  Warnings: 0") {
		t.Fatalf("mysqlimport: %v\n%s", err, imp)
	}
	out, err = run("SELECT name FROM items WHERE id = 10;\n", "--batch", "ld")
	if err != nil || !strings.Contains(out, "fig, dried") {
		t.Errorf("after mysqlimport: %v\n%s", err, out)
	}
}

package cli_test

import (
	"database/sql"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	_ "github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/testserver"
)

// mysqlLatin1 runs a batch through the mysql client as a latin1 client
// (its handshake asks for latin1_swedish_ci): statement bytes are latin1,
// and so is the text it gets back.
func mysqlLatin1(t *testing.T, port int, sql string) (string, error) {
	t.Helper()
	cmd := exec.Command("mysql", "-h127.0.0.1", "-P"+strconv.Itoa(port), "-uroot", "--batch",
		"--default-character-set=latin1", "cs")
	cmd.Stdin = strings.NewReader(sql)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestConnectionCharset checks the conversion between a latin1 client and
// the UTF-8 text strata stores: what a latin1 client writes, a UTF-8 client
// reads as the same characters and back; _binary literals keep their bytes.
func TestConnectionCharset(t *testing.T) {
	if _, err := exec.LookPath("mysql"); err != nil {
		t.Skip("mysql client not installed (scripts/test.sh installs mariadb-client)")
	}
	srv := testserver.Start(t, testserver.Options{})
	if out, err := mysql(t, srv.Port, "", "CREATE DATABASE cs; CREATE TABLE cs.t (id INT PRIMARY KEY, l VARCHAR(10) CHARACTER SET latin1, u VARCHAR(10), b VARBINARY(10));"); err != nil {
		t.Fatalf("setup: %v\n%s", err, out)
	}
	// 0xE9 is é in latin1; C3 A9 in UTF-8.
	if out, err := mysqlLatin1(t, srv.Port, "INSERT INTO t VALUES (1, 'caf\xe9', '\xe9t\xe9', _binary'\xe9');\n"); err != nil {
		t.Fatalf("latin1 insert: %v\n%s", err, out)
	}
	out, err := mysql(t, srv.Port, "cs", "SELECT l, u, HEX(u), HEX(b) FROM t;\n")
	if err != nil || !strings.Contains(out, "café\tété\tC3A974C3A9\tE9") {
		t.Errorf("UTF-8 client reads: err=%v\n%s", err, out)
	}
	out, err = mysqlLatin1(t, srv.Port, "SELECT l, u, b, @@character_set_results FROM t;\n")
	if err != nil || !strings.Contains(out, "caf\xe9\t\xe9t\xe9\t\xe9\tlatin1") {
		t.Errorf("latin1 client reads: err=%v\n%q", err, out)
	}
	// A character latin1 cannot hold comes back as '?', as from MySQL.
	if out, err := mysql(t, srv.Port, "cs", "INSERT INTO t VALUES (2, 'x', '€✓', NULL);\n"); err != nil {
		t.Fatalf("utf8 insert: %v\n%s", err, out)
	}
	out, err = mysqlLatin1(t, srv.Port, "SELECT u FROM t WHERE id = 2;\n")
	if err != nil || !strings.Contains(out, "\x80?") {
		t.Errorf("latin1 client reads €✓: err=%v\n%q", err, out)
	}

	// go-sql-driver's charset=latin1 sends SET NAMES latin1; prepared
	// string arguments are converted too.
	db, err := sql.Open("mysql", "root@tcp(127.0.0.1:"+strconv.Itoa(srv.Port)+")/cs?charset=latin1")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("INSERT INTO t VALUES (?, ?, ?, ?)", 3, "na\xefve", "\xfcber", []byte{0xfc}); err != nil {
		t.Fatalf("prepared latin1 insert: %v", err)
	}
	var l, u, hexU string
	if err := db.QueryRow("SELECT l, u, HEX(u) FROM t WHERE id = ?", 3).Scan(&l, &u, &hexU); err != nil {
		t.Fatal(err)
	}
	if l != "na\xefve" || u != "\xfcber" || hexU != "C3BC626572" {
		t.Errorf("prepared round trip: l=%q u=%q hex=%s", l, u, hexU)
	}
	if _, err := db.Exec("SET NAMES bogus"); err == nil || !strings.Contains(err.Error(), "1115") {
		t.Errorf("SET NAMES bogus: %v, want error 1115", err)
	}
}

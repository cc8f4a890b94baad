package cli_test

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/testserver"
)

// routinesSetup creates stored functions, procedures (a cursor loop with a
// NOT FOUND handler, two result sets) and a trigger that calls a function,
// as a user types them into the mysql client.
const routinesSetup = `
CREATE TABLE items (id INT PRIMARY KEY, qty INT, note VARCHAR(40));
INSERT INTO items VALUES (1, 5, NULL), (2, 0, NULL), (3, 7, NULL);
DELIMITER ;;
CREATE FUNCTION label(k INT) RETURNS VARCHAR(20) READS SQL DATA
BEGIN
  DECLARE q INT;
  SELECT qty INTO q FROM items WHERE id = k;
  RETURN CASE WHEN q IS NULL THEN 'none' WHEN q = 0 THEN 'empty' ELSE CONCAT('has ', q) END;
END;;
CREATE PROCEDURE totals(OUT n INT, OUT s INT)
  COMMENT 'counts; and sums'
BEGIN
  DECLARE done INT DEFAULT 0;
  DECLARE v INT;
  DECLARE c CURSOR FOR SELECT qty FROM items ORDER BY id;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1;
  SET n = 0, s = 0;
  OPEN c;
  l: LOOP
    FETCH c INTO v;
    IF done THEN LEAVE l; END IF;
    SET n = n + 1, s = s + v; -- a comment; with a semicolon
  END LOOP l;
  CLOSE c;
END;;
CREATE PROCEDURE listing(IN m INT)
BEGIN
  SELECT COUNT(*) AS n FROM items WHERE qty >= m;
  SELECT id, label(id) AS l FROM items WHERE qty >= m ORDER BY id;
END;;
CREATE TRIGGER items_bi BEFORE INSERT ON items FOR EACH ROW
BEGIN
  IF NEW.qty > 5 THEN SET NEW.qty = 5; END IF;
  SET NEW.note = CONCAT('it''s ', label(1));
END;;
DELIMITER ;
`

// routinesChecks exercises the routines; its output must be the same
// wherever they were loaded.
const routinesChecks = `
CALL totals(@n, @s);
SELECT @n, @s;
SELECT id, label(id) FROM items ORDER BY id;
CALL listing(1);
INSERT INTO items (id, qty) VALUES (10, 9);
SELECT id, qty, note FROM items WHERE id = 10;
SELECT ROUTINE_NAME, ROUTINE_TYPE, ROUTINE_COMMENT FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = DATABASE() ORDER BY ROUTINE_NAME;
`

// TestMysqldumpRoutines: mysqldump --routines --triggers of strata's
// stored routines reloads into strata with the same behaviour. With
// STRATA_CLI_MARIADB=host:port (a MariaDB, e.g. 127.0.0.1:33061) the dump
// also reloads into MariaDB, and MariaDB's own dump of the routines reloads
// into strata, all answering the same.
func TestMysqldumpRoutines(t *testing.T) {
	for _, tool := range []string{"mysql", "mysqldump"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip(tool + " not installed (scripts/test.sh installs mariadb-client)")
		}
	}
	srv := testserver.Start(t, testserver.Options{})
	strata := server{"127.0.0.1", srv.Port}
	strata.run(t, "", "CREATE DATABASE rt1;")
	strata.run(t, "rt1", routinesSetup)
	dump := strata.dump(t, "rt1")
	want := strata.run(t, "rt1", routinesChecks)
	for _, frag := range []string{"3\t12\n", "1\thas 5\n2\tempty\n3\thas 7\n", "n\n2\nid\tl\n1\thas 5\n3\thas 7\n",
		"10\t5\tit's has 5\n", "label\tFUNCTION\t\nlisting\tPROCEDURE\t\ntotals\tPROCEDURE\tcounts; and sums\n"} {
		if !strings.Contains(want, frag) {
			t.Fatalf("checks lack %q:\n%s", frag, want)
		}
	}

	for _, frag := range []string{"DELIMITER ;;", "PROCEDURE `totals`", "FUNCTION `label`", "TRIGGER `items_bi`"} {
		if !strings.Contains(dump, frag) {
			t.Fatalf("dump lacks %q:\n%s", frag, dump)
		}
	}
	strata.run(t, "", "CREATE DATABASE rt2;")
	strata.run(t, "rt2", dump)
	if got := strata.run(t, "rt2", routinesChecks); got != want {
		t.Errorf("strata dump reloaded into strata:\n%s\nwant:\n%s", got, want)
	}

	addr := os.Getenv("STRATA_CLI_MARIADB")
	if addr == "" {
		t.Log("STRATA_CLI_MARIADB not set: MariaDB round trips skipped")
		return
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatalf("STRATA_CLI_MARIADB=%q: %v", addr, err)
	}
	pn, _ := strconv.Atoi(port)
	maria := server{host, pn}
	db := fmt.Sprintf("routines_cli_%d", time.Now().UnixNano()%1e9)
	maria.run(t, "", "CREATE DATABASE "+db+";")
	defer maria.run(t, "", "DROP DATABASE "+db+";")
	maria.run(t, db, dump)
	if got := maria.run(t, db, routinesChecks); got != want {
		t.Errorf("strata dump reloaded into MariaDB:\n%s\nwant:\n%s", got, want)
	}
	// MariaDB's dump (of the routines as MariaDB keeps them) back into
	// strata; the data first, as the dump was taken after the checks ran.
	mdump := maria.dump(t, db)
	strata.run(t, "", "CREATE DATABASE rt3;")
	strata.run(t, "rt3", mdump)
	strata.run(t, "rt3", "DELETE FROM items WHERE id = 10;")
	if got := strata.run(t, "rt3", routinesChecks); got != want {
		t.Errorf("MariaDB dump reloaded into strata:\n%s\nwant:\n%s\ndump:\n%s", got, want, mdump)
	}
}

// server is a MySQL-protocol server the clients connect to.
type server struct {
	host string
	port int
}

// run runs sql through the mysql client in database db and returns its
// output, failing the test on an error.
func (s server) run(t *testing.T, db, sql string) string {
	t.Helper()
	args := []string{"-h" + s.host, "-P" + strconv.Itoa(s.port), "-uroot", "--batch"}
	if db != "" {
		args = append(args, db)
	}
	cmd := exec.Command("mysql", args...)
	cmd.Stdin = strings.NewReader(sql)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mysql on %s:%d: %v\n%s\ninput:\n%s", s.host, s.port, err, out, sql)
	}
	return string(out)
}

// dump runs mysqldump --routines --triggers of database db.
func (s server) dump(t *testing.T, db string) string {
	t.Helper()
	out, err := exec.Command("mysqldump", "-h"+s.host, "-P"+strconv.Itoa(s.port), "-uroot",
		"--routines", "--triggers", "--skip-lock-tables", db).Output()
	if err != nil {
		t.Fatalf("mysqldump %s on %s:%d: %v\n%s", db, s.host, s.port, err, out)
	}
	return string(out)
}

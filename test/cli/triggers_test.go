package cli_test

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/testserver"
)

// TestMysqldumpTriggers: a database with triggers (a BEGIN ... END body
// among them) dumped by mysqldump --triggers — which writes them between
// DELIMITER lines inside executable comments — reloads into strata through
// the mysql client, and the reloaded triggers keep their order and fire.
func TestMysqldumpTriggers(t *testing.T) {
	for _, tool := range []string{"mysql", "mysqldump"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip(tool + " not installed (scripts/test.sh installs mariadb-client)")
		}
	}
	srv := testserver.Start(t, testserver.Options{})
	out, err := mysql(t, srv.Port, "", `
CREATE DATABASE trg1;
USE trg1;
CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20), n INT);
CREATE TABLE log (id INT AUTO_INCREMENT PRIMARY KEY, s VARCHAR(60));
CREATE TRIGGER t_bi BEFORE INSERT ON t FOR EACH ROW SET NEW.name = UPPER(NEW.name);
CREATE TRIGGER t_bi2 BEFORE INSERT ON t FOR EACH ROW PRECEDES t_bi SET NEW.name = CONCAT(NEW.name, '!');
DELIMITER ;;
CREATE TRIGGER t_au AFTER UPDATE ON t FOR EACH ROW
BEGIN
  INSERT INTO log (s) VALUES (CONCAT('upd ', OLD.name, ' -> ', NEW.name, ';'));
  INSERT INTO log (s) VALUES ('it''s done');
END;;
DELIMITER ;
INSERT INTO t VALUES (1, 'a', 0);
`)
	if err != nil {
		t.Fatalf("setup: %v\n%s", err, out)
	}
	// A body with compound-statement syntax arrives whole (its semicolons
	// do not split the client's multi-statement text).
	out, err = mysql(t, srv.Port, "trg1", `
DELIMITER ;;
CREATE TRIGGER t_bu BEFORE UPDATE ON t FOR EACH ROW
BEGIN
  SET NEW.name = UPPER(NEW.name); -- a comment; with a semicolon
  lbl: LOOP LEAVE lbl; END LOOP;
END;;
DELIMITER ;
`)
	if err != nil {
		t.Fatalf("a trigger with a loop: %v\n%s", err, out)
	}
	args := []string{"-h127.0.0.1", "-P" + strconv.Itoa(srv.Port), "-uroot", "--triggers", "--skip-lock-tables", "trg1"}
	dump, err := exec.Command("mysqldump", args...).Output()
	if err != nil {
		t.Fatalf("mysqldump: %v\n%s", err, dump)
	}
	if !strings.Contains(string(dump), "DELIMITER ;;") || !strings.Contains(string(dump), "/*!50003 TRIGGER") {
		t.Fatalf("dump has no triggers:\n%s", dump)
	}
	if out, err := mysql(t, srv.Port, "", "CREATE DATABASE trg2;\n"); err != nil {
		t.Fatalf("create: %v\n%s", err, out)
	}
	if out, err := mysql(t, srv.Port, "trg2", string(dump)); err != nil {
		t.Fatalf("reload: %v\n%s\ndump:\n%s", err, out, dump)
	}
	out, err = mysql(t, srv.Port, "trg2", `
SELECT TRIGGER_NAME, ACTION_ORDER FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = 'trg2' ORDER BY TRIGGER_NAME;
INSERT INTO t VALUES (2, 'b', 0);
UPDATE t SET name = 'c' WHERE id = 1;
SELECT id, name FROM t ORDER BY id;
SELECT s FROM log ORDER BY id;
`)
	if err != nil {
		t.Fatalf("reloaded triggers: %v\n%s", err, out)
	}
	for _, want := range []string{"t_au\t1\nt_bi\t2\nt_bi2\t1\nt_bu\t1\n", "1\tC\n2\tB!\n", "upd A! -> C;\nit's done\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s\ndump:\n%s", want, out, dump)
		}
	}
}

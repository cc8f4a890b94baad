package cli_test

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/testserver"
)

// TestMySQLDumpViews: mysqldump of a schema with views (its stand-in
// tables and the /*!50001 CREATE ALGORITHM=... */ /*!50013 DEFINER=... */
// /*!50001 VIEW ... */ form) restores into another database, where the
// views read the restored tables.
func TestMySQLDumpViews(t *testing.T) {
	for _, tool := range []string{"mysql", "mysqldump"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (scripts/test.sh installs mariadb-client)", tool)
		}
	}
	srv := testserver.Start(t, testserver.Options{})
	out, err := mysql(t, srv.Port, "", `
CREATE DATABASE dumpsrc;
USE dumpsrc;
CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(10));
INSERT INTO t VALUES (1, 10, 'x'), (2, 20, 'y'), (3, 30, 'z');
CREATE VIEW v_big AS SELECT id, a * 2 AS a2 FROM t WHERE a > 10;
CREATE VIEW v_nested (n) AS SELECT COUNT(*) FROM v_big;
CREATE ALGORITHM=MERGE SQL SECURITY INVOKER VIEW v_checked AS SELECT id, b FROM t WHERE id < 10 WITH LOCAL CHECK OPTION;
`)
	if err != nil {
		t.Fatalf("setup: %v\n%s", err, out)
	}
	dump, err := exec.Command("mysqldump", "-h127.0.0.1", "-P"+strconv.Itoa(srv.Port), "-uroot", "dumpsrc").CombinedOutput()
	if err != nil {
		t.Fatalf("mysqldump: %v\n%s", err, dump)
	}
	for _, want := range []string{"/*!50001 CREATE ALGORITHM=UNDEFINED */", "/*!50013 DEFINER=`root`@`localhost` SQL SECURITY DEFINER */",
		"/*!50001 VIEW `v_big` AS select `t`.`id` AS `id`,(`t`.`a` * 2) AS `a2` from `t` where (`t`.`a` > 10) */",
		"SQL SECURITY INVOKER", "WITH LOCAL CHECK OPTION"} {
		if !strings.Contains(string(dump), want) {
			t.Errorf("dump lacks %q:\n%s", want, dump)
		}
	}
	if out, err := mysql(t, srv.Port, "", "CREATE DATABASE dumpdst;"); err != nil {
		t.Fatalf("create: %v\n%s", err, out)
	}
	if out, err := mysql(t, srv.Port, "dumpdst", string(dump)); err != nil {
		t.Fatalf("restore: %v\n%s", err, out)
	}
	out, err = mysql(t, srv.Port, "dumpdst", `
UPDATE t SET a = 100 WHERE id = 1;
SELECT id, a2 FROM v_big ORDER BY id;
SELECT n FROM v_nested;
SHOW FULL TABLES;
SHOW CREATE VIEW v_checked;
`)
	if err != nil {
		t.Fatalf("restored views: %v\n%s", err, out)
	}
	// The restored views read dumpdst's table, not dumpsrc's.
	for _, want := range []string{"1\t200\n2\t40\n3\t60\n", "n\n3\n", "v_big\tVIEW", "v_nested\tVIEW",
		"CREATE ALGORITHM=MERGE DEFINER=`root`@`localhost` SQL SECURITY INVOKER VIEW `v_checked` AS select `t`.`id` AS `id`,`t`.`b` AS `b` from `t` where (`t`.`id` < 10) WITH LOCAL CHECK OPTION"} {
		if !strings.Contains(out, want) {
			t.Errorf("restored output lacks %q:\n%s", want, out)
		}
	}
}

package auth_test

import (
	"database/sql"
	"errors"
	"reflect"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/testserver"
)

// colCase is a statement run as the column-grant account: code 0 means it
// must succeed, otherwise the MySQL error (1143 with SQLSTATE 42000 and
// msg).
type colCase struct {
	stmt string
	code uint16
	msg  string
}

func runColCases(t *testing.T, db *sql.DB, cases []colCase) {
	t.Helper()
	for _, c := range cases {
		_, err := db.Exec(c.stmt)
		if c.code == 0 {
			if err != nil {
				t.Errorf("%s: %v", c.stmt, err)
			}
			continue
		}
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != c.code || string(me.SQLState[:]) != "42000" || me.Message != c.msg {
			t.Errorf("%s: got %v, want %d (42000) %q", c.stmt, err, c.code, c.msg)
		}
	}
}

func queryStrings(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		s := ""
		for i, v := range vals {
			if i > 0 {
				s += "|"
			}
			s += v.String
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

func denied(priv, col, table string) string {
	return priv + " command denied to user 'cu'@'localhost' for column '" + col + "' in table '" + table + "'"
}

// TestColumnPrivileges: GRANT/REVOKE with column lists, SHOW GRANTS,
// information_schema, and the column checks of SELECT, UPDATE, INSERT and
// DELETE (1143, MySQL 8.0's messages), before and after a restart.
func TestColumnPrivileges(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{})
	root := srv.DB(t, "")
	mustExec(t, root,
		"CREATE DATABASE cp",
		"CREATE TABLE cp.t (id INT PRIMARY KEY, a INT, b INT, c INT, d INT)",
		"INSERT INTO cp.t VALUES (1, 1, 1, 1, 1)",
		"CREATE TABLE cp.t2 (id INT PRIMARY KEY, x INT)",
		"CREATE USER 'cu'@'%'",
		"GRANT SELECT (id, A), UPDATE (b, c), INSERT (id, a) ON cp.t TO 'cu'@'%'",
		"GRANT REFERENCES (`c`) ON cp.t TO cu",
	)
	// Column names keep the GRANT's spelling (the first one's) and
	// compare without regard to case, as in MySQL.
	wantGrants := []string{
		"GRANT USAGE ON *.* TO `cu`@`%`",
		"GRANT SELECT (`A`, `id`), INSERT (`A`, `id`), UPDATE (`b`, `c`), REFERENCES (`c`) ON `cp`.`t` TO `cu`@`%`",
	}
	if got := queryStrings(t, root, "SHOW GRANTS FOR 'cu'@'%'"); !reflect.DeepEqual(got, wantGrants) {
		t.Errorf("SHOW GRANTS = %q, want %q", got, wantGrants)
	}

	// Refused grants.
	for _, c := range []struct {
		stmt string
		code uint16
		msg  string
	}{
		{"GRANT SELECT (zz) ON cp.t TO cu", 1054, "Unknown column 'zz' in 't'"},
		{"GRANT SELECT (a) ON cp.nope TO cu", 1146, "Table 'cp.nope' doesn't exist"},
		{"GRANT SELECT (a) ON cp.* TO cu", 1221, "Incorrect usage of COLUMN GRANT and NON-COLUMN PRIVILEGES"},
		{"REVOKE SELECT (d) ON cp.t FROM cu", 1147, "There is no such grant defined for user 'cu' on host '%' on table 't'"},
	} {
		_, err := root.Exec(c.stmt)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != c.code || me.Message != c.msg {
			t.Errorf("%s: got %v, want %d %q", c.stmt, err, c.code, c.msg)
		}
	}
	if _, err := root.Exec("GRANT DELETE (a) ON cp.t TO cu"); errNo(err) != 1064 {
		t.Errorf("DELETE with a column list: %v, want 1064", err)
	}

	cu := connectAs(t, srv, "cu", "", "")
	checks := func(t *testing.T) {
		mustExec(t, root, "DELETE FROM cp.t WHERE id > 1")
		runColCases(t, cu, []colCase{
			// SELECT: every column referenced, anywhere.
			{"SELECT a FROM cp.t WHERE id = 1", 0, ""},
			{"SELECT COUNT(*) FROM cp.t", 0, ""},
			{"SELECT t.a, ID FROM cp.t AS t ORDER BY a", 0, ""},
			{"SELECT a AS b FROM cp.t ORDER BY b", 0, ""},
			{"SELECT b FROM cp.t", 1143, denied("SELECT", "b", "t")},
			{"SELECT * FROM cp.t", 1143, denied("SELECT", "b", "t")},
			{"SELECT t.* FROM cp.t", 1143, denied("SELECT", "b", "t")},
			{"SELECT a FROM cp.t WHERE b = 1", 1143, denied("SELECT", "b", "t")},
			{"SELECT a FROM cp.t GROUP BY d", 1143, denied("SELECT", "d", "t")},
			{"SELECT a FROM cp.t GROUP BY a HAVING MAX(c) > 0", 1143, denied("SELECT", "c", "t")},
			{"SELECT a FROM cp.t ORDER BY c", 1143, denied("SELECT", "c", "t")},
			{"SELECT x.a FROM cp.t x JOIN cp.t y ON x.id = y.d", 1143, denied("SELECT", "d", "t")},
			{"SELECT x.a FROM cp.t x JOIN cp.t y USING (id)", 0, ""},
			{"SELECT x.a FROM cp.t x JOIN cp.t y USING (b)", 1143, denied("SELECT", "b", "t")},
			// NATURAL JOIN reads the common columns of both sides.
			{"SELECT 1 FROM cp.t NATURAL JOIN (SELECT id, a FROM cp.t) AS d", 0, ""},
			{"SELECT 1 FROM cp.t NATURAL JOIN (SELECT id, a, b FROM cp.t) AS d", 1143, denied("SELECT", "b", "t")},
			{"SELECT (SELECT MAX(c) FROM cp.t)", 1143, denied("SELECT", "c", "t")},
			{"SELECT a FROM cp.t o WHERE EXISTS (SELECT 1 FROM cp.t i WHERE i.id = o.d)", 1143, denied("SELECT", "d", "t")},
			{"SELECT a FROM cp.t o WHERE id IN (SELECT 1 FROM cp.t2 WHERE x = 0)", 1142, "SELECT command denied to user 'cu'@'localhost' for table 't2'"},
			{"SELECT a FROM cp.t o WHERE 1 IN (SELECT 1 FROM (SELECT 1 AS k) z WHERE k = d)", 1143, denied("SELECT", "d", "t")},
			{"SELECT d.a FROM (SELECT a, b FROM cp.t) AS d", 1143, denied("SELECT", "b", "t")},
			{"SELECT * FROM (SELECT id, a FROM cp.t) AS d", 0, ""},
			{"WITH c AS (SELECT id, a FROM cp.t) SELECT * FROM c", 0, ""},
			{"WITH c AS (SELECT * FROM cp.t) SELECT a FROM c", 1143, denied("SELECT", "b", "t")},
			{"SELECT a FROM cp.t UNION SELECT c FROM cp.t", 1143, denied("SELECT", "c", "t")},
			{"SELECT x FROM cp.t2", 1142, "SELECT command denied to user 'cu'@'localhost' for table 't2'"},
			// UPDATE: UPDATE on assigned columns, SELECT on those read.
			{"UPDATE cp.t SET b = a + 1 WHERE id = 1", 0, ""},
			{"UPDATE cp.t SET a = 1 WHERE id = 1", 1143, denied("UPDATE", "a", "t")},
			{"UPDATE cp.t SET b = c WHERE id = 1", 1143, denied("SELECT", "c", "t")},
			{"UPDATE cp.t SET b = 2 WHERE d = 1", 1143, denied("SELECT", "d", "t")},
			// INSERT: INSERT on the listed columns (all without a list).
			{"INSERT INTO cp.t (id, a) VALUES (5, 5)", 0, ""},
			{"INSERT INTO cp.t SET id = 6, a = 6", 0, ""},
			{"INSERT INTO cp.t (id, b) VALUES (7, 7)", 1143, denied("INSERT", "b", "t")},
			{"INSERT INTO cp.t VALUES (8, 8, 8, 8, 8)", 1143, denied("INSERT", "b", "t")},
			{"INSERT INTO cp.t (id, a) VALUES (1, 1) ON DUPLICATE KEY UPDATE b = VALUES(a) + 1", 0, ""},
			{"INSERT INTO cp.t (id, a) VALUES (1, 1) ON DUPLICATE KEY UPDATE a = 2", 1143, denied("UPDATE", "a", "t")},
			{"INSERT INTO cp.t (id, a) VALUES (1, 1) ON DUPLICATE KEY UPDATE b = d", 1143, denied("SELECT", "d", "t")},
			{"INSERT INTO cp.t (id, a) SELECT id + 100, x FROM cp.t2", 1142, "SELECT command denied to user 'cu'@'localhost' for table 't2'"},
			// DELETE needs DELETE on the table.
			{"DELETE FROM cp.t WHERE id = 99", 1142, "DELETE command denied to user 'cu'@'localhost' for table 't'"},
		})
		// Prepared statements are checked the same way.
		if _, err := cu.Query("SELECT b FROM cp.t WHERE id = ?", 1); errNo(err) != 1143 {
			t.Errorf("prepared SELECT b: %v, want 1143", err)
		}
		if _, err := cu.Exec("UPDATE cp.t SET b = ? WHERE id = ?", 3, 1); err != nil {
			t.Errorf("prepared UPDATE of b: %v", err)
		}
		var got []string
		for _, r := range queryStrings(t, cu, "SELECT COLUMN_NAME, PRIVILEGES FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'cp' ORDER BY ORDINAL_POSITION") {
			got = append(got, r)
		}
		want := []string{"id|select,insert", "a|select,insert", "b|update", "c|update,references"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("information_schema.COLUMNS = %q, want %q (d is not listed)", got, want)
		}
		if got := queryStrings(t, cu, "SHOW COLUMNS FROM cp.t"); len(got) != 4 {
			t.Errorf("SHOW COLUMNS lists %d columns, want 4: %q", len(got), got)
		}
		if got := queryStrings(t, cu, "SHOW TABLES FROM cp"); !reflect.DeepEqual(got, []string{"t"}) {
			t.Errorf("SHOW TABLES = %q", got)
		}
		wantPrivs := []string{
			"'cu'@'%'|cp|t|A|SELECT|NO", "'cu'@'%'|cp|t|A|INSERT|NO",
			"'cu'@'%'|cp|t|b|UPDATE|NO",
			"'cu'@'%'|cp|t|c|UPDATE|NO", "'cu'@'%'|cp|t|c|REFERENCES|NO",
			"'cu'@'%'|cp|t|id|SELECT|NO", "'cu'@'%'|cp|t|id|INSERT|NO",
		}
		if got := queryStrings(t, cu, "SELECT GRANTEE, TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, PRIVILEGE_TYPE, IS_GRANTABLE FROM information_schema.COLUMN_PRIVILEGES"); !reflect.DeepEqual(got, wantPrivs) {
			t.Errorf("COLUMN_PRIVILEGES = %q, want %q", got, wantPrivs)
		}
	}
	wantMySQL := []string{"%|cp|cu|t|A|Select,Insert", "%|cp|cu|t|c|Update,References", "%|cp|cu|t|id|Select,Insert", "%|cp|cu|t|b|Update"}
	if got := queryStrings(t, root, "SELECT * FROM mysql.columns_priv ORDER BY Column_priv = 'Update', Column_name"); !reflect.DeepEqual(got, wantMySQL) {
		t.Errorf("mysql.columns_priv = %q, want %q", got, wantMySQL)
	}
	runColCases(t, connectAs(t, srv, "cu", "", ""), []colCase{
		{"SELECT * FROM mysql.columns_priv", 1142, "SELECT command denied to user 'cu'@'localhost' for table 'columns_priv'"},
	})
	t.Run("before restart", checks)
	srv.Restart(t)
	root = srv.DB(t, "")
	cu = connectAs(t, srv, "cu", "", "")
	t.Run("after restart", checks)
	if got := queryStrings(t, root, "SHOW GRANTS FOR 'cu'@'%'"); !reflect.DeepEqual(got, wantGrants) {
		t.Errorf("SHOW GRANTS after restart = %q, want %q", got, wantGrants)
	}

	// DELETE with the table privilege reads its WHERE columns.
	mustExec(t, root, "GRANT DELETE ON cp.t TO cu")
	runColCases(t, cu, []colCase{
		{"DELETE FROM cp.t WHERE id = 99", 0, ""},
		{"DELETE FROM cp.t WHERE d = 99", 1143, denied("SELECT", "d", "t")},
	})

	// REVOKE of a column; table-level SELECT covers every column; a
	// table-level REVOKE takes the privilege from the columns too.
	mustExec(t, root, "REVOKE SELECT (a) ON cp.t FROM cu")
	runColCases(t, cu, []colCase{
		{"SELECT a FROM cp.t", 1143, denied("SELECT", "a", "t")},
		{"SELECT id FROM cp.t", 0, ""},
	})
	mustExec(t, root, "GRANT SELECT ON cp.t TO cu")
	want := []string{
		"GRANT USAGE ON *.* TO `cu`@`%`",
		"GRANT SELECT, SELECT (`id`), INSERT (`A`, `id`), UPDATE (`b`, `c`), DELETE, REFERENCES (`c`) ON `cp`.`t` TO `cu`@`%`",
	}
	if got := queryStrings(t, root, "SHOW GRANTS FOR cu"); !reflect.DeepEqual(got, want) {
		t.Errorf("SHOW GRANTS = %q, want %q", got, want)
	}
	runColCases(t, cu, []colCase{{"SELECT * FROM cp.t", 0, ""}})
	mustExec(t, root, "REVOKE SELECT, UPDATE ON cp.t FROM cu")
	want = []string{
		"GRANT USAGE ON *.* TO `cu`@`%`",
		"GRANT INSERT (`A`, `id`), DELETE, REFERENCES (`c`) ON `cp`.`t` TO `cu`@`%`",
	}
	if got := queryStrings(t, root, "SHOW GRANTS FOR cu"); !reflect.DeepEqual(got, want) {
		t.Errorf("SHOW GRANTS after table-level REVOKE = %q, want %q", got, want)
	}
	runColCases(t, cu, []colCase{
		// No SELECT on any column: the table check refuses (1142).
		{"SELECT id FROM cp.t", 1142, "SELECT command denied to user 'cu'@'localhost' for table 't'"},
		{"UPDATE cp.t SET b = 1", 1142, "UPDATE command denied to user 'cu'@'localhost' for table 't'"},
	})

	// Dropping the table keeps the account's grants on it, as in MySQL.
	mustExec(t, root, "DROP TABLE cp.t")
	if got := queryStrings(t, root, "SHOW GRANTS FOR cu"); !reflect.DeepEqual(got, want) {
		t.Errorf("SHOW GRANTS after DROP TABLE = %q, want %q", got, want)
	}

	// Dropping the account drops its column grants.
	mustExec(t, root, "DROP USER cu", "CREATE USER cu")
	if got := queryStrings(t, root, "SHOW GRANTS FOR cu"); !reflect.DeepEqual(got, []string{"GRANT USAGE ON *.* TO `cu`@`%`"}) {
		t.Errorf("SHOW GRANTS of a re-created account = %q", got)
	}
	if got := queryStrings(t, root, "SELECT COUNT(*) FROM information_schema.COLUMN_PRIVILEGES"); !reflect.DeepEqual(got, []string{"0"}) {
		t.Errorf("COLUMN_PRIVILEGES after DROP USER = %q", got)
	}
}

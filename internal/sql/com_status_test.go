package sql

import (
	"context"
	"testing"

	"vitess.io/vitess/go/vt/sqlparser"
)

// TestComOf checks the Com_xxx counter each statement kind counts in.
func TestComOf(t *testing.T) {
	p := sqlparser.NewTestParser()
	for sql, want := range map[string]string{
		"SELECT 1":                                 "Com_select",
		"SELECT 1 UNION SELECT 2":                  "Com_select",
		"INSERT INTO t VALUES (1)":                 "Com_insert",
		"INSERT INTO t SELECT * FROM u":            "Com_insert_select",
		"REPLACE INTO t VALUES (1)":                "Com_replace",
		"REPLACE INTO t SELECT * FROM u":           "Com_replace_select",
		"UPDATE t SET a = 1":                       "Com_update",
		"UPDATE t, u SET t.a = u.a":                "Com_update_multi",
		"UPDATE t JOIN u ON t.a = u.a SET t.a = 1": "Com_update_multi",
		"DELETE FROM t":                            "Com_delete",
		"DELETE t FROM t JOIN u ON t.a = u.a":      "Com_delete_multi",
		"SET @a = 1":                               "Com_set_option",
		"BEGIN":                                    "Com_begin",
		"START TRANSACTION":                        "Com_begin",
		"COMMIT":                                   "Com_commit",
		"ROLLBACK":                                 "Com_rollback",
		"ROLLBACK TO SAVEPOINT s":                  "Com_rollback_to_savepoint",
		"SAVEPOINT s":                              "Com_savepoint",
		"RELEASE SAVEPOINT s":                      "Com_release_savepoint",
		"USE d":                                    "Com_change_db",
		"CREATE TABLE t (a INT)":                   "Com_create_table",
		"ALTER TABLE t ADD COLUMN b INT":           "Com_alter_table",
		"DROP TABLE t":                             "Com_drop_table",
		"TRUNCATE TABLE t":                         "Com_truncate",
		"SHOW TABLES":                              "Com_show_tables",
		"SHOW CREATE TABLE t":                      "Com_show_create_table",
		"SHOW GLOBAL STATUS":                       "Com_show_status",
		"SHOW VARIABLES":                           "Com_show_variables",
		"SHOW COLUMNS FROM t":                      "Com_show_fields",
		"SHOW INDEX FROM t":                        "Com_show_keys",
		"EXPLAIN SELECT 1":                         "Com_select",
		"DESCRIBE t":                               "Com_show_fields",
		"LOCK TABLES t READ":                       "Com_lock_tables",
		"UNLOCK TABLES":                            "Com_unlock_tables",
		"CREATE DATABASE d":                        "Com_create_db",
		"DROP DATABASE d":                          "Com_drop_db",
		"FLUSH STATUS":                             "Com_flush",
		"RENAME TABLE t TO u":                      "Com_rename_table",
		"CREATE VIEW v AS SELECT 1":                "Com_create_view",
		"DROP VIEW v":                              "Com_drop_view",
		"PREPARE p FROM 'SELECT 1'":                "Com_prepare_sql",
		"EXECUTE p":                                "Com_execute_sql",
		"DEALLOCATE PREPARE p":                     "Com_dealloc_sql",
		"SELECT * FROM t FOR UPDATE":               "Com_select",
		"INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = 2": "Com_insert",
	} {
		stmt, err := p.Parse(sql)
		if err != nil {
			t.Fatalf("parse %q: %v", sql, err)
		}
		if got := comNames[comOf(stmt)]; got != want {
			t.Errorf("%q counts in %q, want %q", sql, got, want)
		}
	}
}

// TestComStmtCounters checks the binary protocol's counters: a prepared
// statement counts Com_stmt_prepare once and, per execution,
// Com_stmt_execute and its own kind; Questions counts executions, not
// preparations.
func TestComStmtCounters(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d", "CREATE TABLE t (a INT PRIMARY KEY)", "FLUSH STATUS")
	ctx := context.Background()
	if _, _, err := s.Prepare(ctx, "SELECT a FROM t"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if _, err := s.ExecutePrepared(ctx, "SELECT a FROM t", nil); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]string{}
	for _, r := range s.statusVars(false) {
		got[r[0]] = r[1]
	}
	for name, want := range map[string]string{
		"Com_stmt_prepare": "1", "Com_stmt_execute": "3", "Com_select": "3", "Questions": "3", "Com_insert": "0",
	} {
		if got[name] != want {
			t.Errorf("%s = %q, want %q", name, got[name], want)
		}
	}
	if g := s.statusVars(true); len(g) != len(s.statusVars(false)) {
		t.Errorf("global lists %d variables, session %d", len(g), len(s.statusVars(false)))
	}
}

package sql

import (
	"context"
	"testing"
)

func sessionVar(t *testing.T, s *Session, q string) string {
	t.Helper()
	res, err := s.Query(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
		t.Fatalf("%s: %v", q, res.Rows)
	}
	return res.Rows[0][0].ToString()
}

// TestMysqlbinlogSessionVars: the SETs of mysqlbinlog's output (MariaDB's
// and MySQL's) are accepted and read back; a numeric sql_mode is decoded
// into its names; the restricted ones need SUPER, SYSTEM_VARIABLES_ADMIN
// or SESSION_VARIABLES_ADMIN (1227).
func TestMysqlbinlogSessionVars(t *testing.T) {
	eng, s := newTestEngine(t)
	checkExec(t, s,
		"/*!50530 SET @@SESSION.PSEUDO_SLAVE_MODE=1*/",
		"/*!40019 SET @@session.max_delayed_threads=0*/",
		"/*!50003 SET @OLD_COMPLETION_TYPE=@@COMPLETION_TYPE,COMPLETION_TYPE=0*/",
		"SET @@session.pseudo_thread_id=7",
		"SET @@session.foreign_key_checks=1, @@session.sql_auto_is_null=0, @@session.unique_checks=1, @@session.autocommit=1, @@session.check_constraint_checks=1, @@session.system_versioning_insert_history=0",
		"SET @@session.sql_mode=1168113696",
		"SET @@session.auto_increment_increment=1, @@session.auto_increment_offset=1",
		"SET @@session.character_set_client=utf8mb4,@@session.collation_connection=45,@@session.collation_server=45",
		"SET @@session.lc_time_names=0",
		"SET @@session.collation_database=DEFAULT",
		"SET @@session.gtid_domain_id=0, @@session.gtid_seq_no=12, @@session.skip_parallel_replication=1",
		"/*!80001 SET @@session.original_commit_timestamp=1700000000000000*/",
		"/*!80014 SET @@session.original_server_version=80040*/",
		"/*!80014 SET @@session.immediate_server_version=80040*/",
		"SET @@SESSION.GTID_NEXT= 'ANONYMOUS'",
		"SET @@SESSION.GTID_NEXT= 'AUTOMATIC'",
		"/*!*/",
		"/* only a comment */;",
	)
	for q, want := range map[string]string{
		"SELECT @@session.pseudo_slave_mode":         "1",
		"SELECT @@session.pseudo_thread_id":          "7",
		"SELECT @@session.sql_mode":                  "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION",
		"SELECT @@session.gtid_seq_no":               "12",
		"SELECT @@session.original_commit_timestamp": "1700000000000000",
		"SELECT @@session.gtid_next":                 "AUTOMATIC",
	} {
		if got := sessionVar(t, s, q); got != want {
			t.Errorf("%s = %q, want %q", q, got, want)
		}
	}
	// TRADITIONAL's bit expands as the name does.
	checkExec(t, s, "SET sql_mode=134217728")
	if got := sessionVar(t, s, "SELECT @@sql_mode"); got != "STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION" {
		t.Errorf("sql_mode=134217728: %q", got)
	}
	// Bit 4 names no mode in MySQL 8.0.
	if c := replErrCode(t, s, "SET sql_mode=16"); c != 1231 {
		t.Errorf("sql_mode=16: %d, want 1231", c)
	}
	if c := replErrCode(t, s, "SET GLOBAL pseudo_thread_id=1"); c != 1228 {
		t.Errorf("SET GLOBAL pseudo_thread_id: %d, want 1228", c)
	}
	// With the binary log off there is nothing to number: a GTID is
	// recorded.
	checkExec(t, s, "SET gtid_next='3E11FA47-71CA-11E1-9E33-C80AA9429562:23'")

	checkExec(t, s, "CREATE USER u")
	u := eng.NewSession("u", "localhost")
	defer u.Close()
	for _, q := range []string{"SET pseudo_slave_mode=1", "SET @@session.pseudo_thread_id=1", "SET gtid_next='AUTOMATIC'",
		"SET original_commit_timestamp=1", "SET gtid_seq_no=1"} {
		if c := replErrCode(t, u, q); c != 1227 {
			t.Errorf("%s without privileges: %d, want 1227", q, c)
		}
	}
	checkExec(t, u, "SET @@session.sql_mode=1168113696", "SET foreign_key_checks=1", "/*!*/")
	checkExec(t, s, "GRANT SESSION_VARIABLES_ADMIN ON *.* TO u")
	checkExec(t, u, "SET pseudo_slave_mode=1", "SET gtid_next='AUTOMATIC'")
}

// TestBinlogStatement: BINLOG '…' needs SUPER or BINLOG_ADMIN (1227); an
// engine without a BINLOG applier (internal/replica's, which the server
// attaches; test/binlog runs it) refuses it with 1235, never a syntax
// error; an empty statement still answers 1065.
func TestBinlogStatement(t *testing.T) {
	eng, s := newTestEngine(t)
	q := "BINLOG '\naHMGaw8BAAAAegAAAH4AAAAAAAQAOC4wLjQwLXN0cmF0YQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n'"
	if c := replErrCode(t, s, q); c != 1235 {
		t.Errorf("BINLOG: %d, want 1235", c)
	}
	if c := replErrCode(t, s, "binlog 'not base64 !'"); c != 1235 {
		t.Errorf("BINLOG of junk: %d, want 1235", c)
	}
	checkExec(t, s, "CREATE USER u")
	u := eng.NewSession("u", "localhost")
	defer u.Close()
	if c := replErrCode(t, u, q); c != 1227 {
		t.Errorf("BINLOG without privileges: %d, want 1227", c)
	}
	checkExec(t, s, "GRANT BINLOG_ADMIN ON *.* TO u")
	if c := replErrCode(t, u, q); c != 1235 {
		t.Errorf("BINLOG with BINLOG_ADMIN: %d, want 1235", c)
	}
	if c := replErrCode(t, s, "SELECT binlog FROM"); c != 1064 {
		t.Errorf("a syntax error: %d, want 1064", c)
	}
}

func TestOnlyComments(t *testing.T) {
	for sql, want := range map[string]bool{
		"/*!*/": true, "/*!*/;": true, " /* x */ ": true, "# c\n-- d\n": true, "/*!40101*/": true,
		"": false, ";": false, "/*!40101 SET x=1*/": false, "/*+ hint */": false, "/* x */ SELECT 1": false, "/* open": false,
	} {
		if got := onlyComments(sql); got != want {
			t.Errorf("onlyComments(%q) = %v, want %v", sql, got, want)
		}
	}
}

package sql

import (
	"context"
	"testing"

	"vitess.io/vitess/go/mysql/sqlerror"
)

func replErrCode(t *testing.T, s *Session, q string) uint16 {
	t.Helper()
	_, err := s.Query(context.Background(), q)
	if err == nil {
		return 0
	}
	se, ok := err.(*sqlerror.SQLError)
	if !ok {
		t.Fatalf("%s: %v (not a MySQL error)", q, err)
	}
	return uint16(se.Num)
}

// TestReplicaStatementPrivileges: the replication statements need SUPER
// or REPLICATION_SLAVE_ADMIN (SHOW REPLICA STATUS: SUPER or REPLICATION
// CLIENT), checked before anything else; past the check, an engine
// without a replica answers 1235.
func TestReplicaStatementPrivileges(t *testing.T) {
	eng, s := newTestEngine(t)
	checkExec(t, s, "CREATE USER u")
	u := eng.NewSession("u", "localhost")
	defer u.Close()
	stmts := []string{"CHANGE REPLICATION SOURCE TO SOURCE_HOST='h'", "CHANGE MASTER TO MASTER_PORT=1",
		"START REPLICA", "STOP SLAVE", "RESET REPLICA ALL"}
	for _, q := range append(stmts, "SHOW REPLICA STATUS") {
		if c := replErrCode(t, u, q); c != 1227 {
			t.Errorf("%s without privileges: %d, want 1227", q, c)
		}
	}
	checkExec(t, s, "GRANT REPLICATION_SLAVE_ADMIN, REPLICATION CLIENT ON *.* TO u")
	for _, q := range append(stmts, "SHOW SLAVE STATUS") {
		if c := replErrCode(t, u, q); c != 1235 {
			t.Errorf("%s with REPLICATION_SLAVE_ADMIN: %d, want 1235 (no replica in this engine)", q, c)
		}
	}
	if c := replErrCode(t, s, "CHANGE REPLICATION SOURCE TO SOURCE_HOST"); c != 1064 {
		t.Errorf("a syntax error: %d, want 1064", c)
	}
}

// TestReadOnly: read_only refuses writes of accounts without SUPER or
// CONNECTION_ADMIN (1290), super_read_only those of all accounts; the
// replica's applier writes anyway; temporary tables stay writable.
func TestReadOnly(t *testing.T) {
	eng, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d")
	checkExec(t, s, "CREATE TABLE d.t (id INT PRIMARY KEY)")
	checkExec(t, s, "CREATE USER u")
	checkExec(t, s, "GRANT ALL ON d.* TO u")
	u := eng.NewSession("u", "localhost")
	defer u.Close()
	checkExec(t, s, "SET GLOBAL read_only = ON")
	for _, q := range []string{"INSERT INTO d.t VALUES (1)", "UPDATE d.t SET id = 2", "DELETE FROM d.t", "CREATE TABLE d.t2 (a INT)", "DROP TABLE d.t",
		"CREATE PROCEDURE d.p() SELECT 1", "CREATE VIEW d.v AS SELECT 1", "DROP DATABASE d"} {
		if c := replErrCode(t, u, q); c != 1290 {
			t.Errorf("%s under read_only: %d, want 1290", q, c)
		}
	}
	checkExec(t, u, "CREATE TEMPORARY TABLE d.tmp (a INT)")
	checkExec(t, u, "INSERT INTO d.tmp VALUES (1)")
	checkExec(t, s, "INSERT INTO d.t VALUES (1)") // root holds SUPER
	checkExec(t, s, "SET GLOBAL super_read_only = ON")
	if c := replErrCode(t, s, "INSERT INTO d.t VALUES (2)"); c != 1290 {
		t.Errorf("root's INSERT under super_read_only: %d, want 1290", c)
	}
	a := eng.NewSession("root", "localhost")
	defer a.Close()
	a.SetReplicaApplier()
	checkExec(t, a, "INSERT INTO d.t VALUES (3)")
	checkExec(t, s, "SET GLOBAL super_read_only = OFF")
	checkExec(t, s, "SET GLOBAL read_only = OFF")
	checkExec(t, u, "INSERT INTO d.t VALUES (4)")
}

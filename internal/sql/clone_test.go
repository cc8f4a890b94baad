package sql

import (
	"context"
	"testing"

	"vitess.io/vitess/go/mysql/sqlerror"
)

// TestClonePrivilege: CLONE needs BACKUP_ADMIN (1227 without it), checked
// before anything is written; the statement's other errors are tested in
// test/sqltest/testdata/clone.test and a successful clone end to end in
// cmd/strata.
func TestClonePrivilege(t *testing.T) {
	eng, s := newTestEngine(t)
	checkExec(t, s, "CREATE USER u")
	u := eng.NewSession("u", "localhost")
	defer u.Close()
	dir := t.TempDir() + "/clone"
	code := func() uint16 {
		_, err := u.Query(context.Background(), "CLONE LOCAL DATA DIRECTORY = '"+dir+"'")
		if se, ok := err.(*sqlerror.SQLError); ok {
			return uint16(se.Num)
		}
		t.Fatalf("CLONE: %v", err)
		return 0
	}
	if c := code(); c != 1227 {
		t.Fatalf("CLONE without BACKUP_ADMIN: %d, want 1227", c)
	}
	checkExec(t, s, "GRANT BACKUP_ADMIN ON *.* TO u")
	// Past the privilege check; this engine's store is in memory, which
	// cannot be cloned (1006).
	if c := code(); c != 1006 {
		t.Fatalf("CLONE with BACKUP_ADMIN of an in-memory store: %d, want 1006", c)
	}
}

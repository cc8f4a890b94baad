package sql

import (
	"context"
	"testing"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
)

// TestPrepareSQLLimit: max_prepared_stmt_count bounds the SQL-level
// statements of all sessions; re-preparing a name, DEALLOCATE and the end
// of a session give them back.
func TestPrepareSQLLimit(t *testing.T) {
	eng, s := newTestEngine(t)
	ctx := context.Background()
	eng.Globals.Set("max_prepared_stmt_count", sqltypes.NewInt64(2))
	other := eng.NewSession("root", "localhost")
	checkExec(t, s, "PREPARE a FROM 'SELECT 1'", "PREPARE a FROM 'SELECT 2'")
	checkExec(t, other, "PREPARE b FROM 'SELECT 1'")
	_, err := s.Query(ctx, "PREPARE c FROM 'SELECT 1'")
	if se, ok := err.(*sqlerror.SQLError); !ok || se.Num != 1461 {
		t.Fatalf("third statement: %v, want 1461", err)
	}
	other.Close()
	checkExec(t, s, "PREPARE c FROM 'SELECT 1'", "DEALLOCATE PREPARE a", "PREPARE d FROM 'SELECT 1'")
	if n := eng.sqlPrepared.Load(); n != 2 {
		t.Fatalf("%d statements counted, want 2", n)
	}
	s.ResetConnection()
	if n := eng.sqlPrepared.Load(); n != 0 {
		t.Fatalf("%d statements counted after reset, want 0", n)
	}
	if _, err := s.Query(ctx, "EXECUTE c"); err == nil || err.(*sqlerror.SQLError).Num != 1243 {
		t.Fatalf("EXECUTE after reset: %v, want 1243", err)
	}
}

// TestPrepareSQLBinaryProtocol: the binary protocol cannot prepare
// PREPARE, EXECUTE or DEALLOCATE (1295).
func TestPrepareSQLBinaryProtocol(t *testing.T) {
	_, s := newTestEngine(t)
	for _, q := range []string{"PREPARE a FROM 'SELECT 1'", "EXECUTE a", "DEALLOCATE PREPARE a"} {
		_, _, err := s.Prepare(context.Background(), q)
		if se, ok := err.(*sqlerror.SQLError); !ok || se.Num != 1295 {
			t.Errorf("%s: %v, want 1295", q, err)
		}
	}
}

package sql

import (
	"context"
	"encoding/binary"
	"math"
	"testing"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/txn"
)

// countRows counts the entries of def's indexes committed in the store.
func countRows(t *testing.T, eng *Engine, def *catalog.Table) int {
	t.Helper()
	tx := eng.DB.Begin(context.Background(), txn.RepeatableRead, 0)
	defer tx.Rollback()
	n := 0
	for _, ix := range def.Indexes {
		lo := binary.BigEndian.AppendUint32(nil, ix.ID)
		hi := binary.BigEndian.AppendUint32(nil, ix.ID+1)
		c, err := eng.Store.Open(def).CountKeys(tx, lo, hi, math.MaxInt)
		if err != nil {
			t.Fatal(err)
		}
		n += c
	}
	return n
}

// TestTemporaryPlanNotShared checks that a plan built over a session's
// temporary table is used neither by another session (which reads the
// base table of that name) nor by the session itself once the temporary
// table is dropped, in both the text and prepared paths.
func TestTemporaryPlanNotShared(t *testing.T) {
	ctx := context.Background()
	eng, a := newTestEngine(t)
	checkExec(t, a, "CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO t VALUES (1, 'base')",
		"CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO t VALUES (1, 'temp')")
	b := eng.NewSession("root", "localhost")
	t.Cleanup(b.Close)
	checkExec(t, b, "USE d")
	const q = "SELECT v FROM t WHERE id = ?"
	const qt = "SELECT v FROM t WHERE id = 1"
	read := func(s *Session, want string) {
		t.Helper()
		if _, _, err := s.Prepare(ctx, q); err != nil {
			t.Fatal(err)
		}
		res, err := s.ExecutePrepared(ctx, q, bvInts(1))
		if err != nil {
			t.Fatal(err)
		}
		if got := resText(res); got != want {
			t.Errorf("prepared: got %q, want %q", got, want)
		}
		res, err = s.Query(ctx, qt)
		if err != nil {
			t.Fatal(err)
		}
		if got := resText(res); got != want {
			t.Errorf("text: got %q, want %q", got, want)
		}
	}
	read(a, "temp")
	if a.peekPlan(q) == nil {
		t.Fatal("the temporary table's plan is not cached for its session")
	}
	if b.peekPlan(q) != nil || b.peekPlan(qt) != nil {
		t.Fatal("another session sees the plan of a temporary table")
	}
	read(b, "base")
	read(a, "temp")
	checkExec(t, a, "DROP TEMPORARY TABLE t")
	read(a, "base")
	// A new temporary table of the same name gets a new set id: the plans
	// of the first one are not reused.
	checkExec(t, a, "CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO t VALUES (1, 'temp2')")
	read(a, "temp2")
	read(b, "base")
}

// TestTemporaryDataDroppedAtClose checks that a session's end deletes its
// temporary tables' rows, and that a DROP inside a transaction deletes
// them when the transaction ends (also when it commits them).
func TestTemporaryDataDroppedAtClose(t *testing.T) {
	eng, root := newTestEngine(t)
	checkExec(t, root, "CREATE DATABASE d")
	s := eng.NewSession("root", "localhost")
	checkExec(t, s, "USE d", "CREATE TEMPORARY TABLE tt (id INT PRIMARY KEY, v INT, KEY kv (v))", "INSERT INTO tt VALUES (1, 1), (2, 2)")
	def := s.tempTable("d", "tt")
	if def == nil || eng.Cat.Table("d", "tt") != nil {
		t.Fatal("the temporary table is not the session's alone")
	}
	if n := countRows(t, eng, def); n != 4 {
		t.Fatalf("entries before close: %d, want 4", n)
	}
	s.Close()
	if n := countRows(t, eng, def); n != 0 {
		t.Fatalf("rows after the session closed: %d, want 0", n)
	}

	s = eng.NewSession("root", "localhost")
	t.Cleanup(s.Close)
	checkExec(t, s, "USE d", "CREATE TEMPORARY TABLE tt (id INT PRIMARY KEY)", "INSERT INTO tt VALUES (1)")
	def = s.tempTable("d", "tt")
	checkExec(t, s, "BEGIN", "INSERT INTO tt VALUES (2)", "DROP TEMPORARY TABLE tt")
	if s.tx == nil {
		t.Fatal("DROP TEMPORARY TABLE committed the transaction")
	}
	checkExec(t, s, "COMMIT")
	if n := countRows(t, eng, def); n != 0 {
		t.Fatalf("rows after DROP TEMPORARY TABLE and COMMIT: %d, want 0", n)
	}

	// COM_RESET_CONNECTION drops them too.
	checkExec(t, s, "CREATE TEMPORARY TABLE tt (id INT PRIMARY KEY)", "INSERT INTO tt VALUES (1)")
	def = s.tempTable("d", "tt")
	s.ResetConnection()
	if s.tempTable("d", "tt") != nil || s.temps.setID != 0 {
		t.Fatal("the temporary table survived COM_RESET_CONNECTION")
	}
	if n := countRows(t, eng, def); n != 0 {
		t.Fatalf("rows after COM_RESET_CONNECTION: %d, want 0", n)
	}

	// So does COM_CHANGE_USER.
	checkExec(t, s, "CREATE TEMPORARY TABLE tt (id INT PRIMARY KEY)", "INSERT INTO tt VALUES (1)")
	def = s.tempTable("d", "tt")
	if err := s.ChangeUser(context.Background(), "root", "localhost", "d"); err != nil {
		t.Fatal(err)
	}
	if s.tempTable("d", "tt") != nil {
		t.Fatal("the temporary table survived COM_CHANGE_USER")
	}
	if n := countRows(t, eng, def); n != 0 {
		t.Fatalf("rows after COM_CHANGE_USER: %d, want 0", n)
	}
}

// TestTemporaryPrivileges checks that CREATE TEMPORARY TABLE needs the
// CREATE TEMPORARY TABLES privilege and the table needs none afterwards,
// while a base table of the same name still needs its own.
func TestTemporaryPrivileges(t *testing.T) {
	ctx := context.Background()
	eng, root := newTestEngine(t)
	checkExec(t, root, "CREATE DATABASE d", "USE d", "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)",
		"CREATE USER 'u'@'localhost'", "GRANT SELECT ON d.t TO 'u'@'localhost'")
	u := eng.NewSession("u", "localhost")
	t.Cleanup(u.Close)
	checkExec(t, u, "USE d")
	if _, err := u.Query(ctx, "CREATE TEMPORARY TABLE tt (a INT)"); err == nil {
		t.Fatal("CREATE TEMPORARY TABLE without the CREATE TEMPORARY TABLES privilege succeeded")
	}
	checkExec(t, root, "GRANT CREATE TEMPORARY TABLES ON d.* TO 'u'@'localhost'")
	checkExec(t, u, "CREATE TEMPORARY TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (5)",
		"UPDATE t SET id = 6", "ALTER TABLE t ADD COLUMN v INT", "TRUNCATE TABLE t", "INSERT INTO t VALUES (7, 1)")
	if res, err := u.Query(ctx, "SELECT id FROM t"); err != nil || resText(res) != "7" {
		t.Fatalf("SELECT from the temporary table: %v", err)
	}
	if _, err := u.Query(ctx, "CREATE TABLE t2 (a INT)"); err == nil || sqlerr.From(err).Num != 1142 {
		t.Fatalf("CREATE TABLE without the CREATE privilege: %v, want 1142", err)
	}
	checkExec(t, u, "CREATE TEMPORARY TABLE t2 (a INT)")
	for _, q := range []string{"CHECK TABLE t2", "CHECKSUM TABLE t2", "ANALYZE TABLE t2", "SHOW CREATE TABLE t2", "DESCRIBE t2", "INSERT INTO t2 VALUES (1)", "DELETE FROM t2"} {
		if _, err := u.Query(ctx, q); err != nil {
			t.Fatalf("%s on a temporary table without privileges: %v", q, err)
		}
	}
	if _, err := u.Query(ctx, "CREATE TABLE t2 (a INT)"); err == nil || sqlerr.From(err).Num != 1142 {
		t.Fatalf("CREATE TABLE of a base table named like a temporary table: %v, want 1142", err)
	}
	checkExec(t, u, "DROP TABLE t")
	if _, err := u.Query(ctx, "INSERT INTO t VALUES (2)"); err == nil {
		t.Fatal("INSERT into the base table needed no privilege once the temporary table was dropped")
	}
	if _, err := u.Query(ctx, "DROP TABLE t"); err == nil {
		t.Fatal("DROP TABLE of the base table needed no privilege")
	}
}

package sql_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/binlog"
	"github.com/strata-db/strata/internal/sql"
	"github.com/strata-db/strata/internal/testengine"
	"github.com/strata-db/strata/internal/txn"
)

// binlogEngine is an engine with the binary log on, and a root session.
func binlogEngine(t *testing.T) (*sql.Engine, *sql.Session) {
	t.Helper()
	eng := testengine.Open(t, testengine.Options{Quiet: true})
	l, err := binlog.Open(eng.DB.KV(), binlog.Options{Dir: t.TempDir(), ServerUUID: "3e11fa47-71ca-11e1-9e33-c80aa9429562", Version: "8.0.40-strata"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	eng.UseBinlog(l)
	s := eng.NewSession("root", "localhost")
	t.Cleanup(s.Close)
	return eng, s
}

func exec(t *testing.T, s *sql.Session, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := s.Query(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func execErr(t *testing.T, s *sql.Session, q string, code sqlerror.ErrorCode) {
	t.Helper()
	_, err := s.Query(context.Background(), q)
	var se *sqlerror.SQLError
	if !errors.As(err, &se) || se.Num != code {
		t.Fatalf("%s: %v, want error %d", q, err, code)
	}
}

// loggedDDL is the binary log's QUERY events but BEGIN, and the event
// types in order (Gtid, Query, Table_map, …).
func loggedDDL(t *testing.T, s *sql.Session) (queries, types []string) {
	t.Helper()
	res, err := s.Query(context.Background(), "SHOW BINLOG EVENTS")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Rows {
		typ, info := r[2].ToString(), r[5].ToString()
		types = append(types, typ)
		if typ == "Query" && info != "BEGIN" {
			queries = append(queries, info)
		}
	}
	return queries, types
}

// TestDDLBinlogEvents: each DDL statement that commits is logged exactly
// once — an online ALTER's three catalog changes, CREATE TABLE … SELECT's
// CREATE and rows, a DROP TABLE IF EXISTS that drops nothing — and one
// that fails logs nothing.
func TestDDLBinlogEvents(t *testing.T) {
	_, s := binlogEngine(t)
	exec(t, s,
		"CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT)",
		"INSERT INTO t VALUES (1, 10), (2, 20), (3, 10)",
		"ALTER TABLE t ADD INDEX ia (a)",       // online build
		"ALTER TABLE t ADD COLUMN b INT",       // rebuild
		"DROP TABLE IF EXISTS missing",         // changes nothing
		"CREATE TABLE c SELECT id, a FROM t",   // CREATE, then rows
		"CREATE TABLE IF NOT EXISTS c (x INT)", // exists: a note
	)
	execErr(t, s, "CREATE TABLE t (x INT)", 1050)
	execErr(t, s, "ALTER TABLE t ADD COLUMN a INT", 1060)
	execErr(t, s, "ALTER TABLE t ADD UNIQUE INDEX ua (a)", 1062)
	execErr(t, s, "DROP TABLE t, missing", 1051)
	// A CREATE TABLE … SELECT whose rows fail: its CREATE and a DROP.
	execErr(t, s, "CREATE TABLE e (a INT PRIMARY KEY) SELECT a FROM t", 1062)
	// sql_log_bin=0: nothing of it, CREATE included.
	exec(t, s, "SET sql_log_bin = 0", "CREATE TABLE q SELECT id FROM t", "SET sql_log_bin = 1")

	queries, types := loggedDDL(t, s)
	want := []string{
		"CREATE DATABASE d",
		"use `d`; CREATE TABLE t (id INT PRIMARY KEY, a INT)",
		"use `d`; ALTER TABLE t ADD INDEX ia (a)",
		"use `d`; ALTER TABLE t ADD COLUMN b INT",
		"use `d`; DROP TABLE IF EXISTS missing",
		"use `d`; CREATE TABLE `c` (\n  `id` int NOT NULL,\n  `a` int DEFAULT NULL\n) ENGINE=…", // SHOW CREATE TABLE's text
		"use `d`; CREATE TABLE IF NOT EXISTS c (x INT)",
		"use `d`; CREATE TABLE `e` (…",
		"use `d`; DROP TABLE IF EXISTS `e`",
	}
	match := func(q, w string) bool {
		if p, ok := strings.CutSuffix(w, "…"); ok {
			return strings.HasPrefix(q, p)
		}
		return q == w
	}
	if !slices.EqualFunc(queries, want, match) {
		t.Fatalf("logged DDL:\n%s\nwant:\n%s", strings.Join(queries, "\n"), strings.Join(want, "\n"))
	}
	if n := strings.Count(strings.Join(types, " "), "Write_rows"); n != 2 {
		t.Fatalf("%d Write_rows events (the INSERT's and the CREATE TABLE … SELECT's), want 2: %v", n, types)
	}
	execErr(t, s, "SELECT * FROM e", 1146)
}

// TestRoutineTriggerBinlogEvents: CREATE/DROP PROCEDURE, FUNCTION and
// TRIGGER are logged once each, as MySQL logs them (a replica gets the
// objects, not only their effects); failed ones and EVENT statements are
// not.
func TestRoutineTriggerBinlogEvents(t *testing.T) {
	_, s := binlogEngine(t)
	exec(t, s,
		"CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT)",
		"CREATE PROCEDURE p() BEGIN SELECT 1; END",
		"CREATE FUNCTION f(x INT) RETURNS INT DETERMINISTIC RETURN x + 1",
		"CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = f(NEW.id)",
		"INSERT INTO t (id) VALUES (1)",
		"DROP TRIGGER tr",
		"DROP PROCEDURE IF EXISTS missing",
		"DROP FUNCTION f",
	)
	execErr(t, s, "CREATE PROCEDURE p() BEGIN SELECT 2; END", 1304)
	execErr(t, s, "CREATE EVENT ev ON SCHEDULE EVERY 1 DAY DO SELECT 1", 1235)
	queries, _ := loggedDDL(t, s)
	want := []string{
		"CREATE DATABASE d",
		"use `d`; CREATE TABLE t (id INT PRIMARY KEY, a INT)",
		"use `d`; CREATE PROCEDURE p() BEGIN SELECT 1; END",
		"use `d`; CREATE FUNCTION f(x INT) RETURNS INT DETERMINISTIC RETURN x + 1",
		"use `d`; CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = f(NEW.id)",
		"use `d`; DROP TRIGGER tr",
		"use `d`; DROP PROCEDURE IF EXISTS missing",
		"use `d`; DROP FUNCTION f",
	}
	if !slices.Equal(queries, want) {
		t.Fatalf("logged statements:\n%s\nwant:\n%s", strings.Join(queries, "\n"), strings.Join(want, "\n"))
	}
}

// TestDDLCommitHook: a caller's hook (a replica's applied position) runs
// once, in the batch of the change that makes a DDL take effect or in a
// batch of its own for one that changes nothing; not for a DDL that
// fails; and an error it returns before applying fails the DDL, which
// then neither takes effect nor is logged.
func TestDDLCommitHook(t *testing.T) {
	eng, s := binlogEngine(t)
	exec(t, s, "CREATE DATABASE d", "USE d", "CREATE TABLE t (id INT PRIMARY KEY)")
	key := []byte{0, 0, 0, 3, 'x'} // under a reserved index id
	calls := 0
	hook := func(value string) func(b *txn.Batch, apply func(*txn.Batch) error) error {
		return func(b *txn.Batch, apply func(*txn.Batch) error) error {
			calls++
			if err := b.Set(key, []byte(value)); err != nil {
				return err
			}
			return apply(b)
		}
	}
	stored := func() string {
		tx := eng.DB.Begin(context.Background(), txn.ReadCommitted, 0)
		defer tx.Rollback()
		v, _, err := tx.Get(key)
		if err != nil {
			t.Fatal(err)
		}
		return string(v)
	}
	for _, c := range []struct {
		q, value string
		fails    bool
	}{
		{q: "ALTER TABLE t ADD COLUMN a INT", value: "1"},
		{q: "ALTER TABLE t ADD INDEX ia (a)", value: "2"},
		{q: "CREATE TABLE IF NOT EXISTS t (x INT)", value: "3"},
		{q: "CREATE TABLE t (x INT)", value: "4", fails: true},
		{q: "DROP TABLE t", value: "5"},
	} {
		calls = 0
		s.SetDDLCommitHook(hook(c.value))
		_, err := s.Query(context.Background(), c.q)
		if c.fails {
			if err == nil || calls != 0 || stored() == c.value {
				t.Fatalf("%s: err %v, hook called %d times, stored %q", c.q, err, calls, stored())
			}
			continue
		}
		if err != nil || calls != 1 || stored() != c.value {
			t.Fatalf("%s: err %v, hook called %d times, stored %q", c.q, err, calls, stored())
		}
	}
	// A hook that refuses: the DDL fails, with nothing applied or logged.
	before, _ := loggedDDL(t, s)
	s.SetDDLCommitHook(func(*txn.Batch, func(*txn.Batch) error) error { return errors.New("refused") })
	if _, err := s.Query(context.Background(), "CREATE TABLE u (id INT PRIMARY KEY)"); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("CREATE TABLE with a refusing hook: %v", err)
	}
	execErr(t, s, "SELECT * FROM u", 1146)
	if after, _ := loggedDDL(t, s); len(after) != len(before) {
		t.Fatalf("a DDL that did not commit was logged: %q", after[len(before):])
	}
	// The hook was for one statement only.
	calls = 0
	exec(t, s, "CREATE TABLE u (id INT PRIMARY KEY)")
	if calls != 0 {
		t.Fatal("the hook ran for a second statement")
	}
}

package sql_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql"
	"github.com/strata-db/strata/internal/txn"
)

// FuzzSQL executes fuzzed statements (parse → plan → execute) on a scratch
// database of a fresh in-process engine over an in-memory Pebble. The input
// is up to fuzzMaxStatements statements separated by ";\n", run in order on
// one session. Every statement must return a result or a *sqlerror.SQLError
// with a non-zero code — never panic, never a plain Go error (the client
// would see 1105), and never ignore the statement deadline — and the engine
// must still serve a fresh session afterwards.
//
// The seed corpus is testdata/fuzz/FuzzSQL (DDL, DML, joins, subqueries,
// functions, transactions and malformed statements); `go test` runs it,
// scripts/fuzz-smoke.sh explores from it.
func FuzzSQL(f *testing.F) {
	f.Add("SELECT 1")
	f.Fuzz(func(t *testing.T, input string) {
		if len(input) > fuzzMaxInput {
			return
		}
		eng, closeEng := newFuzzEngine(t)
		defer closeEng()
		s := eng.NewSession("root", "localhost")
		defer s.Close()
		for i, stmt := range strings.SplitN(input, ";\n", fuzzMaxStatements) {
			if strings.TrimSpace(stmt) == "" {
				continue
			}
			if err := runFuzzStatement(s, stmt); err != nil {
				t.Fatalf("statement %d %q: %v", i+1, stmt, err)
			}
		}
		// The engine still works for everyone else.
		s2 := eng.NewSession("root", "localhost")
		defer s2.Close()
		if err := runFuzzStatement(s2, "SELECT 1"); err != nil {
			t.Fatalf("after %q: %v", input, err)
		}
		res, err := s2.Query(context.Background(), "SELECT 1")
		if err != nil || len(res.Rows) != 1 {
			t.Fatalf("after %q: SELECT 1 in a new session: %v, %v", input, res, err)
		}
	})
}

const (
	// fuzzMaxInput bounds the input so one execution stays fast.
	fuzzMaxInput = 4096
	// fuzzMaxStatements bounds the statements per input.
	fuzzMaxStatements = 4
	// fuzzStatementTimeout is the context deadline of one statement.
	// Kept short so one input (up to fuzzMaxStatements statements) stays
	// well inside the brief fuzz runs of CI.
	fuzzStatementTimeout = 250 * time.Millisecond
	// fuzzHangLimit is how long a statement may run past its deadline
	// before the target reports that it ignores cancellation.
	fuzzHangLimit = 5 * time.Second
)

// fuzzSetup creates the scratch database the fuzzed statements run in.
var fuzzSetup = []string{
	"CREATE DATABASE f",
	"USE f",
	"CREATE TABLE t1 (id INT PRIMARY KEY, a INT, b VARCHAR(20), c DECIMAL(10,2), d DATETIME, KEY ka (a), UNIQUE KEY ub (b))",
	"CREATE TABLE t2 (id BIGINT AUTO_INCREMENT PRIMARY KEY, t1_id INT NOT NULL, note TEXT, f DOUBLE, e ENUM('x','y'), j JSON, KEY kt (t1_id, f))",
	"CREATE TABLE t3 (x INT, y VARCHAR(10) COLLATE utf8mb4_bin)",
	"INSERT INTO t1 VALUES (1, 10, 'one', 1.50, '2024-01-01 00:00:00'), (2, 20, 'two', -2.25, NULL), (3, NULL, 'three', 0, '1999-12-31 23:59:59'), (4, 10, NULL, 99999999.99, '2038-01-19 03:14:07')",
	"INSERT INTO t2 (t1_id, note, f, e, j) VALUES (1, 'a', 1.5, 'x', '{\"k\": 1}'), (1, 'b', NULL, 'y', '[1,2]'), (2, NULL, -0.5, NULL, NULL), (9, 'orphan', 1e300, 'x', 'null')",
	"INSERT INTO t3 VALUES (1, 'A'), (1, 'a'), (NULL, NULL), (2, 'b ')",
}

// newFuzzEngine opens a fresh engine with the scratch database.
func newFuzzEngine(t *testing.T) (*sql.Engine, func()) {
	t.Helper()
	db, err := kv.Open(kv.Options{Dir: "/db", FS: vfs.NewMem(), MemoryBudget: 64 << 20,
		Logger: kv.NewSlogLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))})
	if err != nil {
		t.Fatal(err)
	}
	tdb := txn.New(db, txn.Options{})
	cat, err := catalog.Load(tdb)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := sql.NewEngine(tdb, cat)
	if err != nil {
		t.Fatal(err)
	}
	s := eng.NewSession("root", "localhost")
	defer s.Close()
	for _, q := range fuzzSetup {
		if _, err := s.Query(context.Background(), q); err != nil {
			t.Fatalf("setup %q: %v", q, err)
		}
	}
	return eng, func() {
		if err := db.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	}
}

// runFuzzStatement runs one statement with a deadline and returns an error
// describing a contract violation (panic, hang, bad error type or code).
func runFuzzStatement(s *sql.Session, stmt string) error {
	ctx, cancel := context.WithTimeout(context.Background(), fuzzStatementTimeout)
	defer cancel()
	type outcome struct {
		err   error
		panic any
		stack []byte
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- outcome{panic: r, stack: debug.Stack()}
			}
		}()
		_, err := s.Query(ctx, stmt)
		done <- outcome{err: err}
	}()
	var o outcome
	select {
	case o = <-done:
	case <-time.After(fuzzStatementTimeout + fuzzHangLimit):
		return fmt.Errorf("still running %v after its deadline (cancellation ignored)", fuzzHangLimit)
	}
	if o.panic != nil {
		return fmt.Errorf("panic: %v\n%s", o.panic, o.stack)
	}
	if o.err == nil {
		return nil
	}
	se, ok := o.err.(*sqlerror.SQLError)
	if !ok {
		var wrapped *sqlerror.SQLError
		if errors.As(o.err, &wrapped) {
			return fmt.Errorf("error %T wraps a SQLError (clients see 1105): %v", o.err, o.err)
		}
		return fmt.Errorf("error is %T, not *sqlerror.SQLError (clients see 1105): %v", o.err, o.err)
	}
	if se.Num == 0 {
		return fmt.Errorf("SQLError with code 0: %v", se)
	}
	return nil
}

package sql

import (
	"context"
	"testing"

	querypb "vitess.io/vitess/go/vt/proto/query"
)

func newPlanTestSession(t *testing.T) *Session {
	t.Helper()
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d", "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40))", "INSERT INTO t VALUES (1, '')")
	return s
}

// TestPreparedReplansOnSettings prepares each statement once and executes it
// before and after a SET of a setting its compilation depends on: every
// execution must answer under the settings current at that moment, and
// setting the old value back must give the old answer again.
func TestPreparedReplansOnSettings(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		query         string
		set, reset    string
		before, after string
	}{
		{"SELECT 'a' = 'A'", "SET NAMES utf8mb4 COLLATE utf8mb4_bin", "SET NAMES utf8mb4", "1", "0"},
		{"SELECT 'a' = 'A'", "SET collation_connection = utf8mb4_bin", "SET collation_connection = utf8mb4_general_ci", "1", "0"},
		{"SELECT FROM_UNIXTIME(0)", "SET time_zone = '+05:00'", "SET time_zone = '+00:00'", "1970-01-01 00:00:00", "1970-01-01 05:00:00"},
		{"SELECT UNIX_TIMESTAMP('1970-01-01 05:00:00')", "SET time_zone = '+05:00'", "SET time_zone = '+00:00'", "18000", "0"},
		{"SELECT 1/3", "SET div_precision_increment = 8", "SET div_precision_increment = 4", "0.3333", "0.33333333"},
		{"SELECT AVG(id) FROM t", "SET div_precision_increment = 1", "SET div_precision_increment = 4", "1.0000", "1.0"},
		{"SELECT STR_TO_DATE('0000-00-00', '%Y-%m-%d')", "SET sql_mode = ''", "SET sql_mode = DEFAULT", "NULL", "0000-00-00"},
	} {
		s := newPlanTestSession(t)
		if _, err := s.Query(ctx, "SET time_zone = '+00:00'"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Prepare(ctx, tc.query); err != nil {
			t.Fatalf("prepare %s: %v", tc.query, err)
		}
		run := func(want string) {
			t.Helper()
			for _, prepared := range []bool{true, false} {
				var got string
				var err error
				if prepared {
					res, e := s.ExecutePrepared(ctx, tc.query, map[string]*querypb.BindVariable{})
					err = e
					if e == nil {
						got = res.Rows[0][0].ToString()
						if res.Rows[0][0].IsNull() {
							got = "NULL"
						}
					}
				} else {
					res, e := s.Query(ctx, tc.query)
					err = e
					if e == nil {
						got = res.Rows[0][0].ToString()
						if res.Rows[0][0].IsNull() {
							got = "NULL"
						}
					}
				}
				if err != nil || got != want {
					t.Errorf("%s (prepared %v): got %q, %v; want %q", tc.query, prepared, got, err, want)
				}
			}
		}
		run(tc.before)
		if _, err := s.Query(ctx, tc.set); err != nil {
			t.Fatalf("%s: %v", tc.set, err)
		}
		run(tc.after)
		if _, err := s.Query(ctx, tc.reset); err != nil {
			t.Fatalf("%s: %v", tc.reset, err)
		}
		run(tc.before)
	}
}

// TestPreparedDMLReplansOnSettings checks that a prepared UPDATE compiled
// under one div_precision_increment uses the new one after a SET, and that
// the statement is cached again (not re-parsed at every execution).
func TestPreparedDMLReplansOnSettings(t *testing.T) {
	ctx := context.Background()
	s := newPlanTestSession(t)
	const upd = "UPDATE t SET v = 1/3 WHERE id = 1"
	if _, _, err := s.Prepare(ctx, upd); err != nil {
		t.Fatal(err)
	}
	check := func(want string) {
		t.Helper()
		if _, err := s.ExecutePrepared(ctx, upd, map[string]*querypb.BindVariable{}); err != nil {
			t.Fatal(err)
		}
		res, err := s.Query(ctx, "SELECT v FROM t WHERE id = 1")
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Rows[0][0].ToString(); got != want {
			t.Errorf("v = %q, want %q", got, want)
		}
		if s.peekPlan(upd) == nil {
			t.Errorf("%s is not cached after its execution", upd)
		}
	}
	check("0.3333")
	if _, err := s.Query(ctx, "SET div_precision_increment = 6"); err != nil {
		t.Fatal(err)
	}
	check("0.333333")
}

// TestPlanSettingsUnchangedKeepsPlan checks that SETs of variables plans do
// not depend on, and SETs to the current value, keep the cached plan.
func TestPlanSettingsUnchangedKeepsPlan(t *testing.T) {
	ctx := context.Background()
	s := newPlanTestSession(t)
	const q = "SELECT v FROM t WHERE id = 1"
	if _, err := s.Query(ctx, q); err != nil {
		t.Fatal(err)
	}
	cp := s.peekPlan(q)
	if cp == nil {
		t.Fatal("not cached")
	}
	for _, set := range []string{"SET autocommit = 1", "SET @x = 5", "SET sql_mode = DEFAULT", "SET NAMES utf8mb4", "SET time_zone = SYSTEM"} {
		if _, err := s.Query(ctx, set); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Query(ctx, q); err != nil {
			t.Fatal(err)
		}
		if s.peekPlan(q) != cp {
			t.Errorf("after %s the plan was rebuilt", set)
		}
	}
}

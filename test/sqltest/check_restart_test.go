//go:build !sqltest_nostrata

package sqltest_test

import (
	"database/sql"
	"errors"
	"reflect"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/testserver"
)

// TestCheckConstraintsSurviveRestart: CHECK constraints are part of the data
// dictionary: after a restart SHOW CREATE TABLE and information_schema show
// the same constraints (names, clauses, enforcement) and they are still
// enforced. (The script check_constraints.test covers the behaviour; a
// script cannot restart the server.)
func TestCheckConstraintsSurviveRestart(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{})
	db := srv.DB(t, "")
	for _, q := range []string{
		"CREATE DATABASE ckr",
		"CREATE TABLE ckr.t (a INT CHECK (a > 0), b INT CONSTRAINT b_small CHECK (b < 10) NOT ENFORCED, c VARCHAR(5), CHECK (a < b OR c LIKE 'x%'))",
		"ALTER TABLE ckr.t ADD CONSTRAINT CHECK (c <> 'bad'), ALTER CHECK b_small ENFORCED",
		"RENAME TABLE ckr.t TO ckr.t2",
		"INSERT INTO ckr.t2 VALUES (1, 5, 'y')",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	before := checkState(t, db)
	if len(before) != 5 {
		t.Fatalf("before restart: %q", before)
	}

	srv.Restart(t)
	db = srv.DB(t, "")
	if after := checkState(t, db); !reflect.DeepEqual(after, before) {
		t.Fatalf("after restart:\n%q\nbefore:\n%q", after, before)
	}
	for q, name := range map[string]string{
		"INSERT INTO ckr.t2 VALUES (0, 5, 'y')":   "t2_chk_1",
		"INSERT INTO ckr.t2 VALUES (1, 50, 'y')":  "b_small",
		"INSERT INTO ckr.t2 VALUES (9, 5, 'y')":   "t2_chk_2",
		"INSERT INTO ckr.t2 VALUES (1, 5, 'bad')": "t2_chk_3",
	} {
		_, err := db.Exec(q)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != 3819 || me.Message != "Check constraint '"+name+"' is violated." {
			t.Errorf("%s after restart: %v, want 3819 for %s", q, err, name)
		}
	}
	if _, err := db.Exec("INSERT INTO ckr.t2 VALUES (2, 9, 'x')"); err != nil {
		t.Fatalf("valid row after restart: %v", err)
	}
}

// checkState returns SHOW CREATE TABLE of ckr.t2 and the CHECK constraint
// rows of information_schema (name, clause, enforced).
func checkState(t *testing.T, db *sql.DB) []string {
	t.Helper()
	var name, create string
	if err := db.QueryRow("SHOW CREATE TABLE ckr.t2").Scan(&name, &create); err != nil {
		t.Fatal(err)
	}
	out := []string{create}
	rows, err := db.Query(`SELECT c.CONSTRAINT_NAME, c.CHECK_CLAUSE, t.ENFORCED
		FROM information_schema.CHECK_CONSTRAINTS c JOIN information_schema.TABLE_CONSTRAINTS t
		ON t.CONSTRAINT_SCHEMA = c.CONSTRAINT_SCHEMA AND t.CONSTRAINT_NAME = c.CONSTRAINT_NAME
		WHERE c.CONSTRAINT_SCHEMA = 'ckr' AND t.CONSTRAINT_TYPE = 'CHECK' ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var n, clause, enforced string
		if err := rows.Scan(&n, &clause, &enforced); err != nil {
			t.Fatal(err)
		}
		out = append(out, n+" "+clause+" "+enforced)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

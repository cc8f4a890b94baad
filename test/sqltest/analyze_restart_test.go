//go:build !sqltest_nostrata

package sqltest_test

import (
	"database/sql"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/testserver"
)

// TestStatisticsSurviveRestart: ANALYZE TABLE's statistics are part of the
// data dictionary: after a restart SHOW INDEX, information_schema.TABLES and
// COLUMN_STATISTICS show the same figures (the histogram's last-updated time
// included: nothing was recomputed). (analyze.test covers the behaviour; a
// script cannot restart the server.)
func TestStatisticsSurviveRestart(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{})
	db := srv.DB(t, "")
	for _, q := range []string{
		"SET GLOBAL innodb_stats_auto_recalc = OFF",
		"CREATE DATABASE str",
		"CREATE TABLE str.t (id INT PRIMARY KEY, a INT, b VARCHAR(10), KEY k_ab (a, b))",
		"INSERT INTO str.t VALUES (1, 1, 'x'), (2, 1, 'y'), (3, 2, 'x'), (4, 3, NULL)",
		"ANALYZE TABLE str.t UPDATE HISTOGRAM ON b WITH 4 BUCKETS",
		"RENAME TABLE str.t TO str.t2",
		"INSERT INTO str.t2 VALUES (5, 9, 'z')",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	before := statsState(t, db)
	want := []string{
		"PRIMARY 1 4", "k_ab 1 3", "k_ab 2 4", "rows 5",
	}
	if !reflect.DeepEqual(before[:len(want)], want) || len(before) != len(want)+1 || !strings.Contains(before[len(want)], `"number-of-buckets-specified": 4`) {
		t.Fatalf("before restart: %q", before)
	}

	srv.Restart(t)
	db = srv.DB(t, "")
	after := statsState(t, db)
	// The row estimate restarts from the analyzed count (the in-memory
	// count of rows inserted since is lost, as InnoDB's is).
	before[3] = "rows 4"
	if !reflect.DeepEqual(after, before) {
		t.Fatalf("after restart:\n%q\nwant:\n%q", after, before)
	}
}

// statsState returns the cardinalities of str.t2's key parts, its row
// estimate and its histograms.
func statsState(t *testing.T, db *sql.DB) []string {
	t.Helper()
	var out []string
	rows, err := db.Query(`SELECT index_name, seq_in_index, cardinality FROM information_schema.statistics
		WHERE table_schema = 'str' AND table_name = 't2' ORDER BY index_name = 'PRIMARY' DESC, index_name, seq_in_index`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var ix string
		var seq int
		var card sql.NullInt64
		if err := rows.Scan(&ix, &seq, &card); err != nil {
			t.Fatal(err)
		}
		c := "NULL"
		if card.Valid {
			c = fmt.Sprint(card.Int64)
		}
		out = append(out, fmt.Sprintf("%s %d %s", ix, seq, c))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	var n int64
	if err := db.QueryRow("SELECT table_rows FROM information_schema.tables WHERE table_schema = 'str' AND table_name = 't2'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	out = append(out, fmt.Sprintf("rows %d", n))
	rows, err = db.Query("SELECT column_name, histogram FROM information_schema.column_statistics WHERE schema_name = 'str' AND table_name = 't2'")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var c, h string
		if err := rows.Scan(&c, &h); err != nil {
			t.Fatal(err)
		}
		out = append(out, c+" "+h)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAutoAnalyze: the server analyzes a table in the background, without
// ANALYZE TABLE: first because it has no statistics, then again once more
// than 10 % of its rows changed.
func TestAutoAnalyze(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{})
	db := srv.DB(t, "")
	for _, q := range []string{
		"CREATE DATABASE aa",
		"CREATE TABLE aa.t (id INT PRIMARY KEY, a INT, KEY k_a (a))",
		"INSERT INTO aa.t VALUES (1, 1), (2, 1), (3, 2), (4, 3)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	waitCardinality := func(want int64) {
		t.Helper()
		deadline := time.Now().Add(40 * time.Second)
		var got sql.NullInt64
		for time.Now().Before(deadline) {
			if err := db.QueryRow("SELECT cardinality FROM information_schema.statistics WHERE table_schema = 'aa' AND index_name = 'k_a'").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got.Valid && got.Int64 == want {
				return
			}
			time.Sleep(200 * time.Millisecond)
		}
		t.Fatalf("cardinality of k_a: %v, want %d", got, want)
	}
	waitCardinality(3)
	if _, err := db.Exec("INSERT INTO aa.t VALUES (5, 4), (6, 5)"); err != nil {
		t.Fatal(err)
	}
	waitCardinality(5)
}

package sql

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vitess.io/vitess/go/sqltypes"
)

// TestLoadDataBulk loads more rows than the bulk path's sort memory into
// empty tables: they come back complete with consistent indexes; a
// duplicate key fails the load and leaves the table empty; IGNORE keeps
// the first row of a key; a table that is not empty loads row by row.
func TestLoadDataBulk(t *testing.T) {
	eng, s := newTestEngine(t)
	eng.BulkLoadMemory = 1 << 16 // spill sorted runs early
	dir := t.TempDir()
	eng.Globals.Set("secure_file_priv", sqltypes.NewVarChar(dir+"/"))
	ctx := context.Background()
	checkExec(t, s, "CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, v INT, w VARCHAR(30), KEY kv (v), KEY kw (w))",
		"CREATE TABLE u (id INT PRIMARY KEY, w VARCHAR(30), UNIQUE KEY uw (w))")
	var b strings.Builder
	const n = 30000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d\t%d\tw%07d\n", (i*7919)%n, i%13, i)
	}
	file := filepath.Join(dir, "rows.txt")
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := s.Query(ctx, fmt.Sprintf("LOAD DATA INFILE '%s' INTO TABLE t", file))
	if err != nil {
		t.Fatal(err)
	}
	if res.RowsAffected != n || res.Info != fmt.Sprintf("Records: %d  Deleted: 0  Skipped: 0  Warnings: 0", n) {
		t.Fatalf("affected %d, info %q", res.RowsAffected, res.Info)
	}
	if got := queryLines(t, s, "SHOW GLOBAL STATUS LIKE 'Strata_bulk_load%'"); got != fmt.Sprintf("Strata_bulk_load_rows|%d\nStrata_bulk_loads|1\n", n) {
		t.Fatalf("the load did not take the bulk path: %q", got)
	}
	if got := queryLines(t, s, "SELECT COUNT(*), SUM(v), COUNT(DISTINCT w) FROM t"); got != fmt.Sprintf("%d|%d|%d\n", n, sumMod(n, 13), n) {
		t.Fatalf("loaded rows: %q", got)
	}
	if got := queryLines(t, s, "CHECK TABLE t"); !strings.HasSuffix(got, "|OK\n") {
		t.Fatalf("CHECK TABLE: %q", got)
	}
	if got := queryLines(t, s, "SELECT COUNT(*) FROM t FORCE INDEX (kw) WHERE w >= 'w0010000'"); got != fmt.Sprintf("%d\n", n-10000) {
		t.Fatalf("through kw: %q", got)
	}

	// A duplicate value of a unique key: 1062, nothing loaded.
	dup := filepath.Join(dir, "dup.txt")
	if err := os.WriteFile(dup, []byte("1\tx\n2\ty\n3\tX\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Query(ctx, fmt.Sprintf("LOAD DATA INFILE '%s' INTO TABLE u", dup)); errCode(err) != 1062 {
		t.Fatalf("duplicate: %v", err)
	}
	if got := queryLines(t, s, "SELECT COUNT(*) FROM u"); got != "0\n" {
		t.Fatalf("after a failed load: %q", got)
	}

	// IGNORE without a unique secondary key: the first row of an id stays.
	checkExec(t, s, "CREATE TABLE g (id INT PRIMARY KEY, v INT, KEY kv (v))")
	ign := filepath.Join(dir, "ign.txt")
	if err := os.WriteFile(ign, []byte("1\t10\n2\t20\n1\t11\n2\t20\n3\t30\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err = s.Query(ctx, fmt.Sprintf("LOAD DATA INFILE '%s' IGNORE INTO TABLE g", ign))
	if err != nil {
		t.Fatal(err)
	}
	if res.RowsAffected != 3 || res.Info != "Records: 5  Deleted: 0  Skipped: 2  Warnings: 2" {
		t.Fatalf("IGNORE: affected %d, info %q", res.RowsAffected, res.Info)
	}
	if got := queryLines(t, s, "SHOW WARNINGS"); !strings.Contains(got, "Duplicate entry '1' for key 'g.PRIMARY'") {
		t.Fatalf("warnings: %q", got)
	}
	if got := queryLines(t, s, "SELECT id, v FROM g FORCE INDEX (kv) ORDER BY v"); got != "1|10\n2|20\n3|30\n" {
		t.Fatalf("IGNORE rows: %q", got)
	}
	// The table is no longer empty: a second load goes row by row and
	// sees the loaded keys.
	res, err = s.Query(ctx, fmt.Sprintf("LOAD DATA INFILE '%s' IGNORE INTO TABLE g", ign))
	if err != nil || res.RowsAffected != 0 {
		t.Fatalf("second load: %v, %d rows", err, res.RowsAffected)
	}
	if got := queryLines(t, s, "SHOW GLOBAL STATUS LIKE 'Strata_bulk_loads'"); got != "Strata_bulk_loads|2\n" {
		t.Fatalf("bulk loads: %q (the failed one and the row-by-row one do not count)", got)
	}
}

func sumMod(n, m int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i % m
	}
	return s
}

// TestLoadDataBulkTimestamp: the bulk path stores TIMESTAMP values in UTC
// as the row-by-row path does.
func TestLoadDataBulkTimestamp(t *testing.T) {
	eng, s := newTestEngine(t)
	dir := t.TempDir()
	eng.Globals.Set("secure_file_priv", sqltypes.NewVarChar(dir+"/"))
	checkExec(t, s, "CREATE DATABASE d", "USE d", "SET time_zone = '+02:00'",
		"CREATE TABLE bulk (id INT PRIMARY KEY, ts TIMESTAMP NULL, KEY kts (ts))",
		"CREATE TABLE rows_ (id INT PRIMARY KEY, ts TIMESTAMP NULL, KEY kts (ts))",
		"INSERT INTO rows_ VALUES (0, NULL)")
	file := filepath.Join(dir, "ts.txt")
	if err := os.WriteFile(file, []byte("1\t2024-01-02 10:00:00\n2\t\\N\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tbl := range []string{"bulk", "rows_"} { // rows_ is not empty: row by row
		checkExec(t, s, fmt.Sprintf("LOAD DATA INFILE '%s' INTO TABLE %s", file, tbl))
	}
	checkExec(t, s, "SET time_zone = '+00:00'")
	for _, tbl := range []string{"bulk", "rows_"} {
		if got := queryLines(t, s, "SELECT ts FROM "+tbl+" WHERE id = 1"); got != "2024-01-02 08:00:00\n" {
			t.Errorf("%s: %q, want the UTC instant", tbl, got)
		}
		if got := queryLines(t, s, "SELECT id FROM "+tbl+" FORCE INDEX (kts) WHERE ts = '2024-01-02 08:00:00'"); got != "1\n" {
			t.Errorf("%s through the index: %q", tbl, got)
		}
	}
}

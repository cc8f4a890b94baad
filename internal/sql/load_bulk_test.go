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

// TestLoadDataBulkNonEmpty: a large server file loaded into a table that
// has rows takes the bulk path and gives what the row-by-row path gives:
// the union of the rows with consistent indexes; a key the table has
// (primary or unique secondary) is a duplicate, 1062 with nothing loaded,
// or, with IGNORE, the table's row stays with the warning; a load after
// the last key (appending) and one interleaved with the table's keys
// both work, sorted or not.
func TestLoadDataBulkNonEmpty(t *testing.T) {
	defer func(m int64) { loadBulkNonEmptyMin = m }(loadBulkNonEmptyMin)
	loadBulkNonEmptyMin = 1
	eng, s := newTestEngine(t)
	eng.BulkLoadMemory = 1 << 16
	dir := t.TempDir()
	eng.Globals.Set("secure_file_priv", sqltypes.NewVarChar(dir+"/"))
	ctx := context.Background()
	checkExec(t, s, "CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, v INT, w VARCHAR(30), KEY kv (v), UNIQUE KEY uw (w))",
		"INSERT INTO t VALUES (10, 1, 'a10'), (20, 2, 'a20'), (30, 3, 'a30')")
	write := func(name string, rows ...string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(strings.Join(rows, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return f
	}
	bulkLoads := func() string { return queryLines(t, s, "SHOW GLOBAL STATUS LIKE 'Strata_bulk_loads'") }
	// Interleaved with the table's keys, unsorted.
	var rows []string
	for i := 0; i < 5000; i++ {
		id := (i*7919)%5000*10 + 5 // never a multiple of 10
		rows = append(rows, fmt.Sprintf("%d\t%d\tb%d", id, i%7, id))
	}
	res, err := s.Query(ctx, fmt.Sprintf("LOAD DATA INFILE '%s' INTO TABLE t", write("mix.txt", rows...)))
	if err != nil || res.RowsAffected != 5000 {
		t.Fatalf("interleaved load: %v, %v", err, res)
	}
	if got := bulkLoads(); got != "Strata_bulk_loads|1\n" {
		t.Fatalf("not the bulk path: %q", got)
	}
	// Appended after the last key, in order.
	rows = rows[:0]
	for i := 0; i < 3000; i++ {
		rows = append(rows, fmt.Sprintf("%d\t%d\tc%d", 100000+i, i%5, i))
	}
	if _, err := s.Query(ctx, fmt.Sprintf("LOAD DATA INFILE '%s' INTO TABLE t", write("app.txt", rows...))); err != nil {
		t.Fatal(err)
	}
	if got := queryLines(t, s, "SELECT COUNT(*), SUM(id), MIN(w), MAX(id) FROM t"); got != fmt.Sprintf("%d|%d|a10|102999\n", 8003, 60+sumIDs()+3000*100000+2999*3000/2) {
		t.Fatalf("rows: %q", got)
	}
	if got := queryLines(t, s, "CHECK TABLE t"); !strings.HasSuffix(got, "|OK\n") {
		t.Fatalf("CHECK TABLE: %q", got)
	}
	if got := queryLines(t, s, "SELECT id FROM t FORCE INDEX (uw) WHERE w IN ('a20', 'b15', 'c7') ORDER BY id"); got != "15\n20\n100007\n" {
		t.Fatalf("through uw: %q", got)
	}
	// A primary key the table has (in the middle of the file; the direct
	// path and the sort both check), and a unique value it has: 1062,
	// nothing loaded.
	for _, c := range []struct{ name, row, entry string }{
		{"dup_pk_sorted.txt", "20\t9\tnew20", "'20' for key 't.PRIMARY'"},
		{"dup_uw.txt", "200001\t9\ta30", "'a30' for key 't.uw'"},
	} {
		f := write(c.name, "200000\t1\tz1", c.row, "200002\t1\tz2")
		_, err := s.Query(ctx, fmt.Sprintf("LOAD DATA INFILE '%s' INTO TABLE t", f))
		if errCode(err) != 1062 || !strings.Contains(err.Error(), c.entry) {
			t.Fatalf("%s: %v, want 1062 %s", c.name, err, c.entry)
		}
		if got := queryLines(t, s, "SELECT COUNT(*) FROM t"); got != "8003\n" {
			t.Fatalf("%s: after a failed load: %q", c.name, got)
		}
	}
	// IGNORE (no unique secondary): the table's row of a key stays.
	checkExec(t, s, "CREATE TABLE g (id INT PRIMARY KEY, v INT, KEY kv (v))", "INSERT INTO g VALUES (2, 20), (4, 40)")
	res, err = s.Query(ctx, fmt.Sprintf("LOAD DATA INFILE '%s' IGNORE INTO TABLE g", write("ign.txt", "1\t10", "2\t21", "3\t30", "4\t41", "5\t50")))
	if err != nil || res.RowsAffected != 3 || res.Info != "Records: 5  Deleted: 0  Skipped: 2  Warnings: 2" {
		t.Fatalf("IGNORE: %v %v", err, res)
	}
	if got := queryLines(t, s, "SELECT id, v FROM g FORCE INDEX (kv) ORDER BY v"); got != "1|10\n2|20\n3|30\n4|40\n5|50\n" {
		t.Fatalf("IGNORE rows: %q", got)
	}
	if got := queryLines(t, s, "CHECK TABLE g"); !strings.HasSuffix(got, "|OK\n") {
		t.Fatalf("CHECK TABLE g: %q", got)
	}
	if got := bulkLoads(); got != "Strata_bulk_loads|3\n" {
		t.Fatalf("bulk loads: %q", got)
	}
	// Below the size threshold the load goes row by row.
	loadBulkNonEmptyMin = 1 << 30
	if _, err := s.Query(ctx, fmt.Sprintf("LOAD DATA INFILE '%s' INTO TABLE g", write("small.txt", "6\t60"))); err != nil {
		t.Fatal(err)
	}
	if got := bulkLoads(); got != "Strata_bulk_loads|3\n" {
		t.Fatalf("a small load took the bulk path: %q", got)
	}
}

// sumIDs is the sum of TestLoadDataBulkNonEmpty's interleaved ids.
func sumIDs() int {
	s := 0
	for i := 0; i < 5000; i++ {
		s += i*10 + 5
	}
	return s
}

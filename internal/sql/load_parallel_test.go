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

// TestLoadDataParallelSameAsSerial loads files whose rows mostly convert
// cleanly but some do not (NULL fields, values that warn or fail, short and
// long lines, duplicates, rows out of order) with and without the workers
// that convert rows apart: the statement's result, its warnings and the
// table's contents are the same.
func TestLoadDataParallelSameAsSerial(t *testing.T) {
	var b strings.Builder
	const n = 6000
	for i := range n {
		id := i
		if i == 4000 {
			id = 10 // a duplicate of an earlier row, out of order
		}
		switch {
		case i%997 == 5:
			fmt.Fprintf(&b, "%d\t\\N\t2024-01-02 03:04:05\tx%d\t1.5\n", id, i) // NULL into NOT NULL
		case i%1009 == 7:
			fmt.Fprintf(&b, "%d\t12abc\t2024-01-02\ttoo long a text value %d\t2.25\n", id, i) // warns
		case i%1013 == 9:
			fmt.Fprintf(&b, "%d\t3\n", id) // too few fields
		case i%1019 == 11:
			fmt.Fprintf(&b, "%d\t4\t2024-02-30 00:00:00\ty\t3\textra\n", id) // bad date, too many fields
		default:
			fmt.Fprintf(&b, "%d\t%d\t2024-01-%02d 10:00:%02d\tw%d\t%d.%02d\n", id, i%50, i%28+1, i%60, i, i%100, i%100)
		}
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "rows.txt")
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(parallel bool, mode, ignore string) string {
		defer func(p bool) { loadParallel = p }(loadParallel)
		loadParallel = parallel
		eng, s := newTestEngine(t)
		eng.BulkLoadMemory = 1 << 16
		eng.Globals.Set("secure_file_priv", sqltypes.NewVarChar(dir+"/"))
		checkExec(t, s, "CREATE DATABASE d", "USE d", "SET time_zone = '+02:00'", "SET sql_mode = '"+mode+"'",
			"CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL, ts TIMESTAMP NULL, w VARCHAR(12) NOT NULL DEFAULT 'd', x DECIMAL(6,2), z INT NOT NULL DEFAULT 7, KEY kv (v), KEY kw (w))")
		res, err := s.Query(context.Background(), fmt.Sprintf("LOAD DATA INFILE '%s' %s INTO TABLE t (id, v, ts, w, x)", file, ignore))
		out := fmt.Sprintf("err %v\n", err)
		if err == nil {
			out += fmt.Sprintf("affected %d, %s\n", res.RowsAffected, res.Info)
		}
		out += queryLines(t, s, "SHOW WARNINGS LIMIT 100")
		out += queryLines(t, s, "SELECT COUNT(*), SUM(v), SUM(x), SUM(z), MIN(ts), MAX(ts), COUNT(DISTINCT w), SUM(LENGTH(w)) FROM t")
		out += queryLines(t, s, "SELECT * FROM t WHERE id IN (5, 10, 1014, 1016, 2000, 5999) ORDER BY id")
		out += queryLines(t, s, "SELECT COUNT(*) FROM t FORCE INDEX (kw) WHERE w > ''")
		out += queryLines(t, s, "SHOW GLOBAL STATUS LIKE 'Strata_bulk_loads'")
		return out
	}
	for _, c := range []struct{ mode, ignore string }{{"", "IGNORE"}, {"", ""}, {"STRICT_TRANS_TABLES", "IGNORE"}, {"STRICT_TRANS_TABLES", ""}} {
		serial, parallel := run(false, c.mode, c.ignore), run(true, c.mode, c.ignore)
		if serial != parallel {
			t.Errorf("sql_mode %q %s: serial\n%s\nparallel\n%s", c.mode, c.ignore, serial, parallel)
		}
		if c.mode == "" && c.ignore == "IGNORE" && !strings.Contains(serial, "Strata_bulk_loads|1") {
			t.Errorf("the load did not take the bulk path:\n%s", serial)
		}
	}
}

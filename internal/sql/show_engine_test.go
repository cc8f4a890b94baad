package sql

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
)

// TestStorageObservability checks SHOW ENGINE STRATA STATUS and the
// STRATA_* information_schema tables after a bulk load put table files
// into the tree.
func TestStorageObservability(t *testing.T) {
	eng, s := newTestEngine(t)
	dir := t.TempDir()
	eng.Globals.Set("secure_file_priv", sqltypes.NewVarChar(dir+"/"))
	var b strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "%d\tv%d\n", i, i)
	}
	file := filepath.Join(dir, "rows.txt")
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	checkExec(t, s, "CREATE DATABASE d", "USE d", "CREATE TABLE t (id INT PRIMARY KEY, w VARCHAR(30))",
		"LOAD DATA INFILE '"+file+"' INTO TABLE t")

	got := queryLines(t, s, "SHOW ENGINE STRATA STATUS")
	for _, want := range []string{"STRATA||", "STRATA ENGINE STATUS", "LSM LEVELS", "COMPACTIONS", "BLOCK CACHE", "WRITE-AHEAD LOG", "ROW LOCKS", "deadlocks 0"} {
		if !strings.Contains(got, want) {
			t.Errorf("SHOW ENGINE STRATA STATUS lacks %q:\n%s", want, got)
		}
	}
	if got := queryLines(t, s, "SHOW ENGINE STRATA MUTEX"); got != "" {
		t.Errorf("SHOW ENGINE STRATA MUTEX = %q, want no rows", got)
	}
	if got := queryLines(t, s, "SHOW ENGINE INNODB STATUS"); got != "InnoDB||\n" {
		t.Errorf("SHOW ENGINE INNODB STATUS = %q", got)
	}
	_, err := s.Query(context.Background(), "SHOW ENGINE nosuch STATUS")
	if se, ok := err.(*sqlerror.SQLError); !ok || se.Num != 1286 || se.State != "42000" {
		t.Errorf("SHOW ENGINE nosuch STATUS: %v, want 1286 (42000)", err)
	}

	if got := queryLines(t, s, "SELECT COUNT(*), MIN(LEVEL), MAX(LEVEL) FROM information_schema.STRATA_LSM_LEVELS"); got != "7|0|6\n" {
		t.Errorf("STRATA_LSM_LEVELS: %q", got)
	}
	// The bulk load ingested its table files; the levels and the files
	// agree on their number and size.
	levels := queryLines(t, s, "SELECT SUM(FILES), SUM(SIZE) FROM information_schema.STRATA_LSM_LEVELS")
	files := queryLines(t, s, "SELECT COUNT(*), SUM(SIZE) FROM information_schema.STRATA_SST_FILES")
	if levels != files || levels == "0|0\n" {
		t.Errorf("STRATA_LSM_LEVELS has %q files|bytes, STRATA_SST_FILES %q", levels, files)
	}
	if got := queryLines(t, s, "SELECT MIN(FILE_NAME LIKE '%.sst'), SUM(ENTRIES) >= 2000 FROM information_schema.STRATA_SST_FILES"); got != "1|1\n" {
		t.Errorf("STRATA_SST_FILES: %q", got)
	}
	if got := queryLines(t, s, "SELECT COUNT(*), MIN(COMPACTIONS_RUNNING >= 0) FROM information_schema.STRATA_COMPACTIONS"); got != "1|1\n" {
		t.Errorf("STRATA_COMPACTIONS: %q", got)
	}

	// Without PROCESS: 1227, as InnoDB's INNODB_* tables and SHOW ENGINE.
	checkExec(t, s, "CREATE USER u", "GRANT SELECT ON d.* TO u")
	u := eng.NewSession("u", "localhost")
	defer u.Close()
	for _, q := range []string{"SELECT * FROM information_schema.STRATA_SST_FILES", "SHOW ENGINE STRATA STATUS"} {
		_, err := u.Query(context.Background(), q)
		if se, ok := err.(*sqlerror.SQLError); !ok || se.Num != 1227 {
			t.Errorf("%s without PROCESS: %v, want 1227", q, err)
		}
	}
}

package sqltest_test

import (
	"context"
	"database/sql"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/test/sqltest"
)

var (
	flagDSN = flag.String("sqltest.dsn", "",
		"run the scripts against this server (go-sql-driver DSN, e.g. root@tcp(127.0.0.1:33061)/) "+
			"instead of starting strata; env STRATA_SQLTEST_DSN works too")
	flagRewrite = flag.Bool("sqltest.rewrite", false,
		"rewrite the expected results in testdata/*.test from the actual ones (text mode only)")
)

// Modes a script runs in.
const (
	modeText = "text" // plain COM_QUERY
	modePS   = "ps"   // COM_STMT_PREPARE + COM_STMT_EXECUTE (binary protocol)
)

// TestSQL runs every testdata/*.test script as TestSQL/<file>/<mode>.
func TestSQL(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.test"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/*.test files")
	}

	dsn := *flagDSN
	if dsn == "" {
		dsn = os.Getenv("STRATA_SQLTEST_DSN")
	}
	target := "strata"
	if dsn == "" {
		dsn = startStrata(t)
	}
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatalf("bad DSN %q: %v", dsn, err)
	}
	cfg.DBName = ""
	if *flagDSN != "" || os.Getenv("STRATA_SQLTEST_DSN") != "" {
		target, err = detectTarget(cfg)
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("target %s", target)

	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".test")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			script, err := sqltest.Parse(file, string(src))
			if err != nil {
				t.Fatal(err)
			}
			modes := []string{modeText, modePS}
			if script.TextOnly || *flagRewrite {
				modes = modes[:1]
			}
			for _, mode := range modes {
				t.Run(mode, func(t *testing.T) {
					r := newRunner(t, cfg, target, dbNameFor(name), mode == modePS)
					r.run(script)
					if *flagRewrite && !t.Failed() {
						out := script.Rewrite(r.actual)
						if out != string(src) {
							if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
								t.Fatal(err)
							}
							t.Logf("rewrote %s", file)
						}
					}
				})
			}
		})
	}
}

// detectTarget names the server behind cfg: "mariadb", "strata" or "mysql".
func detectTarget(cfg *mysql.Config) (string, error) {
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		return "", err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var version string
	if err := db.QueryRowContext(ctx, "SELECT VERSION()").Scan(&version); err != nil {
		return "", err
	}
	v := strings.ToLower(version)
	switch {
	case strings.Contains(v, "mariadb"):
		return "mariadb", nil
	case strings.Contains(v, "strata"):
		return "strata", nil
	}
	return "mysql", nil
}

// dbNameFor maps a script name to its database name sqltest_<name>.
func dbNameFor(name string) string {
	b := []byte("sqltest_" + strings.ToLower(name))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}

package sql

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStatementNeedsCorpus runs the access checks' name resolution over
// every statement of the SQL test scripts: it must never panic, and every
// column need must name a table the statement also needs at table level.
// STRATA_NEEDS_CORPUS (a glob) runs it over other scripts (the logictest
// corpus).
func TestStatementNeedsCorpus(t *testing.T) {
	_, s := newCheckEngine(t)
	files, _ := filepath.Glob("../../test/sqltest/testdata/*.test")
	if g := os.Getenv("STRATA_NEEDS_CORPUS"); g != "" {
		files, _ = filepath.Glob(g)
	}
	if len(files) == 0 {
		t.Skip("no SQL test scripts")
	}
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range strings.Split(string(data), "\n\n") {
			lines := strings.Split(strings.TrimSpace(block), "\n")
			if len(lines) < 2 || !(strings.HasPrefix(lines[0], "statement") || strings.HasPrefix(lines[0], "query")) {
				continue
			}
			var sqlLines []string
			for _, l := range lines[1:] {
				if l == "----" {
					break
				}
				sqlLines = append(sqlLines, l)
			}
			sql := strings.Join(sqlLines, "\n")
			stmt, _, err := s.parse(sql)
			if err != nil {
				continue
			}
			n++
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s: %s: panic %v", filepath.Base(f), sql, r)
					}
				}()
				needs, err := s.statementNeeds(stmt, sql)
				if err != nil {
					return
				}
				tables := map[string]bool{}
				for _, x := range needs {
					if x.Column == "" {
						tables[x.DB+"."+x.Table] = true
					}
				}
				for _, x := range needs {
					if x.Column != "" && !tables[x.DB+"."+x.Table] {
						t.Errorf("%s: %s: column need %s.%s.%s without a table need", filepath.Base(f), sql, x.DB, x.Table, x.Column)
					}
				}
			}()
		}
	}
	t.Logf("%d statements", n)
	if n < 100 {
		t.Errorf("only %d statements parsed", n)
	}
}

package plan_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/strata-db/strata/internal/sql"
	"github.com/strata-db/strata/internal/testengine"
)

// TestExplainGolden runs the golden plan files in testdata/explain
// (datadriven format): `exec` runs its input's statements (one per line, a
// line ending in `\` continues on the next), `explain` prints EXPLAIN of
// its input as an aligned table (`explain tree`: FORMAT=TREE; `explain
// analyze`: EXPLAIN ANALYZE with its times masked), `query` prints a
// query's rows. The plans are made end to end, by an engine (internal/sql)
// on an in-memory store. Rewrite the expected outputs with
//
//	go test ./internal/sql/plan -run TestExplainGolden -rewrite
//
// and review the diff: a changed plan is a changed behaviour.
func TestExplainGolden(t *testing.T) {
	datadriven.Walk(t, "testdata/explain", func(t *testing.T, path string) {
		s := goldenSession(t)
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			switch td.Cmd {
			case "exec":
				for _, q := range goldenStatements(td.Input) {
					if _, err := s.Query(context.Background(), q); err != nil {
						return fmt.Sprintf("error: %s: %v\n", q, err)
					}
				}
				return ""
			case "explain":
				q := strings.Join(goldenStatements(td.Input), " ")
				switch {
				case td.HasArg("tree"):
					return goldenTree(s, "EXPLAIN FORMAT=TREE "+q)
				case td.HasArg("analyze"):
					// Times vary: masked.
					return actualTime.ReplaceAllString(goldenTree(s, "EXPLAIN ANALYZE "+q), "actual time=T")
				}
				return goldenRun(s, "EXPLAIN "+q, true)
			case "query":
				return goldenRun(s, strings.Join(goldenStatements(td.Input), " "), false)
			}
			t.Fatalf("%s: unknown command %q", td.Pos, td.Cmd)
			return ""
		})
	})
}

// goldenSession opens an engine on an in-memory store and returns a
// session with database d created and selected.
func goldenSession(t *testing.T) *sql.Session {
	t.Helper()
	eng := testengine.Open(t, testengine.Options{})
	s := eng.NewSession("root", "localhost")
	t.Cleanup(s.Close)
	for _, q := range []string{"CREATE DATABASE d", "USE d"} {
		if _, err := s.Query(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return s
}

var actualTime = regexp.MustCompile(`actual time=[0-9.]+\.\.[0-9.]+`)

// goldenTree returns the single cell of an EXPLAIN FORMAT=TREE or ANALYZE.
func goldenTree(s *sql.Session, q string) string {
	res, err := s.Query(context.Background(), q)
	if err != nil {
		return fmt.Sprintf("error: %v\n", err)
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 || len(res.Fields) != 1 || res.Fields[0].Name != "EXPLAIN" {
		return fmt.Sprintf("not one EXPLAIN cell: %d rows\n", len(res.Rows))
	}
	return res.Rows[0][0].ToString()
}

// goldenStatements splits a test input into statements: one per line, a
// line ending in a backslash continued on the next.
func goldenStatements(in string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(in, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if cont, ok := strings.CutSuffix(line, `\`); ok {
			cur.WriteString(strings.TrimSpace(cont) + " ")
			continue
		}
		cur.WriteString(line)
		out = append(out, cur.String())
		cur.Reset()
	}
	return out
}

// goldenRun formats a statement's result as a table with aligned columns
// (with a header when header is set), or its error.
func goldenRun(s *sql.Session, q string, header bool) string {
	res, err := s.Query(context.Background(), q)
	if err != nil {
		return fmt.Sprintf("error: %v\n", err)
	}
	var rows [][]string
	if header {
		var h []string
		for _, f := range res.Fields {
			h = append(h, f.Name)
		}
		rows = append(rows, h)
	}
	for _, r := range res.Rows {
		var line []string
		for _, v := range r {
			if v.IsNull() {
				line = append(line, "NULL")
			} else {
				line = append(line, v.ToString())
			}
		}
		rows = append(rows, line)
	}
	width := map[int]int{}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			if i == len(r)-1 {
				b.WriteString(c)
			} else {
				fmt.Fprintf(&b, "%-*s  ", width[i], c)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

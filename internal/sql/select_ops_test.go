package sql

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"
)

// rowText renders a result's rows as "v|v;v|v".
func rowText(rows []Row) string {
	var b strings.Builder
	for i, r := range rows {
		if i > 0 {
			b.WriteByte(';')
		}
		for j, v := range r {
			if j > 0 {
				b.WriteByte('|')
			}
			b.WriteString(v.ToString())
		}
	}
	return b.String()
}

// TestSelectOpsReset runs statements whose operators (kept in the cached
// plan) hold state — DISTINCT's seen keys, LIMIT's counts, a stream
// aggregate's pending row, HAVING — again and again with other constants,
// whole and streamed: each execution starts from a clean tree.
func TestSelectOpsReset(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, KEY ka (a))")
	for id := 1; id <= 40; id++ {
		checkExec(t, s, fmt.Sprintf("INSERT INTO t VALUES (%d, %d, %d)", id, id%5, id%3))
	}
	ctx := context.Background()
	for _, tc := range []struct {
		q    string // %d: the varying constant
		want func(k int) string
	}{
		{"SELECT DISTINCT a FROM t WHERE id > %d ORDER BY a LIMIT 3", func(k int) string {
			return distinctA(k, 0, 3)
		}},
		{"SELECT DISTINCT b FROM t WHERE id > %d LIMIT 2 OFFSET 1", func(k int) string {
			// b = id%3 in id order from k+1: the distinct values in first-seen order.
			seen := map[int]bool{}
			var vals []string
			for id := k + 1; id <= 40; id++ {
				if !seen[id%3] {
					seen[id%3] = true
					vals = append(vals, fmt.Sprint(id%3))
				}
			}
			if len(vals) > 3 {
				vals = vals[:3]
			}
			if len(vals) <= 1 {
				return ""
			}
			return strings.Join(vals[1:], ";")
		}},
		{"SELECT a, COUNT(*) FROM t FORCE INDEX (ka) WHERE id > %d GROUP BY a HAVING COUNT(*) > 1 LIMIT 2", func(k int) string {
			var out []string
			for a := 0; a < 5 && len(out) < 2; a++ {
				n := 0
				for id := k + 1; id <= 40; id++ {
					if id%5 == a {
						n++
					}
				}
				if n > 1 {
					out = append(out, fmt.Sprintf("%d|%d", a, n))
				}
			}
			return strings.Join(out, ";")
		}},
		{"SELECT b, SUM(a) FROM t IGNORE INDEX (ka) WHERE id <= %d GROUP BY b ORDER BY b", func(k int) string {
			var out []string
			for b := 0; b < 3; b++ {
				sum, n := 0, 0
				for id := 1; id <= k; id++ {
					if id%3 == b {
						sum += id % 5
						n++
					}
				}
				if n > 0 {
					out = append(out, fmt.Sprintf("%d|%d", b, sum))
				}
			}
			return strings.Join(out, ";")
		}},
	} {
		for _, k := range []int{0, 37, 5, 39, 12, 40, 0} {
			q := fmt.Sprintf(tc.q, k)
			want := tc.want(k)
			res, err := s.Query(ctx, q)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			if got := rowText(res.Rows); got != want {
				t.Fatalf("%s: got %q, want %q", q, got, want)
			}
			var streamed []Row
			err = s.QueryStream(ctx, q, func(r *sqltypes.Result) error {
				for _, row := range r.Rows {
					streamed = append(streamed, copyRow(nil, row))
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%s (streamed): %v", q, err)
			}
			if got := rowText(streamed); got != want {
				t.Fatalf("%s (streamed): got %q, want %q", q, got, want)
			}
		}
	}
}

// distinctA is the first n distinct values of id%5 over ids > k, sorted,
// after skipping skip.
func distinctA(k, skip, n int) string {
	seen := [5]bool{}
	for id := k + 1; id <= 40; id++ {
		seen[id%5] = true
	}
	var out []string
	for a, ok := range seen {
		if ok {
			out = append(out, fmt.Sprint(a))
		}
	}
	out = out[min(skip, len(out)):]
	return strings.Join(out[:min(n, len(out))], ";")
}

// TestSelectOpsBusy: an execution that finds the plan's operators in use
// (the plan run again inside its own execution) builds its own tree, and
// both run to the right result.
func TestSelectOpsBusy(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d", "CREATE TABLE t (id INT PRIMARY KEY)")
	ctx := context.Background()
	stmt, err := s.eng.Parser.Parse("SELECT COUNT(*) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.planSelect(ctx, stmt.(*sqlparser.Select))
	if err != nil {
		t.Fatal(err)
	}
	ex := s.newExecCtx(ctx, nil, nil)
	// A false constant WHERE: the aggregation has no input, so the trees
	// run without a transaction and yield COUNT(*) = 0.
	ops1, root1, _ := p.operators(ex, true, 0, 1<<63)
	ops2, root2, _ := p.operators(ex, true, 0, 1<<63)
	if ops1 != &p.ops || ops2 == ops1 {
		t.Fatalf("second tree shares the busy operators (%p, %p, plan %p)", ops1, ops2, &p.ops)
	}
	for _, root := range []interface {
		Open(context.Context) error
	}{root1, root2} {
		if err := root.Open(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for i, ops := range []*selectOps{ops1, ops2} {
		root := []any{root1, root2}[i].(interface {
			Next() ([]Row, error)
			Close() error
		})
		b, err := root.Next()
		if err != nil || len(b) != 1 || b[0][0].ToString() != "0" {
			t.Fatalf("tree %d: %v, %v", i, b, err)
		}
		if b, err := root.Next(); b != nil || err != nil {
			t.Fatalf("tree %d: second batch %v, %v", i, b, err)
		}
		if err := root.Close(); err != nil {
			t.Fatal(err)
		}
		ops.release()
	}
	if p.ops.busy {
		t.Fatal("plan's operators still busy after release")
	}
}

package sql

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"vitess.io/vitess/go/sqltypes"
)

// rowsText renders a result's rows as "a b|c d".
func rowsText(rows [][]sqltypes.Value) string {
	var b strings.Builder
	for i, r := range rows {
		if i > 0 {
			b.WriteByte('|')
		}
		for j, v := range r {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(v.String())
		}
	}
	return b.String()
}

func TestWindowFieldTypes(t *testing.T) {
	_, s := newCheckEngine(t)
	checkExec(t, s, "CREATE TABLE wd (id INT PRIMARY KEY, d DECIMAL(10,2), f DOUBLE)", "INSERT INTO wd VALUES (1, 1.50, 2), (2, 2.25, NULL)")
	res, err := s.Query(context.Background(), "SELECT ROW_NUMBER() OVER w, RANK() OVER w, NTILE(2) OVER w, PERCENT_RANK() OVER w, CUME_DIST() OVER w, SUM(d) OVER w, AVG(id) OVER w, COUNT(*) OVER w, MAX(d) OVER w, STD(f) OVER w, LAG(d) OVER w FROM wd WINDOW w AS (ORDER BY id)")
	if err != nil {
		t.Fatal(err)
	}
	want := []sqltypes.Type{sqltypes.Int64, sqltypes.Int64, sqltypes.Int64, sqltypes.Float64, sqltypes.Float64, sqltypes.Decimal, sqltypes.Decimal, sqltypes.Int64, sqltypes.Decimal, sqltypes.Float64, sqltypes.Decimal}
	for i, f := range res.Fields {
		if f.Type != want[i] {
			t.Errorf("column %d (%s): %v, want %v", i, f.Name, f.Type, want[i])
		}
	}
	if got := res.Fields[6].Decimals; got != 4 {
		t.Errorf("AVG(INT) scale %d, want 4", got)
	}
	if got, want := rowsText(res.Rows), "INT64(1) INT64(1) INT64(1) FLOAT64(0) FLOAT64(0.5) DECIMAL(1.50) DECIMAL(1.0000) INT64(1) DECIMAL(1.50) FLOAT64(0) NULL|INT64(2) INT64(2) INT64(2) FLOAT64(1) FLOAT64(1) DECIMAL(3.75) DECIMAL(1.5000) INT64(2) DECIMAL(2.25) FLOAT64(0) DECIMAL(1.50)"; got != want {
		t.Errorf("rows\n%s\nwant\n%s", got, want)
	}
}

// A window query's plan is cached and shared: each execution computes
// its own windows (no state left in the plan), also when the plan runs
// inside its own execution (a correlated subquery).
func TestWindowPlanReuse(t *testing.T) {
	_, s := newCheckEngine(t)
	q := "SELECT id, ROW_NUMBER() OVER (PARTITION BY c ORDER BY id), SUM(a) OVER (ORDER BY id ROWS 1 PRECEDING) FROM t ORDER BY id"
	var first string
	for i := 0; i < 3; i++ {
		res, err := s.Query(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		got := rowsText(res.Rows)
		if i == 0 {
			first = got
		} else if got != first {
			t.Fatalf("execution %d: %s, want %s", i, got, first)
		}
	}
	if want := "INT32(1) INT64(1) DECIMAL(10)|INT32(2) INT64(2) DECIMAL(30)|INT32(3) INT64(1) DECIMAL(20)|INT32(4) INT64(1) DECIMAL(40)|INT32(5) INT64(3) DECIMAL(50)"; first != want {
		t.Errorf("got %s, want %s", first, want)
	}
	res, err := s.Query(context.Background(), "SELECT id, (SELECT COUNT(*) OVER () FROM t t2 WHERE t2.id <= t.id ORDER BY t2.id LIMIT 1) FROM t ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rowsText(res.Rows), "INT32(1) INT64(1)|INT32(2) INT64(2)|INT32(3) INT64(3)|INT32(4) INT64(4)|INT32(5) INT64(5)"; got != want {
		t.Errorf("correlated: %s, want %s", got, want)
	}
}

// A window stage sorts through exec.Sort, which spills past the sort
// buffer: the result is the same as in memory.
func TestWindowSpill(t *testing.T) {
	_, s := newCheckEngine(t)
	checkExec(t, s, "CREATE TABLE big (id INT PRIMARY KEY, g INT, v VARCHAR(100))")
	var b strings.Builder
	b.WriteString("INSERT INTO big VALUES ")
	for i := 1; i <= 20000; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "(%d, %d, '%s')", i, i%7, strings.Repeat("x", 60))
	}
	checkExec(t, s, b.String())
	q := "SELECT g, COUNT(*), SUM(rn), MAX(rn), SUM(s) FROM (SELECT g, ROW_NUMBER() OVER (PARTITION BY g ORDER BY id DESC) rn, SUM(id) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) s, v FROM big) d GROUP BY g ORDER BY g"
	res, err := s.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 7 {
		t.Fatalf("%d groups", len(res.Rows))
	}
	// g = 0: ids 7, 14, ..., 19999 (2857 rows); rn 1..2857; the sums of
	// two neighbours add every id twice but the first.
	n := int64(2857)
	sumIDs := 7 * n * (n + 1) / 2
	want := fmt.Sprintf("INT32(0) INT64(%d) DECIMAL(%d) INT64(%d) DECIMAL(%d)", n, n*(n+1)/2, n, 2*sumIDs-7*n)
	if got := rowsText(res.Rows[:1]); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// Bounded frames slide (rows that leave are subtracted, or leave MIN's
// and MAX's deque): COUNT, SUM, AVG, MIN and MAX agree with the same frame
// aggregated anew by a correlated subquery, for integers, decimals,
// doubles and text under a case-insensitive collation (equal extremes:
// the first row's), with NULLs between them.
func TestWindowSlidingFrames(t *testing.T) {
	_, s := newCheckEngine(t)
	checkExec(t, s, "CREATE TABLE sl (id INT PRIMARY KEY, i INT, d DECIMAL(8,3), f DOUBLE, s VARCHAR(5))")
	var b strings.Builder
	b.WriteString("INSERT INTO sl VALUES ")
	for i := 1; i <= 200; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		iv, dv, fv := fmt.Sprint((i*37)%23-11), fmt.Sprintf("%d.%03d", (i*13)%17-8, (i*7)%1000), fmt.Sprintf("%d.25", (i*11)%19)
		if i%5 == 0 {
			iv = "NULL"
		}
		if i%7 == 0 {
			dv = "NULL"
		}
		if i%3 == 0 {
			fv = "NULL"
		}
		sv := fmt.Sprintf("'%s'", []string{"b", "B", "a", "A", "c", "b ", "C"}[(i*5)%7])
		if i%9 == 0 {
			sv = "NULL"
		}
		fmt.Fprintf(&b, "(%d, %s, %s, %s, %s)", i, iv, dv, fv, sv)
	}
	checkExec(t, s, b.String())
	for _, c := range []struct{ frame, lo, hi string }{
		{"ROWS BETWEEN 3 PRECEDING AND 2 FOLLOWING", "sl.id - 3", "sl.id + 2"},
		{"ROWS BETWEEN 5 PRECEDING AND 2 PRECEDING", "sl.id - 5", "sl.id - 2"},
		{"ROWS BETWEEN 1 FOLLOWING AND 4 FOLLOWING", "sl.id + 1", "sl.id + 4"},
		{"RANGE BETWEEN 10 PRECEDING AND 10 FOLLOWING", "sl.id - 10", "sl.id + 10"},
	} {
		for _, fn := range []string{"COUNT(*)", "COUNT(d)", "SUM(i)", "AVG(i)", "SUM(d)", "AVG(d)", "SUM(f)", "AVG(f)", "MIN(i)", "MAX(d)", "MIN(f)", "MAX(s)", "MIN(s)", "MAX(i + 1)"} {
			win := fmt.Sprintf("SELECT %s OVER (ORDER BY id %s) FROM sl ORDER BY id", fn, c.frame)
			sub := fmt.Sprintf("SELECT (SELECT %s FROM sl s2 WHERE s2.id BETWEEN %s AND %s) FROM sl ORDER BY id", fn, c.lo, c.hi)
			w, err := s.Query(context.Background(), win)
			if err != nil {
				t.Fatal(win, err)
			}
			r, err := s.Query(context.Background(), sub)
			if err != nil {
				t.Fatal(sub, err)
			}
			for i := range w.Rows {
				got, want := w.Rows[i][0], r.Rows[i][0]
				if strings.Contains(fn, "(f)") && !got.IsNull() && !want.IsNull() {
					// Floating-point sums differ in the last bits with
					// the order of additions.
					g, _ := got.ToFloat64()
					x, _ := want.ToFloat64()
					if d := g - x; d > 1e-9 || d < -1e-9 {
						t.Errorf("%s row %d: %v, want %v", win, i+1, got, want)
					}
					continue
				}
				if got.String() != want.String() {
					t.Errorf("%s row %d: %v, want %v", win, i+1, got, want)
					break
				}
			}
		}
	}
}

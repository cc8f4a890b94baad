package sql_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/sql"
	"github.com/strata-db/strata/internal/testengine"
)

// benchSession returns a session on an in-memory store holding a
// sysbench-shaped table sbtest1 with n rows.
func benchSession(b testing.TB, n int) *sql.Session {
	b.Helper()
	eng := testengine.Open(b, testengine.Options{})
	s := eng.NewSession("root", "localhost")
	ctx := context.Background()
	for _, q := range []string{
		"CREATE DATABASE sbtest", "USE sbtest",
		"CREATE TABLE sbtest1 (id INTEGER NOT NULL AUTO_INCREMENT, k INTEGER DEFAULT '0' NOT NULL, c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id))",
		"CREATE INDEX k_1 ON sbtest1(k)",
	} {
		if _, err := s.Query(ctx, q); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	for i := 0; i < n; i += 500 {
		q := "INSERT INTO sbtest1 (k, c, pad) VALUES "
		for j := 0; j < 500 && i+j < n; j++ {
			if j > 0 {
				q += ","
			}
			q += fmt.Sprintf("(%d, '%011d-%011d-%011d-%011d-%011d', '%011d-%011d')", (i+j)%1000, i, j, i+j, i*j, j, i, j)
		}
		if _, err := s.Query(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// preparedBench returns a session on 10,000 sysbench rows with q prepared,
// a context and an empty bind-variable map, and starts b's measurement.
func preparedBench(b *testing.B, q string) (*sql.Session, context.Context, map[string]*querypb.BindVariable) {
	b.Helper()
	s := benchSession(b, 10000)
	ctx := context.Background()
	if _, _, err := s.Prepare(ctx, q); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	return s, ctx, map[string]*querypb.BindVariable{}
}

// BenchmarkPointSelect measures the prepared point-select path (plan
// cache hit, PK lookup, result build) without the network.
func BenchmarkPointSelect(b *testing.B) {
	const q = "SELECT c FROM sbtest1 WHERE id=?"
	s, ctx, bv := preparedBench(b, q)
	for i := 0; i < b.N; i++ {
		bv["v1"] = sqltypes.Int64BindVariable(int64(i%10000 + 1))
		res, err := s.ExecutePrepared(ctx, q, bv)
		if err != nil || len(res.Rows) != 1 {
			b.Fatalf("rows=%v err=%v", res, err)
		}
	}
}

// BenchmarkPointSelectStream is BenchmarkPointSelect through the protocol
// layer's entry point, ExecutePreparedStream, with a send that keeps
// nothing.
func BenchmarkPointSelectStream(b *testing.B) {
	const q = "SELECT c FROM sbtest1 WHERE id=?"
	s, ctx, bv := preparedBench(b, q)
	rows := 0
	send := func(r *sqltypes.Result) error {
		rows += len(r.Rows)
		return nil
	}
	for i := 0; i < b.N; i++ {
		bv["v1"] = sqltypes.Int64BindVariable(int64(i%10000 + 1))
		if err := s.ExecutePreparedStream(ctx, q, bv, send); err != nil {
			b.Fatal(err)
		}
	}
	if rows != b.N {
		b.Fatalf("%d rows for %d queries", rows, b.N)
	}
}

// BenchmarkRangeSelect measures a 100-row primary-key range with ORDER BY
// on a non-key column (sysbench's order_ranges).
func BenchmarkRangeSelect(b *testing.B) {
	const q = "SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c"
	s, ctx, bv := preparedBench(b, q)
	for i := 0; i < b.N; i++ {
		lo := int64(i%9900 + 1)
		bv["v1"] = sqltypes.Int64BindVariable(lo)
		bv["v2"] = sqltypes.Int64BindVariable(lo + 99)
		res, err := s.ExecutePrepared(ctx, q, bv)
		if err != nil || len(res.Rows) != 100 {
			b.Fatalf("rows=%d err=%v", len(res.Rows), err)
		}
	}
}

// BenchmarkBuiltinSelect is BenchmarkPointSelect with a strata builtin
// (internal/sql/builtins) over the row: the builtin's argument slots, its
// call and its result bind variable.
func BenchmarkBuiltinSelect(b *testing.B) {
	const q = "SELECT SUBSTRING_INDEX(c, '-', 2) FROM sbtest1 WHERE id=?"
	s, ctx, bv := preparedBench(b, q)
	for i := 0; i < b.N; i++ {
		bv["v1"] = sqltypes.Int64BindVariable(int64(i%10000 + 1))
		res, err := s.ExecutePrepared(ctx, q, bv)
		if err != nil || len(res.Rows) != 1 || len(res.Rows[0][0].ToString()) != 23 {
			b.Fatalf("rows=%v err=%v", res, err)
		}
	}
}

// BenchmarkUpdateIndex measures an autocommit secondary-index update
// (sysbench's update_index) on an in-memory store.
func BenchmarkUpdateIndex(b *testing.B) {
	const q = "UPDATE sbtest1 SET k=k+1 WHERE id=?"
	s, ctx, bv := preparedBench(b, q)
	for i := 0; i < b.N; i++ {
		bv["v1"] = sqltypes.Int64BindVariable(int64(i%10000 + 1))
		if _, err := s.ExecutePrepared(ctx, q, bv); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInsert measures an autocommit single-row insert with an
// auto-increment key and a secondary index (sysbench's oltp_insert).
func BenchmarkInsert(b *testing.B) {
	const q = "INSERT INTO sbtest1 (k, c, pad) VALUES (?, ?, ?)"
	s, ctx, bv := preparedBench(b, q)
	bv["v2"] = sqltypes.StringBindVariable("00000000000-00000000000-00000000000-00000000000-00000000000")
	bv["v3"] = sqltypes.StringBindVariable("00000000000-00000000000")
	for i := 0; i < b.N; i++ {
		bv["v1"] = sqltypes.Int64BindVariable(int64(i % 1000))
		if _, err := s.ExecutePrepared(ctx, q, bv); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLargeResult reads many rows through one result (the result slabs must
// keep growing safely).
func TestLargeResult(t *testing.T) {
	s := benchSession(t, 5000)
	res, err := s.Query(context.Background(), "SELECT id FROM sbtest1")
	if err != nil || len(res.Rows) != 5000 {
		t.Fatalf("rows=%d err=%v", len(res.Rows), err)
	}
	for i, r := range res.Rows {
		if r[0].ToString() != fmt.Sprint(i+1) {
			t.Fatalf("row %d = %v", i, r[0])
		}
	}
}

// textBench returns a session on 10,000 sysbench rows and starts b's
// measurement.
func textBench(b *testing.B) (*sql.Session, context.Context) {
	b.Helper()
	s := benchSession(b, 10000)
	b.ReportAllocs()
	b.ResetTimer()
	return s, context.Background()
}

// BenchmarkTextPointSelect measures a point select sent as text with a new
// literal each time (sysbench with --db-ps-mode=disable): the plan cache
// is hit through the literal-normalised key.
func BenchmarkTextPointSelect(b *testing.B) {
	s, ctx := textBench(b)
	for i := 0; i < b.N; i++ {
		q := "SELECT c FROM sbtest1 WHERE id=" + strconv.Itoa(i%10000+1)
		res, err := s.Query(ctx, q)
		if err != nil || len(res.Rows) != 1 {
			b.Fatalf("rows=%v err=%v", res, err)
		}
	}
}

// BenchmarkTextRangeSelect is BenchmarkRangeSelect sent as text with new
// literals each time.
func BenchmarkTextRangeSelect(b *testing.B) {
	s, ctx := textBench(b)
	for i := 0; i < b.N; i++ {
		lo := i%9900 + 1
		q := "SELECT c FROM sbtest1 WHERE id BETWEEN " + strconv.Itoa(lo) + " AND " + strconv.Itoa(lo+99) + " ORDER BY c"
		res, err := s.Query(ctx, q)
		if err != nil || len(res.Rows) != 100 {
			b.Fatalf("rows=%d err=%v", len(res.Rows), err)
		}
	}
}

// BenchmarkTextUpdateIndex is BenchmarkUpdateIndex sent as text with a new
// literal each time.
func BenchmarkTextUpdateIndex(b *testing.B) {
	s, ctx := textBench(b)
	for i := 0; i < b.N; i++ {
		if _, err := s.Query(ctx, "UPDATE sbtest1 SET k=k+1 WHERE id="+strconv.Itoa(i%10000+1)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTextNonIndexUpdate is sysbench's non_index_update sent as text:
// a new string and a new key each time.
func BenchmarkTextNonIndexUpdate(b *testing.B) {
	s, ctx := textBench(b)
	for i := 0; i < b.N; i++ {
		q := "UPDATE sbtest1 SET c='" + strconv.Itoa(i) + "-00000000000-00000000000-00000000000' WHERE id=" + strconv.Itoa(i%10000+1)
		if _, err := s.Query(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTextInsert is BenchmarkInsert sent as text with new values each
// time.
func BenchmarkTextInsert(b *testing.B) {
	s, ctx := textBench(b)
	for i := 0; i < b.N; i++ {
		q := "INSERT INTO sbtest1 (k, c, pad) VALUES (" + strconv.Itoa(i%1000) + ", '00000000000-00000000000-00000000000-00000000000-00000000000', '00000000000-00000000000')"
		if _, err := s.Query(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

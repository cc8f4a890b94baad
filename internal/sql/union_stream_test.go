package sql

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/third_party/evalengine"
)

// unionTables returns a session on database d with tables t1 and t2 of n
// rows each, of many column types, and an empty table e.
func unionTables(t *testing.T, n int) *Session {
	t.Helper()
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d",
		"CREATE TABLE t1 (id INT PRIMARY KEY, i INT, b BIGINT UNSIGNED, d DECIMAL(10,2), f DOUBLE, "+
			"v VARCHAR(20) COLLATE utf8mb4_0900_ai_ci, l VARCHAR(30) CHARACTER SET latin1, c CHAR(5), "+
			"dt DATE, ts DATETIME(3), tm TIME, n INT NULL, y YEAR, s SMALLINT NOT NULL)",
		"CREATE TABLE t2 (id INT PRIMARY KEY, i BIGINT, d DECIMAL(12,4), v VARCHAR(50) CHARACTER SET latin1, "+
			"c CHAR(10) COLLATE utf8mb4_bin, dt DATETIME, ts DATETIME(6), n DECIMAL(5,1) NULL, f FLOAT, u TINYINT UNSIGNED)",
		"CREATE TABLE e (id INT PRIMARY KEY, i INT, v VARCHAR(5))")
	var b1, b2 strings.Builder
	for i := 1; i <= n; i++ {
		if b1.Len() == 0 {
			b1.WriteString("INSERT INTO t1 VALUES ")
			b2.WriteString("INSERT INTO t2 VALUES ")
		} else {
			b1.WriteString(",")
			b2.WriteString(",")
		}
		null := "NULL"
		if i%2 == 1 {
			null = strconv.Itoa(i % 13)
		}
		fmt.Fprintf(&b1, "(%d,%d,%d,%d.%02d,%d.25,'v%d','l%d','c%d','2020-01-%02d','2021-02-03 04:05:%02d.%03d','%02d:10:00',%s,%d,%d)",
			i, i*3-50, i*1000, i, i%100, i, i, i, i%10, i%28+1, i%60, i%1000, i%24, null, 1990+i%50, i%100)
		fmt.Fprintf(&b2, "(%d,%d,%d.%04d,'w%d','k%d','2022-03-%02d 01:02:03','2023-04-05 06:07:08.%06d',%s,%d.5,%d)",
			i, i*7, i, i%10000, i, i%100, i%28+1, i, null, i, i%256)
		if i%200 == 0 || i == n {
			checkExec(t, s, b1.String(), b2.String())
			b1.Reset()
			b2.Reset()
		}
	}
	return s
}

// unionShapes are the UNION ALL statements the differential test runs.
func unionShapes() []string {
	c1 := []string{"id", "i", "b", "d", "f", "v", "l", "c", "dt", "ts", "tm", "n", "y", "s",
		"NULL", "1", "2.5", "'x'", "i + 1", "CONCAT(v, 'z')", "d * 2", "DATE_ADD(dt, INTERVAL 1 DAY)"}
	c2 := []string{"id", "i", "d", "v", "c", "dt", "ts", "n", "f", "u", "NULL", "'abc'", "7", "-1.125", "i / 3", "UPPER(v)"}
	var out []string
	for _, a := range c1 {
		for _, b := range c2 {
			out = append(out, "SELECT "+a+" FROM t1 UNION ALL SELECT "+b+" FROM t2")
		}
	}
	out = append(out,
		"SELECT * FROM t1 UNION ALL SELECT * FROM t1",
		"SELECT id, v, d FROM t1 UNION ALL SELECT id, v, d FROM t2",
		"SELECT id, v, d FROM t1 UNION ALL SELECT i, c, n FROM t2 UNION ALL SELECT id, l, f FROM t1",
		"SELECT i, v FROM e UNION ALL SELECT i, v FROM t1 UNION ALL SELECT id, c FROM t2",
		"SELECT i, v FROM t1 UNION ALL SELECT i, v FROM e",
		"SELECT i, v FROM e UNION ALL SELECT i, v FROM e",
		"SELECT NULL, NULL FROM t1 UNION ALL SELECT i, v FROM t2",
		"SELECT i, dt FROM t1 UNION ALL SELECT i, ts FROM t2 UNION ALL SELECT 1, NULL FROM e",
		"SELECT dt FROM t1 UNION ALL SELECT dt FROM t2 UNION ALL SELECT ts FROM t1",
		"SELECT tm FROM t1 UNION ALL SELECT ts FROM t2",
		"SELECT i, d FROM t1 UNION ALL SELECT id, d FROM t2 LIMIT 10",
		"SELECT i, d FROM t1 UNION ALL SELECT id, d FROM t2 LIMIT 250, 300",
		"SELECT i, d FROM t1 UNION ALL SELECT id, d FROM t2 LIMIT 0",
		"SELECT i, d FROM t1 UNION ALL SELECT id, d FROM t2 LIMIT 1000 OFFSET 599",
		"SELECT i FROM t1 WHERE id < 5 UNION ALL SELECT i FROM t2 WHERE id < 3",
		"(SELECT i FROM t1 LIMIT 100) UNION ALL (SELECT d FROM t2 LIMIT 200) UNION ALL SELECT v FROM t1",
		"SELECT i FROM t1 UNION ALL SELECT i FROM t2 UNION ALL SELECT i FROM t1 UNION ALL SELECT d FROM t2",
		"SELECT 1, 'a' UNION ALL SELECT i, v FROM t1",
		"SELECT COUNT(*) FROM t1 UNION ALL SELECT i FROM t2",
		"SELECT v COLLATE utf8mb4_bin FROM t1 UNION ALL SELECT c FROM t2",
		"SELECT CAST(i AS CHAR) FROM t1 UNION ALL SELECT CAST(d AS SIGNED) FROM t2",
		"SELECT i FROM t1 UNION SELECT i FROM t2",
		"SELECT i FROM t1 UNION ALL SELECT i FROM t2 ORDER BY 1",
		"SELECT i FROM t1 UNION ALL SELECT i FROM t2 UNION SELECT 1",
		"SELECT i FROM t1 UNION SELECT i FROM t2 UNION ALL SELECT 1",
		"SELECT i FROM t1 EXCEPT ALL SELECT i FROM t2",
		"SELECT IF(id > 150, ts, dt) FROM t1 UNION ALL SELECT dt FROM t2",
		"SELECT CASE WHEN id > 150 THEN 1 ELSE 'a' END FROM t1 UNION ALL SELECT i FROM t2",
		"SELECT ts FROM t1 UNION ALL SELECT ADDTIME(ts, '00:00:00.5') FROM t2",
		"SELECT COALESCE(n, v) FROM t1 UNION ALL SELECT i FROM t2",
		"SELECT @x FROM t1 UNION ALL SELECT i FROM t2",
		"SELECT dt + INTERVAL 1 SECOND FROM t1 UNION ALL SELECT dt FROM t2",
		"SELECT ADDTIME(tm, '1:00:00.123') FROM t1 UNION ALL SELECT tm FROM t1",
		"SELECT (SELECT MAX(ts) FROM t2) FROM t1 UNION ALL SELECT dt FROM t2",
		"SELECT IFNULL(n, 1.5) FROM t1 UNION ALL SELECT d FROM t2",
		"SELECT FROM_UNIXTIME(id + 0.5) FROM t1 UNION ALL SELECT dt FROM t2",
		"SELECT x FROM (SELECT IF(id > 150, ts, dt) x FROM t1) q UNION ALL SELECT dt FROM t2",
		"SELECT MAX(ts) FROM t1 GROUP BY id UNION ALL SELECT dt FROM t2",
		"SELECT i FROM t1 FOR UPDATE UNION ALL SELECT i FROM t2",
	)
	return out
}

// sameResult reports how whole and streamed differ ("" when they do not):
// fields exactly, values by type and bytes.
func sameResult(whole *sqltypes.Result, fields []*querypb.Field, rows []Row) string {
	if len(whole.Fields) != len(fields) {
		return fmt.Sprintf("%d fields, streamed %d", len(whole.Fields), len(fields))
	}
	for i := range fields {
		if !proto.Equal(whole.Fields[i], fields[i]) {
			return fmt.Sprintf("field %d: %v, streamed %v", i, whole.Fields[i], fields[i])
		}
	}
	if len(whole.Rows) != len(rows) {
		return fmt.Sprintf("%d rows, streamed %d", len(whole.Rows), len(rows))
	}
	for r := range rows {
		for c := range rows[r] {
			w, g := whole.Rows[r][c], rows[r][c]
			if w.Type() != g.Type() || w.IsNull() != g.IsNull() || !bytes.Equal(w.Raw(), g.Raw()) {
				return fmt.Sprintf("row %d col %d: %v, streamed %v", r, c, w, g)
			}
		}
	}
	return ""
}

// TestUnionAllStreamDifferential runs UNION ALL shapes whole (Query,
// ExecutePrepared) and streamed (QueryStream, ExecutePreparedStream) and
// requires the same fields and values; it counts the shapes that did
// stream (sent more than one batch) and requires the plain ones to.
func TestUnionAllStreamDifferential(t *testing.T) {
	s := unionTables(t, 300)
	ctx := context.Background()
	bv := map[string]*querypb.BindVariable{}
	mustStream := map[string]bool{
		"SELECT i FROM t1 UNION ALL SELECT i FROM t2":                                                       true,
		"SELECT id, v, d FROM t1 UNION ALL SELECT id, v, d FROM t2":                                         true,
		"SELECT * FROM t1 UNION ALL SELECT * FROM t1":                                                       true,
		"SELECT i, d FROM t1 UNION ALL SELECT id, d FROM t2 LIMIT 250, 300":                                 true,
		"SELECT i FROM t1 UNION ALL SELECT i FROM t2 UNION ALL SELECT i FROM t1 UNION ALL SELECT d FROM t2": true,
	}
	mustStream["SELECT IF(id > 150, ts, dt) FROM t1 UNION ALL SELECT dt FROM t2"] = true
	streamed, total := 0, 0
	for _, proto := range []string{"text", "binary"} {
		for _, q := range unionShapes() {
			var whole *sqltypes.Result
			var werr error
			var nb int
			var fields []*querypb.Field
			var rows []Row
			send := func(r *sqltypes.Result) error {
				nb++
				if fields == nil {
					fields = r.Fields
				} else if len(r.Fields) > 0 && &r.Fields[0] != &fields[0] && sameResult(&sqltypes.Result{Fields: fields}, r.Fields, nil) != "" {
					return fmt.Errorf("batch %d fields differ", nb)
				}
				for _, row := range r.Rows {
					rows = append(rows, copyRow(nil, row))
				}
				return nil
			}
			var serr error
			if proto == "text" {
				whole, werr = s.Query(ctx, q)
				serr = s.QueryStream(ctx, q, send)
			} else {
				whole, werr = s.ExecutePrepared(ctx, q, bv)
				serr = s.ExecutePreparedStream(ctx, q, bv, send)
			}
			if (werr == nil) != (serr == nil) || werr != nil && werr.Error() != serr.Error() {
				t.Errorf("%s %s: whole err %v, streamed err %v", proto, q, werr, serr)
				continue
			}
			if werr != nil {
				continue
			}
			if d := sameResult(whole, fields, rows); d != "" {
				t.Errorf("%s %s: %s", proto, q, d)
			}
			total++
			if nb > 1 {
				streamed++
			} else if mustStream[q] {
				t.Errorf("%s %s: not streamed", proto, q)
			}
		}
	}
	t.Logf("%d of %d results streamed", streamed, total)
	if streamed < total/2 {
		t.Errorf("only %d of %d results streamed", streamed, total)
	}
}

// TestUnionAllStreamFallback makes a row "not fit" (unionRowFits) before
// the first batch, which must give the whole path's result from the rows
// held, and after it, which must end the statement with error 1235.
func TestUnionAllStreamFallback(t *testing.T) {
	s := unionTables(t, 300)
	ctx := context.Background()
	const q = "SELECT id, v, d FROM t1 UNION ALL SELECT i, c, n FROM t2 UNION ALL SELECT id, l, f FROM t1"
	whole, err := s.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { unionRowFits = fitsFields }()
	for _, tc := range []struct {
		failAt int // the call of unionRowFits that fails
		want   string
	}{
		{failAt: 100},
		{failAt: 2000, want: "1235"},
	} {
		calls := 0
		unionRowFits = func(row Row, fields []*querypb.Field, cols []int, all bool) bool {
			calls++
			return calls != tc.failAt && fitsFields(row, fields, cols, all)
		}
		var nb int
		var fields []*querypb.Field
		var rows []Row
		err := s.QueryStream(ctx, q, func(r *sqltypes.Result) error {
			nb++
			fields = r.Fields
			for _, row := range r.Rows {
				rows = append(rows, copyRow(nil, row))
			}
			return nil
		})
		if tc.want != "" {
			if err == nil || !strings.Contains(err.Error(), tc.want) || nb == 0 {
				t.Errorf("fail at %d: %d batches, err %v, want %s after a batch", tc.failAt, nb, err, tc.want)
			}
			continue
		}
		if err != nil || nb != 1 {
			t.Fatalf("fail at %d: %d batches, err %v; want the result whole", tc.failAt, nb, err)
		}
		if d := sameResult(whole, fields, rows); d != "" {
			t.Errorf("fail at %d: %s", tc.failAt, d)
		}
	}
}

// TestCoerceFast checks coerceFast against evalengine.CoerceTo wherever it
// takes a value.
func TestCoerceFast(t *testing.T) {
	vals := []sqltypes.Value{
		sqltypes.NewVarChar("abc"), sqltypes.NewVarChar(""), sqltypes.MakeTrusted(sqltypes.Char, []byte("é x")),
		sqltypes.MakeTrusted(sqltypes.Text, []byte("long")), sqltypes.NewVarBinary("\x00\xff"),
		sqltypes.MakeTrusted(sqltypes.Blob, []byte("b")), sqltypes.MakeTrusted(sqltypes.Binary, []byte("bin")),
		sqltypes.NewInt32(0), sqltypes.NewInt32(-5), sqltypes.NewInt64(123456789012345678),
		sqltypes.NewInt64(-123456789012345678), sqltypes.NewInt64(9223372036854775807),
		sqltypes.MakeTrusted(sqltypes.Int32, []byte("007")), sqltypes.MakeTrusted(sqltypes.Int32, []byte("-0")),
		sqltypes.MakeTrusted(sqltypes.Int8, []byte("+1")), sqltypes.NewUint64(5), sqltypes.MakeTrusted(sqltypes.Int16, []byte("12")),
		sqltypes.MakeTrusted(sqltypes.Enum, []byte("a")), sqltypes.NewDecimal("1.5"), sqltypes.NewFloat64(2.5),
	}
	targets := []sqltypes.Type{sqltypes.VarChar, sqltypes.Char, sqltypes.Text, sqltypes.VarBinary, sqltypes.Blob,
		sqltypes.Binary, sqltypes.Int64, sqltypes.Int32, sqltypes.Int8, sqltypes.Uint64, sqltypes.Decimal}
	fast := 0
	for _, v := range vals {
		for _, tt := range targets {
			got, ok := coerceFast(v, tt)
			if !ok {
				continue
			}
			fast++
			coll := collations.ID(collations.CollationBinaryID)
			if sqltypes.IsText(tt) {
				coll = collations.CollationUtf8mb4ID
			}
			want, err := evalengine.CoerceTo(v, evalengine.NewType(tt, coll), 0)
			if err != nil || got.Type() != want.Type() || !bytes.Equal(got.Raw(), want.Raw()) {
				t.Errorf("%v to %v: %v, CoerceTo %v %v", v, tt, got, want, err)
			}
		}
	}
	if fast < 40 {
		t.Errorf("only %d fast conversions", fast)
	}
}

// TestUnionAllStreamLimitedFit: the statement's own fields depend only on
// the rows LIMIT keeps, so a dropped row that would not fit them does not
// stop the stream; a kept one makes the result whole.
func TestUnionAllStreamLimitedFit(t *testing.T) {
	s := unionTables(t, 300)
	ctx := context.Background()
	defer func() { unionRowFits = fitsFields }()
	for _, tc := range []struct {
		q       string
		batches int // 1: built whole
	}{
		{"SELECT id, v FROM t1 UNION ALL SELECT id, v FROM t2 LIMIT 100", 2},
		{"SELECT id, v FROM t1 UNION ALL SELECT id, v FROM t2 LIMIT 1000", 1},
	} {
		unionRowFits = fitsFields
		whole, err := s.Query(ctx, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		// Row id 250 "does not fit" the statement's fields (the only level).
		unionRowFits = func(row Row, fields []*querypb.Field, cols []int, all bool) bool {
			return !(all && row[0].ToString() == "250") && fitsFields(row, fields, cols, all)
		}
		var nb int
		var fields []*querypb.Field
		var rows []Row
		err = s.QueryStream(ctx, tc.q, func(r *sqltypes.Result) error {
			nb++
			fields = r.Fields
			for _, row := range r.Rows {
				rows = append(rows, copyRow(nil, row))
			}
			return nil
		})
		if err != nil || nb != tc.batches {
			t.Errorf("%s: %d batches, err %v; want %d", tc.q, nb, err, tc.batches)
			continue
		}
		if d := sameResult(whole, fields, rows); d != "" {
			t.Errorf("%s: %s", tc.q, d)
		}
	}
}

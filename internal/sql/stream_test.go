package sql

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
)

// streamTable returns a session on database d with table t of n rows
// (id 1..n, v a 40-character string).
func streamTable(t *testing.T, n int) *Session {
	t.Helper()
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d", "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(200), w INT)")
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if b.Len() == 0 {
			b.WriteString("INSERT INTO t VALUES ")
		} else {
			b.WriteString(",")
		}
		b.WriteString("(" + strconv.Itoa(i) + ",'" + strings.Repeat(strconv.Itoa(i%10), 40) + "'," + strconv.Itoa(i%7) + ")")
		if i%500 == 0 || i == n {
			checkExec(t, s, b.String())
			b.Reset()
		}
	}
	return s
}

// batches runs q through QueryStream and returns each batch (copied: the
// session reuses a batch's memory once send returns) and the error.
func batches(s *Session, q string, send func(n int) error) ([]*sqltypes.Result, error) {
	var out []*sqltypes.Result
	err := s.QueryStream(context.Background(), q, func(r *sqltypes.Result) error {
		c := &sqltypes.Result{Fields: r.Fields}
		for _, row := range r.Rows {
			c.Rows = append(c.Rows, copyRow(nil, row))
		}
		out = append(out, c)
		if send != nil {
			return send(len(out))
		}
		return nil
	})
	return out, err
}

func oneValue(t *testing.T, s *Session, q string) string {
	t.Helper()
	res, err := s.Query(context.Background(), q)
	if err != nil || len(res.Rows) != 1 {
		t.Fatalf("%s: %v %v", q, res, err)
	}
	return res.Rows[0][len(res.Rows[0])-1].ToString()
}

// readsOf runs q whole or streamed and returns Handler_read_rnd_next.
func readsOf(t *testing.T, s *Session, q string, stream bool) string {
	t.Helper()
	checkExec(t, s, "FLUSH STATUS")
	if stream {
		if _, err := batches(s, q, nil); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	} else {
		checkExec(t, s, q)
	}
	return oneValue(t, s, "SHOW SESSION STATUS LIKE 'Handler_read_rnd_next'")
}

func TestStreamBatches(t *testing.T) {
	s := streamTable(t, 1000)
	const q = "SELECT id, v, w + 1 FROM t"
	whole, err := s.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	got, err := batches(s, q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("%d batches, want 4 (1000 rows by %d)", len(got), batchRows)
	}
	var rows []Row
	for i, b := range got {
		if len(b.Rows) > batchRows {
			t.Fatalf("batch %d has %d rows", i, len(b.Rows))
		}
		if len(b.Fields) != 3 || b.Fields[0].Name != "id" {
			t.Fatalf("batch %d fields %v", i, b.Fields)
		}
		rows = append(rows, b.Rows...)
	}
	if len(rows) != len(whole.Rows) {
		t.Fatalf("streamed %d rows, whole %d", len(rows), len(whole.Rows))
	}
	for i := range rows {
		for c := range rows[i] {
			if rows[i][c].ToString() != whole.Rows[i][c].ToString() || rows[i][c].Type() != whole.Rows[i][c].Type() {
				t.Fatalf("row %d col %d: streamed %v, whole %v", i, c, rows[i][c], whole.Rows[i][c])
			}
		}
	}
	if n := oneValue(t, s, "SELECT FOUND_ROWS()"); n != "1000" {
		t.Fatalf("FOUND_ROWS() = %s after a streamed result", n)
	}
	// Handler_read_* counts the same reads either way.
	if a, b := readsOf(t, s, q, false), readsOf(t, s, q, true); a != b {
		t.Fatalf("Handler_read_rnd_next: whole %s, streamed %s", a, b)
	}

	// A sort needs every row first: one batch.
	got, err = batches(s, "SELECT id FROM t ORDER BY v, id", nil)
	if err != nil || len(got) != 1 || len(got[0].Rows) != 1000 {
		t.Fatalf("sorted: %d batches, err %v", len(got), err)
	}
	// So does a UNION DISTINCT.
	got, err = batches(s, "SELECT id FROM t UNION SELECT id FROM t", nil)
	if err != nil || len(got) != 1 || len(got[0].Rows) != 1000 {
		t.Fatalf("union: %d batches, err %v", len(got), err)
	}
	// A UNION ALL streams its parts one after the other (union_stream.go).
	got, err = batches(s, "SELECT id FROM t UNION ALL SELECT id FROM t", nil)
	n := 0
	for _, b := range got {
		n += len(b.Rows)
		if len(b.Rows) > batchRows {
			t.Fatalf("union all: a batch of %d rows", len(b.Rows))
		}
	}
	if err != nil || len(got) < 8 || n != 2000 {
		t.Fatalf("union all: %d batches, %d rows, err %v", len(got), n, err)
	}
	// Aggregated rows stream once grouped.
	got, err = batches(s, "SELECT id, COUNT(*) FROM t GROUP BY id", nil)
	if err != nil || len(got) != 4 {
		t.Fatalf("group by: %d batches, err %v", len(got), err)
	}
}

func TestStreamLimit(t *testing.T) {
	s := streamTable(t, 1000)
	const q = "SELECT id FROM t LIMIT 100, 300"
	got, err := batches(s, q, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, b := range got {
		for _, r := range b.Rows {
			ids = append(ids, r[0].ToString())
		}
	}
	if len(got) != 2 || len(ids) != 300 || ids[0] != "101" || ids[299] != "400" {
		t.Fatalf("%d batches, %d rows %v…", len(got), len(ids), ids[:min(3, len(ids))])
	}
	if n := oneValue(t, s, "SELECT FOUND_ROWS()"); n != "300" {
		t.Fatalf("FOUND_ROWS() = %s", n)
	}
	// The scan stops at the limit, as when the result is built whole.
	whole, streamed := readsOf(t, s, q, false), readsOf(t, s, q, true)
	if whole != streamed || whole != "400" {
		t.Fatalf("Handler_read_rnd_next: whole %s, streamed %s, want 400", whole, streamed)
	}
}

func TestStreamBatchBytes(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d", "CREATE TABLE t (id INT PRIMARY KEY, v TEXT)")
	for i := 1; i <= 100; i++ {
		checkExec(t, s, "INSERT INTO t VALUES ("+strconv.Itoa(i)+", REPEAT('x', 10000))")
	}
	got, err := batches(s, "SELECT v FROM t", nil)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for i, b := range got {
		n := 0
		for _, r := range b.Rows {
			n += len(r[0].Raw())
		}
		if n > batchBytes+10000 {
			t.Fatalf("batch %d holds %d bytes", i, n)
		}
		total += len(b.Rows)
	}
	if total != 100 || len(got) < 4 {
		t.Fatalf("%d rows in %d batches", total, len(got))
	}
	for _, b := range got {
		for _, r := range b.Rows {
			if v := r[0].ToString(); v != strings.Repeat("x", 10000) {
				t.Fatalf("value overwritten: %.20s…", v)
			}
		}
	}
}

func TestStreamErrorMidway(t *testing.T) {
	s := streamTable(t, 1000)
	// BIGINT overflow from row 601 on: after two batches were sent.
	const q = "SELECT id + IF(id > 600, 9223372036854775807, 0) FROM t"
	got, err := batches(s, q, nil)
	var se *sqlerror.SQLError
	if !errors.As(err, &se) || se.Num != sqlerror.ERDataOutOfRange {
		t.Fatalf("err %v, want 1690", err)
	}
	if len(got) != 2 || got[1].Rows[255][0].ToString() != "512" {
		t.Fatalf("%d batches before the error", len(got))
	}
	if _, err := s.Query(context.Background(), q); err == nil {
		t.Fatal("whole result: no error")
	}
	if n := oneValue(t, s, "SELECT COUNT(*) FROM t"); n != "1000" {
		t.Fatalf("session unusable after the error: %s", n)
	}

	// A client that goes away stops the scan.
	gone := errors.New("client gone")
	checkExec(t, s, "FLUSH STATUS")
	got, err = batches(s, "SELECT * FROM t", func(n int) error {
		if n == 2 {
			return gone
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), gone.Error()) || len(got) != 2 {
		t.Fatalf("err %v after %d batches", err, len(got))
	}
	if n := oneValue(t, s, "SHOW SESSION STATUS LIKE 'Handler_read_rnd_next'"); n != "512" {
		t.Fatalf("Handler_read_rnd_next %s after the client left at row 512", n)
	}

	// KILL QUERY between batches interrupts the statement.
	got, err = batches(s, "SELECT * FROM t", func(n int) error {
		if n == 1 {
			s.Kill(false)
		}
		return nil
	})
	if !errors.As(err, &se) || se.Num != sqlerror.ERQueryInterrupted || len(got) != 1 {
		t.Fatalf("killed: err %v after %d batches", err, len(got))
	}
	if n := oneValue(t, s, "SELECT COUNT(*) FROM t"); n != "1000" {
		t.Fatalf("session unusable after KILL QUERY: %s", n)
	}
}

// TestStreamLockingRead: a locking read is not streamed (no row reaches the
// client before every row is locked); it keeps the locks of the rows it
// returned and gives back those of rows its WHERE rejected.
func TestStreamLockingRead(t *testing.T) {
	s := streamTable(t, 1000)
	checkExec(t, s, "BEGIN")
	got, err := batches(s, "SELECT id FROM t WHERE w = 3 FOR UPDATE", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0].Rows) != 143 {
		t.Fatalf("%d batches", len(got))
	}
	other := s.eng.NewSession("root", "localhost")
	defer other.Close()
	checkExec(t, other, "USE d", "SET innodb_lock_wait_timeout = 1")
	if _, err := other.Query(context.Background(), "UPDATE t SET v = 'x' WHERE id = 1"); err != nil {
		t.Fatalf("unmatched row still locked: %v", err)
	}
	if _, err := other.Query(context.Background(), "UPDATE t SET v = 'x' WHERE id = 3"); err == nil {
		t.Fatal("returned row not locked")
	}
	checkExec(t, s, "COMMIT", "BEGIN")
	for _, q := range []string{"SELECT id FROM t FOR SHARE", "SELECT id FROM t LOCK IN SHARE MODE"} {
		if got, err := batches(s, q, nil); err != nil || len(got) != 1 || len(got[0].Rows) != 1000 {
			t.Fatalf("%s: %d batches, err %v", q, len(got), err)
		}
	}
	checkExec(t, s, "COMMIT")
}

// TestStreamSameAsWhole: a streamed result has the columns and rows the
// whole result has, whether or not its column metadata depends on values.
func TestStreamSameAsWhole(t *testing.T) {
	s := streamTable(t, 1000)
	checkExec(t, s, "SET @x = 7")
	for _, q := range []string{
		"SELECT * FROM t",
		"SELECT id, @x FROM t",                                     // no static type: built whole
		"SELECT id, (SELECT MAX(id) FROM t) FROM t",                // idem
		"SELECT IF(id > 500, 'a', 1), IF(id > 500, 1.5, 1) FROM t", // static types
		"SELECT IF(id > 500, NOW(6), NOW()) IS NOT NULL, CASE WHEN id > 600 THEN DATE('2020-01-01') ELSE 'x' END FROM t",
		"SELECT JSON_EXTRACT(CONCAT('[', id, ']'), '$[0]'), COALESCE(NULL, id) FROM t",
		"SELECT id FROM (SELECT id FROM t) d",
		"SELECT DISTINCT v FROM t",
		"SELECT DISTINCT id % 300 FROM t",
		"SELECT id FROM t LIMIT 700",
		"SELECT w, COUNT(*) FROM t GROUP BY w HAVING COUNT(*) > 1",
		"SELECT id, v FROM t ORDER BY id DESC LIMIT 3, 500",
		"SELECT a.id, b.id FROM t a JOIN t b ON b.id = a.id + 1 WHERE a.w = 2",
	} {
		whole, err := s.Query(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		got, err := batches(s, q, nil)
		if err != nil {
			t.Fatalf("%s streamed: %v", q, err)
		}
		var rows []Row
		for i, b := range got {
			if len(b.Fields) != len(whole.Fields) {
				t.Fatalf("%s: batch %d has %d fields, whole %d", q, i, len(b.Fields), len(whole.Fields))
			}
			for c := range b.Fields {
				if b.Fields[c].String() != whole.Fields[c].String() {
					t.Fatalf("%s: batch %d field %d %v, whole %v", q, i, c, b.Fields[c], whole.Fields[c])
				}
			}
			rows = append(rows, b.Rows...)
		}
		if len(rows) != len(whole.Rows) {
			t.Fatalf("%s: streamed %d rows, whole %d", q, len(rows), len(whole.Rows))
		}
		for i := range rows {
			for c := range rows[i] {
				if w := whole.Rows[i][c]; rows[i][c].ToString() != w.ToString() || rows[i][c].Type() != w.Type() {
					t.Fatalf("%s: row %d col %d: streamed %v, whole %v", q, i, c, rows[i][c], w)
				}
			}
		}
	}
}

package limits_test

import (
	"context"
	"errors"
	"testing"

	gomysql "github.com/go-sql-driver/mysql"
	"vitess.io/vitess/go/mysql"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/vttls"

	"github.com/strata-db/strata/internal/testserver"
)

// result is what a client sees of one result of a COM_QUERY.
type result struct {
	rows     int
	warnings uint16
	flags    uint16
	err      error
}

// results sends q as one COM_QUERY and reads every result it returns.
func results(t *testing.T, c *mysql.Conn, q string) []result {
	t.Helper()
	if err := c.WriteComQuery(q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var out []result
	for {
		res, more, warnings, err := c.ReadQueryResult(mysql.FETCH_ALL_ROWS, false)
		if err != nil {
			return append(out, result{err: err})
		}
		out = append(out, result{rows: len(res.Rows), warnings: warnings, flags: res.StatusFlags})
		if !more {
			return out
		}
	}
}

func errNum(err error) int {
	var se *sqlerror.SQLError
	if errors.As(err, &se) {
		return int(se.Num)
	}
	return 0
}

// TestStreamProtocol checks what a client sees of streamed results through
// the protocol: multi-statement results with their warning counts and
// status flags, an error after rows (the connection stays usable), the
// empty query, FOUND_ROWS(), and KILL QUERY during a result.
func TestStreamProtocol(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{})
	ctx := context.Background()
	for _, deprecateEOF := range []bool{true, false} {
		name := "ok"
		if !deprecateEOF {
			name = "eof"
		}
		t.Run(name, func(t *testing.T) {
			c, err := mysql.Connect(ctx, &mysql.ConnParams{
				Host: "127.0.0.1", Port: srv.Port, Uname: "root",
				Flags: mysql.CapabilityClientMultiStatements, SslMode: vttls.Disabled,
				DisableClientDeprecateEOF: !deprecateEOF,
			})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			setup := "CREATE DATABASE IF NOT EXISTS p; USE p; DROP TABLE IF EXISTS t; " +
				"CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10)); SET SESSION cte_max_recursion_depth = 10000; " +
				"INSERT INTO t WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 1000) SELECT n, 'x' FROM s"
			for i, r := range results(t, c, setup) {
				if r.err != nil {
					t.Fatalf("setup statement %d: %v", i, r.err)
				}
			}

			const (
				autocommit = mysql.ServerStatusAutocommit
				inTrans    = mysql.ServerStatusInTrans
				more       = mysql.ServerMoreResultsExists
			)
			// warnQuery returns 1000 rows (four batches) and a warning per
			// row; its count as a single statement is the reference.
			const warnQuery = "SELECT id / 0 FROM t"
			single := results(t, c, warnQuery)
			if len(single) != 1 || single[0].err != nil || single[0].rows != 1000 || single[0].warnings == 0 {
				t.Fatalf("%s: %+v", warnQuery, single)
			}
			w := single[0].warnings
			for _, tc := range []struct {
				q    string
				want []result
			}{
				{warnQuery + "; SELECT 1", []result{{1000, w, autocommit | more, nil}, {1, 0, autocommit, nil}}},
				{"SELECT 1; " + warnQuery, []result{{1, 0, autocommit | more, nil}, {1000, w, autocommit, nil}}},
				{warnQuery + "; DO 1", []result{{1000, w, autocommit | more, nil}, {0, 0, autocommit, nil}}},
				{"BEGIN; SELECT * FROM t; SELECT * FROM t; COMMIT", []result{
					{0, 0, autocommit | inTrans | more, nil}, {1000, 0, autocommit | inTrans | more, nil},
					{1000, 0, autocommit | inTrans | more, nil}, {0, 0, autocommit, nil}}},
				{"SET autocommit = 0; SELECT * FROM t; SELECT id FROM t LIMIT 300; COMMIT; SET autocommit = 1", []result{
					{0, 0, more, nil}, {1000, 0, inTrans | more, nil}, {300, 0, inTrans | more, nil},
					{0, 0, more, nil}, {0, 0, autocommit, nil}}},
				{"SELECT * FROM t; SELECT FOUND_ROWS(); SELECT ROW_COUNT()", []result{
					{1000, 0, autocommit | more, nil}, {1, 0, autocommit | more, nil}, {1, 0, autocommit, nil}}},
				// An error after rows ends the result; the statements after
				// it are not run.
				{"SELECT 1; SELECT id + IF(id > 600, 9223372036854775807, 0) FROM t; SELECT 2", []result{
					{1, 0, autocommit | more, nil}, {err: sqlerror.NewSQLError(sqlerror.ERDataOutOfRange, "", "")}}},
				{"SELECT * FROM t; SELECT * FROM nosuch; SELECT 2", []result{
					{1000, 0, autocommit | more, nil}, {err: sqlerror.NewSQLError(sqlerror.ERNoSuchTable, "", "")}}},
				{"", []result{{err: sqlerror.NewSQLError(sqlerror.EREmptyQuery, "", "")}}},
			} {
				got := results(t, c, tc.q)
				ok := len(got) == len(tc.want)
				for i := 0; ok && i < len(got); i++ {
					g, w := got[i], tc.want[i]
					if w.err != nil {
						ok = errNum(g.err) == errNum(w.err)
						continue
					}
					ok = g.err == nil && g.rows == w.rows && g.warnings == w.warnings &&
						g.flags&(autocommit|inTrans|more) == w.flags
				}
				if !ok {
					t.Errorf("%q:\n got %+v\nwant %+v", tc.q, got, tc.want)
				}
				// The connection stays usable.
				if r := results(t, c, "SELECT 3"); len(r) != 1 || r[0].err != nil || r[0].rows != 1 {
					t.Fatalf("after %q: %+v", tc.q, r)
				}
			}
			// FOUND_ROWS() counts the rows of a streamed result.
			c.ExecuteFetch("SELECT * FROM t", mysql.FETCH_ALL_ROWS, false)
			if res, err := c.ExecuteFetch("SELECT FOUND_ROWS()", 1, false); err != nil || res.Rows[0][0].ToString() != "1000" {
				t.Fatalf("FOUND_ROWS(): %v %v", res, err)
			}
		})
	}

	t.Run("binary error after rows", func(t *testing.T) {
		// Vitess's COM_STMT_EXECUTE cannot end a result with an error and
		// keep the connection: the client reads the rows and the error, and
		// finds the connection closed when it takes it from its pool (the
		// driver then opens a new one), every time.
		db := srv.DB(t, "p")
		db.SetMaxOpenConns(1)
		for i := 0; i < 5; i++ {
			rs, err := db.QueryContext(ctx, "SELECT id + IF(id > 600, 9223372036854775807, 0) FROM t WHERE id > ?", 0)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for rs.Next() {
				n++
			}
			var me *gomysql.MySQLError
			if err := rs.Err(); !errors.As(err, &me) || me.Number != uint16(sqlerror.ERDataOutOfRange) || n < 256 {
				t.Fatalf("after %d rows: %v", n, rs.Err())
			}
			rs.Close()
			var one int
			if err := db.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
				t.Fatalf("round %d: the next query: %v", i, err)
			}
		}
	})
}

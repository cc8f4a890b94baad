package sqltest_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/test/sqltest"
)

const (
	// recordTimeout bounds one statement so a hung server fails the test
	// instead of stalling it.
	recordTimeout = 60 * time.Second
	// maxFailures stops a script after this many failed records.
	maxFailures = 20
)

// runner plays one script in one mode against one fresh database.
type runner struct {
	t        *testing.T
	db       *sql.DB
	dbName   string
	target   string
	prepared bool
	rewrite  bool

	conns   map[string]*sql.Conn
	curName string
	// actual collects query results and affected-row counts by record
	// index, for -sqltest.rewrite.
	actual   map[int][]string
	failures int
}

// newRunner recreates database dbName and returns a runner whose
// connections use it. Everything is released when t ends.
func newRunner(t *testing.T, cfg *mysql.Config, target, dbName string, prepared bool) *runner {
	t.Helper()
	c := cfg.Clone()
	c.DBName = ""
	db, err := sql.Open("mysql", c.FormatDSN())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), recordTimeout)
	defer cancel()
	for _, q := range []string{
		"DROP DATABASE IF EXISTS `" + dbName + "`",
		"CREATE DATABASE `" + dbName + "`",
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	r := &runner{
		t:        t,
		db:       db,
		dbName:   dbName,
		target:   target,
		prepared: prepared,
		rewrite:  *flagRewrite,
		conns:    map[string]*sql.Conn{},
		curName:  "default",
		actual:   map[int][]string{},
	}
	t.Cleanup(r.close)
	return r
}

// close releases the connections and, when the script passed, drops its
// database (a failed script leaves it behind for inspection).
func (r *runner) close() {
	for _, c := range r.conns {
		c.Close()
	}
	if !r.t.Failed() {
		ctx, cancel := context.WithTimeout(context.Background(), recordTimeout)
		defer cancel()
		r.db.ExecContext(ctx, "DROP DATABASE IF EXISTS `"+r.dbName+"`")
	}
}

// conn returns the current connection, opening it (and USE-ing the
// script's database) on first use.
func (r *runner) conn(ctx context.Context) (*sql.Conn, error) {
	if c, ok := r.conns[r.curName]; ok {
		return c, nil
	}
	c, err := r.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("open connection %s: %w", r.curName, err)
	}
	if _, err := c.ExecContext(ctx, "USE `"+r.dbName+"`"); err != nil {
		c.Close()
		return nil, fmt.Errorf("connection %s: USE %s: %w", r.curName, r.dbName, err)
	}
	r.conns[r.curName] = c
	return c, nil
}

// dropIfBroken forgets the current connection when err says it is dead, so
// the next record opens a fresh one.
func (r *runner) dropIfBroken(err error) {
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, mysql.ErrInvalidConn) ||
		errors.Is(err, context.DeadlineExceeded) {
		if c, ok := r.conns[r.curName]; ok {
			c.Close()
			delete(r.conns, r.curName)
		}
	}
}

func (r *runner) run(s *sqltest.Script) {
	for i := range s.Records {
		rec := &s.Records[i]
		if !rec.Applies(r.target) {
			continue
		}
		switch rec.Kind {
		case sqltest.KindConnection:
			r.curName = rec.Conn
		case sqltest.KindSleep:
			time.Sleep(rec.Sleep)
		case sqltest.KindStatement:
			r.statement(s, i, rec)
		case sqltest.KindQuery:
			r.query(s, i, rec)
		}
		if r.failures >= maxFailures {
			r.t.Errorf("%s: stopping after %d failures", s.Name, r.failures)
			return
		}
	}
}

// fail reports a failed record with its location and SQL.
func (r *runner) fail(s *sqltest.Script, rec *sqltest.Record, format string, args ...any) {
	r.t.Helper()
	r.failures++
	mode := "text"
	if r.prepared && !rec.NoPrepare {
		mode = "ps"
	}
	r.t.Errorf("%s:%d: %s [conn %s, mode %s]\n%s\n%s", s.Name, rec.Line, rec.Kind, r.curName, mode,
		indent(rec.SQL), fmt.Sprintf(format, args...))
}

func (r *runner) statement(s *sqltest.Script, idx int, rec *sqltest.Record) {
	ctx, cancel := context.WithTimeout(context.Background(), recordTimeout)
	defer cancel()
	affected, err := r.exec(ctx, rec)
	if !r.checkError(s, rec, err) || err != nil {
		return
	}
	if rec.Count >= 0 {
		r.actual[idx] = []string{strconv.FormatInt(affected, 10)}
		if affected != rec.Count && !r.rewrite {
			r.fail(s, rec, "expected %d affected rows, got %d", rec.Count, affected)
		}
	}
}

func (r *runner) query(s *sqltest.Script, idx int, rec *sqltest.Record) {
	ctx, cancel := context.WithTimeout(context.Background(), recordTimeout)
	defer cancel()
	lines, err := r.rows(ctx, rec)
	if !r.checkError(s, rec, err) || err != nil {
		return
	}
	r.actual[idx] = lines
	if !slices.Equal(lines, rec.Expected) && !r.rewrite {
		r.fail(s, rec, "expected:\n%s\nactual:\n%s", indent(strings.Join(rec.Expected, "\n")),
			indent(strings.Join(lines, "\n")))
	}
}

// checkError compares err with the record's expectation and reports a
// mismatch; it returns false on a mismatch.
func (r *runner) checkError(s *sqltest.Script, rec *sqltest.Record, err error) bool {
	r.t.Helper()
	if err != nil {
		r.dropIfBroken(err)
	}
	switch {
	case err == nil && rec.ExpectError:
		if rec.ErrorCode != 0 {
			r.fail(s, rec, "expected error %d, got success", rec.ErrorCode)
		} else {
			r.fail(s, rec, "expected an error, got success")
		}
		return false
	case err != nil && !rec.ExpectError:
		r.fail(s, rec, "unexpected error: %v", err)
		return false
	case err != nil && rec.ErrorCode != 0:
		var me *mysql.MySQLError
		if !errors.As(err, &me) || int(me.Number) != rec.ErrorCode {
			r.fail(s, rec, "expected error %d, got: %v", rec.ErrorCode, err)
			return false
		}
	}
	return true
}

// exec runs a statement and returns its affected-row count.
func (r *runner) exec(ctx context.Context, rec *sqltest.Record) (int64, error) {
	c, err := r.conn(ctx)
	if err != nil {
		return 0, err
	}
	var res sql.Result
	if r.prepared && !rec.NoPrepare {
		stmt, err := c.PrepareContext(ctx, rec.SQL)
		if err != nil {
			return 0, err
		}
		defer stmt.Close()
		if returnsRows(rec.SQL) {
			// go-sql-driver v1.10.1 hangs in Stmt.Exec when a prepared
			// statement's result set ends in an error (seen with MariaDB),
			// so read statements that return rows as queries.
			return 0, drain(stmt.QueryContext(ctx))
		}
		res, err = stmt.ExecContext(ctx)
		if err != nil {
			return 0, err
		}
	} else {
		res, err = c.ExecContext(ctx, rec.SQL)
		if err != nil {
			return 0, err
		}
	}
	return res.RowsAffected()
}

// rows runs a query and renders its result as script lines.
func (r *runner) rows(ctx context.Context, rec *sqltest.Record) ([]string, error) {
	c, err := r.conn(ctx)
	if err != nil {
		return nil, err
	}
	var rows *sql.Rows
	if r.prepared && !rec.NoPrepare {
		stmt, err := c.PrepareContext(ctx, rec.SQL)
		if err != nil {
			return nil, err
		}
		defer stmt.Close()
		rows, err = stmt.QueryContext(ctx)
		if err != nil {
			return nil, err
		}
	} else {
		rows, err = c.QueryContext(ctx, rec.SQL)
		if err != nil {
			return nil, err
		}
	}
	defer rows.Close()
	lines, err := resultLines(rows, rec)
	if err != nil {
		return nil, err
	}
	// Further result sets (CALL of a procedure that selects several
	// times) follow, each after a line ~~~.
	for rows.NextResultSet() {
		more, err := resultLines(rows, rec)
		if err != nil {
			return nil, err
		}
		lines = append(append(lines, resultSep), more...)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return lines, nil
}

// resultSep separates the result sets of one query in expected output.
const resultSep = "~~~"

// resultLines renders the current result set of rows.
func resultLines(rows *sql.Rows, rec *sqltest.Record) ([]string, error) {
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var lines []string
	var b strings.Builder
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		b.Reset()
		for i, v := range vals {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(sqltest.FormatValue(v))
		}
		lines = append(lines, b.String())
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if rec.RowSort {
		sort.Strings(lines)
	}
	if rec.ColNames {
		lines = append([]string{strings.Join(cols, "\t")}, lines...)
	}
	return lines, nil
}

// returnsRows reports whether a statement produces a result set, judged by
// its first keyword.
func returnsRows(sql string) bool {
	s := strings.TrimLeft(sql, " \t\n(")
	word := s
	if i := strings.IndexAny(s, " \t\n("); i >= 0 {
		word = s[:i]
	}
	switch strings.ToUpper(word) {
	case "SELECT", "SHOW", "WITH", "VALUES", "TABLE", "DESCRIBE", "DESC", "EXPLAIN":
		return true
	}
	return false
}

// drain reads and discards a result set, returning its error.
func drain(rows *sql.Rows, err error) error {
	if err != nil {
		return err
	}
	for rows.Next() {
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return err
	}
	return rows.Close()
}

func indent(s string) string {
	if s == "" {
		return "    (no rows)"
	}
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

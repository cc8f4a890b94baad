package logictest

import (
	"context"
	"crypto/md5"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Outcome of one record.
type Outcome uint8

const (
	// Pass: the record behaved as the file says.
	Pass Outcome = iota
	// Fail: the statement or query ran but its result (or its success)
	// differs from the file.
	Fail
	// Error: the server returned an error the file does not expect.
	Error
	// Timeout: the record did not finish within the per-record limit.
	Timeout
)

func (o Outcome) String() string {
	switch o {
	case Pass:
		return "pass"
	case Fail:
		return "fail"
	case Error:
		return "error"
	case Timeout:
		return "timeout"
	}
	return "?"
}

// Failure describes one record that did not pass.
type Failure struct {
	Line    int
	Outcome Outcome
	SQL     string
	// Detail is the error, or expected vs actual.
	Detail string
	// Code is the MySQL error number for Error outcomes.
	Code uint16
}

// FileResult is what one file produced.
type FileResult struct {
	// Name is the file's path relative to the corpus directory.
	Name     string
	Records  int // records run (statements and queries)
	Passed   int
	Failures []Failure
	Duration time.Duration
	// Canary is non-empty when the constant query gave a wrong answer after
	// the file: the file corrupted shared state.
	Canary string
	// Setup is set when the file could not run at all (no database, no
	// connection).
	Setup error
}

// Options control a run.
type Options struct {
	// RecordTimeout bounds one record; the server is also asked to stop a
	// SELECT after this long (max_execution_time).
	RecordTimeout time.Duration
}

// CanaryQuery must return CanaryAnswer on every connection at any time.
const (
	CanaryQuery  = "SELECT 1=2, FALSE, 1 IN (2), 70 IS NULL, NULLIF(20,-9)"
	CanaryAnswer = "0 0 0 0 20"
)

// RunFile runs the records of the file at path (named name in results) in a
// fresh database dbName on db, then checks the canary on the file's
// connection and on a new one. The database is dropped afterwards.
func RunFile(ctx context.Context, db *sql.DB, path, name, dbName string, opts Options) (res FileResult) {
	res.Name = name
	start := time.Now()
	defer func() { res.Duration = time.Since(start) }()
	f, err := os.Open(path)
	if err != nil {
		res.Setup = err
		return res
	}
	recs, err := Parse(name, f)
	f.Close()
	if err != nil {
		res.Setup = err
		return res
	}
	if opts.RecordTimeout == 0 {
		opts.RecordTimeout = 30 * time.Second
	}
	setupCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for _, q := range []string{"DROP DATABASE IF EXISTS `" + dbName + "`", "CREATE DATABASE `" + dbName + "`"} {
		if _, err := db.ExecContext(setupCtx, q); err != nil {
			res.Setup = fmt.Errorf("%s: %w", q, err)
			return res
		}
	}
	defer func() {
		dctx, dcancel := context.WithTimeout(context.Background(), time.Minute)
		defer dcancel()
		_, _ = db.ExecContext(dctx, "DROP DATABASE IF EXISTS `"+dbName+"`")
	}()
	r := &fileRunner{db: db, dbName: dbName, opts: opts}
	if err := r.connect(setupCtx); err != nil {
		res.Setup = err
		return res
	}
	defer r.close()
	for i := range recs {
		rec := &recs[i]
		if rec.Kind == Halt {
			break
		}
		if rec.Kind == HashThreshold {
			continue
		}
		res.Records++
		out, detail, code := r.run(ctx, rec)
		if out == Pass {
			res.Passed++
			continue
		}
		res.Failures = append(res.Failures, Failure{Line: rec.Line, Outcome: out, SQL: rec.SQL, Detail: detail, Code: code})
		if ctx.Err() != nil {
			break
		}
	}
	res.Canary = r.canary(ctx)
	return res
}

// fileRunner holds the pinned connection of one file.
type fileRunner struct {
	db     *sql.DB
	dbName string
	opts   Options
	conn   *sql.Conn
}

func (r *fileRunner) connect(ctx context.Context) error {
	c, err := r.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	for _, q := range []string{
		"USE `" + r.dbName + "`",
		fmt.Sprintf("SET SESSION max_execution_time = %d", r.opts.RecordTimeout.Milliseconds()),
	} {
		if _, err := c.ExecContext(ctx, q); err != nil {
			c.Close()
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	r.conn = c
	return nil
}

func (r *fileRunner) close() {
	if r.conn != nil {
		r.conn.Close()
		r.conn = nil
	}
}

// run executes one record. After a timeout the connection is replaced (the
// driver abandons a connection whose context expired).
func (r *fileRunner) run(ctx context.Context, rec *Record) (Outcome, string, uint16) {
	if r.conn == nil {
		if err := r.connect(ctx); err != nil {
			return Error, err.Error(), 0
		}
	}
	// The client waits a little longer than the server's own limit, so the
	// server's max_execution_time error normally arrives first.
	rctx, cancel := context.WithTimeout(ctx, r.opts.RecordTimeout+5*time.Second)
	defer cancel()
	switch rec.Kind {
	case Statement:
		_, err := r.conn.ExecContext(rctx, rec.SQL)
		if err != nil {
			if out, ok := r.timedOut(rctx, err); ok {
				return out, err.Error(), 0
			}
		}
		switch {
		case err == nil && rec.ExpectError:
			return Fail, "statement succeeded, the file expects an error", 0
		case err != nil && !rec.ExpectError:
			return Error, err.Error(), errCode(err)
		}
		return Pass, "", 0
	case Query:
		vals, ncols, err := r.query(rctx, rec)
		if err != nil {
			if out, ok := r.timedOut(rctx, err); ok {
				return out, err.Error(), 0
			}
			return Error, err.Error(), errCode(err)
		}
		if ncols != len(rec.Types) {
			return Fail, fmt.Sprintf("%d columns, the file expects %d (%s)", ncols, len(rec.Types), rec.Types), 0
		}
		sortValues(vals, ncols, rec.Sort)
		if rec.Hashed() && rec.Expected == nil {
			h := hashValues(vals)
			if len(vals) != rec.HashCount || h != rec.Hash {
				return Fail, fmt.Sprintf("expected %d values hashing to %s, got %d values hashing to %s%s",
					rec.HashCount, rec.Hash, len(vals), h, preview(vals)), 0
			}
			return Pass, "", 0
		}
		if !slices.Equal(vals, rec.Expected) {
			return Fail, fmt.Sprintf("expected %s\ngot      %s", preview0(rec.Expected), preview0(vals)), 0
		}
		return Pass, "", 0
	}
	return Pass, "", 0
}

// timedOut classifies err as a timeout (client deadline or the server's
// max_execution_time, error 3024) and drops the connection if the client
// gave up on it.
func (r *fileRunner) timedOut(rctx context.Context, err error) (Outcome, bool) {
	if errCode(err) == 3024 {
		return Timeout, true
	}
	if rctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		r.close()
		return Timeout, true
	}
	if errors.Is(err, mysql.ErrInvalidConn) || errors.Is(err, sql.ErrConnDone) {
		r.close()
	}
	return 0, false
}

// query runs rec and returns its values formatted by the column types,
// flattened row by row.
func (r *fileRunner) query(ctx context.Context, rec *Record) ([]string, int, error) {
	rows, err := r.conn.QueryContext(ctx, rec.SQL)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, 0, err
	}
	n := len(cols)
	raw := make([]sql.RawBytes, n)
	dest := make([]any, n)
	for i := range raw {
		dest[i] = &raw[i]
	}
	var vals []string
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, 0, err
		}
		for i := range raw {
			t := byte('T')
			if i < len(rec.Types) {
				t = rec.Types[i]
			}
			vals = append(vals, FormatValue(t, raw[i]))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	return vals, n, nil
}

// canary runs CanaryQuery on the file's connection and on a new one and
// describes any wrong answer.
func (r *fileRunner) canary(ctx context.Context) string {
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var bad []string
	check := func(where string, q interface {
		QueryRowContext(context.Context, string, ...any) *sql.Row
	}) {
		var a, b, c, d, e sql.NullString
		if err := q.QueryRowContext(cctx, CanaryQuery).Scan(&a, &b, &c, &d, &e); err != nil {
			bad = append(bad, where+": "+err.Error())
			return
		}
		got := strings.Join([]string{nullStr(a), nullStr(b), nullStr(c), nullStr(d), nullStr(e)}, " ")
		if got != CanaryAnswer {
			bad = append(bad, fmt.Sprintf("%s: %q returned %s, want %s", where, CanaryQuery, got, CanaryAnswer))
		}
	}
	if r.conn == nil {
		_ = r.connect(cctx)
	}
	if r.conn != nil {
		check("file's connection", r.conn)
	}
	if c, err := r.db.Conn(cctx); err != nil {
		bad = append(bad, "new connection: "+err.Error())
	} else {
		check("new connection", c)
		c.Close()
	}
	return strings.Join(bad, "; ")
}

func nullStr(s sql.NullString) string {
	if !s.Valid {
		return "NULL"
	}
	return s.String
}

// FormatValue formats a result value as sqllogictest prints it for column
// type t: NULL as "NULL"; I as an integer (a fraction truncated toward zero,
// non-numeric text as 0); R with three decimals; T as text, "(empty)" for the
// empty string and '@' for bytes outside printable ASCII.
func FormatValue(t byte, v []byte) string {
	if v == nil {
		return "NULL"
	}
	s := string(v)
	switch t {
	case 'I':
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return strconv.FormatInt(i, 10)
		}
		f, ok := parseNumberPrefix(s)
		if !ok {
			return "0"
		}
		f = math.Trunc(f)
		if f >= math.MaxInt64 || f <= math.MinInt64 {
			return strconv.FormatFloat(f, 'f', 0, 64)
		}
		return strconv.FormatInt(int64(f), 10)
	case 'R':
		f, ok := parseNumberPrefix(s)
		if !ok {
			f = 0
		}
		out := strconv.FormatFloat(f, 'f', 3, 64)
		if out == "-0.000" {
			out = "0.000"
		}
		return out
	default:
		if s == "" {
			return "(empty)"
		}
		b := []byte(s)
		for i, c := range b {
			if c < ' ' || c > '~' {
				b[i] = '@'
			}
		}
		return string(b)
	}
}

// parseNumberPrefix reads the longest numeric prefix of s, as MySQL casts a
// string to a number.
func parseNumberPrefix(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f, true
	}
	end := 0
	seenDigit, seenDot, seenExp := false, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			seenDigit = true
			end = i + 1
		case (c == '+' || c == '-') && (i == 0 || s[i-1] == 'e' || s[i-1] == 'E'):
		case c == '.' && !seenDot && !seenExp:
			seenDot = true
		case (c == 'e' || c == 'E') && seenDigit && !seenExp:
			seenExp = true
		default:
			i = len(s)
		}
	}
	if !seenDigit {
		return 0, false
	}
	f, err := strconv.ParseFloat(s[:end], 64)
	return f, err == nil
}

// sortValues sorts vals (ncols per row) as mode says.
func sortValues(vals []string, ncols int, mode SortMode) {
	switch mode {
	case ValueSort:
		sort.Strings(vals)
	case RowSort:
		if ncols == 0 {
			return
		}
		rows := make([][]string, len(vals)/ncols)
		for i := range rows {
			rows[i] = vals[i*ncols : (i+1)*ncols : (i+1)*ncols]
		}
		sort.SliceStable(rows, func(a, b int) bool {
			for k := 0; k < ncols; k++ {
				if rows[a][k] != rows[b][k] {
					return rows[a][k] < rows[b][k]
				}
			}
			return false
		})
		out := make([]string, 0, len(vals))
		for _, r := range rows {
			out = append(out, r...)
		}
		copy(vals, out)
	}
}

// hashValues is sqllogictest's result hash: md5 over each value and "\n".
func hashValues(vals []string) string {
	h := md5.New()
	for _, v := range vals {
		h.Write([]byte(v))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func preview(vals []string) string {
	if len(vals) == 0 {
		return ""
	}
	return ": " + preview0(vals)
}

func preview0(vals []string) string {
	const max = 12
	if len(vals) <= max {
		return "[" + strings.Join(vals, " ") + "]"
	}
	return "[" + strings.Join(vals[:max], " ") + fmt.Sprintf(" …+%d]", len(vals)-max)
}

func errCode(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

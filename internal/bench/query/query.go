// Package query runs one SQL query against a server the way a benchmark
// client needs it: the whole result read into memory as text, the wall
// time measured, and a time limit enforced on the server with KILL QUERY
// (so a query that runs too long stops consuming the server, instead of
// running on after the client gave up). Compare checks two results for
// equality with a tolerance for the last digit of numbers.
package query

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"time"
)

// Null is how a NULL value appears in Result.Rows.
const Null = `\N`

// Result is a query's result set as text.
type Result struct {
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
}

// Status of a query run.
const (
	OK      = "ok"
	Failed  = "error"
	Timeout = "timeout"
)

// Outcome is one run of a query.
type Outcome struct {
	Status  string  `json:"status"`
	Error   string  `json:"error,omitempty"`
	Seconds float64 `json:"seconds"`
	Result  *Result `json:"-"`
}

// killGrace is how long a query may go on after KILL QUERY before the
// client closes its connection.
const killGrace = 30 * time.Second

// Run runs q on a connection of db and reads the whole result. When it
// has not finished after timeout, Run sends KILL QUERY for it on another
// connection and reports Timeout (whatever the query returns then); when
// the server does not stop it within killGrace either, Run closes the
// connection. Errors of the query are
// reported in the Outcome, not returned; the error is for failures to get
// a connection.
func Run(ctx context.Context, db *sql.DB, q string, timeout time.Duration) (Outcome, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return Outcome{}, err
	}
	defer conn.Close()
	var id int64
	if err := conn.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		return Outcome{}, fmt.Errorf("CONNECTION_ID(): %w", err)
	}
	qctx, cancel := context.WithCancel(ctx)
	defer cancel()
	killed := make(chan struct{})
	timer := time.AfterFunc(timeout, func() {
		close(killed)
		kctx, kcancel := context.WithTimeout(ctx, 10*time.Second)
		defer kcancel()
		_, _ = db.ExecContext(kctx, fmt.Sprintf("KILL QUERY %d", id))
		select {
		case <-qctx.Done():
		case <-time.After(killGrace):
			cancel()
		}
	})
	start := time.Now()
	res, err := read(qctx, conn, q)
	elapsed := time.Since(start)
	stopped := timer.Stop()
	out := Outcome{Status: OK, Seconds: elapsed.Seconds(), Result: res}
	if !stopped {
		// The timer fired: KILL QUERY is on its way (or sent), so the
		// connection must not run another statement.
		<-killed
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	}
	switch {
	case !stopped: // over the limit, even if it returned (SLEEP returns 1 when killed)
		out = Outcome{Status: Timeout, Seconds: elapsed.Seconds(), Error: fmt.Sprintf("stopped by KILL QUERY after %s", timeout)}
		if qctx.Err() != nil && ctx.Err() == nil {
			out.Error = fmt.Sprintf("still running %s after KILL QUERY (sent after %s); connection closed", killGrace, timeout)
		}
	case err != nil:
		out = Outcome{Status: Failed, Seconds: elapsed.Seconds(), Error: err.Error()}
	}
	return out, ctx.Err()
}

// read runs q and returns its rows as text.
func read(ctx context.Context, conn *sql.Conn, q string) (*Result, error) {
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	res := &Result{Columns: cols}
	vals := make([]sql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			if v == nil {
				row[i] = Null
			} else {
				row[i] = string(v)
			}
		}
		res.Rows = append(res.Rows, row)
	}
	return res, rows.Err()
}

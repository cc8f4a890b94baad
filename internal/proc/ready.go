package proc

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"time"
)

// Polling parameters of WaitReady.
const (
	// pollInterval is the pause between two readiness attempts.
	pollInterval = 50 * time.Millisecond
	// dialTimeout bounds one TCP connection attempt.
	dialTimeout = time.Second
	// checkTimeout bounds one call of the caller's check.
	checkTimeout = 5 * time.Second
)

// Check is a readiness probe run once the TCP address accepts connections;
// nil means the server is ready. Its context carries a per-attempt bound.
type Check func(ctx context.Context) error

// WaitReady polls until a TCP connection to addr succeeds and then check
// (if not nil) returns nil. It fails when the process exits first, when
// timeout passes (the error holds the last attempt's) or when ctx ends
// (returning ctx.Err()). Dialing before check keeps SQL drivers from
// logging refused connections while the port is still closed.
func (p *Process) WaitReady(ctx context.Context, addr string, timeout time.Duration, check Check) error {
	deadline := time.Now().Add(timeout)
	for {
		if p.Exited() {
			return fmt.Errorf("%s exited before it was ready: %s", p.name, p.exitString())
		}
		last := dial(ctx, addr)
		if last == nil && check != nil {
			cctx, cancel := context.WithTimeout(ctx, checkTimeout)
			last = check(cctx)
			cancel()
		}
		if last == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready on %s within %v: %v", p.name, addr, timeout, last)
		}
		select {
		case <-p.done:
		case <-ctx.Done():
		case <-time.After(pollInterval):
		}
	}
}

func dial(ctx context.Context, addr string) error {
	d := net.Dialer{Timeout: dialTimeout}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	return c.Close()
}

// SelectOne is a Check that runs `SELECT 1` through database/sql with
// driver (which the caller registers, e.g. by importing
// github.com/go-sql-driver/mysql) on dsn, and wants 1 back. Each attempt
// opens and closes its own connection.
func SelectOne(driver, dsn string) Check {
	return func(ctx context.Context) error {
		db, err := sql.Open(driver, dsn)
		if err != nil {
			return fmt.Errorf("open %s: %w", driver, err)
		}
		defer db.Close()
		var v int
		if err := db.QueryRowContext(ctx, "SELECT 1").Scan(&v); err != nil {
			return fmt.Errorf("SELECT 1: %w", err)
		}
		if v != 1 {
			return fmt.Errorf("SELECT 1 returned %d", v)
		}
		return nil
	}
}

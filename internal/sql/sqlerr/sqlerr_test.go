package sqlerr

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/txn"
	"github.com/strata-db/strata/internal/txn/lock"
)

// TestFrom checks that the lower layers' errors, wrapped with context as
// they travel up, reach the client as their MySQL errors.
func TestFrom(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("update t: %w", err) }
	for _, tc := range []struct {
		err   error
		code  sqlerror.ErrorCode
		state string
	}{
		{wrap(lock.ErrDeadlock), sqlerror.ERLockDeadlock, sqlerror.SSLockDeadlock},
		{wrap(lock.ErrLockWaitTimeout), sqlerror.ERLockWaitTimeout, sqlerror.SSUnknownSQLState},
		{wrap(lock.ErrTooManyLocks), sqlerror.ERLockTableFull, sqlerror.SSUnknownSQLState},
		{wrap(txn.ErrTxnTooBig), TooBigTxn, sqlerror.SSUnknownSQLState},
		{wrap(context.Canceled), sqlerror.ERQueryInterrupted, sqlerror.SSQueryInterrupted},
		{wrap(context.DeadlineExceeded), sqlerror.ERQueryTimeout, sqlerror.SSUnknownSQLState},
		{wrap(New(sqlerror.ERNoSuchTable, sqlerror.SSUnknownTable, "x")), sqlerror.ERNoSuchTable, sqlerror.SSUnknownTable},
		{errors.New("disk on fire"), sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState},
	} {
		got := From(tc.err)
		if got.Num != tc.code || got.State != tc.state {
			t.Errorf("From(%v) = %d (%s), want %d (%s)", tc.err, got.Num, got.State, tc.code, tc.state)
		}
	}
	if From(nil) != nil {
		t.Error("From(nil) is not nil")
	}
	if !IsDeadlock(wrap(lock.ErrDeadlock)) || !IsDeadlock(From(lock.ErrDeadlock)) || IsDeadlock(wrap(lock.ErrLockWaitTimeout)) {
		t.Error("IsDeadlock")
	}
}

func TestConstructors(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code sqlerror.ErrorCode
		msg  string
	}{
		{Unsupported("EXPLAIN FORMAT=%s", "JSON"), sqlerror.ERNotSupportedYet, "This version of strata doesn't yet support 'EXPLAIN FORMAT=JSON'"},
		{NoTable("d", "t"), sqlerror.ERNoSuchTable, "Table 'd.t' doesn't exist"},
		{BadField("x", "where clause"), sqlerror.ERBadFieldError, "Unknown column 'x' in 'where clause'"},
		{New(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState, "no arguments: the format is the message"), sqlerror.ERUnknownError, "no arguments: the format is the message"},
	} {
		var se *sqlerror.SQLError
		if !errors.As(tc.err, &se) || se.Num != tc.code || se.Message != tc.msg {
			t.Errorf("%v: want %d %q", tc.err, tc.code, tc.msg)
		}
	}
}

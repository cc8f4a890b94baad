package sql

import (
	"context"
	"errors"
	"fmt"

	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/txn"
	"github.com/strata-db/strata/internal/txn/lock"
)

// MySQL error codes strata uses that sqlerror lacks names for.
const (
	erTooBigTxn         = 1197
	erAutoincReadFailed = 1467
	erDBAccessDenied    = 1044
	erReadOnlyTxn       = 1792
	erTableExistsError  = 1050
	erCannotUser        = 1396
	erUnknownStorage    = 1286
	// ER_CANT_CREATE_USER_WITH_GRANT
	erCantCreateUserWithGrant = 1410
	// ER_ILLEGAL_PRIVILEGE_LEVEL
	erIllegalPrivilegeLevel = 3619
)

func sqlErr(code sqlerror.ErrorCode, state string, format string, args ...any) *sqlerror.SQLError {
	if len(args) == 0 {
		return sqlerror.NewSQLError(code, state, format)
	}
	return sqlerror.NewSQLError(code, state, fmt.Sprintf(format, args...))
}

func noDBErr() error {
	return sqlErr(sqlerror.ERNoDb, sqlerror.SSNoDB, "No database selected")
}

func noTableErr(db, name string) error {
	return sqlErr(sqlerror.ERNoSuchTable, "42S02", "Table '%s.%s' doesn't exist", db, name)
}

func badFieldErr(name, where string) error {
	return sqlErr(sqlerror.ERBadFieldError, sqlerror.SSBadFieldError, "Unknown column '%s' in '%s'", name, where)
}

func unsupportedErr(format string, args ...any) error {
	return sqlErr(sqlerror.ERNotSupportedYet, sqlerror.SSClientError, "This version of strata doesn't yet support '%s'", fmt.Sprintf(format, args...))
}

func syntaxErr(msg string) error {
	return sqlErr(sqlerror.ERParseError, sqlerror.SSClientError, "%s", msg)
}

func lockWaitTimeoutErr() error {
	return sqlErr(sqlerror.ERLockWaitTimeout, sqlerror.SSUnknownSQLState, "Lock wait timeout exceeded; try restarting transaction")
}

func isDeadlock(err error) bool {
	var se *sqlerror.SQLError
	if errors.As(err, &se) {
		return se.Num == sqlerror.ERLockDeadlock
	}
	return errors.Is(err, lock.ErrDeadlock)
}

// ToSQLError converts any error into the *sqlerror.SQLError sent to the
// client.
func ToSQLError(err error) *sqlerror.SQLError {
	if err == nil {
		return nil
	}
	var se *sqlerror.SQLError
	if errors.As(err, &se) {
		return se
	}
	var dup *table.DupKeyError
	switch {
	case errors.As(err, &dup):
		return dup.SQLError()
	case errors.Is(err, lock.ErrDeadlock):
		return sqlErr(sqlerror.ERLockDeadlock, sqlerror.SSLockDeadlock, "Deadlock found when trying to get lock; try restarting transaction")
	case errors.Is(err, lock.ErrLockWaitTimeout):
		return lockWaitTimeoutErr().(*sqlerror.SQLError)
	case errors.Is(err, lock.ErrTooManyLocks):
		return sqlErr(sqlerror.ERLockTableFull, sqlerror.SSUnknownSQLState, "The total number of locks exceeds the lock table size")
	case errors.Is(err, txn.ErrTxnTooBig):
		return sqlErr(erTooBigTxn, sqlerror.SSUnknownSQLState, "Multi-statement transaction required more than 'strata_max_txn_bytes' bytes of storage; commit in smaller batches")
	case errors.Is(err, context.Canceled):
		return sqlErr(sqlerror.ERQueryInterrupted, "70100", "Query execution was interrupted")
	case errors.Is(err, context.DeadlineExceeded):
		return sqlErr(sqlerror.ERQueryTimeout, "HY000", "Query execution was interrupted, maximum statement execution time exceeded")
	}
	return sqlErr(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState, "%v", err)
}

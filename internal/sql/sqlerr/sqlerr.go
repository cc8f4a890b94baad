// Package sqlerr builds the errors strata answers clients with: MySQL
// error numbers and SQLSTATEs as named constants (Vitess's sqlerror names
// most of them; the rest are here), constructors for the errors raised in
// many places, and From, which turns any error of the layers below
// (duplicate keys, deadlocks, lock waits, transaction size, cancellation)
// into the MySQL error the client gets.
package sqlerr

import (
	"context"
	"errors"
	"fmt"

	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/txn"
	"github.com/strata-db/strata/internal/txn/lock"
)

// MySQL error numbers strata uses that sqlerror lacks names for.
const (
	TooBigTxn               sqlerror.ErrorCode = 1197 // ER_TRANS_CACHE_FULL (strata_max_txn_bytes)
	AutoincReadFailed       sqlerror.ErrorCode = 1467 // ER_AUTOINC_READ_FAILED
	DBAccessDenied          sqlerror.ErrorCode = 1044 // ER_DBACCESS_DENIED_ERROR
	ReadOnlyTxn             sqlerror.ErrorCode = 1792 // ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION
	TableExists             sqlerror.ErrorCode = 1050 // ER_TABLE_EXISTS_ERROR
	CannotUser              sqlerror.ErrorCode = 1396 // ER_CANNOT_USER
	UnknownStorageEngine    sqlerror.ErrorCode = 1286 // ER_UNKNOWN_STORAGE_ENGINE
	CantCreateUserWithGrant sqlerror.ErrorCode = 1410 // ER_CANT_CREATE_USER_WITH_GRANT
	IllegalPrivilegeLevel   sqlerror.ErrorCode = 3619 // ER_ILLEGAL_PRIVILEGE_LEVEL

	MaxPreparedStmts    sqlerror.ErrorCode = 1461 // ER_MAX_PREPARED_STMT_COUNT_REACHED
	CutGroupConcat      sqlerror.ErrorCode = 1260 // ER_CUT_VALUE_GROUP_CONCAT
	NoDataFetched       sqlerror.ErrorCode = 1329 // ER_SP_FETCH_NO_DATA
	JSONNullKey         sqlerror.ErrorCode = 3158 // ER_JSON_DOCUMENT_NULL_KEY
	InvalidJSONText     sqlerror.ErrorCode = 3141 // ER_INVALID_JSON_TEXT_IN_PARAM
	SecureFilePriv      sqlerror.ErrorCode = 1290 // ER_OPTION_PREVENTS_STATEMENT
	FileExists          sqlerror.ErrorCode = 1086 // ER_FILE_EXISTS_ERROR
	UndeclaredVar       sqlerror.ErrorCode = 1327 // ER_SP_UNDECLARED_VAR
	CantCreateWriteFile sqlerror.ErrorCode = 1    // EE_CANTCREATEFILE (a file of SELECT ... INTO OUTFILE)
	NetReadError        sqlerror.ErrorCode = 1158 // ER_NET_READ_ERROR (a malformed protocol command)

	// LOAD DATA.
	FileNotFound             sqlerror.ErrorCode = 29   // EE_FILENOTFOUND
	ErrorOnRead              sqlerror.ErrorCode = 2    // EE_READ
	CantGetStat              sqlerror.ErrorCode = 13   // EE_STAT
	WarnTooFewRecords        sqlerror.ErrorCode = 1261 // ER_WARN_TOO_FEW_RECORDS
	WarnTooManyRecords       sqlerror.ErrorCode = 1262 // ER_WARN_TOO_MANY_RECORDS
	WarnNullToNotNull        sqlerror.ErrorCode = 1263 // ER_WARN_NULL_TO_NOTNULL
	ClientLocalFilesDisabled sqlerror.ErrorCode = 3948 // ER_CLIENT_LOCAL_FILES_DISABLED

	// Views.
	WrongObject        sqlerror.ErrorCode = 1347 // ER_WRONG_OBJECT ('db.t' is not VIEW)
	ViewSelectClause   sqlerror.ErrorCode = 1350 // ER_VIEW_SELECT_CLAUSE (INTO)
	ViewSelectVariable sqlerror.ErrorCode = 1351 // ER_VIEW_SELECT_VARIABLE
	ViewSelectTmpTable sqlerror.ErrorCode = 1352 // ER_VIEW_SELECT_TMPTABLE
	ViewInvalid        sqlerror.ErrorCode = 1356 // ER_VIEW_INVALID
	NonUpdatableColumn sqlerror.ErrorCode = 1348 // ER_NONUPDATEABLE_COLUMN
	ViewNonUpdCheck    sqlerror.ErrorCode = 1368 // ER_VIEW_NONUPD_CHECK
	ViewCheckFailed    sqlerror.ErrorCode = 1369 // ER_VIEW_CHECK_FAILED
	ViewMultiUpdate    sqlerror.ErrorCode = 1393 // ER_VIEW_MULTIUPDATE
	ViewNoInsertFields sqlerror.ErrorCode = 1394 // ER_VIEW_NO_INSERT_FIELD_LIST
	ViewDeleteMerge    sqlerror.ErrorCode = 1395 // ER_VIEW_DELETE_MERGE_VIEW
	ViewRecursive      sqlerror.ErrorCode = 1462 // ER_VIEW_RECURSIVE
	NonInsertableTable sqlerror.ErrorCode = 1471 // ER_NON_INSERTABLE_TABLE
)

// SQLSTATEs strata uses that sqlerror lacks names for.
const (
	StateTableExists = "42S01" // base table or view already exists
	StateReadOnlyTxn = "25006" // read-only SQL transaction
	StateNullValue   = "22004" // null value not allowed
	StateNoData      = "02000" // no data
	StateJSON        = "22032" // JSON errors (invalid text, NULL member name)
)

// New returns the MySQL error code with SQLSTATE state and the message
// format (with args, if any).
func New(code sqlerror.ErrorCode, state string, format string, args ...any) *sqlerror.SQLError {
	if len(args) == 0 {
		return sqlerror.NewSQLError(code, state, format)
	}
	return sqlerror.NewSQLError(code, state, fmt.Sprintf(format, args...))
}

// NoDB is 1046: a statement names a table without a database and none is
// selected.
func NoDB() error {
	return New(sqlerror.ERNoDb, sqlerror.SSNoDB, "No database selected")
}

// NoTable is 1146 for db.name.
func NoTable(db, name string) error {
	return New(sqlerror.ERNoSuchTable, sqlerror.SSUnknownTable, "Table '%s.%s' doesn't exist", db, name)
}

// BadField is 1054 for a column name in a clause ("field list", "where
// clause", ...).
func BadField(name, where string) error {
	return New(sqlerror.ERBadFieldError, sqlerror.SSBadFieldError, "Unknown column '%s' in '%s'", name, where)
}

// Unsupported is 1235 for a feature strata does not have yet: never
// answered by doing something else.
func Unsupported(format string, args ...any) error {
	return New(sqlerror.ERNotSupportedYet, sqlerror.SSClientError, "This version of strata doesn't yet support '%s'", fmt.Sprintf(format, args...))
}

// Syntax is 1064 with the parser's message.
func Syntax(msg string) error {
	return New(sqlerror.ERParseError, sqlerror.SSClientError, "%s", msg)
}

// LockWaitTimeout is 1205.
func LockWaitTimeout() error {
	return New(sqlerror.ERLockWaitTimeout, sqlerror.SSUnknownSQLState, "Lock wait timeout exceeded; try restarting transaction")
}

// IsDeadlock reports whether err is a deadlock (1213), as a MySQL error or
// as the lock manager's.
func IsDeadlock(err error) bool {
	var se *sqlerror.SQLError
	if errors.As(err, &se) {
		return se.Num == sqlerror.ERLockDeadlock
	}
	return errors.Is(err, lock.ErrDeadlock)
}

// From converts any error into the *sqlerror.SQLError sent to the client.
func From(err error) *sqlerror.SQLError {
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
		return New(sqlerror.ERLockDeadlock, sqlerror.SSLockDeadlock, "Deadlock found when trying to get lock; try restarting transaction")
	case errors.Is(err, lock.ErrLockWaitTimeout):
		return LockWaitTimeout().(*sqlerror.SQLError)
	case errors.Is(err, lock.ErrTooManyLocks):
		return New(sqlerror.ERLockTableFull, sqlerror.SSUnknownSQLState, "The total number of locks exceeds the lock table size")
	case errors.Is(err, txn.ErrTxnTooBig):
		return New(TooBigTxn, sqlerror.SSUnknownSQLState, "Multi-statement transaction required more than 'strata_max_txn_bytes' bytes of storage; commit in smaller batches")
	case errors.Is(err, context.Canceled):
		return New(sqlerror.ERQueryInterrupted, sqlerror.SSQueryInterrupted, "Query execution was interrupted")
	case errors.Is(err, context.DeadlineExceeded):
		return New(sqlerror.ERQueryTimeout, sqlerror.SSUnknownSQLState, "Query execution was interrupted, maximum statement execution time exceeded")
	}
	return New(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState, "%v", err)
}

// UnknownSysVar is 1193 for a system variable strata does not have.
func UnknownSysVar(name string) error {
	return New(sqlerror.ERUnknownSystemVariable, sqlerror.SSUnknownSQLState, "Unknown system variable '%s'", name)
}

// OperandColumns is 1241: a row operand of n columns was expected.
func OperandColumns(n int) error {
	return New(sqlerror.EROperandColumns, sqlerror.SSWrongNumberOfColumns, "Operand should contain %d column(s)", n)
}

package sqlerr

import "vitess.io/vitess/go/mysql/sqlerror"

// Binary log errors.
const (
	NoBinaryLogging      sqlerror.ErrorCode = 1381 // ER_NO_BINARY_LOGGING
	UnknownTargetBinlog  sqlerror.ErrorCode = 1373 // ER_UNKNOWN_TARGET_BINLOG
	ErrorWhenExecutingCm sqlerror.ErrorCode = 1220 // ER_ERROR_WHEN_EXECUTING_COMMAND
	BinlogLogging        sqlerror.ErrorCode = 1598 // ER_BINLOG_LOGGING_IMPOSSIBLE
	// MasterFatalReadingBinlog is what a dump ends with when it cannot
	// go on (unknown file, purged GTIDs, log off).
	MasterFatalReadingBinlog sqlerror.ErrorCode = 1236 // ER_MASTER_FATAL_ERROR_READING_BINLOG
)

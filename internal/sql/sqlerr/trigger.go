package sqlerr

import "vitess.io/vitess/go/mysql/sqlerror"

// MySQL error numbers of triggers and SIGNAL (SQLSTATE HY000 unless the
// signalled one).
const (
	TrgAlreadyExists     sqlerror.ErrorCode = 1359 // ER_TRG_ALREADY_EXISTS
	TrgDoesNotExist      sqlerror.ErrorCode = 1360 // ER_TRG_DOES_NOT_EXIST
	TrgOnViewOrTempTable sqlerror.ErrorCode = 1361 // ER_TRG_ON_VIEW_OR_TEMP_TABLE
	TrgCantChangeRow     sqlerror.ErrorCode = 1362 // ER_TRG_CANT_CHANGE_ROW
	TrgNoSuchRowInTrg    sqlerror.ErrorCode = 1363 // ER_TRG_NO_SUCH_ROW_IN_TRG
	BadSQLState          sqlerror.ErrorCode = 1407 // ER_SP_BAD_SQLSTATE
	SPNoRetSet           sqlerror.ErrorCode = 1415 // ER_SP_NO_RETSET
	TrgInWrongSchema     sqlerror.ErrorCode = 1435 // ER_TRG_IN_WRONG_SCHEMA
	CantUpdateUsedTable  sqlerror.ErrorCode = 1442 // ER_CANT_UPDATE_USED_TABLE_IN_SF_OR_TRG
	NoSuchUser           sqlerror.ErrorCode = 1449 // ER_NO_SUCH_USER (a dropped definer)
	SignalWarn           sqlerror.ErrorCode = 1642 // ER_SIGNAL_WARN
	SignalNotFound       sqlerror.ErrorCode = 1643 // ER_SIGNAL_NOT_FOUND
	SignalException      sqlerror.ErrorCode = 1644 // ER_SIGNAL_EXCEPTION
	ReferencedTrgMissing sqlerror.ErrorCode = 3011 // ER_REFERENCED_TRG_DOES_NOT_EXIST
)

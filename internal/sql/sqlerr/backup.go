package sqlerr

import "vitess.io/vitess/go/mysql/sqlerror"

// Errors of CLONE LOCAL DATA DIRECTORY, as MySQL's clone plugin answers
// them.
const (
	DBCreateExists sqlerror.ErrorCode = 1007 // ER_DB_CREATE_EXISTS: the clone directory exists
	CantCreateDB   sqlerror.ErrorCode = 1006 // ER_CANT_CREATE_DB: the clone directory cannot be created
	WrongValue     sqlerror.ErrorCode = 1525 // ER_WRONG_VALUE: the clone directory is not an absolute path
)

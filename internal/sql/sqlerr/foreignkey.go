package sqlerr

import "vitess.io/vitess/go/mysql/sqlerror"

// MySQL error numbers of foreign keys (SQLSTATE 23000 for the row errors,
// HY000 for the rest).
const (
	RowIsReferenced2     sqlerror.ErrorCode = 1451 // ER_ROW_IS_REFERENCED_2
	NoReferencedRow2     sqlerror.ErrorCode = 1452 // ER_NO_REFERENCED_ROW_2
	TruncateIllegalFK    sqlerror.ErrorCode = 1701 // ER_TRUNCATE_ILLEGAL_FK
	FKNoIndexParent      sqlerror.ErrorCode = 1822 // ER_FK_NO_INDEX_PARENT
	FKCannotOpenParent   sqlerror.ErrorCode = 1824 // ER_FK_CANNOT_OPEN_PARENT
	FKDepthExceeded      sqlerror.ErrorCode = 3008 // ER_FK_DEPTH_EXCEEDED
	FKCannotDropParent   sqlerror.ErrorCode = 3730 // ER_FK_CANNOT_DROP_PARENT
	FKIncompatibleColumn sqlerror.ErrorCode = 3780 // ER_FK_INCOMPATIBLE_COLUMNS
)

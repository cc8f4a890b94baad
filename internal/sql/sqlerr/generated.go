package sqlerr

import "vitess.io/vitess/go/mysql/sqlerror"

// MySQL error numbers of generated columns and WITH ROLLUP's GROUPING()
// (SQLSTATE HY000).
const (
	GeneratedFunctionNotAllowed      sqlerror.ErrorCode = 3102 // ER_GENERATED_COLUMN_FUNCTION_IS_NOT_ALLOWED
	WrongValueForGenerated           sqlerror.ErrorCode = 3105 // ER_WRONG_VALUE_FOR_GENERATED_COLUMN
	UnsupportedOnGenerated           sqlerror.ErrorCode = 3106 // ER_UNSUPPORTED_ACTION_ON_GENERATED_COLUMN
	GeneratedNonPrior                sqlerror.ErrorCode = 3107 // ER_GENERATED_COLUMN_NON_PRIOR
	DependentByGenerated             sqlerror.ErrorCode = 3108 // ER_DEPENDENT_BY_GENERATED_COLUMN
	GeneratedRefAutoInc              sqlerror.ErrorCode = 3109 // ER_GENERATED_COLUMN_REF_AUTO_INC
	FieldInGroupingNotGroupBy        sqlerror.ErrorCode = 3580 // ER_FIELD_IN_GROUPING_NOT_GROUP_BY
	GeneratedNamedFunctionNotAllowed sqlerror.ErrorCode = 3757 // ER_GENERATED_COLUMN_NAMED_FUNCTION_IS_NOT_ALLOWED
)

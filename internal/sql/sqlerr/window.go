package sqlerr

import "vitess.io/vitess/go/mysql/sqlerror"

// MySQL 8.0 error numbers of window functions (SQLSTATE HY000).
const (
	WindowNoSuchWindow          sqlerror.ErrorCode = 3579 // ER_WINDOW_NO_SUCH_WINDOW
	WindowCircularity           sqlerror.ErrorCode = 3580 // ER_WINDOW_CIRCULARITY_IN_WINDOW_GRAPH
	WindowNoChildPartitioning   sqlerror.ErrorCode = 3581 // ER_WINDOW_NO_CHILD_PARTITIONING
	WindowNoInheritFrame        sqlerror.ErrorCode = 3582 // ER_WINDOW_NO_INHERIT_FRAME
	WindowNoRedefineOrderBy     sqlerror.ErrorCode = 3583 // ER_WINDOW_NO_REDEFINE_ORDER_BY
	WindowFrameStartIllegal     sqlerror.ErrorCode = 3584 // ER_WINDOW_FRAME_START_ILLEGAL
	WindowFrameEndIllegal       sqlerror.ErrorCode = 3585 // ER_WINDOW_FRAME_END_ILLEGAL
	WindowFrameIllegal          sqlerror.ErrorCode = 3586 // ER_WINDOW_FRAME_ILLEGAL
	WindowRangeFrameOrderType   sqlerror.ErrorCode = 3587 // ER_WINDOW_RANGE_FRAME_ORDER_TYPE
	WindowRangeFrameTemporal    sqlerror.ErrorCode = 3588 // ER_WINDOW_RANGE_FRAME_TEMPORAL_TYPE
	WindowRangeFrameNumeric     sqlerror.ErrorCode = 3589 // ER_WINDOW_RANGE_FRAME_NUMERIC_TYPE
	WindowRangeBoundNotConstant sqlerror.ErrorCode = 3590 // ER_WINDOW_RANGE_BOUND_NOT_CONSTANT
	WindowDuplicateName         sqlerror.ErrorCode = 3591 // ER_WINDOW_DUPLICATE_NAME
	WindowInvalidFuncUse        sqlerror.ErrorCode = 3593 // ER_WINDOW_INVALID_WINDOW_FUNC_USE
	WindowInvalidFuncAliasUse   sqlerror.ErrorCode = 3594 // ER_WINDOW_INVALID_WINDOW_FUNC_ALIAS_USE
	WindowNestedFuncInSpec      sqlerror.ErrorCode = 3595 // ER_WINDOW_NESTED_WINDOW_FUNC_USE_IN_WINDOW_SPEC
	WindowRowsIntervalUse       sqlerror.ErrorCode = 3596 // ER_WINDOW_ROWS_INTERVAL_USE
	WindowIgnoresFrame          sqlerror.ErrorCode = 3599 // ER_WINDOW_FUNCTION_IGNORES_FRAME (a note)

	// CTERecursiveForbidsAggregation: a recursive CTE's recursive member
	// groups or computes window functions.
	CTERecursiveForbidsAggregation sqlerror.ErrorCode = 3575 // ER_CTE_RECURSIVE_FORBIDS_AGGREGATION
)

// Window returns the window error code with MySQL's SQLSTATE HY000.
func Window(code sqlerror.ErrorCode, format string, args ...any) error {
	return New(code, sqlerror.SSUnknownSQLState, format, args...)
}

// WindowFuncUse is 3593: window function name is used where window
// functions are not allowed (WHERE, GROUP BY, HAVING, ...).
func WindowFuncUse(name string) error {
	return Window(WindowInvalidFuncUse, "You cannot use the window function '%s' in this context.'", name)
}

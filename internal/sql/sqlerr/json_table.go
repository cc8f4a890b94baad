package sqlerr

import "vitess.io/vitess/go/mysql/sqlerror"

// MySQL 8.0 error numbers of JSON_TABLE and its JSON arguments.
const (
	JSONValueForCast     sqlerror.ErrorCode = 3156 // ER_INVALID_JSON_VALUE_FOR_CAST (22018)
	JSONDataType         sqlerror.ErrorCode = 3146 // ER_INVALID_TYPE_FOR_JSON (22032)
	JSONPathText         sqlerror.ErrorCode = 3143 // ER_INVALID_JSON_PATH (42000)
	JSONTableMissing     sqlerror.ErrorCode = 3665 // ER_MISSING_JSON_TABLE_VALUE (22035)
	JSONTableWrongValue  sqlerror.ErrorCode = 3666 // ER_WRONG_JSON_TABLE_VALUE (2203F)
	TableFuncNoAlias     sqlerror.ErrorCode = 3667 // ER_TF_MUST_HAVE_ALIAS (42000)
	TableFuncRightJoin   sqlerror.ErrorCode = 3668 // ER_TF_FORBIDDEN_JOIN_TYPE (HY000)
	JSONTableOutOfRange  sqlerror.ErrorCode = 3669 // ER_JT_VALUE_OUT_OF_RANGE (22003)
	JSONTableNestedPaths sqlerror.ErrorCode = 3670 // ER_JT_MAX_NESTED_PATH (42000)
)

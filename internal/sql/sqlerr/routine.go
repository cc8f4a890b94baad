package sqlerr

import "vitess.io/vitess/go/mysql/sqlerror"

// Errors of stored procedures and functions.
const (
	SPAlreadyExists     sqlerror.ErrorCode = 1304 // ER_SP_ALREADY_EXISTS
	SPDoesNotExist      sqlerror.ErrorCode = 1305 // ER_SP_DOES_NOT_EXIST
	SPLilabelMismatch   sqlerror.ErrorCode = 1308 // ER_SP_LILABEL_MISMATCH (LEAVE/ITERATE of no label)
	SPLabelRedefine     sqlerror.ErrorCode = 1309 // ER_SP_LABEL_REDEFINE
	SPBadSelect         sqlerror.ErrorCode = 1312 // ER_SP_BADSELECT (a result set in this context)
	SPBadReturn         sqlerror.ErrorCode = 1313 // ER_SP_BADRETURN (RETURN in a procedure)
	SPNoReturn          sqlerror.ErrorCode = 1320 // ER_SP_NORETURN (function without RETURN)
	SPNoReturnEnd       sqlerror.ErrorCode = 1321 // ER_SP_NORETURNEND
	SPWrongNoOfArgs     sqlerror.ErrorCode = 1318 // ER_SP_WRONG_NO_OF_ARGS
	SPCursorMismatch    sqlerror.ErrorCode = 1322 // ER_SP_BAD_CURSOR_QUERY
	SPCursorSelect      sqlerror.ErrorCode = 1323 // ER_SP_BAD_CURSOR_SELECT (cursor with INTO)
	SPUndeclaredCursor  sqlerror.ErrorCode = 1324 // ER_SP_CURSOR_MISMATCH
	SPCursorAlreadyOpen sqlerror.ErrorCode = 1325 // ER_SP_CURSOR_ALREADY_OPEN
	SPCursorNotOpen     sqlerror.ErrorCode = 1326 // ER_SP_CURSOR_NOT_OPEN
	SPWrongNoOfFetch    sqlerror.ErrorCode = 1328 // ER_SP_WRONG_NO_OF_FETCH_ARGS
	SPDupParam          sqlerror.ErrorCode = 1330 // ER_SP_DUP_PARAM
	SPDupVar            sqlerror.ErrorCode = 1331 // ER_SP_DUP_VAR
	SPDupCond           sqlerror.ErrorCode = 1332 // ER_SP_DUP_COND
	SPDupCurs           sqlerror.ErrorCode = 1333 // ER_SP_DUP_CURS
	SPSubselectNYI      sqlerror.ErrorCode = 1335 // ER_SP_SUBSELECT_NYI
	SPVarCondAfterCurs  sqlerror.ErrorCode = 1337 // ER_SP_VARCOND_AFTER_CURSHNDLR
	SPCursAfterHandler  sqlerror.ErrorCode = 1338 // ER_SP_CURSOR_AFTER_HANDLER
	SPCaseNotFound      sqlerror.ErrorCode = 1339 // ER_SP_CASE_NOT_FOUND
	SPCondMismatch      sqlerror.ErrorCode = 1319 // ER_SP_COND_MISMATCH (undeclared condition)
	SPNotVarArg         sqlerror.ErrorCode = 1414 // ER_SP_NOT_VAR_ARG
	SPNoRecursion       sqlerror.ErrorCode = 1424 // ER_SP_NO_RECURSION
	SPRecursionLimit    sqlerror.ErrorCode = 1456 // ER_SP_RECURSION_LIMIT
	SPNoAggregate       sqlerror.ErrorCode = 1460 // ER_SP_NO_AGGREGATE
	CommitNotAllowedSF  sqlerror.ErrorCode = 1422 // ER_COMMIT_NOT_ALLOWED_IN_SF_OR_TRG
	DynamicSQLInSF      sqlerror.ErrorCode = 1336 // ER_STMT_NOT_ALLOWED_IN_SF_OR_TRG
	SPNoRecursiveCreate sqlerror.ErrorCode = 1303 // ER_SP_NO_RECURSIVE_CREATE
	SPBadStatement      sqlerror.ErrorCode = 1314 // ER_SP_BADSTATEMENT
	SPDupHandler        sqlerror.ErrorCode = 1413 // ER_SP_DUP_HANDLER
	SPNoDropSP          sqlerror.ErrorCode = 1357 // ER_SP_NO_DROP_SP
	ResignalWithoutHdlr sqlerror.ErrorCode = 1645 // ER_RESIGNAL_WITHOUT_ACTIVE_HANDLER
	SPBadVarShadow      sqlerror.ErrorCode = 1453 // ER_SP_BAD_VAR_SHADOW
)

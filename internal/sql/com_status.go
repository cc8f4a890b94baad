package sql

import (
	"strconv"
	"sync/atomic"

	"vitess.io/vitess/go/vt/sqlparser"
)

// MySQL's Com_xxx status counters: how many statements of each kind the
// server was asked to run. A statement counts once it has been parsed and
// dispatched, whether it then succeeds or fails (as in MySQL); one that
// does not parse counts in Questions only. A prepared statement's
// execution counts as Com_stmt_execute and as its own kind. Monitoring
// tools (mysqladmin extended-status, PMM, the sys schema) read them:
//
//	SHOW GLOBAL STATUS LIKE 'Com_select';
//
// Only the kinds strata dispatches are listed; a counter that could never
// move is not shown.

// comKind is one Com_xxx counter.
type comKind uint8

const (
	comNone comKind = iota
	comAlterDB
	comAlterTable
	comAlterUser
	comAnalyze
	comBegin
	comCallProcedure
	comChangeDB
	comCheck
	comChecksum
	comCommit
	comCreateDB
	comCreateFunction
	comCreateProcedure
	comCreateTable
	comCreateUser
	comCreateView
	comDeallocSQL
	comDelete
	comDeleteMulti
	comDropDB
	comDropFunction
	comDropProcedure
	comDropTable
	comDropUser
	comDropView
	comExecuteSQL
	comFlush
	comGrant
	comInsert
	comInsertSelect
	comKill
	comLoad
	comLockTables
	comOptimize
	comPrepareSQL
	comReleaseSavepoint
	comRenameTable
	comReplace
	comReplaceSelect
	comRevoke
	comRollback
	comRollbackToSavepoint
	comSavepoint
	comSelect
	comSetOption
	comSetPassword
	comShowCharsets
	comShowCollations
	comShowCreateDB
	comShowCreateFunc
	comShowCreateProc
	comShowCreateTable
	comShowCreateTrigger
	comShowCreateView
	comShowDatabases
	comShowEngineStatus
	comShowErrors
	comShowFields
	comShowFunctionStatus
	comShowGrants
	comShowKeys
	comShowPlugins
	comShowPrivileges
	comShowProcedureStatus
	comShowProcesslist
	comShowStatus
	comShowStorageEngines
	comShowTableStatus
	comShowTables
	comShowTriggers
	comShowVariables
	comShowWarnings
	comStmtExecute
	comStmtPrepare
	comTruncate
	comUnlockTables
	comUpdate
	comUpdateMulti
	numCom
)

// comNames are the counters' names, in MySQL's (alphabetical) order.
var comNames = [numCom]string{
	comAlterDB: "Com_alter_db", comAlterTable: "Com_alter_table", comAlterUser: "Com_alter_user",
	comAnalyze: "Com_analyze", comBegin: "Com_begin", comCallProcedure: "Com_call_procedure",
	comChangeDB: "Com_change_db", comCheck: "Com_check", comChecksum: "Com_checksum",
	comCommit: "Com_commit", comCreateDB: "Com_create_db", comCreateFunction: "Com_create_function",
	comCreateProcedure: "Com_create_procedure",
	comCreateTable:     "Com_create_table", comCreateUser: "Com_create_user", comCreateView: "Com_create_view",
	comDeallocSQL: "Com_dealloc_sql", comDelete: "Com_delete", comDeleteMulti: "Com_delete_multi",
	comDropDB: "Com_drop_db", comDropFunction: "Com_drop_function",
	comDropProcedure: "Com_drop_procedure", comDropTable: "Com_drop_table", comDropUser: "Com_drop_user",
	comDropView: "Com_drop_view", comExecuteSQL: "Com_execute_sql", comFlush: "Com_flush",
	comGrant: "Com_grant", comInsert: "Com_insert", comInsertSelect: "Com_insert_select",
	comKill: "Com_kill", comLoad: "Com_load", comLockTables: "Com_lock_tables",
	comOptimize: "Com_optimize", comPrepareSQL: "Com_prepare_sql",
	comReleaseSavepoint: "Com_release_savepoint", comRenameTable: "Com_rename_table",
	comReplace: "Com_replace", comReplaceSelect: "Com_replace_select", comRevoke: "Com_revoke",
	comRollback: "Com_rollback", comRollbackToSavepoint: "Com_rollback_to_savepoint",
	comSavepoint: "Com_savepoint", comSelect: "Com_select", comSetOption: "Com_set_option",
	comSetPassword: "Com_set_password", comShowCharsets: "Com_show_charsets",
	comShowCollations: "Com_show_collations", comShowCreateDB: "Com_show_create_db",
	comShowCreateFunc: "Com_show_create_func", comShowCreateProc: "Com_show_create_proc",
	comShowCreateTable: "Com_show_create_table", comShowCreateTrigger: "Com_show_create_trigger",
	comShowCreateView: "Com_show_create_view",
	comShowDatabases:  "Com_show_databases", comShowEngineStatus: "Com_show_engine_status",
	comShowErrors: "Com_show_errors", comShowFields: "Com_show_fields",
	comShowFunctionStatus: "Com_show_function_status", comShowGrants: "Com_show_grants",
	comShowKeys: "Com_show_keys", comShowPlugins: "Com_show_plugins",
	comShowPrivileges: "Com_show_privileges", comShowProcedureStatus: "Com_show_procedure_status",
	comShowProcesslist: "Com_show_processlist", comShowStatus: "Com_show_status",
	comShowStorageEngines: "Com_show_storage_engines", comShowTableStatus: "Com_show_table_status",
	comShowTables: "Com_show_tables", comShowTriggers: "Com_show_triggers",
	comShowVariables: "Com_show_variables", comShowWarnings: "Com_show_warnings",
	comStmtExecute: "Com_stmt_execute", comStmtPrepare: "Com_stmt_prepare",
	comTruncate: "Com_truncate", comUnlockTables: "Com_unlock_tables", comUpdate: "Com_update",
	comUpdateMulti: "Com_update_multi",
}

// comCounts are the Com_xxx counters of a session or of the server (read
// by other sessions for SHOW GLOBAL STATUS, so atomic), plus Questions.
type comCounts struct {
	com       [numCom]atomic.Uint64
	questions atomic.Uint64
}

// countCom counts one statement of kind k for the session and the server.
func (s *Session) countCom(k comKind) {
	if k == comNone {
		return
	}
	s.com.com[k].Add(1)
	s.eng.com.com[k].Add(1)
}

// countQuestion counts one statement sent by the client (Questions).
func (s *Session) countQuestion() {
	s.com.questions.Add(1)
	s.eng.com.questions.Add(1)
}

// comRows returns the Com_xxx rows of the session, or with global of the
// server.
func (s *Session) comRows(global bool) [][]string {
	c := &s.com
	if global {
		c = &s.eng.com
	}
	rows := make([][]string, 0, numCom-1)
	for k := comNone + 1; k < numCom; k++ {
		rows = append(rows, []string{comNames[k], strconv.FormatUint(c.com[k].Load(), 10)})
	}
	return rows
}

// flushComs implements FLUSH STATUS for the session's counters.
func (s *Session) flushComs() {
	for k := range s.com.com {
		s.com.com[k].Store(0)
	}
	s.com.questions.Store(0)
}

// routineCom classifies CREATE/ALTER/DROP of a stored routine, which
// strata recognises before parsing (parse.ParseRoutine).
func routineCom(verb, kind string) comKind {
	switch {
	case kind == "PROCEDURE" && verb == "DROP":
		return comDropProcedure
	case kind == "PROCEDURE" && verb == "CREATE":
		return comCreateProcedure
	case kind == "FUNCTION" && verb == "DROP":
		return comDropFunction
	case kind == "FUNCTION" && verb == "CREATE":
		return comCreateFunction
	}
	return comNone
}

// otherAdminCom classifies the statements Vitess parses to an empty
// OtherAdmin by their first word.
func otherAdminCom(sql string) comKind {
	if leadingKeyword(sql) == "OPTIMIZE" {
		return comOptimize
	}
	return comNone
}

// comOf classifies a parsed statement.
func comOf(stmt sqlparser.Statement) comKind {
	switch st := stmt.(type) {
	case *sqlparser.Select, *sqlparser.Union, *sqlparser.ValuesStatement:
		return comSelect
	case *sqlparser.Insert:
		_, sel := st.Rows.(sqlparser.TableStatement)
		switch {
		case st.Action == sqlparser.ReplaceAct && sel:
			return comReplaceSelect
		case st.Action == sqlparser.ReplaceAct:
			return comReplace
		case sel:
			return comInsertSelect
		}
		return comInsert
	case *sqlparser.Update:
		if len(st.TableExprs) > 1 || !isSingleTable(st.TableExprs) {
			return comUpdateMulti
		}
		return comUpdate
	case *sqlparser.Delete:
		if len(st.Targets) > 0 || len(st.TableExprs) > 1 || !isSingleTable(st.TableExprs) {
			return comDeleteMulti
		}
		return comDelete
	case *sqlparser.Set:
		return comSetOption
	case *sqlparser.Begin:
		return comBegin
	case *sqlparser.Commit:
		return comCommit
	case *sqlparser.Rollback:
		return comRollback
	case *sqlparser.SRollback:
		return comRollbackToSavepoint
	case *sqlparser.Savepoint:
		return comSavepoint
	case *sqlparser.Release:
		return comReleaseSavepoint
	case *sqlparser.Use:
		return comChangeDB
	case *sqlparser.CreateDatabase:
		return comCreateDB
	case *sqlparser.AlterDatabase:
		return comAlterDB
	case *sqlparser.DropDatabase:
		return comDropDB
	case *sqlparser.CreateTable:
		return comCreateTable
	case *sqlparser.AlterTable:
		// CREATE INDEX and DROP INDEX too: the parser makes them ALTER
		// TABLE statements (MySQL counts them as Com_create_index and
		// Com_drop_index, which are not listed for that reason).
		return comAlterTable
	case *sqlparser.DropTable:
		return comDropTable
	case *sqlparser.TruncateTable:
		return comTruncate
	case *sqlparser.RenameTable:
		return comRenameTable
	case *sqlparser.CreateView, *sqlparser.AlterView:
		return comCreateView
	case *sqlparser.DropView:
		return comDropView
	case *sqlparser.CreateProcedure:
		return comCreateProcedure
	case *sqlparser.DropProcedure:
		return comDropProcedure
	case *sqlparser.CallProc:
		return comCallProcedure
	case *sqlparser.LockTables:
		return comLockTables
	case *sqlparser.UnlockTables:
		return comUnlockTables
	case *sqlparser.Flush:
		return comFlush
	case *sqlparser.Analyze:
		return comAnalyze
	case *sqlparser.Load:
		return comLoad
	case *sqlparser.Kill:
		return comKill
	case *sqlparser.PrepareStmt:
		return comPrepareSQL
	case *sqlparser.ExecuteStmt:
		return comExecuteSQL
	case *sqlparser.DeallocateStmt:
		return comDeallocSQL
	case *sqlparser.ExplainTab:
		return comShowFields
	case *sqlparser.ExplainStmt:
		// MySQL counts EXPLAIN as the statement it explains.
		return comOf(st.Statement)
	case *sqlparser.Show:
		return showKind(st)
	}
	return comNone
}

// isSingleTable reports whether a FROM list is one plain table.
func isSingleTable(exprs sqlparser.TableExprs) bool {
	if len(exprs) != 1 {
		return false
	}
	_, ok := exprs[0].(*sqlparser.AliasedTableExpr)
	return ok
}

// showComs and showCreateComs classify SHOW statements by command.
var (
	showComs = map[sqlparser.ShowCommandType]comKind{
		sqlparser.Charset: comShowCharsets, sqlparser.Collation: comShowCollations,
		sqlparser.Column: comShowFields, sqlparser.Database: comShowDatabases,
		sqlparser.Engines: comShowStorageEngines, sqlparser.Errors: comShowErrors,
		sqlparser.Function: comShowFunctionStatus, sqlparser.Index: comShowKeys,
		sqlparser.Plugins: comShowPlugins, sqlparser.Privilege: comShowPrivileges,
		sqlparser.ProcessList: comShowProcesslist, sqlparser.Procedure: comShowProcedureStatus,
		sqlparser.StatusGlobal: comShowStatus, sqlparser.StatusSession: comShowStatus,
		sqlparser.Table: comShowTables, sqlparser.TableStatus: comShowTableStatus,
		sqlparser.Trigger: comShowTriggers, sqlparser.VariableGlobal: comShowVariables,
		sqlparser.VariableSession: comShowVariables, sqlparser.Warnings: comShowWarnings,
	}
	showCreateComs = map[sqlparser.ShowCommandType]comKind{
		sqlparser.CreateDb: comShowCreateDB, sqlparser.CreateF: comShowCreateFunc,
		sqlparser.CreateProc: comShowCreateProc, sqlparser.CreateTbl: comShowCreateTable,
		sqlparser.CreateTr: comShowCreateTrigger, sqlparser.CreateV: comShowCreateView,
	}
)

// showKind classifies SHOW statements (comNone for a kind not listed).
func showKind(st *sqlparser.Show) comKind {
	switch in := st.Internal.(type) {
	case *sqlparser.ShowBasic:
		return showComs[in.Command]
	case *sqlparser.ShowCreate:
		return showCreateComs[in.Command]
	}
	return comNone
}

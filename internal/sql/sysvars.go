package sql

import (
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// varScope says where a system variable may be set.
type varScope uint8

const (
	scopeBoth varScope = iota
	scopeGlobal
	scopeSession
)

// sysVarDef describes one system variable.
type sysVarDef struct {
	name     string
	def      sqltypes.Value
	scope    varScope
	readOnly bool
	// kind: 'i' integer, 'b' boolean (ON/OFF, stored as 0/1), 's' string
	kind byte
}

func intVar(name string, v int64, scope varScope) sysVarDef {
	return sysVarDef{name: name, def: sqltypes.NewInt64(v), scope: scope, kind: 'i'}
}
func boolVar(name string, v bool, scope varScope) sysVarDef {
	n := int64(0)
	if v {
		n = 1
	}
	return sysVarDef{name: name, def: sqltypes.NewInt64(n), scope: scope, kind: 'b'}
}
func strVar(name, v string, scope varScope) sysVarDef {
	return sysVarDef{name: name, def: sqltypes.NewVarChar(v), scope: scope, kind: 's'}
}
func roVar(d sysVarDef) sysVarDef { d.readOnly = true; return d }

// DefaultSQLMode is MySQL 8.0's default sql_mode.
const DefaultSQLMode = "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"

var sysVarDefs = func() map[string]sysVarDef {
	host, _ := os.Hostname()
	defs := []sysVarDef{
		boolVar("autocommit", true, scopeBoth),
		strVar("sql_mode", DefaultSQLMode, scopeBoth),
		strVar("transaction_isolation", "REPEATABLE-READ", scopeBoth),
		strVar("tx_isolation", "REPEATABLE-READ", scopeBoth),
		boolVar("transaction_read_only", false, scopeBoth),
		boolVar("tx_read_only", false, scopeBoth),
		intVar("innodb_lock_wait_timeout", 50, scopeBoth),
		intVar("lock_wait_timeout", 31536000, scopeBoth),
		intVar("max_allowed_packet", 67108864, scopeBoth),
		intVar("net_buffer_length", 16384, scopeBoth),
		strVar("character_set_client", "utf8mb4", scopeBoth),
		strVar("character_set_connection", "utf8mb4", scopeBoth),
		strVar("character_set_results", "utf8mb4", scopeBoth),
		strVar("character_set_server", "utf8mb4", scopeBoth),
		strVar("character_set_database", "utf8mb4", scopeBoth),
		roVar(strVar("character_set_system", "utf8mb3", scopeGlobal)),
		strVar("character_set_filesystem", "binary", scopeBoth),
		strVar("collation_connection", "utf8mb4_general_ci", scopeBoth),
		strVar("collation_server", "utf8mb4_general_ci", scopeBoth),
		strVar("collation_database", "utf8mb4_general_ci", scopeBoth),
		roVar(strVar("version", ServerVersion, scopeGlobal)),
		roVar(strVar("version_comment", "strata - MySQL-compatible LSM database", scopeGlobal)),
		roVar(strVar("version_compile_os", "Linux", scopeGlobal)),
		roVar(strVar("version_compile_machine", "x86_64", scopeGlobal)),
		roVar(intVar("protocol_version", 10, scopeGlobal)),
		strVar("time_zone", "SYSTEM", scopeBoth),
		roVar(strVar("system_time_zone", "UTC", scopeGlobal)),
		intVar("wait_timeout", 28800, scopeBoth),
		intVar("interactive_timeout", 28800, scopeBoth),
		intVar("net_read_timeout", 30, scopeBoth),
		intVar("net_write_timeout", 60, scopeBoth),
		intVar("connect_timeout", 10, scopeGlobal),
		intVar("auto_increment_increment", 1, scopeBoth),
		intVar("auto_increment_offset", 1, scopeBoth),
		boolVar("sql_auto_is_null", false, scopeBoth),
		sysVarDef{name: "sql_select_limit", def: sqltypes.NewUint64(18446744073709551615), scope: scopeBoth, kind: 'i'},
		intVar("max_execution_time", 0, scopeBoth),
		boolVar("foreign_key_checks", true, scopeBoth),
		boolVar("unique_checks", true, scopeBoth),
		boolVar("sql_safe_updates", false, scopeBoth),
		boolVar("sql_notes", true, scopeBoth),
		boolVar("sql_warnings", false, scopeBoth),
		boolVar("sql_quote_show_create", true, scopeBoth),
		boolVar("big_tables", false, scopeBoth),
		boolVar("sql_big_selects", true, scopeBoth),
		boolVar("sql_buffer_result", false, scopeBoth),
		boolVar("sql_log_bin", true, scopeBoth),
		boolVar("sql_log_off", false, scopeBoth),
		roVar(intVar("lower_case_table_names", 0, scopeGlobal)),
		roVar(boolVar("lower_case_file_system", false, scopeGlobal)),
		strVar("default_storage_engine", "InnoDB", scopeBoth),
		strVar("default_tmp_storage_engine", "InnoDB", scopeBoth),
		strVar("storage_engine", "InnoDB", scopeBoth),
		roVar(intVar("port", 3306, scopeGlobal)),
		roVar(strVar("hostname", host, scopeGlobal)),
		roVar(strVar("datadir", "", scopeGlobal)),
		roVar(strVar("socket", "", scopeGlobal)),
		roVar(strVar("license", "Apache-2.0", scopeGlobal)),
		roVar(strVar("have_ssl", "DISABLED", scopeGlobal)),
		roVar(strVar("have_openssl", "DISABLED", scopeGlobal)),
		roVar(boolVar("performance_schema", false, scopeGlobal)),
		intVar("query_cache_size", 0, scopeGlobal),
		strVar("query_cache_type", "OFF", scopeBoth),
		strVar("init_connect", "", scopeGlobal),
		intVar("max_connections", 1024, scopeGlobal),
		intVar("max_user_connections", 0, scopeBoth),
		intVar("default_week_format", 0, scopeBoth),
		intVar("div_precision_increment", 4, scopeBoth),
		intVar("group_concat_max_len", 1024, scopeBoth),
		intVar("max_sort_length", 1024, scopeBoth),
		intVar("max_heap_table_size", 16777216, scopeBoth),
		intVar("tmp_table_size", 16777216, scopeBoth),
		intVar("sort_buffer_size", 262144, scopeBoth),
		intVar("join_buffer_size", 262144, scopeBoth),
		intVar("read_buffer_size", 131072, scopeBoth),
		intVar("long_query_time", 10, scopeBoth),
		intVar("innodb_buffer_pool_size", 134217728, scopeGlobal),
		boolVar("innodb_strict_mode", true, scopeBoth),
		boolVar("innodb_stats_auto_recalc", true, scopeGlobal),
		intVar("innodb_flush_log_at_trx_commit", 1, scopeGlobal),
		intVar("sync_binlog", 1, scopeGlobal),
		roVar(boolVar("log_bin", false, scopeGlobal)),
		strVar("binlog_format", "ROW", scopeBoth),
		roVar(intVar("server_id", 1, scopeGlobal)),
		roVar(strVar("server_uuid", "5a0e3c6e-0000-4000-8000-000000000001", scopeGlobal)),
		roVar(boolVar("gtid_mode", false, scopeGlobal)),
		roVar(boolVar("read_only", false, scopeGlobal)),
		roVar(boolVar("super_read_only", false, scopeGlobal)),
		strVar("session_track_system_variables", "", scopeBoth),
		boolVar("session_track_schema", true, scopeBoth),
		strVar("session_track_state_change", "OFF", scopeBoth),
		strVar("session_track_transaction_info", "OFF", scopeBoth),
		boolVar("session_track_gtids", false, scopeBoth),
		intVar("explicit_defaults_for_timestamp", 1, scopeBoth),
		boolVar("old_alter_table", false, scopeBoth),
		boolVar("profiling", false, scopeBoth),
		intVar("profiling_history_size", 15, scopeBoth),
		boolVar("keep_files_on_create", false, scopeBoth),
		strVar("optimizer_switch", "index_merge=on", scopeBoth),
		intVar("optimizer_search_depth", 62, scopeBoth),
		intVar("cte_max_recursion_depth", 1000, scopeBoth),
		intVar("eq_range_index_dive_limit", 200, scopeBoth),
		strVar("default_authentication_plugin", "mysql_native_password", scopeGlobal),
		intVar("thread_cache_size", 9, scopeGlobal),
		intVar("table_open_cache", 4000, scopeGlobal),
		intVar("open_files_limit", 65535, scopeGlobal),
		roVar(intVar("have_query_cache", 0, scopeGlobal)),
		strVar("event_scheduler", "OFF", scopeGlobal),
		intVar("information_schema_stats_expiry", 0, scopeBoth),
		strVar("block_encryption_mode", "aes-128-ecb", scopeBoth),
		strVar("completion_type", "NO_CHAIN", scopeBoth),
		strVar("lc_time_names", "en_US", scopeBoth),
		strVar("lc_messages", "en_US", scopeBoth),
		intVar("max_sp_recursion_depth", 0, scopeBoth),
		intVar("max_prepared_stmt_count", 16382, scopeGlobal),
		intVar("max_connect_errors", 100, scopeGlobal),
		boolVar("windowing_use_high_precision", true, scopeBoth),
		intVar("max_join_size", -1, scopeBoth),
		intVar("rand_seed1", 0, scopeSession),
		intVar("rand_seed2", 0, scopeSession),
		strVar("resultset_metadata", "FULL", scopeSession),
		intVar("transaction_prealloc_size", 4096, scopeBoth),
		intVar("strata_max_txn_bytes", 268435456, scopeGlobal),
	}
	m := make(map[string]sysVarDef, len(defs))
	for _, d := range defs {
		m[d.name] = d
	}
	return m
}()

// SysVars is a set of global variable values.
type SysVars struct {
	mu   sync.RWMutex
	vals map[string]sqltypes.Value
	// version counts Sets: sessions re-read the settings their plans depend
	// on when it moves (Session.plan).
	version atomic.Uint64
}

// Version returns a number that changes whenever a global value is set.
func (g *SysVars) Version() uint64 { return g.version.Load() }

func newGlobalVars() *SysVars {
	v := &SysVars{vals: make(map[string]sqltypes.Value, len(sysVarDefs))}
	for n, d := range sysVarDefs {
		v.vals[n] = d.def
	}
	return v
}

// Get returns a global value.
func (g *SysVars) Get(name string) (sqltypes.Value, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	v, ok := g.vals[name]
	return v, ok
}

// Set sets a global value without checks (startup configuration).
func (g *SysVars) Set(name string, v sqltypes.Value) {
	g.mu.Lock()
	g.vals[name] = v
	g.version.Add(1)
	g.mu.Unlock()
}

// Names returns all variable names, sorted.
func (g *SysVars) Names() []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	out := make([]string, 0, len(g.vals))
	for n := range g.vals {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// normalizeVar turns a SET value into the stored form for the variable,
// validating it. It returns 1231 (wrong value) or 1232 (wrong type).
func normalizeVar(d sysVarDef, v sqltypes.Value) (sqltypes.Value, error) {
	name := d.name
	switch d.kind {
	case 'b':
		if v.IsNull() {
			return v, sqlerr.New(sqlerror.ERWrongValueForVar, sqlerror.SSClientError, "Variable '%s' can't be set to the value of 'NULL'", name)
		}
		s := strings.ToUpper(v.ToString())
		switch s {
		case "1", "ON", "TRUE":
			return sqltypes.NewInt64(1), nil
		case "0", "OFF", "FALSE":
			return sqltypes.NewInt64(0), nil
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && (v.IsIntegral() || v.IsFloat() || v.IsDecimal()) {
			if f == 0 {
				return sqltypes.NewInt64(0), nil
			}
			if f == 1 {
				return sqltypes.NewInt64(1), nil
			}
		}
		return v, sqlerr.New(sqlerror.ERWrongValueForVar, sqlerror.SSClientError, "Variable '%s' can't be set to the value of '%s'", name, v.ToString())
	case 'i':
		if v.IsNull() {
			return v, sqlerr.New(sqlerror.ERWrongTypeForVar, sqlerror.SSClientError, "Incorrect argument type to variable '%s'", name)
		}
		s := v.ToString()
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return sqltypes.NewInt64(i), nil
		}
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			return sqltypes.NewUint64(u), nil
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && (v.IsIntegral() || v.IsFloat() || v.IsDecimal()) {
			return sqltypes.NewInt64(int64(f)), nil
		}
		return v, sqlerr.New(sqlerror.ERWrongTypeForVar, sqlerror.SSClientError, "Incorrect argument type to variable '%s'", name)
	default:
		if v.IsNull() {
			return sqltypes.NewVarChar(""), nil
		}
		s := v.ToString()
		switch name {
		case "transaction_isolation", "tx_isolation":
			u := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), " ", "-"))
			switch u {
			case "REPEATABLE-READ", "READ-COMMITTED", "READ-UNCOMMITTED", "SERIALIZABLE":
				return sqltypes.NewVarChar(u), nil
			}
			return v, sqlerr.New(sqlerror.ERWrongValueForVar, sqlerror.SSClientError, "Variable '%s' can't be set to the value of '%s'", name, s)
		case "sql_mode":
			m := normalizeSQLMode(s)
			for _, p := range strings.Split(m, ",") {
				if p != "" && !knownSQLModes[p] {
					return v, sqlerr.New(sqlerror.ERWrongValueForVar, sqlerror.SSClientError, "Variable '%s' can't be set to the value of '%s'", name, p)
				}
			}
			return sqltypes.NewVarChar(m), nil
		}
		return sqltypes.NewVarChar(s), nil
	}
}

// normalizeSQLMode upper-cases, expands combination modes and deduplicates.
func normalizeSQLMode(s string) string {
	var out []string
	seen := map[string]bool{}
	add := func(m string) {
		if m != "" && !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	for _, p := range strings.Split(s, ",") {
		m := strings.ToUpper(strings.TrimSpace(p))
		switch m {
		case "TRADITIONAL":
			for _, x := range []string{"STRICT_TRANS_TABLES", "STRICT_ALL_TABLES", "NO_ZERO_IN_DATE", "NO_ZERO_DATE", "ERROR_FOR_DIVISION_BY_ZERO", "NO_ENGINE_SUBSTITUTION"} {
				add(x)
			}
		case "ANSI":
			for _, x := range []string{"REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "ONLY_FULL_GROUP_BY"} {
				add(x)
			}
		default:
			add(m)
		}
	}
	return strings.Join(out, ",")
}

var knownSQLModes = map[string]bool{
	"REAL_AS_FLOAT": true, "PIPES_AS_CONCAT": true, "ANSI_QUOTES": true, "IGNORE_SPACE": true,
	"ONLY_FULL_GROUP_BY": true, "NO_UNSIGNED_SUBTRACTION": true, "NO_DIR_IN_CREATE": true,
	"ANSI": true, "NO_AUTO_VALUE_ON_ZERO": true, "NO_BACKSLASH_ESCAPES": true,
	"STRICT_TRANS_TABLES": true, "STRICT_ALL_TABLES": true, "NO_ZERO_IN_DATE": true,
	"NO_ZERO_DATE": true, "ALLOW_INVALID_DATES": true, "ERROR_FOR_DIVISION_BY_ZERO": true,
	"TRADITIONAL": true, "HIGH_NOT_PRECEDENCE": true, "NO_ENGINE_SUBSTITUTION": true,
	"PAD_CHAR_TO_FULL_LENGTH": true, "TIME_TRUNCATE_FRACTIONAL": true,
	// Accepted for compatibility with older clients and MariaDB dumps.
	"NO_KEY_OPTIONS": true, "NO_TABLE_OPTIONS": true, "NO_FIELD_OPTIONS": true,
	"MYSQL323": true, "MYSQL40": true, "DB2": true, "MSSQL": true, "ORACLE": true,
	"POSTGRESQL": true, "MAXDB": true, "NO_AUTO_CREATE_USER": true,
}

// Package sysvar defines the MySQL system variables strata knows: their
// defaults, scope (global, session or both), whether they may be set, and
// how a SET value is validated and stored; and the process-wide set of
// global values (Globals).
package sysvar

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

// Scope says where a system variable may be set.
type Scope uint8

const (
	Both Scope = iota
	Global
	Session
)

// Def describes one system variable.
type Def struct {
	Name     string
	Default  sqltypes.Value
	Scope    Scope
	ReadOnly bool
	Kind     Kind
}

// Kind is a variable's value type.
type Kind byte

const (
	Int    Kind = 'i'
	Bool   Kind = 'b' // ON/OFF, stored as 0/1
	String Kind = 's'
	Double Kind = 'd'
)

// Lookup returns the definition of the variable name (lower case).
func Lookup(name string) (Def, bool) {
	d, ok := defs[name]
	return d, ok
}

func intVar(name string, v int64, scope Scope) Def {
	return Def{Name: name, Default: sqltypes.NewInt64(v), Scope: scope, Kind: Int}
}
func boolVar(name string, v bool, scope Scope) Def {
	n := int64(0)
	if v {
		n = 1
	}
	return Def{Name: name, Default: sqltypes.NewInt64(n), Scope: scope, Kind: Bool}
}
func strVar(name, v string, scope Scope) Def {
	return Def{Name: name, Default: sqltypes.NewVarChar(v), Scope: scope, Kind: String}
}
func roVar(d Def) Def { d.ReadOnly = true; return d }

// ServerVersion is the version strata reports (MySQL 8.0 compatible).
const ServerVersion = "8.0.40-strata"

// DefaultSQLMode is MySQL 8.0's default sql_mode.
const DefaultSQLMode = "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"

var defs = func() map[string]Def {
	host, _ := os.Hostname()
	defs := []Def{
		boolVar("autocommit", true, Both),
		strVar("sql_mode", DefaultSQLMode, Both),
		strVar("transaction_isolation", "REPEATABLE-READ", Both),
		strVar("tx_isolation", "REPEATABLE-READ", Both),
		boolVar("transaction_read_only", false, Both),
		boolVar("tx_read_only", false, Both),
		intVar("innodb_lock_wait_timeout", 50, Both),
		intVar("lock_wait_timeout", 31536000, Both),
		intVar("max_allowed_packet", 67108864, Both),
		intVar("net_buffer_length", 16384, Both),
		// LOAD DATA LOCAL (MySQL 8.0 defaults it OFF; strata lets clients
		// that ask for it load their files).
		boolVar("local_infile", true, Global),
		strVar("character_set_client", "utf8mb4", Both),
		strVar("character_set_connection", "utf8mb4", Both),
		strVar("character_set_results", "utf8mb4", Both),
		strVar("character_set_server", "utf8mb4", Both),
		strVar("character_set_database", "utf8mb4", Both),
		roVar(strVar("character_set_system", "utf8mb3", Global)),
		strVar("character_set_filesystem", "binary", Both),
		strVar("collation_connection", "utf8mb4_general_ci", Both),
		strVar("collation_server", "utf8mb4_general_ci", Both),
		strVar("collation_database", "utf8mb4_general_ci", Both),
		roVar(strVar("version", ServerVersion, Global)),
		roVar(strVar("version_comment", "strata - MySQL-compatible LSM database", Global)),
		roVar(strVar("version_compile_os", "Linux", Global)),
		roVar(strVar("version_compile_machine", "x86_64", Global)),
		roVar(intVar("protocol_version", 10, Global)),
		strVar("time_zone", "SYSTEM", Both),
		roVar(strVar("system_time_zone", systemTimeZone(), Global)),
		intVar("wait_timeout", 28800, Both),
		intVar("interactive_timeout", 28800, Both),
		intVar("net_read_timeout", 30, Both),
		intVar("net_write_timeout", 60, Both),
		intVar("connect_timeout", 10, Global),
		intVar("auto_increment_increment", 1, Both),
		intVar("auto_increment_offset", 1, Both),
		boolVar("sql_auto_is_null", false, Both),
		Def{Name: "sql_select_limit", Default: sqltypes.NewUint64(18446744073709551615), Scope: Both, Kind: Int},
		intVar("max_execution_time", 0, Both),
		boolVar("foreign_key_checks", true, Both),
		boolVar("unique_checks", true, Both),
		boolVar("sql_safe_updates", false, Both),
		boolVar("sql_notes", true, Both),
		boolVar("sql_warnings", false, Both),
		boolVar("sql_quote_show_create", true, Both),
		boolVar("big_tables", false, Both),
		boolVar("sql_big_selects", true, Both),
		boolVar("sql_buffer_result", false, Both),
		boolVar("sql_log_bin", true, Both),
		boolVar("sql_log_off", false, Both),
		roVar(intVar("lower_case_table_names", 0, Global)),
		roVar(boolVar("lower_case_file_system", false, Global)),
		strVar("default_storage_engine", "InnoDB", Both),
		strVar("default_tmp_storage_engine", "InnoDB", Both),
		strVar("storage_engine", "InnoDB", Both),
		roVar(intVar("port", 3306, Global)),
		roVar(strVar("hostname", host, Global)),
		roVar(strVar("datadir", "", Global)),
		roVar(strVar("tmpdir", os.TempDir(), Global)),
		// SET timestamp and @@timestamp are the session's (timestamp.go
		// in internal/sql).
		{Name: "timestamp", Default: sqltypes.NewFloat64(0), Scope: Session, Kind: Double},
		// The directory SELECT ... INTO OUTFILE may write to ("" any,
		// NULL none: the default of an engine that strata serve did not
		// configure).
		roVar(Def{Name: "secure_file_priv", Default: sqltypes.NULL, Scope: Global, Kind: String}),
		roVar(strVar("socket", "", Global)),
		roVar(strVar("license", "Apache-2.0", Global)),
		roVar(strVar("have_ssl", "DISABLED", Global)),
		roVar(strVar("have_openssl", "DISABLED", Global)),
		roVar(boolVar("performance_schema", false, Global)),
		intVar("query_cache_size", 0, Global),
		strVar("query_cache_type", "OFF", Both),
		strVar("init_connect", "", Global),
		intVar("max_connections", 1024, Global),
		intVar("max_user_connections", 0, Both),
		intVar("default_week_format", 0, Both),
		intVar("div_precision_increment", 4, Both),
		intVar("group_concat_max_len", 1024, Both),
		intVar("max_sort_length", 1024, Both),
		intVar("max_heap_table_size", 16777216, Both),
		intVar("tmp_table_size", 16777216, Both),
		intVar("sort_buffer_size", 262144, Both),
		intVar("join_buffer_size", 262144, Both),
		intVar("read_buffer_size", 131072, Both),
		// The slow query log (sql/slowlog.go): long_query_time in
		// seconds, fractions allowed, shown with six decimals as MySQL.
		{Name: "long_query_time", Default: sqltypes.MakeTrusted(sqltypes.Float64, []byte("10.000000")), Scope: Both, Kind: Double},
		boolVar("slow_query_log", false, Global),
		strVar("slow_query_log_file", "", Global),
		intVar("innodb_buffer_pool_size", 134217728, Global),
		// strata's warm restart (--warmup, --warmup-record; kv/warmup.go).
		roVar(boolVar("innodb_buffer_pool_load_at_startup", true, Global)),
		roVar(boolVar("innodb_buffer_pool_dump_at_shutdown", true, Global)),
		boolVar("innodb_strict_mode", true, Both),
		boolVar("innodb_stats_auto_recalc", true, Global),
		intVar("innodb_flush_log_at_trx_commit", 1, Global),
		intVar("sync_binlog", 1, Global),
		roVar(boolVar("log_bin", false, Global)),
		// strata keeps no general query log: the switch reads OFF and
		// cannot be turned on (1238) rather than be set and ignored.
		roVar(boolVar("general_log", false, Global)),
		roVar(strVar("general_log_file", "", Global)),
		roVar(strVar("log_output", "FILE", Global)),
		strVar("binlog_format", "ROW", Both),
		roVar(intVar("server_id", 1, Global)),
		roVar(strVar("server_uuid", "5a0e3c6e-0000-4000-8000-000000000001", Global)),
		// The binary log (strata serve --log-bin; internal/binlog): set at
		// start, read-only. @@gtid_executed and @@gtid_purged read live
		// values (sessionvars.go).
		roVar(strVar("gtid_mode", "OFF", Global)),
		roVar(strVar("enforce_gtid_consistency", "OFF", Global)),
		roVar(strVar("gtid_executed", "", Global)),
		roVar(strVar("gtid_purged", "", Global)),
		roVar(strVar("log_bin_basename", "", Global)),
		roVar(strVar("log_bin_index", "", Global)),
		roVar(strVar("binlog_row_image", "FULL", Global)),
		roVar(strVar("binlog_row_metadata", "FULL", Global)),
		roVar(strVar("binlog_checksum", "CRC32", Global)),
		roVar(intVar("max_binlog_size", 1073741824, Global)),
		roVar(intVar("binlog_expire_logs_seconds", 2592000, Global)),
		roVar(boolVar("read_only", false, Global)),
		roVar(boolVar("super_read_only", false, Global)),
		strVar("session_track_system_variables", "", Both),
		boolVar("session_track_schema", true, Both),
		strVar("session_track_state_change", "OFF", Both),
		strVar("session_track_transaction_info", "OFF", Both),
		boolVar("session_track_gtids", false, Both),
		intVar("explicit_defaults_for_timestamp", 1, Both),
		boolVar("old_alter_table", false, Both),
		boolVar("profiling", false, Both),
		intVar("profiling_history_size", 15, Both),
		boolVar("keep_files_on_create", false, Both),
		strVar("optimizer_switch", "index_merge=on", Both),
		intVar("optimizer_search_depth", 62, Both),
		intVar("cte_max_recursion_depth", 1000, Both),
		intVar("eq_range_index_dive_limit", 200, Both),
		strVar("default_authentication_plugin", "mysql_native_password", Global),
		intVar("thread_cache_size", 9, Global),
		intVar("table_open_cache", 4000, Global),
		intVar("open_files_limit", 65535, Global),
		roVar(intVar("have_query_cache", 0, Global)),
		strVar("event_scheduler", "OFF", Global),
		intVar("information_schema_stats_expiry", 0, Both),
		strVar("block_encryption_mode", "aes-128-ecb", Both),
		strVar("completion_type", "NO_CHAIN", Both),
		strVar("lc_time_names", "en_US", Both),
		strVar("lc_messages", "en_US", Both),
		intVar("max_sp_recursion_depth", 0, Both),
		intVar("max_prepared_stmt_count", 16382, Global),
		intVar("max_connect_errors", 100, Global),
		boolVar("windowing_use_high_precision", true, Both),
		intVar("max_join_size", -1, Both),
		intVar("rand_seed1", 0, Session),
		intVar("rand_seed2", 0, Session),
		strVar("resultset_metadata", "FULL", Session),
		intVar("transaction_prealloc_size", 4096, Both),
		intVar("strata_max_txn_bytes", 268435456, Global),
		// Set by mysqlbinlog's output (and a replica's applier): recorded
		// per session. GTID_NEXT accepts AUTOMATIC; a specific GTID is
		// refused with 1235 (set.go).
		boolVar("pseudo_slave_mode", false, Session),
		boolVar("pseudo_replica_mode", false, Session),
		intVar("pseudo_thread_id", 0, Session),
		intVar("original_commit_timestamp", 0, Session),
		intVar("original_server_version", 0, Session),
		intVar("immediate_server_version", 0, Session),
		strVar("gtid_next", "AUTOMATIC", Session),
		// MariaDB's mysqlbinlog sets these: recorded per session.
		boolVar("skip_parallel_replication", false, Session),
		intVar("gtid_domain_id", 0, Both),
		intVar("gtid_seq_no", 0, Session),
		boolVar("check_constraint_checks", true, Both),
		boolVar("system_versioning_insert_history", false, Both),
		// MySQL 8.0 still has it (INSERT DELAYED is gone): recorded.
		intVar("max_delayed_threads", 20, Both),
	}
	m := make(map[string]Def, len(defs))
	for _, d := range defs {
		m[d.Name] = d
	}
	return m
}()

// Globals is a set of global variable values.
type Globals struct {
	mu   sync.RWMutex
	vals map[string]sqltypes.Value
	// version counts Sets: sessions re-read the settings their plans depend
	// on when it moves (Session.plan).
	version atomic.Uint64
}

// Version returns a number that changes whenever a global value is set.
func (g *Globals) Version() uint64 { return g.version.Load() }

func NewGlobals() *Globals {
	v := &Globals{vals: make(map[string]sqltypes.Value, len(defs))}
	for n, d := range defs {
		v.vals[n] = d.Default
	}
	return v
}

// Get returns a global value.
func (g *Globals) Get(name string) (sqltypes.Value, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	v, ok := g.vals[name]
	return v, ok
}

// Set sets a global value without checks (startup configuration).
func (g *Globals) Set(name string, v sqltypes.Value) {
	g.mu.Lock()
	g.vals[name] = v
	g.version.Add(1)
	g.mu.Unlock()
}

// Names returns all variable names, sorted.
func (g *Globals) Names() []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	out := make([]string, 0, len(g.vals))
	for n := range g.vals {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Normalize turns a SET value into the stored form for the variable,
// validating it. It returns 1231 (wrong value) or 1232 (wrong type).
func Normalize(d Def, v sqltypes.Value) (sqltypes.Value, error) {
	name := d.Name
	switch d.Kind {
	case Bool:
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
	case Int:
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
		if name == "time_zone" {
			return normalizeTimeZone(v)
		}
		if name == "long_query_time" {
			return normalizeSeconds(name, v)
		}
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
			if v.IsIntegral() {
				// mysqlbinlog's SET @@session.sql_mode=1411383296: the
				// bits of MySQL's sql_class.h.
				n, err := strconv.ParseUint(s, 10, 64)
				if err != nil {
					return v, sqlerr.New(sqlerror.ERWrongValueForVar, sqlerror.SSClientError, "Variable '%s' can't be set to the value of '%s'", name, s)
				}
				m, ok := SQLModeFromBits(n)
				if !ok {
					return v, sqlerr.New(sqlerror.ERWrongValueForVar, sqlerror.SSClientError, "Variable '%s' can't be set to the value of '%s'", name, s)
				}
				return sqltypes.NewVarChar(m), nil
			}
			m := NormalizeSQLMode(s)
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

// normalizeSeconds stores a number of seconds with microsecond precision
// (long_query_time): a number, negative values raised to 0 as MySQL does.
func normalizeSeconds(name string, v sqltypes.Value) (sqltypes.Value, error) {
	if v.IsNull() || !(v.IsIntegral() || v.IsFloat() || v.IsDecimal()) {
		return v, sqlerr.New(sqlerror.ERWrongTypeForVar, sqlerror.SSClientError, "Incorrect argument type to variable '%s'", name)
	}
	f, err := strconv.ParseFloat(v.ToString(), 64)
	if err != nil {
		return v, sqlerr.New(sqlerror.ERWrongTypeForVar, sqlerror.SSClientError, "Incorrect argument type to variable '%s'", name)
	}
	if f < 0 {
		f = 0
	}
	return sqltypes.MakeTrusted(sqltypes.Float64, strconv.AppendFloat(nil, f, 'f', 6, 64)), nil
}

// NormalizeSQLMode upper-cases, expands combination modes and deduplicates.
func NormalizeSQLMode(s string) string {
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

// sqlModeBitNames are MySQL 8.0's sql_mode bits (sql_class.h), by bit.
var sqlModeBitNames = [...]string{
	0: "REAL_AS_FLOAT", 1: "PIPES_AS_CONCAT", 2: "ANSI_QUOTES", 3: "IGNORE_SPACE",
	5: "ONLY_FULL_GROUP_BY", 6: "NO_UNSIGNED_SUBTRACTION", 7: "NO_DIR_IN_CREATE",
	18: "ANSI", 19: "NO_AUTO_VALUE_ON_ZERO", 20: "NO_BACKSLASH_ESCAPES",
	21: "STRICT_TRANS_TABLES", 22: "STRICT_ALL_TABLES", 23: "NO_ZERO_IN_DATE",
	24: "NO_ZERO_DATE", 25: "ALLOW_INVALID_DATES", 26: "ERROR_FOR_DIVISION_BY_ZERO",
	27: "TRADITIONAL", 29: "HIGH_NOT_PRECEDENCE", 30: "NO_ENGINE_SUBSTITUTION",
	31: "PAD_CHAR_TO_FULL_LENGTH", 32: "TIME_TRUNCATE_FRACTIONAL",
}

// SQLModeFromBits decodes a numeric sql_mode into its names (combination
// modes expanded as SET sql_mode by name does); ok is false when a bit
// names no mode (MySQL: 1231).
func SQLModeFromBits(n uint64) (string, bool) {
	var names []string
	for b := 0; b < 64; b++ {
		if n&(1<<b) == 0 {
			continue
		}
		if b >= len(sqlModeBitNames) || sqlModeBitNames[b] == "" {
			return "", false
		}
		names = append(names, sqlModeBitNames[b])
	}
	return NormalizeSQLMode(strings.Join(names, ",")), true
}

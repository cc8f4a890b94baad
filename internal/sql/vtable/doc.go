// Package vtable holds strata's virtual system tables: information_schema,
// and the few performance_schema and mysql tables that clients read
// (sys is a known schema with no tables). Nothing is stored; each table is a
// definition plus a generator that computes its rows when a statement reads
// it.
//
// # Basics
//
// A Table's Def is a catalog.Table with the columns of MySQL 8.0 in MySQL's
// order, names and types (VARCHAR(n), TEXT, LONGTEXT, INT [UNSIGNED],
// BIGINT [UNSIGNED], DATETIME, BINARY(0)), a hidden primary key and no
// auto-increment column, so the SQL layer plans over it like any table.
// Text columns use utf8mb3_general_ci; information_schema columns holding a
// schema or table name use utf8mb3_bin, since strata's names are
// case-sensitive. Lookup finds a table by schema and name
// (case-insensitively) and answers MySQL's 1109 or 1146 for a missing one;
// Tables lists a schema's definitions.
//
// The tables, by file:
//
//   - objects.go: SCHEMATA, TABLES, COLUMNS, PARTITIONS and the always-empty
//     VIEWS, ROUTINES, TRIGGERS, PARAMETERS, EVENTS, FILES.
//   - keys.go: STATISTICS, KEY_COLUMN_USAGE, REFERENTIAL_CONSTRAINTS,
//     TABLE_CONSTRAINTS, CHECK_CONSTRAINTS (foreign keys are parsed from
//     the texts the catalog keeps, ForeignKeys).
//   - histogram.go: COLUMN_STATISTICS (the histograms of ANALYZE TABLE ...
//     UPDATE HISTOGRAM as MySQL's JSON).
//   - server.go: ENGINES, CHARACTER_SETS, COLLATIONS,
//     COLLATION_CHARACTER_SET_APPLICABILITY, PLUGINS, PROCESSLIST,
//     SESSION_/GLOBAL_VARIABLES, SESSION_/GLOBAL_STATUS, the privilege
//     tables; performance_schema's session_/global_variables and
//     session_/global_status; mysql.user and mysql.db.
//   - storage.go: STRATA_LSM_LEVELS, STRATA_SST_FILES, STRATA_COMPACTIONS
//     (the storage engine, through Source.Storage).
//   - transactions.go: INNODB_TRX and STRATA_LOCK_WAITS (open
//     transactions and the waits-for graph, through Source.Transactions and
//     Source.LockWaits).
//
// Table.Rows runs the generator: it adds rows to a Rows sink (Rows.Add takes
// one Go value per column — nil, string, int, int64, uint64, float64, bool — and
// converts it to the column's type) reading the engine and the asking
// session only through a Source.
//
// # Source
//
// Source is the narrow view of the engine and the session a generator may
// use: the catalog and the statement parser, what the session may see
// (CanSeeDB, CanSeeTable), the connection (Conn: id, user, host, current
// database), its privilege subject and account host, system variables
// (SysVarNames, SysVar) and status variables (StatusVars), and per table
// the estimated row count and next auto-increment value. The SQL layer
// implements it per statement execution (sql's sysSource); the rows are
// computed once per execution and are that session's view, so plans that
// read a system table are never shared between sessions. No generator
// needs more than Source offers, so none is registered from the SQL layer.
//
// # SHOW
//
// SHOW ENGINES, SHOW PLUGINS and SHOW [GLOBAL|SESSION] STATUS are answered
// from the rows of ENGINES, PLUGINS and performance_schema's status tables,
// and SHOW DATABASES lists SchemaNames. The other SHOW forms are still built
// by the SQL layer (show.go), where their output differs from the tables'
// (SHOW COLLATION names utf8mb4's MySQL default collation, SHOW GLOBAL
// VARIABLES keeps session-only variables); SHOW PROCESSLIST reads
// PROCESSLIST. They share ColumnKey, VarText and
// IndexCardinality with the tables.
//
// # Privileges
//
// As in MySQL, a row describing a schema object is listed only to a session
// that may see the object: SCHEMATA (and SHOW DATABASES) lists
// information_schema and the databases Source.CanSeeDB admits (SHOW
// DATABASES, or any privilege in the database); TABLES, COLUMNS,
// PARTITIONS, STATISTICS, the constraint tables and COLUMN_STATISTICS list
// the tables Source.CanSeeTable admits (any privilege on the table). The
// information_schema tables themselves are visible to everyone. The server
// tables describe only the session, except PROCESSLIST, which lists the
// threads Source.Threads admits (its own, every one with PROCESS):
// USER_PRIVILEGES its own account's global privileges (USAGE when it holds
// none), mysql.user its own user. SCHEMA_PRIVILEGES, TABLE_PRIVILEGES and
// COLUMN_PRIVILEGES list the grants at those levels of the session's own
// account, or of every account when it may read the mysql schema. Which tables an account may read at all
// is the SQL layer's rule: every account reads information_schema and
// performance_schema's variable and status tables; mysql.user and mysql.db
// need SELECT like any table.
//
// # Caveats
//
//   - There are no views, routines, triggers, events, partitions or
//     tablespaces: their tables are empty (PARTITIONS has one row per
//     table, as for an unpartitioned table in MySQL).
//   - Sizes (DATA_LENGTH, INDEX_LENGTH, ...) are 0; TABLE_ROWS and
//     CARDINALITY come from table statistics.
//   - Tables are read whole: a WHERE on a system table filters the
//     generated rows.
package vtable

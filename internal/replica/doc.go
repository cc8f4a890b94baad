// Package replica makes strata a replica of a MySQL-protocol primary
// (MariaDB 10.11, MySQL 8.0 or strata) that writes a row-based binary log:
// CHANGE REPLICATION SOURCE TO, START/STOP/RESET REPLICA and SHOW REPLICA
// STATUS are answered by a Replica, which the SQL layer reaches through
// the sql.ReplicaControl interface.
//
// # Basics
//
// One goroutine is both of MySQL's replication threads: it connects to the
// source with Vitess's go/mysql client, asks for the binary log from the
// position it last applied (COM_BINLOG_DUMP, file and position), and
// applies each event group as it arrives, without a relay log. Row events
// become INSERT, UPDATE and DELETE statements by primary key, run by an
// applier session of the engine (stream.go, apply.go, values.go); DDL
// (QUERY events) runs as written, in the event's database.
//
// ReplayFiles (replay.go) feeds the same applier from binary log files
// instead of a source: point-in-time recovery (strata restore
// --binlog-from), up to a GTID or a time, resumable from the position it
// stores with each transaction.
//
// # Crash safety
//
// The source position reached (file, position, GTID) is written in the
// same transaction as the rows of its event group, under the reserved
// index id StateIndexID (state.go). After a crash the replica resumes
// exactly after the last committed group: nothing lost, nothing applied
// twice. The connection settings and whether replication was running are
// kept under the same id; a server started with replication running
// starts it again (unless --skip-replica-start).
//
// # Caveats
//
// A DDL statement's position commits in the batch of the catalog change
// that makes the DDL take effect (sql.Session.SetDDLCommitHook), so a DDL
// is neither run twice nor skipped. A DDL inside a group (MariaDB's
// CREATE TABLE … SELECT) and statements that take no commit hook (GRANT,
// REVOKE and the other account statements) still commit on their own,
// their position right after: a crash between the two runs the statement
// again at restart, which stops the SQL thread with its error (CREATE
// TABLE: 1050) rather than applying anything twice. Events strata cannot apply — statement-based
// DML, compressed or encrypted events, a column whose type differs from
// the replica's — stop the SQL thread with Last_SQL_Errno/Last_SQL_Error;
// nothing is guessed.
package replica

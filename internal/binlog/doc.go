// Package binlog writes strata's binary log: MySQL 8.0 binlog v4 files
// (magic "\xfebin", CRC32 checksums, row-based events, MySQL-flavour GTIDs
// server_uuid:n) that mysqlbinlog, MySQL replicas and Vitess can read.
//
// # Basics
//
// A transaction that writes rows of logged tables collects their images
// in a Changes (nil when the log is off: no cost at all). At commit,
// Log.Commit, under one mutex that fixes the binlog order, gives the
// transaction its GTID number and its place in the current file, encodes
// its events — GTID, QUERY "BEGIN", TABLE_MAP and WRITE/UPDATE/DELETE_ROWS
// v2 per table, XID — and adds them as one record to the transaction's
// own Pebble batch, under a reserved key (recordKey). The batch is applied
// under the same mutex, so record order is commit order, and commit
// atomicity gives "in the binlog iff committed" with the single WAL fsync
// the commit pays anyway. After the fsync the record's bytes are written to
// the binlog file at the position the record names. A DDL statement is
// its own transaction (GTID, QUERY with the statement), logged the same
// way in the batch of the catalog change that makes it take effect:
// CommitStatement is that change's commit hook (catalog.CommitHook, filled
// in by the SQL session), so a DDL is in the binlog iff it committed too.
//
// # Recovery
//
// Open reads the records still in the store, in order, and writes each
// record whose bytes the file at its position lacks (a kill -9 between the
// commit and the file write, or a torn tail): the files are rebuilt from
// the store, never the other way round. Once a file is fsynced its records
// are deleted from the store (trimRecords), keeping the last GTID number
// and position in a state key.
//
// # Caveats
//
// JSON is written in MySQL's binary JSON (json.go). A column type without a
// row image encoder makes a write to its table fail with 1235 while the log
// is on, rather than log something a replica would apply wrongly.
// Temporary tables are not logged (MySQL's
// row format does not log them either).
package binlog

// Package replication tests strata as a replica of real primaries: a
// private MariaDB 10.11 with a row-based binary log (skipped when mariadbd
// is not installed) and a strata server started with --log-bin. Each runs
// DDL and a mixed write load of many column types on the primary, kills
// the replica with SIGKILL mid-stream, restarts it (replication resumes on
// its own) and, once the replica has applied the primary's whole log,
// compares the tables row by row, ordered by primary key.
package replication

// Package replication tests strata as a replica of a real MariaDB primary
// (binlog_format=ROW): a write load on the primary, a kill -9 of the
// replica mid-stream, and the tables compared row by row after catch-up.
// The tests skip when mariadbd is not installed.
package replication

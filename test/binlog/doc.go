// Package binlog checks strata's binary log end to end against real
// server processes: the SHOW statements and PURGE, rotation, decoding of
// the files by mysqlbinlog -v and their replay into a MariaDB, and that
// after kill -9 the binlog and the data agree (every acknowledged commit's
// rows and GTID are in the files, nothing else is).
package binlog

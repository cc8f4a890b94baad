// Package tpcc runs a scaled-down TPC-C transaction mix against a real
// strata server through go-sql-driver/mysql, with the client of
// internal/bench/tpcc: the nine TPC-C tables are created and loaded (2
// warehouses, 10 districts each, 30 customers per district, 1000 items),
// then concurrent terminals run new-order, payment, order-status, delivery
// and stock-level in the standard 45/43/4/4/4 mix with server-side
// prepared statements, locking reads, row-constructor IN lists,
// ORDER BY … LIMIT 1 and multi-row INSERTs; 1 % of new-orders roll back
// on an invalid item. Deadlocks (1213) and lock wait timeouts (1205) are
// retried. Afterwards TPC-C's consistency conditions 1–4 and the
// customer-balance check are run, and every committed new-order's lines
// must exist.
//
//	go test ./test/tpcc/ -v
//
// STRATA_TPCC_SECONDS sets the run length (default 60), STRATA_TPCC_TERMINALS
// the number of terminals (default 4) and STRATA_BINARY a prebuilt server
// binary. Skipped under -short.
package tpcc

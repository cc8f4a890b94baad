// Package tpcc is a TPC-C client: the nine tables (Schema), the initial
// database at a Scale (Load; Full is the specification's size), terminals
// running new-order, payment, order-status, delivery and stock-level in the
// standard 45/43/4/4/4 mix (Run), and consistency checks (Checks). It is
// used by `strata bench tpcc` and by the test in test/tpcc.
//
// # Basics
//
// The transactions use the SQL shapes common TPC-C clients send:
// server-side prepared statements, locking reads of warehouse, district
// and customer rows, the order's stock rows locked with a row-constructor
// list (`(s_w_id, s_i_id) IN ((?, ?), …) FOR UPDATE`), the oldest new
// order taken with `ORDER BY no_o_id LIMIT 1 FOR UPDATE`, the last order
// with `ORDER BY o_id DESC LIMIT 1`, and the order's lines inserted with
// one multi-row INSERT. 1 % of new-orders carry an unused item and roll
// back. Deadlocks (1213) and lock wait timeouts (1205) are retried.
// Inputs follow clause 2 (NURand for customer ids, item ids and last
// names; 1 % remote order lines; 15 % remote payments; 60 % of payments
// and order-status by last name).
//
// # Caveats
//
// Terminals run back to back without keying and think times, so tpmC
// here is not comparable with published TPC-C results, only between the
// engines of one run. The schema keeps one street line of TPC-C's two.
package tpcc

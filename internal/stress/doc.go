// Package stress is strata's crash-loop tool (`strata stress`): it proves
// that acknowledged commits survive kill -9 and that no partial transaction
// ever becomes visible, the way MyRocks is tested with loaders, checkers and
// a reaper.
//
// # Basics
//
// Run starts `strata serve` itself on a loopback port and a private data
// directory, creates database stress with two tables, and then repeats a
// cycle until Config.Kills kills (or Config.Duration) are reached:
//
//   - loader connections run transfer transactions: lock two accounts,
//     move an amount between them, bump each row's version, rewrite its
//     unique tag and the CRC-32 checksum of its own content, and insert an
//     xlog row (the transaction id, chosen by the client) — all in one
//     transaction. Every outcome is written to an in-memory ledger:
//     acknowledged (COMMIT returned OK), in doubt (the connection died during
//     COMMIT), aborted (failed before COMMIT) or rolled back (a few
//     transactions end with ROLLBACK on purpose);
//   - checker connections verify, inside one REPEATABLE READ transaction,
//     that SUM(balance) is constant, every row checksum is valid, and
//     SUM(version) = 2 × COUNT(xlog) (a torn snapshot would break it);
//   - the reaper sends SIGKILL to the server after a random interval, waits
//     for it, stops the workers and restarts the server.
//
// After every restart (and once more at the end) the verifier checks that
// every acknowledged transaction's xlog row is present and unchanged, that
// no aborted or rolled-back transaction is visible, that every in-doubt
// transaction is all-or-nothing (the balances and versions recomputed from
// the xlog rows present equal the accounts table exactly), that the total
// holds, that every checksum is valid, and that CHECK TABLE reports OK for
// both tables. An in-doubt transaction is resolved by the first restart
// that sees it: present means committed (it must then stay), absent means
// aborted (it must never appear later).
//
// # Caveats
//
// If the server does not implement CHECK TABLE yet (error 1064 or 1235),
// the report says so and index consistency is not verified; everything
// else still is. Unexpected SQL errors (other than deadlocks and lock wait
// timeouts) are listed in the report but are not violations; a server that
// exits on its own or does not come back after a kill is a violation.
package stress

// Package txn implements strata's transactions on top of package kv (a
// Pebble database; only kv imports Pebble).
//
// # Basics
//
// A Txn buffers its writes in memory (an ordered tree of pending puts and
// deletes) and applies them as one kv.Batch at commit, synced to the WAL by
// default. Reads come in two flavours:
//
//   - snapshot reads (plain SELECT): the transaction's own writes merged over a
//     kv.Snapshot taken at the first read (REPEATABLE READ) or at the start
//     of each statement (READ COMMITTED);
//   - current reads (UPDATE, DELETE, INSERT duplicate checks, SELECT ... FOR
//     UPDATE/SHARE): the transaction's own writes merged over the latest
//     committed state. Callers lock the row first (Lock) and then read it, so
//     they act on the newest committed version, as InnoDB does, instead of
//     failing with a snapshot conflict as MyRocks does.
//
// Row locks (shared/exclusive, on primary-key and unique-key values) live in
// the lock manager (package txn/lock) with deadlock detection and a wait
// timeout; they are held until commit or rollback.
//
// Savepoints and statement rollback use an undo log of the write buffer, so
// ROLLBACK TO SAVEPOINT works after writes.
//
// # Caveats
//
// There are no gap locks (as in MyRocks): a range read under FOR UPDATE locks
// the rows it finds, not the gaps between them, so phantoms are possible in
// locking reads. The write buffer is bounded (Options.MaxTxnBytes); a
// transaction that exceeds it fails with ErrTxnTooBig and must be rolled back.
package txn

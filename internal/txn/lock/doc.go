// Package lock is strata's row lock manager: pessimistic shared and exclusive
// locks on primary-key and unique-key values, with InnoDB semantics and no gap
// locks.
//
// # Basics
//
// A Manager maps opaque key bytes (an index id followed by the memcomparable
// key) to lock entries. Acquire takes a lock in Shared or Exclusive mode on
// behalf of a transaction and blocks while the lock is held in an
// incompatible mode by other transactions; ReleaseAll drops every lock of a
// transaction at commit or rollback and grants waiters. Release gives back
// one lock early: a locking read releases the lock of a row that turned out
// not to match its condition, provided AcquireFresh reported that the
// transaction did not hold it before.
//
//   - Locks are re-entrant: holding Exclusive satisfies a Shared request, and
//     a Shared holder asking for Exclusive upgrades in place (waiting while
//     other transactions share the key). Upgrade requests queue ahead of
//     ordinary waiters, as they already hold the key.
//   - Waiters are granted in FIFO order; consecutive compatible Shared
//     waiters at the head of a queue are granted together. A new request
//     never overtakes waiters already queued on the key.
//   - Deadlocks are detected eagerly: before a transaction waits, a
//     depth-first search over the waits-for graph looks for a path back to
//     it. If waiting would close a cycle the requester is the victim and gets
//     ErrDeadlock at once (MySQL error 1213); the caller rolls back.
//   - A wait ends with ErrLockWaitTimeout after the caller's timeout
//     (innodb_lock_wait_timeout), or with ctx.Err() when the context ends
//     first (KILL QUERY). A timeout <= 0 means "do not wait".
//   - Memory is bounded: Options.MaxLocks caps the number of lock entries
//     across all transactions; an Acquire beyond it fails with
//     ErrTooManyLocks instead of growing without bound.
//
// # Structure
//
// Keys hash to one of 64 shards, each a mutex-guarded map from key to entry.
// An entry holds its holders (a short slice: one holder is the common case)
// and a FIFO queue of waiters, each with its own buffered channel, so a grant
// never loses a wakeup and no goroutine is started per lock. Every
// transaction has a list of the entries it holds, so ReleaseAll is O(held).
// The waits-for graph lives in a separate registry with its own mutex; it is
// only touched when a transaction has to wait or when an entry with waiters
// changes, never on the uncontended path. Lock order: shard mutex, then
// registry mutex; the per-transaction lists are guarded by their own
// sharded mutexes, never held together with a key shard.
//
// # Caveats
//
//   - Calls for one transaction must not run concurrently with each other
//     (a transaction belongs to one session at a time); calls for different
//     transactions may run concurrently. In particular ReleaseAll must not
//     race with an Acquire of the same transaction.
//   - A TxnID must not be reused while it still holds or waits for locks.
//   - There are no gap or next-key locks: phantoms are not prevented by
//     locking (the documented difference from InnoDB, shared with MyRocks).
//   - The deadlock search gives up after maxDeadlockSteps steps and then
//     reports a deadlock, as InnoDB does for very deep graphs.
package lock

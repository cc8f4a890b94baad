package lock

import "errors"

// Errors returned by Acquire. They are returned unwrapped so that callers can
// map them to MySQL error codes with a plain comparison or errors.Is.
var (
	// ErrDeadlock means waiting would have closed a cycle in the waits-for
	// graph; the requester is the victim (MySQL 1213, ER_LOCK_DEADLOCK).
	ErrDeadlock = errors.New("lock: deadlock found when trying to get lock")
	// ErrLockWaitTimeout means the lock was not granted within the timeout,
	// or at once when the timeout was <= 0 (MySQL 1205,
	// ER_LOCK_WAIT_TIMEOUT).
	ErrLockWaitTimeout = errors.New("lock: lock wait timeout exceeded")
	// ErrTooManyLocks means granting the lock would exceed Options.MaxLocks
	// (MySQL 1206, ER_LOCK_TABLE_FULL).
	ErrTooManyLocks = errors.New("lock: the total number of locks exceeds the lock table size")
	// ErrInvalidMode means Acquire was called with a mode other than Shared
	// or Exclusive; it is a programming error.
	ErrInvalidMode = errors.New("lock: invalid lock mode")
)

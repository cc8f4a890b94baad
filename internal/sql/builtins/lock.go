package builtins

import (
	"context"
	"math"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// User-level locks (GET_LOCK, RELEASE_LOCK, IS_FREE_LOCK, IS_USED_LOCK,
// RELEASE_ALL_LOCKS) with MySQL 8 semantics: names are case-insensitive and
// at most 64 characters; a session may hold a lock several times and must
// release it as many times; locks outlive transactions and go away with the
// session (UserLocks.ReleaseAll); waits that would deadlock fail with
// ER_USER_LOCK_DEADLOCK.

func init() {
	register("get_lock", &Func{MinArgs: 2, MaxArgs: 2, Eval: fnGetLock, Type: typeOf(sqltypes.Int64), Volatile: true})
	register("release_lock", &Func{MinArgs: 1, MaxArgs: 1, Eval: fnReleaseLock, Type: typeOf(sqltypes.Int64), Volatile: true})
	register("is_free_lock", &Func{MinArgs: 1, MaxArgs: 1, Eval: fnIsFreeLock, Type: typeOf(sqltypes.Int64), Volatile: true})
	register("is_used_lock", &Func{MinArgs: 1, MaxArgs: 1, Eval: fnIsUsedLock, Type: typeOf(sqltypes.Uint64), Volatile: true})
	register("release_all_locks", &Func{MinArgs: 0, MaxArgs: 0, Eval: fnReleaseAllLocks, Type: typeOf(sqltypes.Int64), Volatile: true})
}

const (
	maxUserLockName = 64

	erUserLockWrongName = sqlerror.ErrorCode(3057) // ER_USER_LOCK_WRONG_NAME
	erUserLockDeadlock  = sqlerror.ErrorCode(3058) // ER_USER_LOCK_DEADLOCK
)

// userLock is one held lock.
type userLock struct {
	owner uint32
	count int
	freed chan struct{} // closed when the lock is released for good
}

// UserLocks is the lock table of user-level locks of one server (Env
// returns it); its methods are safe for concurrent use by the sessions.
type UserLocks struct {
	mu      sync.Mutex
	locks   map[string]*userLock
	waiting map[uint32]string // session → name of the lock it waits for
}

// NewUserLocks returns an empty lock table.
func NewUserLocks() *UserLocks {
	return &UserLocks{locks: map[string]*userLock{}, waiting: map[uint32]string{}}
}

// lockName validates a lock name and returns its key (lower case).
func lockName(v sqltypes.Value) (string, error) {
	if v.IsNull() {
		return "", sqlerr.New(erUserLockWrongName, sqlerror.SSClientError, "Incorrect user-level lock name 'NULL'.")
	}
	name := v.ToString()
	if name == "" || utf8.RuneCountInString(name) > maxUserLockName {
		return "", sqlerr.New(erUserLockWrongName, sqlerror.SSClientError, "Incorrect user-level lock name '%s'.", name)
	}
	return strings.ToLower(name), nil
}

// acquire takes name for session id, waiting up to timeout (forever when
// negative) or until ctx is done. It returns 1 (acquired), 0 (timed out) or
// -1 (interrupted).
func (ul *UserLocks) acquire(ctx context.Context, name string, id uint32, timeout time.Duration) (int, error) {
	var deadline <-chan time.Time
	for {
		ul.mu.Lock()
		l := ul.locks[name]
		if l == nil {
			ul.locks[name] = &userLock{owner: id, count: 1, freed: make(chan struct{})}
			delete(ul.waiting, id)
			ul.mu.Unlock()
			return 1, nil
		}
		if l.owner == id {
			l.count++
			delete(ul.waiting, id)
			ul.mu.Unlock()
			return 1, nil
		}
		if timeout == 0 {
			delete(ul.waiting, id)
			ul.mu.Unlock()
			return 0, nil
		}
		if ul.wouldDeadlock(l.owner, id) {
			delete(ul.waiting, id)
			ul.mu.Unlock()
			return 0, sqlerr.New(erUserLockDeadlock, sqlerror.SSUnknownSQLState,
				"Deadlock found when trying to get user-level lock; try rolling back transaction/releasing locks and restarting lock acquisition.")
		}
		ul.waiting[id] = name
		freed := l.freed
		ul.mu.Unlock()
		if deadline == nil && timeout > 0 {
			t := time.NewTimer(timeout)
			defer t.Stop()
			deadline = t.C
		}
		select {
		case <-freed:
		case <-deadline:
			ul.stopWaiting(id)
			return 0, nil
		case <-ctx.Done():
			ul.stopWaiting(id)
			return -1, nil
		}
	}
}

func (ul *UserLocks) stopWaiting(id uint32) {
	ul.mu.Lock()
	delete(ul.waiting, id)
	ul.mu.Unlock()
}

// wouldDeadlock follows the waits-for chain from holder and reports whether
// it leads back to id.
func (ul *UserLocks) wouldDeadlock(holder, id uint32) bool {
	for range len(ul.waiting) + 1 {
		if holder == id {
			return true
		}
		name, ok := ul.waiting[holder]
		if !ok {
			return false
		}
		l := ul.locks[name]
		if l == nil {
			return false
		}
		holder = l.owner
	}
	return false
}

// release releases name once: 1 released, 0 held by another session, -1
// not held at all.
func (ul *UserLocks) release(name string, id uint32) int {
	ul.mu.Lock()
	defer ul.mu.Unlock()
	l := ul.locks[name]
	switch {
	case l == nil:
		return -1
	case l.owner != id:
		return 0
	}
	l.count--
	if l.count == 0 {
		delete(ul.locks, name)
		close(l.freed)
	}
	return 1
}

// ReleaseAll releases every lock of session id and returns how many
// acquisitions that undid. The server calls it when the session closes.
func (ul *UserLocks) ReleaseAll(id uint32) int {
	ul.mu.Lock()
	defer ul.mu.Unlock()
	n := 0
	for name, l := range ul.locks {
		if l.owner != id {
			continue
		}
		n += l.count
		delete(ul.locks, name)
		close(l.freed)
	}
	delete(ul.waiting, id)
	return n
}

// owner returns the session holding name; false when it is free.
func (ul *UserLocks) owner(name string) (uint32, bool) {
	ul.mu.Lock()
	defer ul.mu.Unlock()
	if l := ul.locks[name]; l != nil {
		return l.owner, true
	}
	return 0, false
}

// lockTimeout converts GET_LOCK's timeout argument: NULL is 0, negative is
// forever (-1), fractions are honoured.
func lockTimeout(v sqltypes.Value) time.Duration {
	if v.IsNull() {
		return 0
	}
	secs := argFloat(v)
	switch {
	case math.IsNaN(secs):
		return 0
	case secs < 0 || secs > 1e9:
		return -1
	}
	return time.Duration(secs * float64(time.Second))
}

func fnGetLock(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	name, err := lockName(a[0])
	if err != nil {
		return sqltypes.NULL, err
	}
	r, err := env.UserLocks().acquire(env.Context(), name, env.ConnID(), lockTimeout(a[1]))
	if err != nil {
		return sqltypes.NULL, err
	}
	if r < 0 {
		return sqltypes.NULL, nil
	}
	return sqltypes.NewInt64(int64(r)), nil
}

func fnReleaseLock(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	name, err := lockName(a[0])
	if err != nil {
		return sqltypes.NULL, err
	}
	r := env.UserLocks().release(name, env.ConnID())
	if r < 0 {
		return sqltypes.NULL, nil
	}
	return sqltypes.NewInt64(int64(r)), nil
}

func fnIsFreeLock(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	name, err := lockName(a[0])
	if err != nil {
		return sqltypes.NULL, err
	}
	if _, used := env.UserLocks().owner(name); !used {
		return sqltypes.NewInt64(1), nil
	}
	return sqltypes.NewInt64(0), nil
}

func fnIsUsedLock(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	name, err := lockName(a[0])
	if err != nil {
		return sqltypes.NULL, err
	}
	if id, used := env.UserLocks().owner(name); used {
		return sqltypes.NewUint64(uint64(id)), nil
	}
	return sqltypes.NULL, nil
}

func fnReleaseAllLocks(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	return sqltypes.NewInt64(int64(env.UserLocks().ReleaseAll(env.ConnID()))), nil
}

package lock

import (
	"context"
	"time"
)

// waitLocked queues txn's request on e and blocks until it is granted or
// fails. It is called with s.mu held and the entry counted (reserved) unless
// upgrade; it releases s.mu.
func (m *Manager) waitLocked(ctx context.Context, s *shard, e *entry, txn TxnID, mode Mode, upgrade bool, timeout time.Duration) error {
	if timeout <= 0 {
		s.mu.Unlock()
		m.unreserve(upgrade)
		m.timeouts.Add(1)
		return ErrLockWaitTimeout
	}
	if err := ctx.Err(); err != nil {
		s.mu.Unlock()
		m.unreserve(upgrade)
		return err
	}
	w := &waiter{txn: txn, mode: mode, upgrade: upgrade, ch: make(chan struct{}, 1),
		key: append([]byte(nil), e.key...), since: time.Now()}
	pos := len(e.waiters)
	if upgrade {
		pos = e.upgradeInsertPos()
	}
	e.insertWaiter(pos, w)

	m.reg.mu.Lock()
	m.reg.refreshLocked(e, pos) // w and, for an upgrade, those it overtook
	if m.reg.cycleLocked(w) {
		e.removeWaiter(pos)
		m.reg.refreshLocked(e, pos)
		m.reg.mu.Unlock()
		s.mu.Unlock()
		m.unreserve(upgrade)
		m.deadlocks.Add(1)
		return ErrDeadlock
	}
	m.reg.mu.waiting[txn] = w
	m.reg.mu.Unlock()
	s.mu.Unlock()

	m.waiting.Add(1)
	m.waits.Add(1)
	timer := time.NewTimer(timeout)
	var err error
	select {
	case <-w.ch:
	case <-ctx.Done():
		err = ctx.Err()
	case <-timer.C:
		err = ErrLockWaitTimeout
	}
	timer.Stop()
	if err != nil {
		s.mu.Lock()
		if w.granted {
			// Granted while we were giving up: keep the lock.
			err = nil
		} else {
			i := e.waiterIndex(w)
			e.removeWaiter(i)
			m.reg.mu.Lock()
			m.reg.forgetLocked(w)
			m.reg.refreshLocked(e, i)
			m.reg.mu.Unlock()
			// w may have been the non-grantable head hiding grantable
			// waiters behind it.
			m.grantLocked(e)
			s.maybeFreeLocked(e)
		}
		s.mu.Unlock()
	}
	m.waiting.Add(-1)
	if err != nil {
		m.unreserve(upgrade)
		if err == ErrLockWaitTimeout {
			m.timeouts.Add(1)
		}
		return err
	}
	if !upgrade {
		m.track(txn, e)
	}
	return nil
}

// unreserve undoes reserve for a failed request; upgrades reserve nothing.
func (m *Manager) unreserve(upgrade bool) {
	if !upgrade {
		m.entries.Add(-1)
	}
}

// grantLocked grants the waiters at the head of e's queue that are
// grantable, in order, stopping at the first that is not (FIFO; consecutive
// Shared waiters are granted together). Requires the shard mutex. Granting
// does not change the blockers of the remaining waiters: a granted waiter
// conflicts with them as a holder exactly as it did as a waiter ahead.
func (m *Manager) grantLocked(e *entry) {
	n := 0
	for n < len(e.waiters) {
		w := e.waiters[n]
		if !e.grantable(w) {
			break
		}
		if w.upgrade {
			e.holders[0].mode = Exclusive
		} else {
			e.holders = append(e.holders, holder{txn: w.txn, mode: w.mode})
		}
		n++
	}
	if n == 0 {
		return
	}
	m.reg.mu.Lock()
	for _, w := range e.waiters[:n] {
		m.reg.forgetLocked(w)
	}
	m.reg.mu.Unlock()
	for _, w := range e.waiters[:n] {
		w.granted = true
		w.ch <- struct{}{}
	}
	rest := copy(e.waiters, e.waiters[n:])
	clear(e.waiters[rest:])
	e.waiters = e.waiters[:rest]
}

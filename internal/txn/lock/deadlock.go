package lock

import "sync"

// maxDeadlockSteps bounds one deadlock search. A search that visits more
// edges than this reports a deadlock rather than stall every waiter behind
// the registry mutex (InnoDB does the same for deep or costly searches).
const maxDeadlockSteps = 1 << 20

// registry is the waits-for graph: every waiting transaction and the
// transactions it waits for (waiter.blockers). Only waiting transactions have
// outgoing edges. Edges are kept exact: they are recomputed, under the shard
// mutex of the entry concerned, whenever that entry's holders or queue change
// in a way that alters them, so the search never reports a stale cycle.
type registry struct {
	mu struct {
		sync.Mutex
		// waiting maps a waiting transaction to its waiter (a transaction
		// waits for at most one key at a time).
		waiting map[TxnID]*waiter
		// stack is the reusable DFS stack.
		stack []TxnID
		// gen numbers deadlock searches; a waiter whose mark equals gen
		// was visited by the current search.
		gen uint64
	}
}

func (r *registry) init() {
	r.mu.waiting = make(map[TxnID]*waiter)
}

// refreshLocked recomputes the blockers of e.waiters[from:]. Requires the
// entry's shard mutex and r.mu.
func (r *registry) refreshLocked(e *entry, from int) {
	for i := from; i < len(e.waiters); i++ {
		w := e.waiters[i]
		w.blockers = e.appendBlockers(w.blockers[:0], i)
	}
}

// dropBlockerLocked removes txn from the blockers of every waiter on e, after
// txn released its lock on e. Requires the shard mutex and r.mu.
func (r *registry) dropBlockerLocked(e *entry, txn TxnID) {
	for _, w := range e.waiters {
		b := w.blockers[:0]
		for _, t := range w.blockers {
			if t != txn {
				b = append(b, t)
			}
		}
		w.blockers = b
	}
}

// cycleLocked reports whether the waits-for graph, with w's edges included,
// has a path from w.txn back to itself. Requires r.mu.
func (r *registry) cycleLocked(w *waiter) bool {
	r.mu.gen++
	gen := r.mu.gen
	stack := append(r.mu.stack[:0], w.blockers...)
	found := false
	for steps := 0; len(stack) > 0; steps++ {
		if steps > maxDeadlockSteps {
			found = true
			break
		}
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if t == w.txn {
			found = true
			break
		}
		next := r.mu.waiting[t]
		if next == nil || next.mark == gen {
			continue
		}
		next.mark = gen
		stack = append(stack, next.blockers...)
	}
	r.mu.stack = stack[:0]
	return found
}

// forgetLocked removes w from the registry once it stops waiting.
func (r *registry) forgetLocked(w *waiter) {
	if r.mu.waiting[w.txn] == w {
		delete(r.mu.waiting, w.txn)
	}
}

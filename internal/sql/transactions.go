package sql

import (
	"sort"
	"time"

	"github.com/strata-db/strata/internal/sql/vtable"
	"github.com/strata-db/strata/internal/txn/lock"
)

// What information_schema.INNODB_TRX and STRATA_LOCK_WAITS show of other
// sessions' transactions. A session publishes its open transaction's id
// and start (the start of the statement that began it) in two atomics
// when it begins one and clears the id when it ends (no allocation, no
// lock); the waits come from the lock manager's waits-for graph
// (lock.Manager.Waits).

// publishTxn publishes the transaction just begun.
func (s *Session) publishTxn() {
	s.shownTxnStart.Store(s.current.start.UnixNano())
	s.shownTxn.Store(s.tx.ID())
}

// transactions lists the open transactions of the sessions s may see.
func (s *Session) transactions() []vtable.Trx {
	waits := map[uint64]lock.Wait{}
	for _, w := range s.eng.DB.Locks().Waits() {
		waits[uint64(w.Txn)] = w
	}
	now := time.Now()
	var out []vtable.Trx
	for _, o := range s.eng.Sessions() {
		id := o.shownTxn.Load()
		if id == 0 || !s.canSeeThread(o) {
			continue
		}
		t := vtable.Trx{ID: id, Started: time.Unix(0, o.shownTxnStart.Load()), ThreadID: o.ConnID}
		if th := o.thread(now); th.Command == "Query" {
			t.Query = th.Info
		}
		if w, ok := waits[id]; ok {
			t.Waiting, t.WaitStarted, t.WaitMode, t.WaitKey = true, w.Since, w.Mode.String(), w.Key
		}
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// lockWaits lists who waits for whom, one row per blocking transaction,
// for the waiting sessions s may see.
func (s *Session) lockWaits() []vtable.LockWait {
	threads := map[uint64]uint32{}
	visible := map[uint64]bool{}
	for _, o := range s.eng.Sessions() {
		if id := o.shownTxn.Load(); id != 0 {
			threads[id] = o.ConnID
			visible[id] = s.canSeeThread(o)
		}
	}
	var out []vtable.LockWait
	for _, w := range s.eng.DB.Locks().Waits() {
		req := uint64(w.Txn)
		if !visible[req] {
			continue
		}
		for _, b := range w.Blockers {
			out = append(out, vtable.LockWait{
				Requesting: req, RequestingThread: threads[req],
				Blocking: uint64(b), BlockingThread: threads[uint64(b)],
				Mode: w.Mode.String(), Key: w.Key, Since: w.Since,
			})
		}
	}
	return out
}

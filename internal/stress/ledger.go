package stress

import "sync"

// txState is the client-side knowledge of a transaction's outcome.
type txState uint8

const (
	// statePending: the transaction is running.
	statePending txState = iota
	// stateAcked: COMMIT returned OK; the transaction must be present.
	stateAcked
	// stateInDoubt: the connection died during COMMIT; the transaction may
	// or may not be present, but all or nothing.
	stateInDoubt
	// stateAborted: it failed before COMMIT was sent, or an in-doubt
	// transaction was found absent after a restart; it must never appear.
	stateAborted
	// stateRolledBack: ended with ROLLBACK on purpose; must never appear.
	stateRolledBack
	// stateResolved: an in-doubt transaction found present after a
	// restart; from then on it must stay, like an acknowledged one.
	stateResolved
)

func (s txState) String() string {
	switch s {
	case statePending:
		return "pending"
	case stateAcked:
		return "acknowledged"
	case stateInDoubt:
		return "in doubt"
	case stateAborted:
		return "aborted"
	case stateRolledBack:
		return "rolled back"
	case stateResolved:
		return "in doubt, found committed"
	}
	return "unknown"
}

// mustBePresent reports whether a transaction in this state must be visible.
func (s txState) mustBePresent() bool { return s == stateAcked || s == stateResolved }

// mustBeAbsent reports whether a transaction in this state must not be
// visible.
func (s txState) mustBeAbsent() bool { return s == stateAborted || s == stateRolledBack }

// transfer is what one transaction does: move amount from src to dst.
type transfer struct {
	src, dst int32
	amount   int64
}

// txRecord is one transaction in the ledger.
type txRecord struct {
	transfer
	state txState
}

// ledger records every transaction the loaders start, by id (ids are
// 1, 2, 3, … in start order). It is safe for concurrent use.
type ledger struct {
	mu struct {
		sync.Mutex
		recs []txRecord // recs[id-1]
	}
}

// begin allocates the id of a new transaction.
func (l *ledger) begin(t transfer) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.mu.recs = append(l.mu.recs, txRecord{transfer: t, state: statePending})
	return int64(len(l.mu.recs))
}

// finish records the outcome of transaction id.
func (l *ledger) finish(id int64, st txState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.mu.recs[id-1].state = st
}

// get returns the record of id, or false if id was never issued.
func (l *ledger) get(id int64) (txRecord, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if id < 1 || id > int64(len(l.mu.recs)) {
		return txRecord{}, false
	}
	return l.mu.recs[id-1], true
}

// each calls fn for every transaction, under the ledger's lock.
func (l *ledger) each(fn func(id int64, r *txRecord)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := range l.mu.recs {
		fn(int64(i+1), &l.mu.recs[i])
	}
}

// counts returns how many transactions are in each state.
func (l *ledger) counts() map[txState]int64 {
	out := map[txState]int64{}
	l.each(func(_ int64, r *txRecord) { out[r.state]++ })
	return out
}

package txn

import "github.com/strata-db/strata/internal/kv"

// Binlog is the binary log as the commit path sees it (internal/binlog
// implements it). A DB without one (the default) pays nothing for it.
type Binlog interface {
	// NewChanges returns an empty row-change collector for a transaction.
	NewChanges() RowChanges
	// Release gives a finished transaction's collector back.
	Release(RowChanges)
	// Commit adds the transaction's events to b and applies b with apply,
	// in binlog order; the ticket goes to Publish after the WAL fsync.
	Commit(b *kv.Batch, c RowChanges, apply func(*kv.Batch) error) (ticket uint64, err error)
	// Publish writes the committed events into the binlog files.
	Publish(ticket uint64) error
}

// RowChanges is a transaction's row-change collector: its length is a
// mark that statement and savepoint rollbacks truncate back to.
type RowChanges interface {
	Len() int
	Truncate(mark int)
}

// SetBinlog attaches the binary log (before the DB is used).
func (db *DB) SetBinlog(b Binlog) { db.binlog = b }

// Binlog returns the attached binary log, or nil.
func (db *DB) Binlog() Binlog { return db.binlog }

// txnBinlog is a transaction's binary log state, allocated only when the
// log is on and the transaction writes a logged row (or opts out).
type txnBinlog struct {
	changes     RowChanges // nil until the first logged row
	stmtChanges int        // the changes' mark at the statement start
	off         bool       // sql_log_bin=0: nothing is collected
}

func (b *txnBinlog) markStatement() {
	if b.changes != nil {
		b.stmtChanges = b.changes.Len()
	}
}

func (b *txnBinlog) rollbackStatement() { b.truncate(b.stmtChanges) }

func (b *txnBinlog) truncate(mark int) {
	if b.changes != nil {
		b.changes.Truncate(mark)
	}
}

func (b *txnBinlog) release(log Binlog) {
	if b.changes != nil {
		log.Release(b.changes)
		b.changes = nil
	}
}

// DisableBinlog keeps the transaction out of the binary log (a session
// with sql_log_bin=0).
func (t *Txn) DisableBinlog() {
	if t.bl == nil {
		t.bl = &txnBinlog{}
	}
	t.bl.off = true
}

// Changes returns the transaction's row-change collector, creating it on
// first use; nil when the binary log is off.
func (t *Txn) Changes() RowChanges {
	if t.db.binlog == nil || t.done {
		return nil
	}
	if t.bl == nil {
		t.bl = &txnBinlog{}
	}
	if t.bl.changes == nil && !t.bl.off {
		t.bl.changes = t.db.binlog.NewChanges()
		// A collector created mid-statement starts empty: the
		// statement's mark is 0.
		t.bl.stmtChanges = 0
	}
	return t.bl.changes
}

// changesLen is the collector's mark (0 without one).
func (t *Txn) changesLen() int {
	if t.bl == nil || t.bl.changes == nil {
		return 0
	}
	return t.bl.changes.Len()
}

// commitLogged is Commit's apply for a transaction with row changes: the
// binlog adds its record to b and applies it in binlog order.
func (t *Txn) commitLogged(b *kv.Batch) (uint64, error) {
	return t.db.binlog.Commit(b, t.bl.changes, func(b *kv.Batch) error {
		return t.db.kv.CommitVisible(b, t.db.sync)
	})
}

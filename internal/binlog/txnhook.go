package binlog

import (
	"log/slog"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/txn"
)

// TxnHook returns the log as the transaction layer's commit hook
// (txn.DB.SetBinlog).
func (l *Log) TxnHook() txn.Binlog { return txnHook{l} }

type txnHook struct{ l *Log }

func (h txnHook) NewChanges() txn.RowChanges { return h.l.NewChanges() }

func (h txnHook) Release(c txn.RowChanges) {
	if cc, ok := c.(*Changes); ok {
		h.l.Release(cc)
	}
}

func (h txnHook) Commit(b *kv.Batch, c txn.RowChanges, apply func(*kv.Batch) error) (uint64, error) {
	cc, _ := c.(*Changes)
	return h.l.Commit(b, cc, nil, apply)
}

// Publish writes the committed transaction's events to the file. Its
// failure does not fail the commit, which is durable with its record (the
// next start writes the events): it is logged, and later commits are
// refused until a restart.
func (h txnHook) Publish(ticket uint64) error {
	if err := h.l.Publish(ticket); err != nil {
		slog.Error("binary log: writing a committed transaction's events failed; commits are refused until a restart writes them from the store", "err", err)
	}
	return nil
}

// CommitStatement logs a DDL statement as its own transaction (GTID,
// QUERY) in the batch b of the catalog change that makes it take effect:
// the event is added to b and b applied with apply under the commit-order
// lock (Commit), so the statement is in the binlog iff its change
// committed, in commit order; then the event is written to the file
// (Publish, whose failure is logged: the change and its record are
// durable, and later commits are refused until a restart writes it). An
// error means b was not applied, or whether it was is unknown and the log
// refuses later commits.
func (l *Log) CommitStatement(b *kv.Batch, stmt *Statement, apply func(*kv.Batch) error) error {
	tk, err := l.Commit(b, nil, stmt, apply)
	if err != nil {
		return err
	}
	return txnHook{l}.Publish(tk)
}

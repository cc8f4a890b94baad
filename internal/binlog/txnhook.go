package binlog

import (
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

func (h txnHook) Publish(ticket uint64) error { return h.l.Publish(ticket) }

// LogStatement logs a committed DDL statement as its own transaction.
func (l *Log) LogStatement(stmt Statement) error {
	b := l.kv.NewBatch()
	defer b.Close()
	tk, err := l.Commit(b, nil, &stmt, func(b *kv.Batch) error { return b.Commit(true) })
	if err != nil {
		return err
	}
	return l.Publish(tk)
}

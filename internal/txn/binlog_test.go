package txn_test

import (
	"testing"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/txn"
)

// fakeChanges counts collected rows; Len is the mark.
type fakeChanges struct{ rows int }

func (c *fakeChanges) Len() int          { return c.rows }
func (c *fakeChanges) Truncate(mark int) { c.rows = mark }

// fakeBinlog records what the commit path hands it.
type fakeBinlog struct {
	committed []int // rows per logged commit
	published []uint64
	released  int
}

func (f *fakeBinlog) NewChanges() txn.RowChanges { return &fakeChanges{} }
func (f *fakeBinlog) Release(txn.RowChanges)     { f.released++ }
func (f *fakeBinlog) Commit(b *kv.Batch, c txn.RowChanges, apply func(*kv.Batch) error) (uint64, error) {
	f.committed = append(f.committed, c.Len())
	return uint64(len(f.committed)), apply(b)
}
func (f *fakeBinlog) Publish(ticket uint64) error {
	f.published = append(f.published, ticket)
	return nil
}

func addRow(tx *txn.Txn) { tx.Changes().(*fakeChanges).rows++ }

func TestBinlogHook(t *testing.T) {
	db, _ := openMem(t, txn.Options{})
	tx := begin(t, db)
	if tx.Changes() != nil {
		t.Fatal("a DB without a binlog hands out a collector")
	}
	tx.Rollback()

	f := &fakeBinlog{}
	db.SetBinlog(f)
	// Statement and savepoint rollbacks truncate the collector.
	tx = begin(t, db)
	tx.BeginStatement()
	mustSet(t, tx, "a", "1")
	addRow(tx)
	tx.EndStatement()
	tx.Savepoint("s")
	tx.BeginStatement()
	mustSet(t, tx, "b", "1")
	addRow(tx)
	tx.EndStatement()
	if err := tx.RollbackToSavepoint("s"); err != nil {
		t.Fatal(err)
	}
	tx.BeginStatement()
	mustSet(t, tx, "c", "1")
	addRow(tx)
	addRow(tx)
	tx.RollbackStatement()
	mustCommit(t, tx)
	if len(f.committed) != 1 || f.committed[0] != 1 || len(f.published) != 1 || f.published[0] != 1 || f.released != 1 {
		t.Fatalf("commit path: committed %v published %v released %d", f.committed, f.published, f.released)
	}
	// sql_log_bin=0: no collector, the commit goes around the log.
	tx = begin(t, db)
	tx.DisableBinlog()
	if tx.Changes() != nil {
		t.Fatal("DisableBinlog still hands out a collector")
	}
	mustSet(t, tx, "d", "1")
	mustCommit(t, tx)
	// A transaction without logged rows is not logged either.
	tx = begin(t, db)
	mustSet(t, tx, "e", "1")
	mustCommit(t, tx)
	if len(f.committed) != 1 {
		t.Fatalf("unlogged transactions reached the binlog: %v", f.committed)
	}
}

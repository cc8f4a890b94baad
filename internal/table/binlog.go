package table

import (
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/binlog"
	"github.com/strata-db/strata/internal/txn"
)

// changes returns the transaction's binlog collector when the table's
// rows are logged: the binary log is on and the table is not temporary.
func (t *Table) changes(tx *txn.Txn) *binlog.Changes {
	if t.Def.Temporary {
		return nil
	}
	c, _ := tx.Changes().(*binlog.Changes)
	return c
}

// logInsert, logUpdate and logDelete record a row change for the binary
// log (nothing when it is off).
func (t *Table) logInsert(tx *txn.Txn, row []sqltypes.Value) error {
	if c := t.changes(tx); c != nil {
		return c.Insert(t.Def, row)
	}
	return nil
}

func (t *Table) logUpdate(tx *txn.Txn, before, after []sqltypes.Value) error {
	if c := t.changes(tx); c != nil {
		return c.Update(t.Def, before, after)
	}
	return nil
}

func (t *Table) logDelete(tx *txn.Txn, row []sqltypes.Value) error {
	if c := t.changes(tx); c != nil {
		return c.Delete(t.Def, row)
	}
	return nil
}

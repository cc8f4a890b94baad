package sql

import (
	"errors"

	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/encoding"
	"github.com/strata-db/strata/internal/sql/schemachange"
	"github.com/strata-db/strata/internal/table"
)

// The bulk path of LOAD DATA (table.BulkLoader). A load into an empty
// table that is its own transaction (autocommit) writes its rows into
// sorted table files, in bounded memory, and ingests them at the end in
// one atomic step, instead of holding every row in the transaction's write
// buffer (which a load larger than strata_max_txn_bytes outgrows) and
// taking a row lock per row. Duplicate keys among the loaded rows are
// found during the sort's merge: 1062, and nothing is loaded.
//
// A load into a table that has rows takes the same path when it reads a
// server file of at least loadBulkNonEmptyMin bytes (an import, where it
// pays: a smaller load goes row by row, and so does LOCAL, whose size is
// not known before its rows arrive): the loaded keys are also checked
// against the table's (table.BulkLoader.CheckExisting), and the table is
// locked as below for the whole load.
//
// It applies when nothing per row needs the table's other rows or the
// transaction: no REPLACE, IGNORE (which LOCAL implies) only without a
// unique secondary index (a duplicate primary key keeps the first row, as
// IGNORE does, with its warning; a row skipped for a secondary key could
// not be taken back), no triggers,
// no foreign key of the table checked, no explicit transaction, no
// binary log (the bulk path writes no row events). The load
// holds the table's exclusive metadata lock (readers and writers of the
// table wait, as for DDL), so the table stays as it was until the ingest.
// Everything else is as on the ordinary path: conversions, defaults,
// CHECK constraints, generated columns, auto-increment.

// loadBulkMemory bounds the entries a bulk load or an online index build
// buffers before it spills a sorted run to the temporary directory.
const loadBulkMemory = 128 << 20

// loadBulkNonEmptyMin is the smallest server file loaded by the bulk path
// into a table that has rows.
var loadBulkNonEmptyMin int64 = 64 << 20 // a variable for tests

// loadBulk returns a bulk loader for p when the path applies, with the
// release of the metadata lock it took; nil (and no lock) when the load
// goes row by row. size is the file's size (0: LOCAL, not known).
func (s *Session) loadBulk(ex *execCtx, p *loadPlan, size int64) (*table.BulkLoader, func(), error) {
	t := p.t
	if p.replace || p.ignore && hasUniqueSecondary(t) || s.explicit || ex.tx.HasWrites() || len(t.Triggers) > 0 ||
		(len(t.ForeignKeys) > 0 && s.fkChecks()) || s.isTemporary(t) || s.eng.Binlog != nil || s.tl.locked {
		// With the binary log on every row goes through the row path,
		// which logs its image.
		return nil, nil, nil
	}
	for _, r := range s.mdl {
		if r.db == t.DB && r.table == t.Name {
			return nil, nil, nil // in use by this statement already
		}
	}
	if err := s.enterWrite(ex.Context()); err != nil {
		return nil, nil, err
	}
	lk, err := schemachange.LockTable(ex.Context(), s.eng.Cat, s.mdlTimeout, schemachange.TableName{DB: t.DB, Name: t.Name})
	if err != nil {
		return nil, nil, err
	}
	cur := s.eng.Cat.Table(t.DB, t.Name)
	if cur == nil || cur != t || len(cur.Triggers) > 0 {
		lk.Release()
		return nil, nil, nil
	}
	tbl := s.eng.Store.Open(t)
	pk := t.Primary()
	lo := table.IndexPrefix(nil, pk)
	n, err := tbl.CountKeys(ex.tx, lo, encoding.PrefixEnd(append([]byte(nil), lo...)), 1)
	if err != nil || n > 0 && size < loadBulkNonEmptyMin {
		lk.Release()
		return nil, nil, err
	}
	l := tbl.NewBulkLoader(ex.tx, table.BulkOptions{Dir: s.eng.tmpDir(), MemoryBudget: s.eng.bulkMemory()})
	if n > 0 {
		if err := l.CheckExisting(); err != nil {
			_ = l.Close()
			lk.Release()
			return nil, nil, err
		}
	}
	if p.ignore {
		// IGNORE (and LOCAL): the first row of a primary key stays, the
		// others are skipped with INSERT IGNORE's warning.
		l.KeepFirst = func(d *table.DupKeyError) {
			s.warn("Warning", uint16(sqlerror.ERDupEntry), d.Error())
		}
	}
	return l, lk.Release, nil
}

// hasUniqueSecondary reports whether t has a unique secondary index (a
// row skipped for one cannot be taken out of a bulk load).
func hasUniqueSecondary(t *catalog.Table) bool {
	for _, ix := range t.Indexes[1:] {
		if ix.Unique {
			return true
		}
	}
	return false
}

// bulkMemory is the sort memory of a bulk load or an online index build
// (Engine.BulkLoadMemory, default loadBulkMemory).
func (e *Engine) bulkMemory() int {
	if e.BulkLoadMemory > 0 {
		return e.BulkLoadMemory
	}
	return loadBulkMemory
}

// finishBulk ingests a bulk load's rows; a duplicate key is INSERT's 1062.
func finishBulk(l *table.BulkLoader) error {
	err := l.Finish()
	var dup *table.DupKeyError
	if errors.As(err, &dup) {
		return dup.SQLError()
	}
	return err
}

package schemachange

import (
	"context"
	"time"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/txn"
)

// Env is what a schema change uses of the engine.
type Env struct {
	Cat   *catalog.Catalog
	DB    *txn.DB
	Store *table.Store
	// LockTimeout is the back-fill's read transaction's lock wait (it
	// takes no row locks: the table's exclusive metadata lock keeps
	// writers out).
	LockTimeout time.Duration
	// MDLTimeout bounds each wait for a metadata lock (lock_wait_timeout).
	MDLTimeout time.Duration
	// Bound limits each back-fill chunk; zero fields take DefaultBound's.
	Bound Bound
	// TmpDir holds an online index build's sort runs and table files (on
	// the database's filesystem); SortMemory bounds its sort's memory
	// (0: table.BulkOptions' default).
	TmpDir     string
	SortMemory int
	// Stage, when set, is told what an online index build is doing, as
	// PROCESSLIST's state (MySQL's "altering table" stages).
	Stage func(state string)
	// Commit, when set, is the commit hook of the one catalog change that
	// makes the statement take effect (Apply): DROP TABLE's, TRUNCATE's,
	// RENAME's, DROP DATABASE's only change, ALTER's last (the one that
	// publishes the new definition; an online build's first change and
	// the change that undoes a failed build do not use it).
	Commit catalog.CommitHook

	// afterChunk is a test hook run after each committed back-fill chunk;
	// uniqueBudget overrides uniqueMemory.
	afterChunk   func(Progress) error
	uniqueBudget int
	// onlineHook is a test hook an online build calls at its stages.
	onlineHook func(stage string)
}

// AlterPlan is the physical part of one ALTER TABLE, decided by the
// session: the definitions before and after, and how the rows get there.
type AlterPlan struct {
	Old *catalog.Table
	// New is the altered definition, index ids not yet assigned to
	// indexes that need them, under the old name.
	New *catalog.Table
	// Rebuild: every row is copied into new index ids through Convert.
	Rebuild bool
	Convert ConvertFunc
	// Otherwise NewIndexes (of New) are back-filled and DropIndexes (of
	// Old) dropped.
	NewIndexes  []*catalog.Index
	DropIndexes []*catalog.Index
	// RenameTo, when set, is the table's new schema and name (RENAME TO);
	// it must be free, even when it is the old one.
	RenameTo *TableName
	// Validate, when set on an in-place ALTER, checks the existing rows
	// (a CHECK constraint added or enforced) after the back-fill.
	Validate func(ctx context.Context) error
}

// backfillOf returns the back-fill of p and the indexes it fills: every
// index of the new definition when p rebuilds the table, else the new
// ones.
func (e *Env) backfillOf(p *AlterPlan) (*backfill, []*catalog.Index) {
	bf := &backfill{db: e.DB, store: e.Store, old: p.Old, nt: p.New, bound: e.Bound, lockTimeout: e.LockTimeout, afterChunk: e.afterChunk, uniqueBudget: e.uniqueBudget}
	if p.Rebuild {
		bf.convert = p.Convert
		return bf, p.New.Indexes
	}
	bf.idx = p.NewIndexes
	return bf, p.NewIndexes
}

// replaced returns the indexes of p.Old whose data p leaves unused.
func (p *AlterPlan) replaced() []*catalog.Index {
	if p.Rebuild {
		return p.Old.Indexes
	}
	return p.DropIndexes
}

// Alter applies p as one data-dictionary change under the catalog's DDL
// mutex; the caller holds the table's exclusive metadata lock
// (LockTables). New index ids are reserved durably, then back-filled in
// chunks of at most e.Bound, each committed on its own; the change that
// publishes the new definition, drops the replaced data and clears the
// reservation commits last, atomically. On an error or a panic the
// deferred abort deletes the back-filled chunks and releases the mutex:
// the table stays as it was.
func (e *Env) Alter(ctx context.Context, p *AlterPlan) (Progress, error) {
	old, nt := p.Old, p.New
	var progress Progress
	err := Apply(e.Cat, e.Commit, func(d *catalog.DDL) error {
		bf, fill := e.backfillOf(p)
		ids := make([]uint32, len(fill))
		for i, ix := range fill {
			ix.ID = d.NewIndexID()
			ids[i] = ix.ID
		}
		if p.Rebuild || len(fill) > 0 {
			if err := d.ReserveIndexData(ids...); err != nil {
				return err
			}
			err := bf.run(ctx)
			progress = bf.progress
			if err != nil {
				return err
			}
		}
		if !p.Rebuild && p.Validate != nil {
			if err := p.Validate(ctx); err != nil {
				return err
			}
		}
		for _, ix := range p.replaced() {
			if err := d.DropIndexData(ix.ID); err != nil {
				return err
			}
		}
		if r := p.RenameTo; r != nil {
			if e.Cat.Exists(r.DB, r.Name) {
				return sqlerr.New(sqlerr.TableExists, sqlerr.StateTableExists, "Table '%s' already exists", r.Name)
			}
			nt.DB, nt.Name = r.DB, r.Name
		}
		if nt.DB != old.DB || nt.Name != old.Name {
			if err := d.RemoveTableEntry(old.DB, old.Name); err != nil {
				return err
			}
		}
		return d.PutTable(nt)
	})
	if err != nil {
		return progress, err
	}
	e.Store.Forget(old, p.Rebuild)
	return progress, nil
}

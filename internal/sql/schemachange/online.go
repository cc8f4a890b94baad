package schemachange

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/txn"
)

// Online index builds. ALTER TABLE ... ADD INDEX / ADD UNIQUE / CREATE
// INDEX that only adds secondary indexes runs while DML on the table goes
// on, in three steps:
//
//  1. Under the table's exclusive metadata lock (no transaction uses the
//     table): the new indexes get their ids and delta ids, marked pending,
//     and a definition listing them as building is published
//     (catalog/building.go); from then on every write to the table records
//     its changes to their entries (table/building.go).
//  2. The lock is downgraded to shared: DML goes on, other DDL waits. The
//     rows are read at one snapshot and their entries sorted in bounded
//     memory (table.NewIndexBuilder, spilling to TmpDir), written into
//     table files and ingested; two rows with one unique value are 1062.
//  3. The lock is upgraded to exclusive again (waiting for the
//     transactions using the table to end): the deltas are applied over
//     the ingested entries and checked for unique values, and the final
//     definition is published with the pending marks cleared and the
//     deltas dropped.
//
// On an error the definition without the building indexes is put back and
// their data dropped; a crash at any point leaves the marks, so the next
// start drops the data and the building indexes (catalog.Load).

// Online reports whether p can run as an online index build: it only adds
// secondary indexes (no rebuild, dropped index, rename, foreign key or
// constraint check).
func (p *AlterPlan) Online() bool {
	return !p.Rebuild && len(p.NewIndexes) > 0 && len(p.DropIndexes) == 0 && p.RenameTo == nil &&
		p.Validate == nil && len(p.New.ForeignKeys) == len(p.Old.ForeignKeys)
}

// TableLock is the metadata lock a schema change holds on one table.
type TableLock struct {
	cat     *catalog.Catalog
	name    TableName
	timeout time.Duration
	mode    int // 0 none, 1 shared, 2 exclusive
}

// LockTable takes the exclusive metadata lock of one table, as LockTables
// does, and returns it for Release (deferred at once by the caller) or an
// online build's downgrade and upgrade.
func LockTable(ctx context.Context, cat *catalog.Catalog, timeout time.Duration, name TableName) (*TableLock, error) {
	if err := lockIdle(ctx, cat, timeout, name); err != nil {
		return nil, err
	}
	return &TableLock{cat: cat, name: name, timeout: timeout, mode: 2}, nil
}

// Release releases whatever the lock holds.
func (l *TableLock) Release() {
	switch l.mode {
	case 1:
		l.cat.UnlockShared(l.name.DB, l.name.Name)
	case 2:
		l.cat.UnlockExclusive(l.name.DB, l.name.Name)
	}
	l.mode = 0
}

// downgrade turns the exclusive lock into a shared one. In between another
// schema change may run; the build notices (its definition is replaced).
func (l *TableLock) downgrade(ctx context.Context) error {
	l.Release()
	if err := l.cat.LockShared(ctx, l.name.DB, l.name.Name, l.timeout); err != nil {
		return sqlerr.LockWaitTimeout()
	}
	l.mode = 1
	return nil
}

// upgrade turns the shared lock into the exclusive one.
func (l *TableLock) upgrade(ctx context.Context) error {
	l.Release()
	if err := l.cat.LockExclusive(ctx, l.name.DB, l.name.Name, l.timeout); err != nil {
		return sqlerr.LockWaitTimeout()
	}
	l.mode = 2
	return nil
}

// lockIdle takes a table's exclusive metadata lock once no online index
// build runs on it (a build holds only a shared lock while it reads, and
// another schema change must not replace its definition meanwhile): it
// waits for the build as it would for the lock, up to timeout.
func lockIdle(ctx context.Context, cat *catalog.Catalog, timeout time.Duration, name TableName) error {
	deadline := time.Now().Add(timeout)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return sqlerr.LockWaitTimeout()
		}
		if err := cat.LockExclusive(ctx, name.DB, name.Name, left); err != nil {
			return sqlerr.LockWaitTimeout()
		}
		if t := cat.Table(name.DB, name.Name); t == nil || len(t.Building) == 0 {
			return nil
		}
		cat.UnlockExclusive(name.DB, name.Name)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// errDefChanged is MySQL's ER_TABLE_DEF_CHANGED: another schema change
// replaced the table while the index was built.
func errDefChanged() error {
	return sqlerr.New(1412, "HY000", "Table definition has changed, please retry transaction")
}

// AlterOnline runs p (p.Online()) as an online index build; lk is the
// table's exclusive lock, which it downgrades and upgrades, and the caller
// releases.
func (e *Env) AlterOnline(ctx context.Context, p *AlterPlan, lk *TableLock) (Progress, error) {
	var progress Progress
	old := p.Old
	// Step 1: publish the building definition.
	building := make([]*catalog.Index, len(p.NewIndexes))
	var ids []uint32
	var def1 *catalog.Table
	err := Apply(e.Cat, nil, func(d *catalog.DDL) error {
		for i, ix := range p.NewIndexes {
			ix.ID = d.NewIndexID()
			b := *ix
			b.DeltaID = d.NewIndexID()
			building[i] = &b
			ids = append(ids, b.ID, b.DeltaID)
		}
		if err := d.MarkPending(ids...); err != nil {
			return err
		}
		def1 = old.Clone()
		def1.Building = building
		return d.PutTable(def1)
	})
	if err != nil {
		return progress, err
	}
	e.Store.Forget(old, false)
	fail := func(err error) (Progress, error) {
		// Put the table back as it was and drop the build's data. With
		// the exclusive lock (taken again if it can be) no transaction
		// can still write deltas, so the marks go too; without it, a
		// late delta may land after the drop, and the marks make the
		// next start delete it.
		if lk.mode != 2 {
			_ = lk.upgrade(context.WithoutCancel(ctx))
		}
		exclusive := lk.mode == 2
		cerr := Apply(e.Cat, nil, func(d *catalog.DDL) error {
			if cur := e.Cat.Table(old.DB, old.Name); cur == def1 {
				if err := d.PutTable(old.Clone()); err != nil {
					return err
				}
			}
			for _, id := range ids {
				if err := d.DropIndexData(id); err != nil {
					return err
				}
			}
			if exclusive {
				return d.ClearPending(ids...)
			}
			return nil
		})
		e.Store.Forget(def1, false)
		if cerr != nil {
			return progress, errors.Join(err, cerr)
		}
		return progress, err
	}
	// Step 2: the snapshot's entries, sorted and ingested.
	if err := lk.downgrade(ctx); err != nil {
		return fail(err)
	}
	if e.onlineHook != nil {
		e.onlineHook("building")
	}
	e.stage("altering table (read rows)")
	if err := e.buildImage(ctx, def1, &progress); err != nil {
		return fail(err)
	}
	// Step 3: deltas, then the final definition.
	if err := lk.upgrade(ctx); err != nil {
		return fail(err)
	}
	if e.Cat.Table(old.DB, old.Name) != def1 {
		return fail(errDefChanged())
	}
	t1 := e.Store.Open(def1)
	e.stage("altering table (log apply index)")
	for _, ix := range building {
		if err := t1.ApplyBuildDeltas(ctx, ix, e.Bound.orDefault().Bytes); err != nil {
			var dup *table.DupKeyError
			if errors.As(err, &dup) {
				err = dup.SQLError()
			}
			return fail(err)
		}
	}
	err = Apply(e.Cat, e.Commit, func(d *catalog.DDL) error {
		for _, ix := range building {
			// A range tombstone costs every later read of its memtable
			// an iterator: write one only over deltas that exist.
			if found, err := e.hasIndexData(ix.DeltaID); err != nil {
				return err
			} else if found {
				if err := d.DropIndexData(ix.DeltaID); err != nil {
					return err
				}
			}
		}
		if err := d.ClearPending(ids...); err != nil {
			return err
		}
		return d.PutTable(p.New)
	})
	if err != nil {
		return fail(err)
	}
	e.Store.Forget(def1, false)
	return progress, nil
}

// buildImage writes the building indexes' entries for the rows of one
// snapshot, taken now (after the building definition was published, so
// every later change is in the deltas).
func (e *Env) buildImage(ctx context.Context, def *catalog.Table, progress *Progress) error {
	tx := e.DB.Begin(ctx, txn.RepeatableRead, e.LockTimeout)
	defer tx.Rollback()
	t := e.Store.Open(def)
	// The rows are read in parts on goroutines of their own (one per
	// core), each adding its entries to a sort of its own.
	scans, err := t.ScanParts(tx, def.Primary(), runtime.GOMAXPROCS(0), buildPartMin)
	if err != nil {
		return fmt.Errorf("index build %s.%s: %w", def.DB, def.Name, err)
	}
	defer func() {
		for _, sc := range scans {
			_ = sc.Close()
		}
	}()
	var total int64 // the statistics' row count, for a percentage
	if st := e.Cat.Stats(def); st != nil {
		total = st.RowCount()
	}
	b := t.NewIndexBuilder(def.Building, table.BulkOptions{Dir: e.TmpDir, MemoryBudget: e.SortMemory})
	defer b.Close()
	// The parts build keys from the stored rows (decoding only the new
	// indexes' columns where they must).
	parts := b.Parts(len(scans))
	var (
		rows   atomic.Int64
		failed atomic.Bool // a part failed: the others stop
		wg     sync.WaitGroup
	)
	errs := make([]error, len(scans))
	for i, sc := range scans {
		part := parts[i]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 1; ; n++ {
				if n%1024 == 0 && (failed.Load() || ctx.Err() != nil) {
					errs[i] = ctx.Err()
					return
				}
				pk, value, ok, err := sc.NextRaw()
				if err == nil && ok {
					err = part.AddStored(pk, value)
				}
				if err != nil {
					errs[i] = err
					failed.Store(true)
					return
				}
				if !ok {
					return
				}
				if r := rows.Add(1); r%8192 == 0 {
					e.stage(readStage(r, total))
				}
			}
		}()
	}
	wg.Wait()
	progress.Rows += rows.Load()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	e.stage("altering table (merge sort and ingest)")
	if err := b.Finish(); err != nil {
		var dup *table.DupKeyError
		if errors.As(err, &dup) {
			return dup.SQLError()
		}
		return err
	}
	return nil
}

// buildPartMin is the smallest table an index build reads in parallel
// parts (a variable for tests).
var buildPartMin uint64 = 32 << 20

// hasIndexData reports whether index id holds any key.
func (e *Env) hasIndexData(id uint32) (bool, error) {
	it, err := e.DB.KV().NewIter(kv.IterOptions{Lower: binary.BigEndian.AppendUint32(nil, id), Upper: binary.BigEndian.AppendUint32(nil, id+1)})
	if err != nil {
		return false, err
	}
	n, err := it.Count(1)
	return n > 0, err
}

// stage reports an online build's stage (Env.Stage).
func (e *Env) stage(state string) {
	if e.Stage != nil {
		e.Stage(state)
	}
}

// readStage is the state while the rows are read: rows so far, and the
// share of the statistics' row count when there is one.
func readStage(rows, total int64) string {
	if total > 0 {
		return fmt.Sprintf("altering table (read rows: %d, about %.0f%%)", rows, min(100, float64(rows)*100/float64(total)))
	}
	return fmt.Sprintf("altering table (read rows: %d)", rows)
}

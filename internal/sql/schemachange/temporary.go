package schemachange

import (
	"context"

	"github.com/strata-db/strata/internal/catalog"
)

// Temporary tables (CREATE TEMPORARY TABLE) belong to one session: their
// definitions are the session's, never published in the catalog, and
// their index ids are reserved with catalog.Catalog.ReserveTemporary
// (pending marks: Load deletes the data after a crash). No other session
// can name them, so their changes take no metadata lock and no DDL mutex
// (beyond the id allocation), and publish nothing: the caller swaps the
// definition it keeps.

// ReserveTemporaryIDs gives each index of t a new index id reserved for a
// temporary table.
func (e *Env) ReserveTemporaryIDs(t *catalog.Table) error {
	ids, err := e.Cat.ReserveTemporary(len(t.Indexes))
	if err != nil {
		return err
	}
	for i, ix := range t.Indexes {
		ix.ID = ids[i]
	}
	return nil
}

// AlterTemporary applies p to a temporary table: the indexes that need
// data get ids reserved for temporary tables and are back-filled as Alter
// does (p.New's RenameTo is applied; the caller checked the name is free
// among its temporary tables). It returns the ids whose data the caller
// drops (catalog.Catalog.DropTemporaryData) once it has put p.New in place
// of p.Old; on an error the new ids' data is dropped and p.Old stays.
func (e *Env) AlterTemporary(ctx context.Context, p *AlterPlan) (drop []uint32, err error) {
	old, nt := p.Old, p.New
	bf, fill := e.backfillOf(p)
	ids, err := e.Cat.ReserveTemporary(len(fill))
	if err != nil {
		return nil, err
	}
	for i, ix := range fill {
		ix.ID = ids[i]
	}
	defer func() {
		if err != nil {
			_ = e.Cat.DropTemporaryData(ids)
		}
	}()
	if len(fill) > 0 {
		if err := bf.run(ctx); err != nil {
			return nil, err
		}
	}
	if !p.Rebuild && p.Validate != nil {
		if err := p.Validate(ctx); err != nil {
			return nil, err
		}
	}
	for _, ix := range p.replaced() {
		drop = append(drop, ix.ID)
	}
	if r := p.RenameTo; r != nil {
		nt.DB, nt.Name = r.DB, r.Name
	}
	e.Store.Forget(old, p.Rebuild)
	return drop, nil
}

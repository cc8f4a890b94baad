package catalog

import (
	"encoding/json"
	"fmt"
)

// Online index builds. ALTER TABLE ... ADD INDEX builds new secondary
// indexes while DML goes on (sql/schemachange's online build). For the
// duration, the table's definition lists them in Table.Building, not in
// Indexes: readers never see them, and every write to the table records
// what it does to their entries in a delta index of its own
// (Index.DeltaID; table.Table's writes), which the build applies over the
// entries it made from a snapshot. Each building index's two ids are
// marked pending (MarkPending) for as long as the build runs, so a crash
// in the middle leaves no data behind: Load drops the pending ids' data
// and takes the building indexes out of the definition.

// MarkPending marks ids as holding data not yet published, in the
// change's batch: Load deletes the data of marked ids. Unlike
// ReserveIndexData the marks outlive the change, until a later change
// clears them (ClearPending) or drops the data.
func (d *DDL) MarkPending(ids ...uint32) error {
	for _, id := range ids {
		if err := d.b.Set(pendingKey(id), nil); err != nil {
			return err
		}
	}
	return nil
}

// ClearPending removes the pending marks of ids in the change's batch: their
// data becomes the published indexes'.
func (d *DDL) ClearPending(ids ...uint32) error {
	for _, id := range ids {
		if err := d.b.Delete(pendingKey(id)); err != nil {
			return err
		}
	}
	return nil
}

// stripBuilding takes the building indexes out of every loaded table whose
// build a stop interrupted, and writes the definitions back; Load then
// drops their data (pending marks).
func (c *Catalog) stripBuilding() error {
	b := c.db.NewBatch()
	defer func() { _ = b.Close() }()
	n := 0
	for _, m := range c.mu.tables {
		for _, t := range m {
			if len(t.Building) == 0 {
				continue
			}
			t.Building = nil
			v, err := json.Marshal(t)
			if err != nil {
				return fmt.Errorf("encode table: %w", err)
			}
			if err := b.Set(dictKey('T', t.DB, t.Name), v); err != nil {
				return err
			}
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if err := c.db.ApplyBatch(b); err != nil {
		return fmt.Errorf("end interrupted index builds: %w", err)
	}
	return nil
}

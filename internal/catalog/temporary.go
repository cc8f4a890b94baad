package catalog

import (
	"encoding/binary"
	"fmt"
)

// Temporary tables (CREATE TEMPORARY TABLE) live in the session that
// created them: their definition is never published in the dictionary.
// Their rows are ordinary index entries under index ids allocated like any
// other (never reused), so the catalog's part is the ids' lifetime:
//
//   - ReserveTemporary allocates ids and durably marks each one pending
//     (the dictionary's 'P' kind, as DDL.ReserveIndexData does for a
//     back-fill), without publishing anything and without changing the
//     catalog version (plans of other sessions stay valid).
//   - DropTemporaryData deletes the ids' data and marks (DROP TEMPORARY
//     TABLE, the session's end, the old ids of a TRUNCATE or a rebuild).
//   - Should the process stop while a temporary table exists, Load finds
//     the marks and deletes the data: a crash never leaks temporary rows.

// ReserveTemporary allocates n never-reused index ids for a temporary
// table and marks them pending, durably, before any row is written under
// them. It waits for a running DDL change (the id counter is guarded by
// the DDL mutex).
func (c *Catalog) ReserveTemporary(n int) ([]uint32, error) {
	if n <= 0 {
		return nil, nil
	}
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	ids := make([]uint32, n)
	for i := range ids {
		ids[i] = c.nextIndexID
		c.nextIndexID++
	}
	b := c.db.NewBatch()
	defer func() { _ = b.Close() }()
	if err := b.Set(dictKey('N'), binary.BigEndian.AppendUint32(nil, c.nextIndexID)); err != nil {
		return nil, fmt.Errorf("reserve temporary index ids: %w", err)
	}
	for _, id := range ids {
		if err := b.Set(pendingKey(id), nil); err != nil {
			return nil, fmt.Errorf("reserve temporary index ids: %w", err)
		}
	}
	if err := c.db.ApplyBatch(b); err != nil {
		return nil, fmt.Errorf("reserve temporary index ids: %w", err)
	}
	return ids, nil
}

// DropTemporaryData deletes every key under ids, reserved by
// ReserveTemporary, and their pending marks, in one batch (range
// tombstones: instant). Should it fail, the marks stay and Load deletes
// the data at the next start.
func (c *Catalog) DropTemporaryData(ids []uint32) error {
	if err := c.dropPending(ids); err != nil {
		return fmt.Errorf("drop temporary table data: %w", err)
	}
	return nil
}

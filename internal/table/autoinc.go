package table

import (
	"strconv"
	"sync"

	"github.com/strata-db/strata/internal/encoding"
	"github.com/strata-db/strata/internal/table/codec"
	"github.com/strata-db/strata/internal/txn"
)

// autoInc is a table's AUTO_INCREMENT counter and hidden row-id counter.
// Both are initialised from the data on first use (the largest stored value
// + 1), so a restart never hands out a value a committed row already has.
type autoInc struct {
	mu        sync.Mutex
	loaded    bool
	next      uint64
	rowLoaded bool
	nextRowID uint64
}

// NextAutoInc reserves n consecutive auto-increment values and returns the
// first.
func (t *Table) NextAutoInc(tx *txn.Txn, n uint64) (uint64, error) {
	a := t.ai
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := t.loadAutoIncLocked(tx); err != nil {
		return 0, err
	}
	first := a.next
	a.next += n
	return first, nil
}

// ObserveAutoInc moves the counter past an explicitly inserted value.
func (t *Table) ObserveAutoInc(tx *txn.Txn, v uint64) error {
	a := t.ai
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := t.loadAutoIncLocked(tx); err != nil {
		return err
	}
	if v >= a.next && v != ^uint64(0) {
		a.next = v + 1
	}
	return nil
}

// PeekAutoInc returns the next value without reserving it.
func (t *Table) PeekAutoInc(tx *txn.Txn) (uint64, error) {
	a := t.ai
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := t.loadAutoIncLocked(tx); err != nil {
		return 0, err
	}
	return a.next, nil
}

// ResetAutoInc forgets the counter (TRUNCATE, ALTER TABLE AUTO_INCREMENT=).
func (t *Table) ResetAutoInc() {
	a := t.ai
	a.mu.Lock()
	a.loaded, a.rowLoaded = false, false
	a.mu.Unlock()
}

func (t *Table) loadAutoIncLocked(tx *txn.Txn) error {
	a := t.ai
	if a.loaded {
		return nil
	}
	start := t.Def.AutoIncStart
	if start == 0 {
		start = 1
	}
	a.next = start
	col := t.Def.AutoIncCol
	if col < 0 {
		a.loaded = true
		return nil
	}
	max, err := t.maxColumnValue(tx, col)
	if err != nil {
		return err
	}
	if max+1 > a.next {
		a.next = max + 1
	}
	a.loaded = true
	return nil
}

// maxColumnValue finds the largest non-negative integer value of column col,
// through an index that starts with it when there is one.
func (t *Table) maxColumnValue(tx *txn.Txn, col int) (uint64, error) {
	c := &t.Def.Columns[col]
	for _, ix := range t.Def.Indexes {
		if (t.Def.HiddenPK && ix == t.Def.Primary()) || len(ix.Columns) == 0 {
			continue
		}
		ic := ix.Columns[0]
		if ic.Col != col || ic.Prefix != 0 || !codec.KeyDecodable(c) {
			continue
		}
		lo := IndexPrefix(nil, ix)
		hi := encoding.PrefixEnd(append([]byte(nil), lo...))
		it, err := tx.NewIter(txn.IterOptions{Lower: lo, Upper: hi, Reverse: !ic.Desc, Latest: true})
		if err != nil {
			return 0, err
		}
		defer it.Close()
		for ; it.Valid(); it.Next() {
			_, v, err := codec.DecodeKey(it.Key()[4:], c, ic.Desc, nil)
			if err != nil {
				return 0, err
			}
			if v.IsNull() {
				continue
			}
			return parseNonNeg(v.ToString()), nil
		}
		return 0, it.Error()
	}
	// No usable index: scan the table.
	var max uint64
	sc, err := t.NewScan(tx, t.Def.Primary(), nil, nil, false, true)
	if err != nil {
		return 0, err
	}
	defer sc.Close()
	for {
		row, _, ok, err := sc.Next()
		if err != nil {
			return 0, err
		}
		if !ok {
			break
		}
		if v := parseNonNeg(row[col].ToString()); v > max {
			max = v
		}
	}
	return max, nil
}

func parseNonNeg(s string) uint64 {
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		return u
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f > 0 {
		return uint64(f)
	}
	return 0
}

// nextRowID allocates a hidden primary-key row id.
func (t *Table) nextRowID(tx *txn.Txn) (uint64, error) {
	a := t.ai
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.rowLoaded {
		lo := IndexPrefix(nil, t.Def.Primary())
		hi := encoding.PrefixEnd(append([]byte(nil), lo...))
		it, err := tx.NewIter(txn.IterOptions{Lower: lo, Upper: hi, Reverse: true, Latest: true})
		if err != nil {
			return 0, err
		}
		a.nextRowID = 1
		if it.Valid() {
			if _, v, err := encoding.DecodeUint64Asc(it.Key()[4:]); err == nil {
				a.nextRowID = v + 1
			}
		}
		err = it.Close()
		if err != nil {
			return 0, err
		}
		a.rowLoaded = true
	}
	id := a.nextRowID
	a.nextRowID++
	return id, nil
}

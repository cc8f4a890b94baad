package table

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/encoding"
	"github.com/strata-db/strata/internal/table/codec"
	"github.com/strata-db/strata/internal/txn"
	"github.com/strata-db/strata/internal/txn/lock"
)

// encodeBuf is the size of the stack buffer a row write encodes the row
// into: rows up to this size cost no heap allocation (larger ones grow onto
// the heap).
const encodeBuf = 512

// Store opens tables over a transactional store and keeps per-table runtime
// state (auto-increment counters) across schema changes.
type Store struct {
	db *txn.DB

	mu struct {
		sync.Mutex
		tables  map[*catalog.Table]*Table
		autoInc map[uint32]*autoInc    // by primary index id
		mods    map[uint32]*modCounter // by primary index id
	}
}

// NewStore returns a Store over db.
func NewStore(db *txn.DB) *Store {
	s := &Store{db: db}
	s.mu.tables = map[*catalog.Table]*Table{}
	s.mu.autoInc = map[uint32]*autoInc{}
	s.mu.mods = map[uint32]*modCounter{}
	return s
}

// DB returns the transactional store.
func (s *Store) DB() *txn.DB { return s.db }

// Open returns the runtime table for a definition (cached per definition).
func (s *Store) Open(def *catalog.Table) *Table {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.mu.tables[def]; t != nil {
		return t
	}
	pid := def.Primary().ID
	ai := s.mu.autoInc[pid]
	if ai == nil {
		ai = &autoInc{}
		s.mu.autoInc[pid] = ai
	}
	t := &Table{Def: def, store: s, rc: codec.NewRowCodec(def), ai: ai, mods: s.counterLocked(def)}
	t.pkCols = make([]*catalog.Column, 0, len(def.Primary().Columns))
	for _, ic := range def.Primary().Columns {
		t.pkCols = append(t.pkCols, &def.Columns[ic.Col])
	}
	t.tsCols = timestampCols(t)
	s.mu.tables[def] = t
	return t
}

// Forget drops cached state of a dropped or rebuilt table.
func (s *Store) Forget(def *catalog.Table, dropData bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.mu.tables, def)
	if dropData {
		delete(s.mu.autoInc, def.Primary().ID)
		delete(s.mu.mods, def.Primary().ID)
	}
}

// Table is a table definition bound to the store.
type Table struct {
	Def    *catalog.Table
	store  *Store
	rc     *codec.RowCodec
	ai     *autoInc
	mods   *modCounter
	pkCols []*catalog.Column
	tsCols []int // TimestampCols
}

// keyRoom estimates the length of a key of ix (plus extra bytes), so that a
// key is built in one allocation instead of growing part by part: the
// prefix and about 9 bytes per key part (an integer's marker and 8 bytes;
// longer text parts grow the buffer once more).
func keyRoom(ix *catalog.Index, extra int) int {
	return 4 + 9*len(ix.Columns) + extra
}

// IndexPrefix returns the 4-byte key prefix of an index.
func IndexPrefix(dst []byte, ix *catalog.Index) []byte {
	return encoding.EncodeUint32(dst, ix.ID)
}

// AppendIndexKey appends the key parts of ix's columns taken from row
// (a full table row).
func (t *Table) AppendIndexKey(dst []byte, ix *catalog.Index, row []sqltypes.Value) ([]byte, error) {
	var err error
	for _, ic := range ix.Columns {
		dst, err = codec.AppendKey(dst, &t.Def.Columns[ic.Col], row[ic.Col], ic.Prefix, ic.Desc)
		if err != nil {
			return nil, fmt.Errorf("index %s: %w", ix.Name, err)
		}
	}
	return dst, nil
}

// AppendKeyParts appends key parts for the leading len(vals) columns of ix
// (for range bounds).
func (t *Table) AppendKeyParts(dst []byte, ix *catalog.Index, vals []sqltypes.Value) ([]byte, error) {
	var err error
	for i, v := range vals {
		ic := ix.Columns[i]
		dst, err = codec.AppendKey(dst, &t.Def.Columns[ic.Col], v, ic.Prefix, ic.Desc)
		if err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// AppendKeyPart appends the key part of one index column for value v.
func (t *Table) AppendKeyPart(dst []byte, ic catalog.IndexColumn, v sqltypes.Value) ([]byte, error) {
	return codec.AppendKey(dst, &t.Def.Columns[ic.Col], v, ic.Prefix, ic.Desc)
}

// PKKey appends the primary key of row. rowID is used for hidden-PK tables.
func (t *Table) PKKey(dst []byte, row []sqltypes.Value, rowID uint64) ([]byte, error) {
	pk := t.Def.Primary()
	dst = IndexPrefix(slices.Grow(dst, keyRoom(pk, 0)), pk)
	if t.Def.HiddenPK {
		return encoding.EncodeUint64Asc(dst, rowID), nil
	}
	return t.AppendIndexKey(dst, pk, row)
}

// secondaryKey appends the secondary entry key of row: prefix, idx parts,
// pk suffix. It also returns the length of the unique prefix and whether any
// indexed value is NULL.
func (t *Table) secondaryKey(dst []byte, ix *catalog.Index, row []sqltypes.Value, pkKey []byte) ([]byte, int, bool, error) {
	dst = IndexPrefix(slices.Grow(dst, keyRoom(ix, len(pkKey))), ix)
	hasNull := false
	for _, ic := range ix.Columns {
		if row[ic.Col].IsNull() {
			hasNull = true
		}
	}
	dst, err := t.AppendIndexKey(dst, ix, row)
	if err != nil {
		return nil, 0, false, err
	}
	n := len(dst)
	dst = append(dst, pkKey[4:]...)
	return dst, n, hasNull, nil
}

// DecodeRow decodes the row stored under pkKey.
func (t *Table) DecodeRow(dst []sqltypes.Value, pkKey, value []byte) ([]sqltypes.Value, error) {
	return t.rc.DecodeRow(dst, pkKey[4:], value)
}

// Get reads the row with primary key pkKey: at the snapshot, or latest
// (current read) when latest is set — a current read is of a row the
// transaction has locked (LockRow, LockRowFresh), and the transaction
// remembers it until the lock is given back (txn.Txn.GetLocked).
func (t *Table) Get(tx *txn.Txn, pkKey []byte, latest bool, dst []sqltypes.Value) ([]sqltypes.Value, bool, error) {
	var (
		v   []byte
		ok  bool
		err error
	)
	if !latest {
		// Decoded straight from the store's memory (DecodeRow copies
		// every value out of it): no copy of the stored row.
		row := dst
		ok, err = tx.View(pkKey, func(v []byte) error {
			var derr error
			row, derr = t.DecodeRow(dst, pkKey, v)
			return derr
		})
		if err != nil || !ok {
			return dst, false, err
		}
		return row, true, nil
	}
	v, ok, err = tx.GetLocked(pkKey)
	if err != nil || !ok {
		return dst, ok, err
	}
	row, err := t.DecodeRow(dst, pkKey, v)
	return row, err == nil, err
}

// LockRow locks a row by primary key.
func (t *Table) LockRow(tx *txn.Txn, pkKey []byte, exclusive bool) error {
	m := lock.Shared
	if exclusive {
		m = lock.Exclusive
	}
	return tx.Lock(pkKey, m)
}

// LockRowFresh is LockRow that also reports whether the transaction did not
// hold the row's lock before (so UnlockRow may give it back).
func (t *Table) LockRowFresh(tx *txn.Txn, pkKey []byte, exclusive bool) (bool, error) {
	m := lock.Shared
	if exclusive {
		m = lock.Exclusive
	}
	return tx.LockFresh(pkKey, m)
}

// UnlockRow releases a row lock LockRowFresh reported fresh: the locking read
// found that the row does not match its condition.
func (t *Table) UnlockRow(tx *txn.Txn, pkKey []byte) { tx.Unlock(pkKey) }

// Insert writes a new row (all columns set; auto-increment already assigned).
// For a hidden-PK table a row id is allocated. It locks the primary key and
// the unique prefixes, checks them against the latest committed state and the
// transaction's own writes, and fails with 1062 on a duplicate.
// It returns the row's primary key.
func (t *Table) Insert(tx *txn.Txn, row []sqltypes.Value, buf []byte) ([]byte, error) {
	var rowID uint64
	if t.Def.HiddenPK {
		id, err := t.nextRowID(tx)
		if err != nil {
			return nil, err
		}
		rowID = id
	}
	pkKey, err := t.PKKey(buf[:0], row, rowID)
	if err != nil {
		return nil, err
	}
	if !t.Def.HiddenPK {
		if err := tx.Lock(pkKey, lock.Exclusive); err != nil {
			return nil, err
		}
		_, exists, err := tx.GetLatest(pkKey)
		if err != nil {
			return nil, err
		}
		if exists {
			return nil, t.dupError(t.Def.Primary(), row)
		}
	}
	if err := t.checkUniques(tx, row, pkKey, nil, nil); err != nil {
		return nil, err
	}
	// The row is encoded into a stack buffer: tx.Set copies what it keeps.
	var vbuf [encodeBuf]byte
	val, err := t.rc.EncodeRow(vbuf[:0], row)
	if err != nil {
		return nil, err
	}
	pkKey = append([]byte(nil), pkKey...)
	if err := tx.Set(pkKey, val); err != nil {
		return nil, err
	}
	var kb []byte
	for _, ix := range t.Def.Indexes[1:] {
		kb, _, _, err = t.secondaryKey(kb[:0], ix, row, pkKey)
		if err != nil {
			return nil, err
		}
		if err := tx.Set(kb, nil); err != nil {
			return nil, err
		}
	}
	if len(t.Def.Building) > 0 {
		if err := t.recordBuilding(tx, nil, nil, row, pkKey); err != nil {
			return nil, err
		}
	}
	if err := t.logInsert(tx, row); err != nil {
		return nil, err
	}
	t.mods.inserted()
	return pkKey, nil
}

// checkUniques locks and checks every unique secondary index for row. old is
// the row being replaced (nil for inserts): indexes whose key did not change
// are skipped.
func (t *Table) checkUniques(tx *txn.Txn, row []sqltypes.Value, pkKey []byte, old []sqltypes.Value, oldPK []byte) error {
	var kb, ob []byte
	for _, ix := range t.Def.Indexes[1:] {
		if !ix.Unique {
			continue
		}
		var (
			n       int
			hasNull bool
			err     error
		)
		kb, n, hasNull, err = t.secondaryKey(kb[:0], ix, row, pkKey)
		if err != nil {
			return err
		}
		if hasNull {
			continue
		}
		if old != nil {
			ob, err = t.AppendIndexKey(IndexPrefix(ob[:0], ix), ix, old)
			if err != nil {
				return err
			}
			if bytes.Equal(ob, kb[:n]) {
				continue
			}
		}
		prefix := kb[:n]
		if err := tx.Lock(prefix, lock.Exclusive); err != nil {
			return err
		}
		var oldSuffix []byte
		if oldPK != nil {
			oldSuffix = oldPK[4:]
		}
		dup, err := t.prefixExists(tx, prefix, pkKey[4:], oldSuffix)
		if err != nil {
			return err
		}
		if dup {
			return t.dupError(ix, row)
		}
	}
	return nil
}

// prefixExists reports whether any latest entry has the given prefix, other
// than the one whose pk suffix is selfPK.
func (t *Table) prefixExists(tx *txn.Txn, prefix, selfPK, oldPK []byte) (bool, error) {
	it, err := tx.NewIter(txn.IterOptions{Lower: prefix, Upper: encoding.PrefixEnd(append([]byte(nil), prefix...)), Latest: true})
	if err != nil {
		return false, err
	}
	defer it.Close()
	for ; it.Valid(); it.Next() {
		if sfx := it.Key()[len(prefix):]; bytes.Equal(sfx, selfPK) || (oldPK != nil && bytes.Equal(sfx, oldPK)) {
			continue
		}
		return true, nil
	}
	return false, it.Error()
}

// Update replaces oldRow (stored under oldPK) with newRow. The caller holds
// the row lock on oldPK. A changed primary key moves the row (with duplicate
// checks). It returns the new primary key.
func (t *Table) Update(tx *txn.Txn, oldPK []byte, oldRow, newRow []sqltypes.Value) ([]byte, error) {
	newPK := oldPK
	if !t.Def.HiddenPK {
		k, err := t.PKKey(nil, newRow, 0)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(k, oldPK) {
			if err := tx.Lock(k, lock.Exclusive); err != nil {
				return nil, err
			}
			_, exists, err := tx.GetLatest(k)
			if err != nil {
				return nil, err
			}
			if exists {
				return nil, t.dupError(t.Def.Primary(), newRow)
			}
			newPK = k
		}
	}
	pkMoved := !bytes.Equal(newPK, oldPK)
	if pkMoved {
		if err := t.checkUniques(tx, newRow, newPK, nil, oldPK); err != nil {
			return nil, err
		}
	} else if err := t.checkUniques(tx, newRow, newPK, oldRow, nil); err != nil {
		return nil, err
	}
	var vbuf [encodeBuf]byte
	val, err := t.rc.EncodeRow(vbuf[:0], newRow)
	if err != nil {
		return nil, err
	}
	if pkMoved {
		if err := tx.Delete(oldPK); err != nil {
			return nil, err
		}
	}
	if err := tx.Set(newPK, val); err != nil {
		return nil, err
	}
	var ok, nk []byte
	for _, ix := range t.Def.Indexes[1:] {
		ok, _, _, err = t.secondaryKey(ok[:0], ix, oldRow, oldPK)
		if err != nil {
			return nil, err
		}
		nk, _, _, err = t.secondaryKey(nk[:0], ix, newRow, newPK)
		if err != nil {
			return nil, err
		}
		if bytes.Equal(ok, nk) {
			continue
		}
		if err := tx.Delete(ok); err != nil {
			return nil, err
		}
		if err := tx.Set(nk, nil); err != nil {
			return nil, err
		}
	}
	if len(t.Def.Building) > 0 {
		if err := t.recordBuilding(tx, oldRow, oldPK, newRow, newPK); err != nil {
			return nil, err
		}
	}
	if err := t.logUpdate(tx, oldRow, newRow); err != nil {
		return nil, err
	}
	t.mods.updated()
	return newPK, nil
}

// Delete removes row (stored under pkKey) and its index entries. The caller
// holds the row lock.
func (t *Table) Delete(tx *txn.Txn, pkKey []byte, row []sqltypes.Value) error {
	if err := tx.Delete(pkKey); err != nil {
		return err
	}
	var kb []byte
	var err error
	for _, ix := range t.Def.Indexes[1:] {
		kb, _, _, err = t.secondaryKey(kb[:0], ix, row, pkKey)
		if err != nil {
			return err
		}
		if err := tx.Delete(kb); err != nil {
			return err
		}
	}
	if len(t.Def.Building) > 0 {
		if err := t.recordBuilding(tx, row, pkKey, nil, nil); err != nil {
			return err
		}
	}
	if err := t.logDelete(tx, row); err != nil {
		return err
	}
	t.mods.deleted()
	return nil
}

// dupError builds MySQL's 1062 for row on index ix.
func (t *Table) dupError(ix *catalog.Index, row []sqltypes.Value) error {
	return &DupKeyError{Table: t.Def.Name, Index: ix, Entry: dupEntry(ix, row)}
}

// dupEntry is the 'entry' text of a 1062 for row on ix: its key values
// joined by '-'.
func dupEntry(ix *catalog.Index, row []sqltypes.Value) string {
	parts := make([]string, 0, len(ix.Columns))
	for _, ic := range ix.Columns {
		v := row[ic.Col]
		s := v.ToString()
		if v.IsNull() {
			s = "NULL"
		}
		if ic.Prefix > 0 {
			r := []rune(s)
			if len(r) > ic.Prefix {
				s = string(r[:ic.Prefix])
			}
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "-")
}

// DupKeyError is a duplicate-key violation (MySQL 1062).
type DupKeyError struct {
	Table string
	Index *catalog.Index
	Entry string
}

func (e *DupKeyError) Error() string {
	return fmt.Sprintf("Duplicate entry '%s' for key '%s.%s'", e.Entry, e.Table, e.Index.Name)
}

// SQLError converts the error to the MySQL error sent to clients.
func (e *DupKeyError) SQLError() *sqlerror.SQLError {
	return sqlerror.NewSQLError(sqlerror.ERDupEntry, sqlerror.SSConstraintViolation, e.Error())
}

// DecodeSecondaryPK returns the primary key (with the primary index prefix)
// addressed by a secondary entry key.
func (t *Table) DecodeSecondaryPK(dst []byte, ix *catalog.Index, key []byte) ([]byte, error) {
	rest := key[4:]
	var err error
	for _, ic := range ix.Columns {
		rest, err = codec.SkipKey(rest, &t.Def.Columns[ic.Col], ic.Desc)
		if err != nil {
			return nil, fmt.Errorf("index %s: corrupt key: %w", ix.Name, err)
		}
	}
	dst = IndexPrefix(dst, t.Def.Primary())
	return append(dst, rest...), nil
}

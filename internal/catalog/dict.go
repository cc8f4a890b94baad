package catalog

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/strata-db/strata/internal/txn"
)

// Data dictionary layout. Every key starts with the reserved index id
// DictIndexID:
//
//	dict-key   = DictIndexID(4) kind(1) rest
//	kind 'D'   rest = db-name                  -> Database JSON
//	kind 'T'   rest = db-name 0x00 table-name  -> Table JSON
//	kind 'V'   rest = db-name 0x00 view-name   -> View JSON (view.go)
//	kind 'R'   rest = db-name 0x00 type 0x00 lower(name) -> Routine JSON (routine.go)
//	kind 'N'   rest = ""                       -> next index id (uint32 BE)
//	kind 'S'   rest = index-id (uint32 BE)     -> index statistics JSON (stats.go)
//	kind 'P'   rest = index-id (uint32 BE)     -> "" (index data written before its DDL commits)
//
// A 'P' entry marks an index whose entries a chunked back-fill commits
// ahead of the DDL change that publishes the index (DDL.ReserveIndexData):
// Commit removes the mark, Abort removes the mark and the data, and Load
// deletes the data of marks a crash left behind.
//
// Names are stored as written (table and database names are case-sensitive,
// as with lower_case_table_names=0 on Linux).
const (
	// DictIndexID is the reserved index id of the data dictionary.
	DictIndexID uint32 = 1
	// FirstUserIndexID is the first id handed to user indexes.
	FirstUserIndexID uint32 = 256
)

func dictKey(kind byte, parts ...string) []byte {
	k := binary.BigEndian.AppendUint32(nil, DictIndexID)
	k = append(k, kind)
	for i, p := range parts {
		if i > 0 {
			k = append(k, 0)
		}
		k = append(k, p...)
	}
	return k
}

// Catalog is the in-memory image of the data dictionary.
type Catalog struct {
	db *txn.DB

	mu struct {
		sync.RWMutex
		dbs    map[string]*Database
		tables map[string]map[string]*Table
		users  map[string]*User
		views  map[string]map[string]*View
		// routines: by database, then "TYPE:lower(name)" (routine.go).
		routines map[string]map[string]*Routine
	}
	nextIndexID uint32 // guarded by ddlMu
	ddlMu       sync.Mutex
	version     atomic.Uint64
	// stats holds the published statistics snapshots (copy on write
	// under ddlMu; read without locks).
	stats atomic.Pointer[statsMap]
	// statsVersion counts published statistics (plans chosen from them
	// are re-planned when it moves).
	statsVersion atomic.Uint64

	mdl mdlTable
	grl globalLock
}

// Load reads the data dictionary.
func Load(db *txn.DB) (*Catalog, error) {
	c := &Catalog{db: db, nextIndexID: FirstUserIndexID}
	c.mu.dbs = map[string]*Database{}
	c.mu.tables = map[string]map[string]*Table{}
	c.mu.users = map[string]*User{}
	c.mu.views = map[string]map[string]*View{}
	c.mu.routines = map[string]map[string]*Routine{}
	c.mdl.init()
	var statsRecs []*statsRecord
	var pending []uint32
	// A transaction that only reads the latest state: nothing else runs
	// yet.
	tx := db.Begin(context.Background(), txn.ReadCommitted, 0)
	defer tx.Rollback()
	lower := dictKey('D')
	upper := binary.BigEndian.AppendUint32(nil, DictIndexID+1)
	it, err := tx.NewIter(txn.IterOptions{Lower: lower[:4], Upper: upper, Latest: true})
	if err != nil {
		return nil, fmt.Errorf("load dictionary: %w", err)
	}
	defer it.Close()
	for ; it.Valid(); it.Next() {
		k, v := it.Key(), it.Value()
		if len(k) < 5 {
			continue
		}
		switch k[4] {
		case 'D':
			d := &Database{}
			if err := json.Unmarshal(v, d); err != nil {
				return nil, fmt.Errorf("load dictionary: database %q: %w", k[5:], err)
			}
			c.mu.dbs[d.Name] = d
		case 'T':
			t := &Table{}
			if err := json.Unmarshal(v, t); err != nil {
				return nil, fmt.Errorf("load dictionary: table %q: %w", k[5:], err)
			}
			if err := t.restore(); err != nil {
				return nil, fmt.Errorf("load dictionary: table %s.%s: %w", t.DB, t.Name, err)
			}
			m := c.mu.tables[t.DB]
			if m == nil {
				m = map[string]*Table{}
				c.mu.tables[t.DB] = m
			}
			m[t.Name] = t
		case 'V':
			if err := c.loadView(v); err != nil {
				return nil, fmt.Errorf("load dictionary: view %q: %w", k[5:], err)
			}
		case 'R':
			if err := c.loadRoutine(v); err != nil {
				return nil, fmt.Errorf("load dictionary: routine %q: %w", k[5:], err)
			}
		case 'U':
			u := &User{}
			if err := json.Unmarshal(v, u); err != nil {
				return nil, fmt.Errorf("load dictionary: user: %w", err)
			}
			c.mu.users[userKey(u.Name, u.Host)] = u
		case 'S':
			r := &statsRecord{}
			if err := json.Unmarshal(v, r); err != nil {
				return nil, fmt.Errorf("load dictionary: statistics: %w", err)
			}
			statsRecs = append(statsRecs, r)
		case 'N':
			if len(v) == 4 {
				c.nextIndexID = binary.BigEndian.Uint32(v)
			}
		case 'P':
			if len(k) == 9 {
				pending = append(pending, binary.BigEndian.Uint32(k[5:]))
			}
		}
	}
	if err := it.Error(); err != nil {
		return nil, fmt.Errorf("load dictionary: %w", err)
	}
	if err := c.stripBuilding(); err != nil {
		return nil, err
	}
	if err := c.dropPending(pending); err != nil {
		return nil, err
	}
	c.loadStats(statsRecs)
	return c, nil
}

// Version changes after every DDL; plans cached under an older version are
// stale.
func (c *Catalog) Version() uint64 { return c.version.Load() }

// Database returns the named database or nil.
func (c *Catalog) Database(name string) *Database {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.dbs[name]
}

// Databases returns the database names, sorted.
func (c *Catalog) Databases() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]string, 0, len(c.mu.dbs))
	for n := range c.mu.dbs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Table returns the named table or nil.
func (c *Catalog) Table(db, name string) *Table {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.tables[db][name]
}

// Tables returns the tables of a database, sorted by name.
func (c *Catalog) Tables(db string) []*Table {
	c.mu.RLock()
	defer c.mu.RUnlock()
	m := c.mu.tables[db]
	out := make([]*Table, 0, len(m))
	for _, t := range m {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// DDL is one atomic data-dictionary change: its writes (dictionary entries,
// range tombstones, index back-fill) go into one batch applied atomically by
// Commit, and only then is the in-memory catalog updated. Only one DDL runs at
// a time.
type DDL struct {
	c         *Catalog
	b         *txn.Batch
	putDBs    []*Database
	dropDBs   []string
	putTbls   []*Table
	dropTbls  [][2]string
	putViews  []*View
	dropViews [][2]string
	// putRoutines, dropRoutines: routine.go.
	putRoutines  []*Routine
	dropRoutines [][3]string
	putUsers     []*User
	dropUsers    []string
	// dropStats: indexes whose data (and statistics) this change drops.
	dropStats []uint32
	// pending: indexes whose data was committed ahead of the change
	// (ReserveIndexData), marked 'P' in the dictionary.
	pending []uint32
	// hook, when set, applies the batch in Commit (SetCommitHook).
	hook    CommitHook
	idsUsed bool
	done    bool
}

// CommitHook applies a change's batch b in place of Commit's plain apply:
// it may add writes of its own to b — the binary log's event for the
// statement, a replica's applied position — and must apply b by calling
// apply once, so that those writes commit atomically with the change. An
// error it returns before calling apply, or apply's error, leaves the
// change uncommitted; once apply returned nil the change is committed and
// h must return nil.
type CommitHook func(b *txn.Batch, apply func(*txn.Batch) error) error

// SetCommitHook makes Commit apply the change through h (nil: a plain
// apply).
func (d *DDL) SetCommitHook(h CommitHook) { d.hook = h }

// BeginDDL starts a DDL change, waiting for any other DDL to finish.
func (c *Catalog) BeginDDL() *DDL {
	c.ddlMu.Lock()
	return &DDL{c: c, b: c.db.NewBatch()}
}

// Batch returns the change's batch, for index back-fill writes.
func (d *DDL) Batch() *txn.Batch { return d.b }

// NewIndexID allocates a never-reused index id.
func (d *DDL) NewIndexID() uint32 {
	id := d.c.nextIndexID
	d.c.nextIndexID++
	d.idsUsed = true
	return id
}

// PutDatabase creates or replaces a database entry.
func (d *DDL) PutDatabase(db *Database) error {
	v, err := json.Marshal(db)
	if err != nil {
		return fmt.Errorf("encode database: %w", err)
	}
	if err := d.b.Set(dictKey('D', db.Name), v); err != nil {
		return err
	}
	d.putDBs = append(d.putDBs, db)
	return nil
}

// DropDatabase removes a database entry (the caller drops its tables first).
func (d *DDL) DropDatabase(name string) error {
	if err := d.b.Delete(dictKey('D', name)); err != nil {
		return err
	}
	if err := d.dropDatabaseViews(name); err != nil {
		return err
	}
	if err := d.dropDatabaseRoutines(name); err != nil {
		return err
	}
	for i := 0; i < len(d.putDBs); {
		if d.putDBs[i].Name == name {
			d.putDBs = append(d.putDBs[:i], d.putDBs[i+1:]...)
		} else {
			i++
		}
	}
	d.dropDBs = append(d.dropDBs, name)
	return nil
}

// PutTable creates or replaces a table definition.
func (d *DDL) PutTable(t *Table) error {
	v, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("encode table: %w", err)
	}
	if err := d.b.Set(dictKey('T', t.DB, t.Name), v); err != nil {
		return err
	}
	d.putTbls = append(d.putTbls, t)
	return nil
}

// RemoveTableEntry removes a table definition without touching its data
// (RENAME TABLE moves the definition).
func (d *DDL) RemoveTableEntry(db, name string) error {
	if err := d.b.Delete(dictKey('T', db, name)); err != nil {
		return err
	}
	// A definition put earlier in this change is gone too: Commit applies
	// removals before puts.
	for i := 0; i < len(d.putTbls); {
		if t := d.putTbls[i]; t.DB == db && t.Name == name {
			d.putTbls = append(d.putTbls[:i], d.putTbls[i+1:]...)
		} else {
			i++
		}
	}
	d.dropTbls = append(d.dropTbls, [2]string{db, name})
	return nil
}

// DropTable removes a table definition and all its index data (range
// tombstones: instant; space returns through compaction).
func (d *DDL) DropTable(t *Table) error {
	if err := d.RemoveTableEntry(t.DB, t.Name); err != nil {
		return err
	}
	for _, ix := range t.Indexes {
		if err := d.DropIndexData(ix.ID); err != nil {
			return err
		}
	}
	return nil
}

// DropIndexData deletes every key of an index and its statistics.
func (d *DDL) DropIndexData(id uint32) error {
	lo := binary.BigEndian.AppendUint32(nil, id)
	hi := binary.BigEndian.AppendUint32(nil, id+1)
	if err := d.b.DeleteRange(lo, hi); err != nil {
		return err
	}
	d.dropStats = append(d.dropStats, id)
	return d.b.Delete(statsKey(id))
}

// Commit applies the change durably and publishes it.
func (d *DDL) Commit() error {
	if d.done {
		return nil
	}
	d.done = true
	defer d.c.ddlMu.Unlock()
	if d.idsUsed {
		if err := d.b.Set(dictKey('N'), binary.BigEndian.AppendUint32(nil, d.c.nextIndexID)); err != nil {
			d.abortLocked()
			return err
		}
	}
	for _, id := range d.pending {
		if err := d.b.Delete(pendingKey(id)); err != nil {
			d.abortLocked()
			return err
		}
	}
	apply := func(b *txn.Batch) error {
		if err := d.c.db.ApplyBatch(b); err != nil {
			return fmt.Errorf("ddl commit: %w", err)
		}
		return nil
	}
	var err error
	if d.hook != nil {
		err = d.hook(d.b, apply)
	} else {
		err = apply(d.b)
	}
	if err != nil {
		d.dropPendingData()
		_ = d.b.Close()
		return err
	}
	_ = d.b.Close()
	c := d.c
	c.mu.Lock()
	for _, n := range d.dropDBs {
		for _, t := range c.mu.tables[n] {
			t.markReplaced()
		}
		delete(c.mu.dbs, n)
		delete(c.mu.tables, n)
		delete(c.mu.views, n)
		delete(c.mu.routines, n)
	}
	d.applyRoutinesLocked()
	for _, k := range d.dropTbls {
		if t := c.mu.tables[k[0]][k[1]]; t != nil {
			t.markReplaced()
		}
		delete(c.mu.tables[k[0]], k[1])
	}
	for _, k := range d.dropViews {
		delete(c.mu.views[k[0]], k[1])
	}
	for _, v := range d.putViews {
		c.putViewLocked(v)
	}
	for _, db := range d.putDBs {
		c.mu.dbs[db.Name] = db
	}
	for _, k := range d.dropUsers {
		delete(c.mu.users, k)
	}
	for _, u := range d.putUsers {
		c.mu.users[userKey(u.Name, u.Host)] = u
	}
	for _, t := range d.putTbls {
		m := c.mu.tables[t.DB]
		if m == nil {
			m = map[string]*Table{}
			c.mu.tables[t.DB] = m
		}
		if prev := m[t.Name]; prev != nil && prev != t {
			prev.markReplaced()
		}
		m[t.Name] = t
	}
	c.mu.Unlock()
	d.republishStats()
	c.version.Add(1)
	return nil
}

// republishStats drops the statistics of tables whose primary index was
// dropped and binds those of redefined tables to their new definition.
// The caller holds ddlMu.
func (d *DDL) republishStats() {
	m := d.c.stats.Load()
	if m == nil || len(*m) == 0 {
		return
	}
	put := map[uint32]*TableStats{}
	for _, id := range d.dropStats {
		if (*m)[id] != nil {
			put[id] = nil
		}
	}
	for _, t := range d.putTbls {
		id := t.Primary().ID
		if _, dropped := put[id]; !dropped {
			if s := (*m)[id]; s != nil {
				put[id] = s.bind(t)
			}
		}
	}
	if len(put) > 0 {
		d.c.publishStatsLocked(put)
	}
}

// Abort discards the change. Index ids allocated by it are not reused, and
// data written ahead of it under reserved ids (ReserveIndexData) is
// deleted. Abort after Commit does nothing, so a caller may defer it right
// after BeginDDL: an error or a panic then never leaves the DDL mutex held.
func (d *DDL) Abort() {
	if d.done {
		return
	}
	d.done = true
	defer d.c.ddlMu.Unlock()
	d.abortLocked()
}

// abortLocked discards the batch and cleans up after the change; the caller
// holds ddlMu and releases it.
func (d *DDL) abortLocked() {
	_ = d.b.Close()
	d.dropPendingData()
	if d.idsUsed {
		// Persist the counter so the ids are not handed out again after a
		// restart (best effort: Commit of the next DDL persists it too).
		b := d.c.db.NewBatch()
		if err := b.Set(dictKey('N'), binary.BigEndian.AppendUint32(nil, d.c.nextIndexID)); err == nil {
			_ = d.c.db.ApplyBatch(b)
		}
		_ = b.Close()
	}
}

func pendingKey(id uint32) []byte {
	return binary.BigEndian.AppendUint32(dictKey('P'), id)
}

// ReserveIndexData prepares ids, allocated by this change, to receive data
// committed ahead of the change (a back-fill in chunks, each its own
// batch): it durably records the id counter, so the ids are never handed
// out again, and a pending mark per id, so that data is deleted by Abort,
// or by Load should the process stop before the change ends. Commit clears
// the marks.
func (d *DDL) ReserveIndexData(ids ...uint32) error {
	if len(ids) == 0 {
		return nil
	}
	b := d.c.db.NewBatch()
	defer func() { _ = b.Close() }()
	if err := b.Set(dictKey('N'), binary.BigEndian.AppendUint32(nil, d.c.nextIndexID)); err != nil {
		return err
	}
	for _, id := range ids {
		if err := b.Set(pendingKey(id), nil); err != nil {
			return err
		}
	}
	if err := d.c.db.ApplyBatch(b); err != nil {
		return fmt.Errorf("reserve index data: %w", err)
	}
	d.pending = append(d.pending, ids...)
	return nil
}

// dropPendingData deletes the data and marks of the change's reserved ids
// (best effort: Load retries whatever a failure leaves).
func (d *DDL) dropPendingData() {
	if len(d.pending) == 0 {
		return
	}
	_ = d.c.dropPending(d.pending)
	d.pending = nil
}

// dropPending deletes the data of indexes marked pending, and the marks,
// in one batch.
func (c *Catalog) dropPending(ids []uint32) error {
	if len(ids) == 0 {
		return nil
	}
	b := c.db.NewBatch()
	defer func() { _ = b.Close() }()
	for _, id := range ids {
		lo := binary.BigEndian.AppendUint32(nil, id)
		hi := binary.BigEndian.AppendUint32(nil, id+1)
		if err := b.DeleteRange(lo, hi); err != nil {
			return err
		}
		if err := b.Delete(pendingKey(id)); err != nil {
			return err
		}
	}
	if err := c.db.ApplyBatch(b); err != nil {
		return fmt.Errorf("drop pending index data: %w", err)
	}
	return nil
}

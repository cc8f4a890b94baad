package catalog

import (
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/strata-db/strata/internal/txn"
)

func TestLoadEmpty(t *testing.T) {
	s := openStore(t, vfs.NewMem(), "/db")
	c := mustLoad(t, s.db)
	if dbs := c.Databases(); len(dbs) != 0 {
		t.Fatalf("databases in an empty store: %q", dbs)
	}
	if c.Table("a", "b") != nil || c.Database("a") != nil || len(c.Tables("a")) != 0 {
		t.Fatal("lookups in an empty catalog found something")
	}
	d := c.BeginDDL()
	if id := d.NewIndexID(); id != FirstUserIndexID {
		t.Fatalf("first index id = %d, want %d", id, FirstUserIndexID)
	}
	d.Abort()
}

func TestDictionaryPersists(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, nil, dir)
	c := mustLoad(t, s.db)
	v0 := c.Version()

	d := c.BeginDDL()
	db1 := &Database{Name: "shop", Charset: "utf8mb4", Collation: 255}
	db2 := &Database{Name: "Other"}
	for _, db := range []*Database{db1, db2} {
		if err := d.PutDatabase(db); err != nil {
			t.Fatal(err)
		}
	}
	orders := testTable(d, "shop", "orders")
	items := testTable(d, "shop", "items")
	for _, tb := range []*Table{orders, items} {
		if err := d.PutTable(tb); err != nil {
			t.Fatal(err)
		}
	}
	// Nothing is published before Commit.
	if c.Database("shop") != nil || c.Table("shop", "orders") != nil || c.Version() != v0 {
		t.Fatal("DDL visible before commit")
	}
	mustCommitDDL(t, d)
	if c.Version() == v0 {
		t.Fatal("Version unchanged after DDL")
	}
	if c.Table("shop", "orders") != orders || c.Database("Other") != db2 {
		t.Fatal("committed DDL not published")
	}
	// Names are case-sensitive.
	if c.Database("other") != nil || c.Table("shop", "ORDERS") != nil {
		t.Fatal("case-insensitive name lookup")
	}

	d = c.BeginDDL()
	hidden := testTable(d, "Other", "log")
	hidden.HiddenPK = true
	hidden.AutoIncCol = -1
	hidden.Columns[0].AutoIncrement = false
	if err := d.PutTable(hidden); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)
	checkConsistent(t, c)

	var maxID uint32
	for _, tb := range []*Table{orders, items, hidden} {
		for _, ix := range tb.Indexes {
			maxID = max(maxID, ix.ID)
		}
	}
	if maxID != FirstUserIndexID+5 {
		t.Fatalf("six indexes got ids up to %d, want %d", maxID, FirstUserIndexID+5)
	}

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := openStore(t, nil, dir)
	c2 := mustLoad(t, s2.db)
	if got := c2.Databases(); len(got) != 2 || got[0] != "Other" || got[1] != "shop" {
		t.Fatalf("databases after restart: %q", got)
	}
	if *c2.Database("shop") != *db1 || *c2.Database("Other") != *db2 {
		t.Fatalf("database entries after restart: %+v %+v", c2.Database("shop"), c2.Database("Other"))
	}
	sameTable(t, c2.Table("shop", "orders"), orders)
	sameTable(t, c2.Table("shop", "items"), items)
	sameTable(t, c2.Table("Other", "log"), hidden)
	if ts := c2.Tables("shop"); len(ts) != 2 || ts[0].Name != "items" || ts[1].Name != "orders" {
		t.Fatalf("Tables(shop) after restart: %v", ts)
	}
	if got := c2.Table("shop", "orders").Columns[1].Default.ToString(); got != "anon" {
		t.Fatalf("restored default = %q", got)
	}

	// The next index id continues after the highest one ever handed out.
	d = c2.BeginDDL()
	if id := d.NewIndexID(); id <= maxID {
		t.Fatalf("after restart NewIndexID = %d, reusing an id <= %d", id, maxID)
	}
	d.Abort()
}

// TestIndexIDNotReusedAfterAbortAndRestart: DDL.Abort documents "Index ids
// allocated by it are not reused", and index ids are never reused (DESIGN).
//
// Currently FAILS: the counter is persisted only by Commit, so after a
// restart the ids of an aborted DDL are handed out again. Harmless while all
// back-fill writes go through the DDL batch, but wrong as soon as anything
// writes under a new id outside it (ApplyBatch back-fills, ingestion).
func TestIndexIDNotReusedAfterAbortAndRestart(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, nil, dir)
	c := mustLoad(t, s.db)
	d := c.BeginDDL()
	used := d.NewIndexID()
	d.Abort()
	d = c.BeginDDL()
	if id := d.NewIndexID(); id <= used {
		t.Fatalf("in-process: NewIndexID after abort = %d, reuses %d", id, used)
	}
	d.Abort()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := openStore(t, nil, dir)
	d = mustLoad(t, s2.db).BeginDDL()
	defer d.Abort()
	if id := d.NewIndexID(); id <= used+1 {
		t.Fatalf("after restart: NewIndexID = %d, reuses an id handed out by an aborted DDL (<= %d)", id, used+1)
	}
}

func TestDDLAbortLeavesNothing(t *testing.T) {
	s := openStore(t, vfs.NewMem(), "/db")
	c := mustLoad(t, s.db)
	d := c.BeginDDL()
	if err := d.PutDatabase(&Database{Name: "keep"}); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)
	v := c.Version()

	d = c.BeginDDL()
	if err := d.PutDatabase(&Database{Name: "gone"}); err != nil {
		t.Fatal(err)
	}
	tb := testTable(d, "gone", "t")
	if err := d.PutTable(tb); err != nil {
		t.Fatal(err)
	}
	if err := d.DropDatabase("keep"); err != nil {
		t.Fatal(err)
	}
	if err := d.Batch().Set(indexKey(tb.Indexes[1].ID, "backfill"), nil); err != nil {
		t.Fatal(err)
	}
	d.Abort()
	d.Abort()                          // idempotent
	if err := d.Commit(); err != nil { // after Abort: no-op
		t.Fatal(err)
	}
	if c.Version() != v {
		t.Fatal("Version changed by an aborted DDL")
	}
	if c.Database("gone") != nil || c.Table("gone", "t") != nil || c.Database("keep") == nil {
		t.Fatal("aborted DDL published")
	}
	if keys := indexKeys(t, s.kv.Pebble(), tb.Indexes[1].ID); len(keys) != 0 {
		t.Fatalf("aborted DDL wrote index data: %q", keys)
	}
	checkConsistent(t, c)

	// The DDL lock was released: another DDL can run.
	done := make(chan struct{})
	go func() {
		d := c.BeginDDL()
		d.Abort()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("BeginDDL blocked after Abort")
	}
}

func TestBeginDDLSerializes(t *testing.T) {
	s := openStore(t, vfs.NewMem(), "/db")
	c := mustLoad(t, s.db)
	d1 := c.BeginDDL()
	got := make(chan uint32, 1)
	done := make(chan struct{})
	// The store closes when the test returns: the second DDL must have
	// finished with it by then.
	defer func() { <-done }()
	go func() {
		defer close(done)
		d2 := c.BeginDDL()
		got <- d2.NewIndexID()
		d2.Abort()
	}()
	select {
	case <-got:
		t.Fatal("second BeginDDL did not wait for the first DDL")
	case <-time.After(30 * time.Millisecond):
	}
	id1 := d1.NewIndexID()
	mustCommitDDL(t, d1)
	select {
	case id2 := <-got:
		if id2 <= id1 {
			t.Fatalf("second DDL got id %d, first %d", id2, id1)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("second BeginDDL not granted after Commit")
	}
}

// TestDDLPowerLossAtomicity crashes before and after a DDL commit whose
// batch holds dictionary entries and index data: nothing or everything
// survives.
func TestDDLPowerLossAtomicity(t *testing.T) {
	fs := vfs.NewCrashableMem()
	s := openStore(t, fs, "/db")
	c := mustLoad(t, s.db)
	d := c.BeginDDL()
	if err := d.PutDatabase(&Database{Name: "app"}); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)

	d = c.BeginDDL()
	tb := testTable(d, "app", "users")
	if err := d.PutTable(tb); err != nil {
		t.Fatal(err)
	}
	const rows = 100
	for i := 0; i < rows; i++ {
		k := indexKey(tb.Indexes[1].ID, string(rune('a'+i%26))+string(rune('0'+i/26)))
		if err := d.Batch().Set(k, nil); err != nil {
			t.Fatal(err)
		}
	}

	check := func(clone *vfs.MemFS, wantTable bool) {
		t.Helper()
		cs := openStore(t, clone, "/db")
		defer cs.Close()
		cc := mustLoad(t, cs.db)
		if cc.Database("app") == nil {
			t.Fatal("committed database lost")
		}
		n := len(indexKeys(t, cs.kv.Pebble(), tb.Indexes[1].ID))
		if !wantTable {
			if cc.Table("app", "users") != nil || n != 0 {
				t.Fatalf("crash before commit: table=%v, %d index keys", cc.Table("app", "users") != nil, n)
			}
			return
		}
		sameTable(t, cc.Table("app", "users"), tb)
		if n != rows {
			t.Fatalf("crash after commit: %d index keys, want %d", n, rows)
		}
		next := cc.BeginDDL()
		defer next.Abort()
		if id := next.NewIndexID(); id <= tb.Indexes[1].ID {
			t.Fatalf("crash after commit: NewIndexID = %d reuses a committed id", id)
		}
	}
	check(fs.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: 0}), false)
	mustCommitDDL(t, d)
	check(fs.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: 0}), true)
}

func TestDropTableRemovesData(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, nil, dir)
	c := mustLoad(t, s.db)
	d := c.BeginDDL()
	if err := d.PutDatabase(&Database{Name: "d"}); err != nil {
		t.Fatal(err)
	}
	victim := testTable(d, "d", "victim")
	keep := testTable(d, "d", "keep") // its ids follow the victim's
	for _, tb := range []*Table{victim, keep} {
		if err := d.PutTable(tb); err != nil {
			t.Fatal(err)
		}
	}
	mustCommitDDL(t, d)
	for _, tb := range []*Table{victim, keep} {
		for _, ix := range tb.Indexes {
			writeRows(t, s.db, ix.ID, "1", "2", "\xff\xff")
		}
	}
	// Data in the memtable and in sstables must both go.
	if err := s.kv.Pebble().Flush(); err != nil {
		t.Fatal(err)
	}
	writeRows(t, s.db, victim.Indexes[0].ID, "3")

	// A snapshot taken before the drop keeps seeing the rows.
	old := s.db.Begin(t.Context(), txn.RepeatableRead, 0)
	defer old.Rollback()
	if _, ok, err := old.Get(indexKey(victim.Indexes[0].ID, "1")); err != nil || !ok {
		t.Fatalf("pre-drop read: %v %v", ok, err)
	}

	d = c.BeginDDL()
	if err := d.DropTable(victim); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)
	if c.Table("d", "victim") != nil || c.Table("d", "keep") == nil {
		t.Fatal("drop did not update the catalog")
	}
	for _, ix := range victim.Indexes {
		if keys := indexKeys(t, s.kv.Pebble(), ix.ID); len(keys) != 0 {
			t.Fatalf("index %d still has keys after DROP: %q", ix.ID, keys)
		}
	}
	for _, ix := range keep.Indexes {
		if keys := indexKeys(t, s.kv.Pebble(), ix.ID); len(keys) != 3 {
			t.Fatalf("index %d of another table lost keys: %q", ix.ID, keys)
		}
	}
	if _, ok, err := old.Get(indexKey(victim.Indexes[0].ID, "1")); err != nil || !ok {
		t.Fatalf("snapshot read after drop: %v %v (the snapshot predates the drop)", ok, err)
	}
	checkConsistent(t, c)

	old.Rollback()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := openStore(t, nil, dir)
	c2 := mustLoad(t, s2.db)
	if c2.Table("d", "victim") != nil {
		t.Fatal("dropped table back after restart")
	}
	sameTable(t, c2.Table("d", "keep"), keep)
	for _, ix := range victim.Indexes {
		if keys := indexKeys(t, s2.kv.Pebble(), ix.ID); len(keys) != 0 {
			t.Fatalf("after restart index %d has keys: %q", ix.ID, keys)
		}
	}
}

func TestRenameKeepsData(t *testing.T) {
	s := openStore(t, vfs.NewMem(), "/db")
	c := mustLoad(t, s.db)
	d := c.BeginDDL()
	for _, n := range []string{"a", "b"} {
		if err := d.PutDatabase(&Database{Name: n}); err != nil {
			t.Fatal(err)
		}
	}
	tb := testTable(d, "a", "t")
	if err := d.PutTable(tb); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)
	writeRows(t, s.db, tb.Indexes[0].ID, "r1", "r2")

	// RENAME TABLE a.t TO b.u (across databases).
	d = c.BeginDDL()
	nt := tb.Clone()
	nt.DB, nt.Name = "b", "u"
	if err := d.RemoveTableEntry(tb.DB, tb.Name); err != nil {
		t.Fatal(err)
	}
	if err := d.PutTable(nt); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)
	if c.Table("a", "t") != nil || c.Table("b", "u") != nt {
		t.Fatal("rename not published")
	}
	if keys := indexKeys(t, s.kv.Pebble(), tb.Indexes[0].ID); len(keys) != 2 {
		t.Fatalf("rename lost data: %q", keys)
	}
	checkConsistent(t, c)
}

// TestRenameChainsInOneDDL applies multi-pair RENAME TABLE statements the
// way sql.renameTables does, as RemoveTableEntry+PutTable pairs in one DDL:
// a chain (RENAME x TO y, y TO z) and a swap through a temporary name
// (RENAME a TO tmp, b TO a, tmp TO b). The in-memory catalog must match the
// stored dictionary.
//
// Currently FAILS: DDL.Commit applies all removals before all puts, so a
// name that is put and then removed later in the same DDL (y, tmp) stays in
// the in-memory catalog, while the batch, applying operations in order,
// deleted it on disk. The same holds for PutDatabase followed by
// DropDatabase of the same name.
func TestRenameChainsInOneDDL(t *testing.T) {
	s := openStore(t, vfs.NewMem(), "/db")
	c := mustLoad(t, s.db)
	d := c.BeginDDL()
	if err := d.PutDatabase(&Database{Name: "d"}); err != nil {
		t.Fatal(err)
	}
	tx, ta, tb := testTable(d, "d", "x"), testTable(d, "d", "a"), testTable(d, "d", "b")
	for _, tbl := range []*Table{tx, ta, tb} {
		if err := d.PutTable(tbl); err != nil {
			t.Fatal(err)
		}
	}
	mustCommitDDL(t, d)

	rename := func(d *DDL, from *Table, to string) *Table {
		t.Helper()
		nt := from.Clone()
		nt.Name = to
		if err := d.RemoveTableEntry(from.DB, from.Name); err != nil {
			t.Fatal(err)
		}
		if err := d.PutTable(nt); err != nil {
			t.Fatal(err)
		}
		return nt
	}
	d = c.BeginDDL()
	y := rename(d, tx, "y")
	z := rename(d, y, "z")
	tmp := rename(d, ta, "tmp")
	newA := rename(d, tb, "a")
	newB := rename(d, tmp, "b")
	mustCommitDDL(t, d)

	stored := mustLoad(t, s.db)
	if stored.Table("d", "y") != nil || stored.Table("d", "tmp") != nil || stored.Table("d", "x") != nil {
		t.Fatal("stored dictionary holds an intermediate name")
	}
	if stored.Table("d", "z").Indexes[0].ID != z.Indexes[0].ID ||
		stored.Table("d", "a").Indexes[0].ID != newA.Indexes[0].ID ||
		stored.Table("d", "b").Indexes[0].ID != newB.Indexes[0].ID {
		t.Fatal("stored dictionary: renamed tables have the wrong index ids")
	}
	for _, name := range []string{"x", "y", "tmp"} {
		if c.Table("d", name) != nil {
			t.Errorf("in-memory catalog still has d.%s after the rename", name)
		}
	}
	checkConsistent(t, c)
}

func TestDropDatabase(t *testing.T) {
	s := openStore(t, vfs.NewMem(), "/db")
	c := mustLoad(t, s.db)
	d := c.BeginDDL()
	for _, n := range []string{"a", "b"} {
		if err := d.PutDatabase(&Database{Name: n}); err != nil {
			t.Fatal(err)
		}
	}
	ta, tb := testTable(d, "a", "t"), testTable(d, "b", "t")
	for _, tbl := range []*Table{ta, tb} {
		if err := d.PutTable(tbl); err != nil {
			t.Fatal(err)
		}
	}
	mustCommitDDL(t, d)
	writeRows(t, s.db, ta.Indexes[0].ID, "1")

	d = c.BeginDDL()
	if err := d.DropTable(ta); err != nil {
		t.Fatal(err)
	}
	if err := d.DropDatabase("a"); err != nil {
		t.Fatal(err)
	}
	mustCommitDDL(t, d)
	if got := c.Databases(); len(got) != 1 || got[0] != "b" {
		t.Fatalf("databases after drop: %q", got)
	}
	if len(c.Tables("a")) != 0 || c.Table("b", "t") == nil {
		t.Fatal("drop database touched the wrong tables")
	}
	if keys := indexKeys(t, s.kv.Pebble(), ta.Indexes[0].ID); len(keys) != 0 {
		t.Fatalf("dropped table data: %q", keys)
	}
	checkConsistent(t, c)
}

func TestLoadIgnoresNonDictionaryKeys(t *testing.T) {
	// User data under neighbouring ids and junk under the dictionary prefix
	// (short keys, unknown kinds) must not confuse Load.
	s := openStore(t, vfs.NewMem(), "/db")
	p := s.kv.Pebble()
	for _, k := range [][]byte{
		indexKey(0, "zero"), indexKey(DictIndexID, ""), indexKey(DictIndexID, "Xunknown"),
		indexKey(DictIndexID+1, "D\x00not-a-db"), indexKey(FirstUserIndexID, "row"),
	} {
		if err := p.Set(k, []byte("{"), pebble.Sync); err != nil {
			t.Fatal(err)
		}
	}
	c := mustLoad(t, s.db)
	if len(c.Databases()) != 0 {
		t.Fatalf("Load found databases: %q", c.Databases())
	}
}

// A back-fill commits chunks under ids its DDL reserved before the DDL
// commits. If the process stops in between, Load must delete that data
// (and never hand the ids out again); Abort deletes it at once; Commit
// keeps it and clears the marks.
func TestReservedIndexDataAfterStopAbortCommit(t *testing.T) {
	fs := vfs.NewMem()
	s := openStore(t, fs, "/db")
	c := mustLoad(t, s.db)
	writeUnder := func(id uint32) {
		t.Helper()
		b := s.db.NewBatch()
		defer b.Close()
		for _, k := range []string{"a", "b", "c"} {
			if err := b.Set(indexKey(id, k), nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.db.ApplyBatch(b); err != nil {
			t.Fatal(err)
		}
	}
	pending := func(p *pebble.DB) []string {
		t.Helper()
		var out []string
		for _, k := range indexKeys(t, p, DictIndexID) {
			if k[0] == 'P' {
				out = append(out, k)
			}
		}
		return out
	}

	// Stopped mid-back-fill: the DDL never ends.
	d := c.BeginDDL()
	stopped := d.NewIndexID()
	if err := d.ReserveIndexData(stopped); err != nil {
		t.Fatal(err)
	}
	writeUnder(stopped)
	if got := len(indexKeys(t, s.kv.Pebble(), stopped)); got != 3 {
		t.Fatalf("keys written under the reserved id: %d, want 3", got)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, fs, "/db")
	c = mustLoad(t, s.db)
	if got := indexKeys(t, s.kv.Pebble(), stopped); len(got) != 0 {
		t.Fatalf("after restart, data of the stopped back-fill remains: %q", got)
	}
	if got := pending(s.kv.Pebble()); len(got) != 0 {
		t.Fatalf("after restart, pending marks remain: %q", got)
	}

	// Abort deletes the data at once.
	d = c.BeginDDL()
	aborted := d.NewIndexID()
	if aborted <= stopped {
		t.Fatalf("id %d handed out again after restart (reserved %d)", aborted, stopped)
	}
	if err := d.ReserveIndexData(aborted); err != nil {
		t.Fatal(err)
	}
	writeUnder(aborted)
	d.Abort()
	if got := indexKeys(t, s.kv.Pebble(), aborted); len(got) != 0 {
		t.Fatalf("after Abort, data of the back-fill remains: %q", got)
	}

	// Commit keeps the data and clears the marks.
	d = c.BeginDDL()
	kept := d.NewIndexID()
	if err := d.ReserveIndexData(kept); err != nil {
		t.Fatal(err)
	}
	writeUnder(kept)
	mustCommitDDL(t, d)
	d.Abort() // after Commit: nothing
	if got := len(indexKeys(t, s.kv.Pebble(), kept)); got != 3 {
		t.Fatalf("after Commit: %d keys under the back-filled id, want 3", got)
	}
	if got := pending(s.kv.Pebble()); len(got) != 0 {
		t.Fatalf("after Commit, pending marks remain: %q", got)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, fs, "/db")
	mustLoad(t, s.db)
	if got := len(indexKeys(t, s.kv.Pebble(), kept)); got != 3 {
		t.Fatalf("after Commit and restart: %d keys under the back-filled id, want 3", got)
	}
}

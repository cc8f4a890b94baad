package schemachange

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/txn"
)

// openDiskTestEnv is a testEnv on a real directory: an online build sorts
// into files and ingests table files.
func openDiskTestEnv(t testing.TB) *testEnv {
	t.Helper()
	dir := t.TempDir()
	k, err := kv.Open(kv.Options{Dir: filepath.Join(dir, "db"), FS: vfs.Default, MemoryBudget: 256 << 20, Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = k.Close() })
	db := txn.New(k, txn.Options{})
	cat, err := catalog.Load(db)
	if err != nil {
		t.Fatal(err)
	}
	return &testEnv{Env: Env{Cat: cat, DB: db, Store: table.NewStore(db), LockTimeout: time.Second,
		MDLTimeout: time.Second, TmpDir: dir, SortMemory: 1 << 16}, kv: k}
}

// alterOnline runs p as the session does: exclusive lock, AlterOnline,
// release.
func (e *testEnv) alterOnline(p *AlterPlan) (Progress, error) {
	lk, err := LockTable(context.Background(), e.Cat, time.Second, TableName{DB: p.Old.DB, Name: p.Old.Name})
	if err != nil {
		return Progress{}, err
	}
	defer lk.Release()
	return e.AlterOnline(context.Background(), p, lk)
}

// write runs fn in one committed transaction on the table's current
// definition, as DML would.
func (e *testEnv) write(t testing.TB, name string, fn func(tx *txn.Txn, tb *table.Table)) {
	t.Helper()
	tx := e.DB.Begin(context.Background(), txn.RepeatableRead, time.Second)
	fn(tx, e.Store.Open(e.Cat.Table("d", name)))
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// checkIndex compares the entries stored under ix with the entries the
// table's rows call for.
func (e *testEnv) checkIndex(t testing.TB, def *catalog.Table, ix *catalog.Index) {
	t.Helper()
	tb := e.Store.Open(def)
	tx := e.DB.Begin(context.Background(), txn.ReadCommitted, time.Second)
	defer tx.Rollback()
	sc, err := tb.NewScan(tx, def.Primary(), nil, nil, false, true)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for {
		row, pk, ok, err := sc.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		k, _, _, err := tb.SecondaryKey(nil, ix, row, pk)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, string(k))
	}
	sc.Close()
	it, err := tx.NewIter(txn.IterOptions{Lower: binary.BigEndian.AppendUint32(nil, ix.ID), Upper: binary.BigEndian.AppendUint32(nil, ix.ID+1), Latest: true})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var got []string
	for ; it.Valid(); it.Next() {
		got = append(got, string(it.Key()))
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("index %s: %d entries, want %d (the rows')", ix.Name, len(got), len(want))
	}
}

// TestAlterOnlineWithDML: inserts, updates and deletes committed while the
// index is built end up in it exactly; the deltas and marks are gone.
func TestAlterOnlineWithDML(t *testing.T) {
	e := openDiskTestEnv(t)
	old := e.createTable(t, "create table t (id bigint primary key, v bigint)")
	e.insert(t, old, int64Rows(3000, 50)...)
	p := addIndexPlan(old, false)
	e.onlineHook = func(string) {
		// The build holds a shared lock: DML goes on, DDL waits.
		if _, err := LockTables(context.Background(), e.Cat, 50*time.Millisecond, TableName{DB: "d", Name: "t"}); err == nil || !strings.Contains(err.Error(), "1205") {
			t.Errorf("DDL during the build: %v, want 1205", err)
		}
		e.write(t, "t", func(tx *txn.Txn, tb *table.Table) {
			for i := int64(5000); i < 5100; i++ {
				if _, err := tb.Insert(tx, Row{sqltypes.NewInt64(i), sqltypes.NewInt64(i % 7)}, nil); err != nil {
					t.Fatal(err)
				}
			}
			for i := int64(1); i <= 200; i++ {
				pk, _ := tb.PKKey(nil, Row{sqltypes.NewInt64(i)}, 0)
				row, ok, err := tb.Get(tx, pk, true, nil)
				if err != nil || !ok {
					t.Fatalf("row %d: %v %v", i, ok, err)
				}
				row = slices.Clone(row)
				if i%2 == 0 {
					if err := tb.Delete(tx, pk, row); err != nil {
						t.Fatal(err)
					}
					continue
				}
				nr := Row{row[0], sqltypes.NewInt64(1000 + i)}
				if _, err := tb.Update(tx, pk, row, nr); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	progress, err := e.alterOnline(p)
	if err != nil {
		t.Fatal(err)
	}
	if progress.Rows != 3000 {
		t.Errorf("progress %+v: the snapshot had 3000 rows", progress)
	}
	def := e.Cat.Table("d", "t")
	if len(def.Building) != 0 || len(def.Indexes) != 2 {
		t.Fatalf("final definition: %d indexes, %d building", len(def.Indexes), len(def.Building))
	}
	e.checkIndex(t, def, def.Indexes[1])
	if e.rowCount(t, def) != 3000+100-100 {
		t.Fatalf("rows %d", e.rowCount(t, def))
	}
	if n := e.pendingMarks(t); n != 0 {
		t.Errorf("%d pending marks left", n)
	}
	// Later writes maintain the index as usual.
	e.write(t, "t", func(tx *txn.Txn, tb *table.Table) {
		if _, err := tb.Insert(tx, Row{sqltypes.NewInt64(9999), sqltypes.NewInt64(3)}, nil); err != nil {
			t.Fatal(err)
		}
	})
	e.checkIndex(t, def, def.Indexes[1])
}

// TestAlterOnlineUniqueFromDML: a duplicate made by DML during the build
// fails the ALTER with 1062; the table is as before, with no data left.
func TestAlterOnlineUnique(t *testing.T) {
	for _, c := range []struct {
		name string
		dml  bool
	}{{"duplicate in the snapshot", false}, {"duplicate from DML", true}} {
		t.Run(c.name, func(t *testing.T) {
			e := openDiskTestEnv(t)
			old := e.createTable(t, "create table t (id bigint primary key, v bigint)")
			rows := int64Rows(2000, 1<<30) // v unique
			if !c.dml {
				rows[1500][1] = sqltypes.NewInt64(7)
			}
			e.insert(t, old, rows...)
			p := addIndexPlan(old, true)
			e.onlineHook = func(string) {
				if c.dml {
					e.write(t, "t", func(tx *txn.Txn, tb *table.Table) {
						if _, err := tb.Insert(tx, Row{sqltypes.NewInt64(10000), sqltypes.NewInt64(42)}, nil); err != nil {
							t.Fatal(err)
						}
					})
				}
			}
			_, err := e.alterOnline(p)
			var se *sqlerror.SQLError
			if !errors.As(err, &se) || se.Num != sqlerror.ERDupEntry {
				t.Fatalf("err %v, want 1062", err)
			}
			def := e.Cat.Table("d", "t")
			if len(def.Indexes) != 1 || len(def.Building) != 0 {
				t.Fatalf("definition after a failed build: %d indexes, %d building", len(def.Indexes), len(def.Building))
			}
			ix := p.NewIndexes[0]
			if e.keys(t, ix.ID) != 0 || e.pendingMarks(t) != 0 {
				t.Fatalf("data left: %d entries, %d marks", e.keys(t, ix.ID), e.pendingMarks(t))
			}
		})
	}
}

// TestAlterOnlineCrash: a build stopped in the middle (a panic stands for
// the crash) leaves nothing after the next load: the building index is out
// of the definition and its data and deltas are dropped.
func TestAlterOnlineCrash(t *testing.T) {
	e := openDiskTestEnv(t)
	old := e.createTable(t, "create table t (id bigint primary key, v bigint)")
	e.insert(t, old, int64Rows(500, 9)...)
	p := addIndexPlan(old, false)
	e.onlineHook = func(string) {
		e.write(t, "t", func(tx *txn.Txn, tb *table.Table) {
			if _, err := tb.Insert(tx, Row{sqltypes.NewInt64(777), sqltypes.NewInt64(1)}, nil); err != nil {
				t.Fatal(err)
			}
		})
		panic("crash")
	}
	func() {
		defer func() { _ = recover() }()
		_, _ = e.alterOnline(p)
	}()
	building := e.Cat.Table("d", "t").Building
	if len(building) != 1 || e.keys(t, building[0].DeltaID) != 1 {
		t.Fatalf("before the restart: building %v", building)
	}
	cat, err := catalog.Load(e.DB)
	if err != nil {
		t.Fatal(err)
	}
	def := cat.Table("d", "t")
	if len(def.Building) != 0 || len(def.Indexes) != 1 {
		t.Fatalf("after the restart: %d indexes, %d building", len(def.Indexes), len(def.Building))
	}
	if e.keys(t, building[0].DeltaID) != 0 || e.keys(t, building[0].ID) != 0 || e.pendingMarks(t) != 0 {
		t.Fatal("data of the interrupted build left")
	}
}

// bulkInsert loads rows into def's empty table as table files of a few KiB
// each, so the table spans many files of the bottom level.
func (e *testEnv) bulkInsert(t testing.TB, def *catalog.Table, rows ...Row) {
	t.Helper()
	tx := e.DB.Begin(context.Background(), txn.RepeatableRead, time.Second)
	defer tx.Rollback()
	l := e.Store.Open(def).NewBulkLoader(tx, table.BulkOptions{Dir: e.TmpDir, SSTSize: 4 << 10})
	for _, r := range rows {
		if err := l.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Finish(); err != nil {
		t.Fatal(err)
	}
}

// TestAlterOnlineInParts: a table in many files is read in parallel parts
// (one per core, at least two here), each into a sort of its own: the
// index holds exactly the rows' entries (a row the hook inserts included),
// and a duplicate across two parts fails a unique build with 1062.
func TestAlterOnlineInParts(t *testing.T) {
	defer func(m uint64) { buildPartMin = m }(buildPartMin)
	buildPartMin = 0
	for _, unique := range []bool{false, true} {
		e := openDiskTestEnv(t)
		old := e.createTable(t, "create table t (id bigint primary key, v bigint)")
		rows := int64Rows(20000, 1<<30)
		if unique {
			rows[19000][1] = sqltypes.NewInt64(7) // duplicates row 7's v
		} else {
			rows = int64Rows(20000, 13)
		}
		e.bulkInsert(t, old, rows...)
		tb := e.Store.Open(old)
		tx := e.DB.Begin(context.Background(), txn.RepeatableRead, time.Second)
		scans, err := tb.ScanParts(tx, old.Primary(), 2, 0)
		if err != nil || len(scans) != 2 {
			t.Fatalf("%d parts (%v), want 2", len(scans), err)
		}
		for _, sc := range scans {
			sc.Close()
		}
		tx.Rollback()
		p := addIndexPlan(old, unique)
		e.onlineHook = func(string) {
			e.write(t, "t", func(tx *txn.Txn, tb *table.Table) {
				if _, err := tb.Insert(tx, Row{sqltypes.NewInt64(50000), sqltypes.NewInt64(-1)}, nil); err != nil {
					t.Fatal(err)
				}
			})
		}
		progress, err := e.alterOnline(p)
		if unique {
			var se *sqlerror.SQLError
			if !errors.As(err, &se) || se.Num != sqlerror.ERDupEntry || !strings.Contains(err.Error(), "'7'") {
				t.Fatalf("err %v, want 1062 for 7", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if progress.Rows != 20001 {
			t.Errorf("progress %+v: the snapshot had 20001 rows (the hook's insert came before it)", progress)
		}
		def := e.Cat.Table("d", "t")
		e.checkIndex(t, def, def.Indexes[1])
	}
}

// TestAlterOnlineKeysFromStoredRows: an index build makes the keys of
// most column types straight from the stored rows (codec.KeyTranscoder)
// and decodes the rows for the others (here a DECIMAL); both give the
// entries the decoded rows give, NULLs and prefixes included.
func TestAlterOnlineKeysFromStoredRows(t *testing.T) {
	defer func(m uint64) { buildPartMin = m }(buildPartMin)
	buildPartMin = 0
	e := openDiskTestEnv(t)
	old := e.createTable(t, "create table t (id bigint primary key, d datetime(3), s varchar(40), u int unsigned, m decimal(8,2))")
	var rows []Row
	for i := range 5000 {
		r := Row{sqltypes.NewInt64(int64(i + 1)),
			sqltypes.MakeTrusted(sqltypes.Datetime, fmt.Appendf(nil, "2026-%02d-%02d 10:%02d:%02d.%03d", i%12+1, i%28+1, i%60, i/60%60, i%1000)),
			sqltypes.NewVarChar(fmt.Sprintf("Straße-%d/ÄÖ/%d", i%97, i)),
			sqltypes.NewUint32(uint32(i * 7919 % 1000)),
			sqltypes.MakeTrusted(sqltypes.Decimal, fmt.Appendf(nil, "%d.%02d", i%500-250, i%100))}
		if i%11 == 0 {
			r[1] = sqltypes.NULL
		}
		if i%13 == 0 {
			r[2] = sqltypes.NULL
		}
		rows = append(rows, r)
	}
	e.bulkInsert(t, old, rows...)
	nt := old.Clone()
	ixs := []*catalog.Index{
		{Name: "k_d", Columns: []catalog.IndexColumn{{Col: 1}}},
		{Name: "k_usd", Columns: []catalog.IndexColumn{{Col: 3}, {Col: 2, Prefix: 5, Desc: true}, {Col: 1}}},
		{Name: "k_m", Columns: []catalog.IndexColumn{{Col: 4}, {Col: 2}}},
	}
	nt.Indexes = append(nt.Indexes, ixs...)
	if _, err := e.alterOnline(&AlterPlan{Old: old, New: nt, NewIndexes: ixs}); err != nil {
		t.Fatal(err)
	}
	def := e.Cat.Table("d", "t")
	for _, ix := range def.Indexes[1:] {
		e.checkIndex(t, def, ix)
	}
}

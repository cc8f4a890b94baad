package table_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/txn"
)

// openDiskEnv is an env on a real directory: bulk loads sort into files
// and ingest them, which needs the database on the OS filesystem.
func openDiskEnv(t *testing.T) (*env, string) {
	t.Helper()
	dir := t.TempDir()
	k, err := kv.Open(kv.Options{Dir: filepath.Join(dir, "db"), FS: vfs.Default, MemoryBudget: 256 << 20, Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	db := txn.New(k, txn.Options{})
	cat, err := catalog.Load(db)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{fs: vfs.Default, kv: k, db: db, cat: cat, store: table.NewStore(db)}
	t.Cleanup(func() { e.close() })
	return e, dir
}

// createBulkTable: id INT primary key, a INT, b VARCHAR(10) (case-
// insensitive) NULL with a unique index, c INT with a descending index.
func (e *env) createBulkTable(t *testing.T, name string) *catalog.Table {
	t.Helper()
	d := e.cat.BeginDDL()
	if e.cat.Database("db") == nil {
		if err := d.PutDatabase(&catalog.Database{Name: "db"}); err != nil {
			t.Fatal(err)
		}
	}
	bin := collations.ID(collations.CollationBinaryID)
	def := &catalog.Table{
		DB: "db", Name: name, AutoIncCol: -1,
		Columns: []catalog.Column{
			{Name: "id", Type: sqltypes.Int32, TypeName: "int", Collation: bin},
			{Name: "a", Type: sqltypes.Int32, TypeName: "int", Collation: bin},
			{Name: "b", Type: sqltypes.VarChar, TypeName: "varchar", Length: 10, Collation: ci, Nullable: true},
			{Name: "c", Type: sqltypes.Int32, TypeName: "int", Collation: bin},
		},
	}
	// The secondary indexes get smaller ids than the primary key, so the
	// loader must cut its files where the key order restarts.
	uk := &catalog.Index{ID: d.NewIndexID(), Name: "uk_b", Unique: true, Columns: []catalog.IndexColumn{{Col: 2}}}
	kc := &catalog.Index{ID: d.NewIndexID(), Name: "k_c", Columns: []catalog.IndexColumn{{Col: 3, Desc: true}}}
	pk := &catalog.Index{ID: d.NewIndexID(), Name: "PRIMARY", Primary: true, Unique: true, Columns: []catalog.IndexColumn{{Col: 0}}}
	def.Indexes = []*catalog.Index{pk, uk, kc}
	if err := d.PutTable(def); err != nil {
		t.Fatal(err)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	return e.cat.Table("db", name)
}

// bulkRow: b is unique text (NULL for every seventh row), c repeats.
func bulkRow(i int) []sqltypes.Value {
	b := sqltypes.NewVarChar(fmt.Sprintf("v%07d", i))
	if i%7 == 0 {
		b = sqltypes.NULL
	}
	return []sqltypes.Value{intv(i), intv(i % 10), b, intv(i % 100)}
}

func countIndex(t *testing.T, e *env, tb *table.Table, ix *catalog.Index) int {
	t.Helper()
	tx := e.db.Begin(context.Background(), txn.RepeatableRead, time.Second)
	defer tx.Rollback()
	s, err := tb.NewScan(tx, ix, nil, nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n := 0
	for {
		row, _, ok, err := s.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return n
		}
		if len(row) != 4 {
			t.Fatalf("row %v", row)
		}
		n++
	}
}

// TestBulkLoad loads more rows than the loader's memory budget holds, in
// shuffled order, into several table files, and reads them back through
// every index; later INSERTs see the loaded unique values.
func TestBulkLoad(t *testing.T) {
	e, dir := openDiskEnv(t)
	def := e.createBulkTable(t, "t")
	tb := e.store.Open(def)
	const n = 30000
	tx := e.db.Begin(context.Background(), txn.RepeatableRead, time.Second)
	l := tb.NewBulkLoader(tx, table.BulkOptions{Dir: dir, MemoryBudget: 1 << 16, SSTSize: 64 << 10})
	for j := range n {
		i := (j * 7919) % n // a permutation of 0..n-1
		if err := l.Add(bulkRow(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Finish(); err != nil {
		t.Fatal(err)
	}
	tx.Rollback() // the load does not depend on the transaction
	for _, ix := range def.Indexes {
		if got := countIndex(t, e, tb, ix); got != n {
			t.Errorf("index %s: %d entries, want %d", ix.Name, got, n)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "strata-sort-*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
	tx = e.db.Begin(context.Background(), txn.RepeatableRead, time.Second)
	defer tx.Rollback()
	var dup *table.DupKeyError
	if _, err := tb.Insert(tx, []sqltypes.Value{intv(n), intv(0), sqltypes.NewVarChar("V0000001"), intv(0)}, nil); !errors.As(err, &dup) || dup.Index.Name != "uk_b" {
		t.Fatalf("insert of a loaded unique value: %v", err)
	}
	if _, err := tb.Insert(tx, bulkRow(5), nil); !errors.As(err, &dup) || dup.Index.Name != "PRIMARY" {
		t.Fatalf("insert of a loaded primary key: %v", err)
	}
	if _, err := tb.Insert(tx, bulkRow(n), nil); err != nil {
		t.Fatalf("insert after load: %v", err)
	}
}

// TestBulkLoadDuplicates: a duplicate primary key or unique value fails the
// load with MySQL's 1062 text and ingests nothing; NULLs are not
// duplicates.
func TestBulkLoadDuplicates(t *testing.T) {
	e, dir := openDiskEnv(t)
	def := e.createBulkTable(t, "t")
	tb := e.store.Open(def)
	for _, c := range []struct {
		name string
		rows [][]sqltypes.Value
		want string
	}{
		{"primary", [][]sqltypes.Value{bulkRow(1), bulkRow(2), bulkRow(1)}, "Duplicate entry '1' for key 't.PRIMARY'"},
		{"unique, case-insensitive", [][]sqltypes.Value{
			{intv(1), intv(0), sqltypes.NewVarChar("abc"), intv(0)},
			{intv(2), intv(0), sqltypes.NewVarChar("ABC"), intv(0)},
		}, "Duplicate entry 'ABC' for key 't.uk_b'"},
	} {
		tx := e.db.Begin(context.Background(), txn.RepeatableRead, time.Second)
		l := tb.NewBulkLoader(tx, table.BulkOptions{Dir: dir})
		for _, r := range c.rows {
			if err := l.Add(r); err != nil {
				t.Fatal(err)
			}
		}
		err := l.Finish()
		tx.Rollback()
		var dup *table.DupKeyError
		if !errors.As(err, &dup) || err.Error() != c.want {
			// Which of two equal unique values is named depends on their
			// primary keys' order; both rows above keep it stable.
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
		for _, ix := range def.Indexes {
			if got := countIndex(t, e, tb, ix); got != 0 {
				t.Errorf("%s: index %s has %d entries after a failed load", c.name, ix.Name, got)
			}
		}
	}
	tx := e.db.Begin(context.Background(), txn.RepeatableRead, time.Second)
	l := tb.NewBulkLoader(tx, table.BulkOptions{Dir: dir})
	for _, i := range []int{7, 14, 21} { // b NULL
		if err := l.Add(bulkRow(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Finish(); err != nil {
		t.Fatalf("NULL unique values: %v", err)
	}
	tx.Rollback()
	if got := countIndex(t, e, tb, def.Indexes[1]); got != 3 {
		t.Errorf("uk_b: %d entries, want 3", got)
	}
}

// TestBulkLoadKeepFirst: with KeepFirst a duplicate primary key keeps the
// row added first, drops the others' secondary entries, and reports each.
func TestBulkLoadKeepFirst(t *testing.T) {
	e, dir := openDiskEnv(t)
	def := e.createTable(t, "t") // id, a, b, c; k_ab (a, b), k_c (c DESC)
	tb := e.store.Open(def)
	tx := e.db.Begin(context.Background(), txn.RepeatableRead, time.Second)
	l := tb.NewBulkLoader(tx, table.BulkOptions{Dir: dir, MemoryBudget: 1 << 16})
	var dups []string
	l.KeepFirst = func(d *table.DupKeyError) { dups = append(dups, d.Entry) }
	rows := [][]sqltypes.Value{
		{intv(1), intv(10), sqltypes.NewVarChar("x"), intv(1)},
		{intv(2), intv(20), sqltypes.NewVarChar("y"), intv(2)},
		{intv(1), intv(11), sqltypes.NewVarChar("z"), intv(3)}, // other values: skipped
		{intv(2), intv(20), sqltypes.NewVarChar("y"), intv(2)}, // identical: skipped
		{intv(3), intv(30), sqltypes.NewVarChar("w"), sqltypes.NULL},
	}
	for i := 0; i < 5000; i++ { // enough to spill
		rows = append(rows, []sqltypes.Value{intv(100 + i), intv(i % 7), sqltypes.NewVarChar("v"), intv(i)})
	}
	for _, r := range rows {
		if err := l.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Finish(); err != nil {
		t.Fatal(err)
	}
	tx.Rollback()
	if l.Skipped() != 2 || fmt.Sprint(dups) != "[1 2]" {
		t.Fatalf("skipped %d, reported %v", l.Skipped(), dups)
	}
	for _, ix := range def.Indexes {
		if got := countIndex(t, e, tb, ix); got != 5003 {
			t.Errorf("index %s: %d entries, want 5003", ix.Name, got)
		}
	}
	// The kept row 1 is the first one.
	tx = e.db.Begin(context.Background(), txn.RepeatableRead, time.Second)
	defer tx.Rollback()
	pk, _ := tb.PKKey(nil, []sqltypes.Value{intv(1)}, 0)
	row, ok, err := tb.Get(tx, pk, false, nil)
	if err != nil || !ok || row[1].ToString() != "10" {
		t.Fatalf("row 1: %v %v %v", row, ok, err)
	}
}

// TestBulkLoadSortedThenNot: rows in key order go to table files directly
// (several files, several hand-offs to the writing goroutine); a row out of
// order then moves them into the sort, so a duplicate of a row written
// directly is still found — an error without KeepFirst (nothing loaded),
// the directly written row kept with it; an adjacent duplicate is found on
// the direct path.
func TestBulkLoadSortedThenNot(t *testing.T) {
	const n = 60000
	for _, c := range []struct {
		name      string
		keepFirst bool
		tail      []int // rows added after 0..n-1
		want      string
		skipped   int64
	}{
		{"sorted", false, nil, "", 0},
		{"sorted, adjacent duplicate", false, []int{n - 1}, "Duplicate entry '59999' for key 't.PRIMARY'", 0},
		{"sorted, adjacent duplicate kept first", true, []int{n - 1, n - 1}, "", 2},
		{"then unsorted", false, []int{n + 5, n + 2, n + 9}, "", 0},
		{"then unsorted, duplicate", false, []int{n + 5, 17}, "Duplicate entry '17' for key 't.PRIMARY'", 0},
		{"then unsorted, duplicate kept first", true, []int{n + 5, 17, n + 1, 40000}, "", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, dir := openDiskEnv(t)
			def := e.createBulkTable(t, "t")
			tb := e.store.Open(def)
			tx := e.db.Begin(context.Background(), txn.RepeatableRead, time.Second)
			defer tx.Rollback()
			l := tb.NewBulkLoader(tx, table.BulkOptions{Dir: dir, MemoryBudget: 1 << 16, SSTSize: 64 << 10})
			var kept []string
			if c.keepFirst {
				l.KeepFirst = func(d *table.DupKeyError) { kept = append(kept, d.Entry) }
			}
			var err error
			var scratch table.EncodeScratch
			var enc []byte
			add := func(i, a int) {
				r := bulkRow(i)
				r[1] = intv(a) // tells the copies of a row apart
				if err != nil {
					return
				}
				if i%3 == 0 {
					err = l.Add(r)
					return
				}
				// The others encoded apart, as a parallel load adds them.
				if enc, err = l.Encode(enc[:0], r, &scratch); err == nil {
					err = l.AddEncoded(enc)
				}
			}
			for i := range n {
				add(i, 1)
			}
			for _, i := range c.tail {
				add(i, 2)
			}
			if err == nil {
				err = l.Finish()
			} else {
				_ = l.Close()
			}
			if c.want != "" {
				if err == nil || err.Error() != c.want {
					t.Fatalf("got %v, want %s", err, c.want)
				}
				if got := countIndex(t, e, tb, def.Indexes[0]); got != 0 {
					t.Fatalf("%d rows after a failed load", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if l.Skipped() != c.skipped || int64(len(kept)) != c.skipped {
				t.Fatalf("skipped %d, reported %v", l.Skipped(), kept)
			}
			want := n + len(c.tail) - int(c.skipped)
			for _, ix := range def.Indexes {
				if got := countIndex(t, e, tb, ix); got != want {
					t.Errorf("index %s: %d entries, want %d", ix.Name, got, want)
				}
			}
			tx2 := e.db.Begin(context.Background(), txn.RepeatableRead, time.Second)
			defer tx2.Rollback()
			for _, i := range c.tail {
				pk, _ := tb.PKKey(nil, []sqltypes.Value{intv(i)}, 0)
				row, ok, err := tb.Get(tx2, pk, false, nil)
				wantA := "2"
				if i < n {
					wantA = "1" // the first row of the key stays
				}
				if err != nil || !ok || row[1].ToString() != wantA {
					t.Fatalf("row %d: %v %v %v, want a=%s", i, row, ok, err, wantA)
				}
			}
			if m, _ := filepath.Glob(filepath.Join(dir, "strata-sort-*")); len(m) != 0 {
				t.Errorf("temporary files left: %v", m)
			}
		})
	}
}

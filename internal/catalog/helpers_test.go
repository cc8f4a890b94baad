package catalog

import (
	"encoding/binary"
	"encoding/json"
	"log/slog"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/txn"
)

// testBudget keeps Pebble small in tests: a 64 MiB cache, 4 MiB memtables.
const testBudget = 256 << 20

// quietLogger drops Pebble's informational lines and keeps warnings/errors.
var quietLogger = kv.NewSlogLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))

// store is an open Pebble store with its transactional wrapper. Close is
// idempotent and also runs at the end of the test.
type store struct {
	kv   *kv.DB
	db   *txn.DB
	once sync.Once
	err  error
}

func (s *store) Close() error {
	s.once.Do(func() { s.err = s.kv.Close() })
	return s.err
}

// openStore opens dir on fs (nil = the OS filesystem).
func openStore(t *testing.T, fs vfs.FS, dir string) *store {
	t.Helper()
	k, err := kv.Open(kv.Options{Dir: dir, FS: fs, MemoryBudget: testBudget, Logger: quietLogger})
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	s := &store{kv: k, db: txn.New(k, txn.Options{})}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func mustLoad(t *testing.T, db *txn.DB) *Catalog {
	t.Helper()
	c, err := Load(db)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return c
}

// testTable builds a table with a primary index and one unique secondary
// index, allocating their ids from d.
func testTable(d *DDL, db, name string) *Table {
	t := &Table{
		DB:   db,
		Name: name,
		Columns: []Column{
			{Name: "id", Type: sqltypes.Int64, TypeName: "bigint", AutoIncrement: true, Collation: collations.CollationBinaryID},
			{Name: "Name", Type: sqltypes.VarChar, TypeName: "varchar", Length: 20, Nullable: true, Collation: 255, Comment: "a name"},
			{Name: "kind", Type: sqltypes.Enum, TypeName: "enum", EnumValues: []string{"x", "y"}, Collation: 255, Nullable: true},
			{Name: "created", Type: sqltypes.Datetime, TypeName: "datetime", Scale: 6, Collation: collations.CollationBinaryID, HasDefault: true, DefaultExpr: "CURRENT_TIMESTAMP(6)"},
		},
		Indexes: []*Index{
			{ID: d.NewIndexID(), Name: "PRIMARY", Primary: true, Unique: true, Columns: []IndexColumn{{Col: 0}}},
			{ID: d.NewIndexID(), Name: "name_idx", Unique: true, Columns: []IndexColumn{{Col: 1, Prefix: 10, Desc: true}}},
		},
		AutoIncCol:   0,
		AutoIncStart: 100,
		Charset:      "utf8mb4",
		Collation:    255,
		Comment:      "test table",
		ForeignKeys:  []string{"FOREIGN KEY (id) REFERENCES other (id)"},
		CreateTime:   1700000000,
	}
	t.Columns[1].SetDefault(sqltypes.NewVarChar("anon"))
	t.Columns[2].SetDefault(sqltypes.NULL)
	return t
}

func mustCommitDDL(t *testing.T, d *DDL) {
	t.Helper()
	if err := d.Commit(); err != nil {
		t.Fatalf("ddl commit: %v", err)
	}
}

// indexKey is the key of a row in index id.
func indexKey(id uint32, suffix string) []byte {
	return append(binary.BigEndian.AppendUint32(nil, id), suffix...)
}

// indexKeys returns the keys stored under index id.
func indexKeys(t *testing.T, p *pebble.DB, id uint32) []string {
	t.Helper()
	it, err := p.NewIter(&pebble.IterOptions{LowerBound: indexKey(id, ""), UpperBound: indexKey(id+1, "")})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for ok := it.First(); ok; ok = it.Next() {
		out = append(out, string(it.Key()[4:]))
	}
	return out
}

// writeRows commits rows under index id through a transaction.
func writeRows(t *testing.T, db *txn.DB, id uint32, suffixes ...string) {
	t.Helper()
	tx := db.Begin(t.Context(), txn.RepeatableRead, 0)
	for _, s := range suffixes {
		if err := tx.Set(indexKey(id, s), []byte("row")); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// dump renders the whole in-memory catalog as name -> JSON definition:
// "db" for a database entry, "db.table" for a table.
func dump(t *testing.T, c *Catalog) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, name := range c.Databases() {
		j, err := json.Marshal(c.Database(name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = string(j)
	}
	// Tables are listed per database, including databases with tables but
	// without an entry (which would be an inconsistency).
	c.mu.RLock()
	var dbs []string
	for name := range c.mu.tables {
		dbs = append(dbs, name)
	}
	c.mu.RUnlock()
	for _, db := range dbs {
		for _, tb := range c.Tables(db) {
			j, err := json.Marshal(tb)
			if err != nil {
				t.Fatal(err)
			}
			out[db+"."+tb.Name] = string(j)
			if st := c.Stats(tb); st != nil {
				j, err := json.Marshal(st.records())
				if err != nil {
					t.Fatal(err)
				}
				out["stats "+db+"."+tb.Name] = string(j)
			}
		}
	}
	return out
}

// checkConsistent asserts that the in-memory catalog equals what Load reads
// back from the store, and that the stored next index id is not ahead of
// the in-memory one.
func checkConsistent(t *testing.T, c *Catalog) {
	t.Helper()
	fresh := mustLoad(t, c.db)
	stored, mem := dump(t, fresh), dump(t, c)
	var diffs []string
	for name, j := range mem {
		switch sj, ok := stored[name]; {
		case !ok:
			diffs = append(diffs, name+": in memory, not stored")
		case sj != j:
			diffs = append(diffs, name+": differs\n  stored    "+sj+"\n  in memory "+j)
		}
	}
	for name := range stored {
		if _, ok := mem[name]; !ok {
			diffs = append(diffs, name+": stored, not in memory")
		}
	}
	if len(diffs) > 0 {
		sort.Strings(diffs)
		t.Fatalf("in-memory catalog differs from the stored dictionary:\n%s", strings.Join(diffs, "\n"))
	}
	c.ddlMu.Lock()
	next := c.nextIndexID
	c.ddlMu.Unlock()
	if fresh.nextIndexID > next {
		t.Fatalf("stored next index id %d > in-memory %d", fresh.nextIndexID, next)
	}
}

// sameTable asserts that two definitions are identical, including the
// derived Default values.
func sameTable(t *testing.T, got, want *Table) {
	t.Helper()
	if got == nil {
		t.Fatalf("table %s.%s missing", want.DB, want.Name)
	}
	if !reflect.DeepEqual(got, want) {
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		t.Fatalf("table differs:\n got  %s\n want %s", gj, wj)
	}
	for i := range want.Columns {
		g, w := got.Columns[i].Default, want.Columns[i].Default
		if g.Type() != w.Type() || g.ToString() != w.ToString() || g.IsNull() != w.IsNull() {
			t.Fatalf("column %s default = %v, want %v", want.Columns[i].Name, g, w)
		}
	}
}

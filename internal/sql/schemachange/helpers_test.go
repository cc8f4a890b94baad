package schemachange

import (
	"context"
	"encoding/binary"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/txn"
)

var quietLogger = kv.NewSlogLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))

// testEnv is a store, catalog and table store on an in-memory filesystem.
type testEnv struct {
	Env
	kv *kv.DB
}

func openTestEnv(t testing.TB) *testEnv {
	t.Helper()
	k, err := kv.Open(kv.Options{Dir: "/db", FS: vfs.NewMem(), MemoryBudget: 256 << 20, Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = k.Close() })
	db := txn.New(k, txn.Options{})
	cat, err := catalog.Load(db)
	if err != nil {
		t.Fatal(err)
	}
	return &testEnv{Env: Env{Cat: cat, DB: db, Store: table.NewStore(db), LockTimeout: time.Second}, kv: k}
}

// createTable runs CREATE TABLE sql in database "d" and returns the
// definition.
func (e *testEnv) createTable(t testing.TB, sql string) *catalog.Table {
	t.Helper()
	stmt, err := sqlparser.NewTestParser().Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	ct := stmt.(*sqlparser.CreateTable)
	if e.Cat.Database("d") == nil {
		if err := Apply(e.Cat, nil, func(d *catalog.DDL) error { return d.PutDatabase(&catalog.Database{Name: "d"}) }); err != nil {
			t.Fatal(err)
		}
	}
	def, err := BuildTable("d", ct.Table.Name.String(), ct.TableSpec, collations.ID(45), 0)
	if err != nil {
		t.Fatal(err)
	}
	err = Apply(e.Cat, nil, func(d *catalog.DDL) error {
		for _, ix := range def.Indexes {
			ix.ID = d.NewIndexID()
		}
		return d.PutTable(def)
	})
	if err != nil {
		t.Fatal(err)
	}
	return e.Cat.Table("d", def.Name)
}

// insert commits rows into def in one transaction.
func (e *testEnv) insert(t testing.TB, def *catalog.Table, rows ...Row) {
	t.Helper()
	tx := e.DB.Begin(context.Background(), txn.RepeatableRead, time.Second)
	tb := e.Store.Open(def)
	for _, r := range rows {
		if _, err := tb.Insert(tx, r, nil); err != nil {
			tx.Rollback()
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// keys counts the keys stored under index id.
func (e *testEnv) keys(t testing.TB, id uint32) int {
	t.Helper()
	return e.countRange(t, binary.BigEndian.AppendUint32(nil, id), binary.BigEndian.AppendUint32(nil, id+1))
}

// pendingMarks counts the dictionary's marks of reserved index data.
func (e *testEnv) pendingMarks(t testing.TB) int {
	t.Helper()
	lo := append(binary.BigEndian.AppendUint32(nil, catalog.DictIndexID), 'P')
	return e.countRange(t, lo, append(binary.BigEndian.AppendUint32(nil, catalog.DictIndexID), 'Q'))
}

func (e *testEnv) countRange(t testing.TB, lo, hi []byte) int {
	t.Helper()
	tx := e.DB.Begin(context.Background(), txn.ReadCommitted, time.Second)
	defer tx.Rollback()
	it, err := tx.NewIter(txn.IterOptions{Lower: lo, Upper: hi, Latest: true})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	n := 0
	for ; it.Valid(); it.Next() {
		n++
	}
	return n
}

// rowCount counts def's rows through its primary index.
func (e *testEnv) rowCount(t testing.TB, def *catalog.Table) int {
	t.Helper()
	tx := e.DB.Begin(context.Background(), txn.ReadCommitted, time.Second)
	defer tx.Rollback()
	sc, err := e.Store.Open(def).NewScan(tx, def.Primary(), nil, nil, false, true)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	n := 0
	for {
		_, _, ok, err := sc.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return n
		}
		n++
	}
}

// int64Rows returns rows (i, i % mod) for i in [1, n].
func int64Rows(n, mod int) []Row {
	out := make([]Row, n)
	for i := range out {
		out[i] = Row{sqltypes.NewInt64(int64(i + 1)), sqltypes.NewInt64(int64((i + 1) % mod))}
	}
	return out
}

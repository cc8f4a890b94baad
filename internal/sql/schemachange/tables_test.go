package schemachange

import (
	"context"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/catalog"
)

// TRUNCATE and DROP TABLE that wait for the metadata lock of a table an
// ALTER is rebuilding act on the definition the ALTER published, not on
// the one they saw before waiting: TRUNCATE keeps the new column, DROP
// deletes the new indexes' data.
func TestWaitingDDLReadsDefinitionAfterLock(t *testing.T) {
	for _, op := range []string{"truncate", "drop"} {
		t.Run(op, func(t *testing.T) {
			e := openTestEnv(t)
			e.MDLTimeout = 10 * time.Second
			old := e.createTable(t, "create table t (id bigint primary key, v bigint, key (v))")
			e.insert(t, old, int64Rows(100, 7)...)
			ctx := context.Background()
			release, err := LockTables(ctx, e.Cat, time.Second, TableName{"d", "t"})
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				if op == "truncate" {
					done <- e.Truncate(ctx, TableName{"d", "t"})
				} else {
					done <- e.DropTables(ctx, []TableName{{"d", "t"}}, nil)
				}
			}()
			time.Sleep(100 * time.Millisecond) // let it reach the lock wait
			p := rebuildPlan(old)
			if _, err := e.Alter(ctx, p); err != nil {
				release()
				t.Fatal(err)
			}
			release()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			cur := e.Cat.Table("d", "t")
			switch op {
			case "truncate":
				if cur == nil || len(cur.Columns) != 3 {
					t.Fatalf("TRUNCATE put back an old definition: %+v", cur)
				}
				if n := e.rowCount(t, cur); n != 0 {
					t.Fatalf("%d rows after TRUNCATE", n)
				}
			case "drop":
				if cur != nil {
					t.Fatalf("table still defined after DROP: %+v", cur)
				}
			}
			for _, ix := range p.New.Indexes {
				if n := e.keys(t, ix.ID); n != 0 {
					t.Fatalf("%d entries of the rebuilt index %s left after %s", n, ix.Name, op)
				}
			}
		})
	}
}

// A table created in a database while DROP DATABASE waits for its tables'
// locks is dropped too (the drop starts again), not left in the
// dictionary of a database that no longer exists.
func TestDropDatabaseSeesTablesCreatedWhileWaiting(t *testing.T) {
	e := openTestEnv(t)
	e.MDLTimeout = 10 * time.Second
	e.createTable(t, "create table t (id bigint primary key)")
	ctx := context.Background()
	release, err := LockTables(ctx, e.Cat, time.Second, TableName{"d", "t"})
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	go func() {
		n, err := e.DropDatabase(ctx, "d")
		done <- result{n, err}
	}()
	time.Sleep(100 * time.Millisecond) // let it reach the lock wait
	e.createTable(t, "create table u (id bigint primary key)")
	release()
	r := <-done
	if r.err != nil || r.n != 2 {
		t.Fatalf("DropDatabase = %d, %v; want 2 tables dropped", r.n, r.err)
	}
	if e.Cat.Database("d") != nil || len(e.Cat.Tables("d")) != 0 {
		t.Fatalf("database d left: %v, tables %v", e.Cat.Database("d"), e.Cat.Tables("d"))
	}
	reloaded, err := catalog.Load(e.DB)
	if err != nil {
		t.Fatal(err)
	}
	if tabs := reloaded.Tables("d"); len(tabs) != 0 {
		t.Fatalf("after reload, tables of the dropped database: %v", tabs)
	}
}

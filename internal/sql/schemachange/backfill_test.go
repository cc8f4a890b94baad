package schemachange

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

const testRows = 1000

// addIndexPlan adds an index on column v of old.
func addIndexPlan(old *catalog.Table, unique bool) *AlterPlan {
	nt := old.Clone()
	ix := &catalog.Index{Name: "v_idx", Unique: unique, Columns: []catalog.IndexColumn{{Col: 1}}}
	nt.Indexes = append(nt.Indexes, ix)
	return &AlterPlan{Old: old, New: nt, NewIndexes: []*catalog.Index{ix}}
}

// rebuildPlan adds a nullable column w to old, copying every row.
func rebuildPlan(old *catalog.Table) *AlterPlan {
	nt := old.Clone()
	nt.Columns = append(nt.Columns, catalog.Column{Name: "w", Type: sqltypes.Int64, TypeName: "bigint", Nullable: true, Collation: 63})
	return &AlterPlan{Old: old, New: nt, Rebuild: true, Convert: func(row Row, _ int, dst Row) error {
		copy(dst, row)
		dst[len(dst)-1] = sqltypes.NULL
		return nil
	}}
}

// alterLocked runs an ALTER the way the session does: the table's
// exclusive metadata lock taken and its release deferred, then Alter.
func (e *testEnv) alterLocked(p *AlterPlan) (Progress, error) {
	release, err := LockTables(context.Background(), e.Cat, time.Second, TableName{DB: p.Old.DB, Name: p.Old.Name})
	if err != nil {
		return Progress{}, err
	}
	defer release()
	return e.Alter(context.Background(), p)
}

func TestAlterAddIndexInChunks(t *testing.T) {
	for _, tc := range []struct {
		bound      Bound
		wantChunks int64
	}{
		{Bound{Rows: 100}, 10},
		{Bound{Rows: 128}, 8},           // 7 full chunks and a last one of 104 rows
		{Bound{Rows: testRows * 10}, 1}, // everything in one chunk
	} {
		t.Run(fmt.Sprintf("rows=%d", tc.bound.Rows), func(t *testing.T) {
			e := openTestEnv(t)
			old := e.createTable(t, "create table t (id bigint primary key, v bigint)")
			e.insert(t, old, int64Rows(testRows, 7)...)
			e.Bound = tc.bound
			var seen []Progress
			e.afterChunk = func(p Progress) error { seen = append(seen, p); return nil }
			p := addIndexPlan(old, false)
			got, err := e.alterLocked(p)
			if err != nil {
				t.Fatal(err)
			}
			if got.Rows != testRows || got.Chunks != tc.wantChunks {
				t.Fatalf("progress = %+v, want %d rows in %d chunks", got, testRows, tc.wantChunks)
			}
			for i, s := range seen {
				if want := min(int64(i+1)*int64(tc.bound.Rows), testRows); s.Rows != want || s.Chunks != int64(i+1) {
					t.Fatalf("after chunk %d: progress %+v, want %d rows", i+1, s, want)
				}
			}
			ix := p.NewIndexes[0]
			if n := e.keys(t, ix.ID); n != testRows {
				t.Fatalf("%d entries under the new index, want %d", n, testRows)
			}
			if n := e.pendingMarks(t); n != 0 {
				t.Fatalf("%d pending marks left after commit", n)
			}
			if cur := e.Cat.Table("d", "t"); cur.IndexByName("v_idx") == nil || cur.IndexByName("v_idx").ID != ix.ID {
				t.Fatalf("published definition lacks the new index: %+v", cur.Indexes)
			}
		})
	}
}

// A byte bound cuts chunks before the row bound does.
func TestBackfillByteBound(t *testing.T) {
	e := openTestEnv(t)
	old := e.createTable(t, "create table t (id bigint primary key, v bigint)")
	e.insert(t, old, int64Rows(testRows, 7)...)
	e.Bound = Bound{Rows: testRows * 10, Bytes: 4 << 10}
	var maxChunk int64
	var prev Progress
	e.afterChunk = func(p Progress) error {
		maxChunk = max(maxChunk, p.Bytes-prev.Bytes)
		prev = p
		return nil
	}
	got, err := e.alterLocked(addIndexPlan(old, false))
	if err != nil {
		t.Fatal(err)
	}
	if got.Chunks < 2 || got.Rows != testRows {
		t.Fatalf("progress = %+v: a 4 KiB bound should cut %d index entries into several chunks", got, testRows)
	}
	// A chunk is committed once it reaches the bound: it exceeds it by at
	// most one row's entries.
	if maxChunk > 4<<10+256 {
		t.Fatalf("largest chunk %d bytes, bound 4096", maxChunk)
	}
}

func TestAlterRebuildInChunks(t *testing.T) {
	e := openTestEnv(t)
	old := e.createTable(t, "create table t (id bigint primary key, v bigint, key (v))")
	e.insert(t, old, int64Rows(testRows, 7)...)
	e.Bound = Bound{Rows: 300}
	p := rebuildPlan(old)
	got, err := e.alterLocked(p)
	if err != nil {
		t.Fatal(err)
	}
	if got.Rows != testRows || got.Chunks != 4 {
		t.Fatalf("progress = %+v, want %d rows in 4 chunks", got, testRows)
	}
	nt := e.Cat.Table("d", "t")
	if nt != p.New || len(nt.Columns) != 3 {
		t.Fatalf("rebuilt definition not published: %+v", nt)
	}
	for i, ix := range nt.Indexes {
		if n := e.keys(t, ix.ID); n != testRows {
			t.Fatalf("index %d (%s): %d entries, want %d", i, ix.Name, n, testRows)
		}
		if n := e.keys(t, old.Indexes[i].ID); n != 0 {
			t.Fatalf("old index %s still has %d entries", old.Indexes[i].Name, n)
		}
	}
	if n := e.rowCount(t, nt); n != testRows {
		t.Fatalf("rebuilt table has %d rows, want %d", n, testRows)
	}
}

var errInjected = errors.New("injected back-fill failure")

// dupErr matches MySQL's 1062 with message msg.
func dupErr(msg string) func(error) bool {
	return func(err error) bool {
		var se *sqlerror.SQLError
		return errors.As(err, &se) && se.Num == sqlerror.ERDupEntry && strings.Contains(se.Message, msg)
	}
}

// A back-fill that fails half-way — a panic, an error, a duplicate key
// found in a late chunk — leaves no lock held, no back-filled entry and no
// pending mark behind, and the table as it was: readable, writable and
// alterable again.
func TestBackfillFailureReleasesLocks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rebuild bool
		unique  bool
		bound   int
		budget  int
		hook    func(Progress) error
		wantErr func(error) bool
	}{
		{name: "panic", hook: func(p Progress) error {
			if p.Chunks == 3 {
				panic("injected back-fill panic")
			}
			return nil
		}},
		{name: "panic-rebuild", rebuild: true, hook: func(p Progress) error {
			if p.Chunks == 3 {
				panic("injected back-fill panic")
			}
			return nil
		}},
		{name: "error", hook: func(p Progress) error {
			if p.Chunks == 3 {
				return errInjected
			}
			return nil
		}, wantErr: func(err error) bool { return errors.Is(err, errInjected) }},
		// v = id % 500: row 501 repeats row 1's value, in chunk 6 or in
		// the same chunk; found in memory, or (budget 1 byte) in the
		// committed chunks.
		{name: "duplicate", unique: true, wantErr: dupErr("Duplicate entry '1' for key 't.v_idx'")},
		{name: "duplicate-store", unique: true, budget: 1, wantErr: dupErr("Duplicate entry '1' for key 't.v_idx'")},
		{name: "duplicate-in-chunk", unique: true, budget: 1, bound: testRows, wantErr: dupErr("Duplicate entry '1' for key 't.v_idx'")},
		{name: "duplicate-primary-rebuild", rebuild: true, unique: true, wantErr: dupErr("Duplicate entry '1' for key 't.PRIMARY'")},
		{name: "duplicate-primary-rebuild-store", rebuild: true, unique: true, budget: 1, wantErr: dupErr("Duplicate entry '1' for key 't.PRIMARY'")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := openTestEnv(t)
			old := e.createTable(t, "create table t (id bigint primary key, v bigint)")
			e.insert(t, old, int64Rows(testRows, 500)...)
			e.Bound = Bound{Rows: 100}
			if tc.bound > 0 {
				e.Bound.Rows = tc.bound
			}
			e.afterChunk = tc.hook
			e.uniqueBudget = tc.budget
			p := addIndexPlan(old, tc.unique)
			if tc.rebuild {
				p = rebuildPlan(old)
				if tc.unique {
					// The primary key moves to v.
					p.New.Indexes[0].Columns = []catalog.IndexColumn{{Col: 1}}
				}
			}
			var panicked any
			var err error
			func() {
				defer func() { panicked = recover() }()
				_, err = e.alterLocked(p)
			}()
			switch {
			case tc.wantErr == nil && panicked == nil:
				t.Fatalf("no panic (err %v)", err)
			case tc.wantErr != nil && !tc.wantErr(err):
				t.Fatalf("err = %v (panic %v)", err, panicked)
			}
			e.afterChunk = nil

			// The metadata lock and the DDL mutex are free.
			ctx := context.Background()
			if err := e.Cat.LockExclusive(ctx, "d", "t", 100*time.Millisecond); err != nil {
				t.Fatalf("table's metadata lock leaked: %v", err)
			}
			e.Cat.UnlockExclusive("d", "t")
			done := make(chan struct{})
			go func() { e.Cat.BeginDDL().Abort(); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("DDL mutex leaked: BeginDDL blocks")
			}
			// Nothing back-filled remains, nothing is published.
			written := p.NewIndexes
			if tc.rebuild {
				written = p.New.Indexes
			}
			for _, ix := range written {
				if ix.ID == 0 {
					t.Fatal("index id not assigned: the back-fill never ran")
				}
				if n := e.keys(t, ix.ID); n != 0 {
					t.Fatalf("%d back-filled entries of index %s left after the failure", n, ix.Name)
				}
			}
			if n := e.pendingMarks(t); n != 0 {
				t.Fatalf("%d pending marks left after the failure", n)
			}
			if cur := e.Cat.Table("d", "t"); cur != old {
				t.Fatalf("definition changed by a failed ALTER: %+v", cur)
			}
			// The table is usable: its rows read, a row is written, and
			// the ALTER succeeds once the fault is gone.
			if n := e.rowCount(t, old); n != testRows {
				t.Fatalf("%d rows after the failure, want %d", n, testRows)
			}
			e.insert(t, old, Row{sqltypes.NewInt64(testRows + 1), sqltypes.NewInt64(-1)})
			if tc.unique {
				return
			}
			retry := addIndexPlan(old, false)
			if tc.rebuild {
				retry = rebuildPlan(old)
			}
			got, err := e.alterLocked(retry)
			if err != nil || got.Rows != testRows+1 {
				t.Fatalf("ALTER after the failure: progress %+v, err %v", got, err)
			}
		})
	}
}

// LockTables releases what it took when a later table's lock times out,
// and takes a table named twice once.
func TestLockTables(t *testing.T) {
	e := openTestEnv(t)
	ctx := context.Background()
	if err := e.Cat.LockShared(ctx, "d", "busy", time.Second); err != nil {
		t.Fatal(err)
	}
	_, err := LockTables(ctx, e.Cat, 50*time.Millisecond, TableName{"d", "a"}, TableName{"d", "busy"})
	var se *sqlerror.SQLError
	if !errors.As(err, &se) || se.Num != sqlerror.ERLockWaitTimeout {
		t.Fatalf("err = %v, want 1205", err)
	}
	if err := e.Cat.LockExclusive(ctx, "d", "a", 50*time.Millisecond); err != nil {
		t.Fatalf("lock on d.a kept after LockTables failed: %v", err)
	}
	e.Cat.UnlockExclusive("d", "a")
	e.Cat.UnlockShared("d", "busy")

	release, err := LockTables(ctx, e.Cat, 50*time.Millisecond, TableName{"d", "a"}, TableName{"d", "a"})
	if err != nil {
		t.Fatalf("a table named twice: %v", err)
	}
	release()
	if err := e.Cat.LockExclusive(ctx, "d", "a", 50*time.Millisecond); err != nil {
		t.Fatalf("release left d.a locked: %v", err)
	}
}

// BenchmarkAlterAddIndex back-fills an index over 50,000 rows per
// iteration; the unique cases add the per-row duplicate check, in memory
// (budget 0: the default) or, past a 1-byte budget, by a seek in the
// committed chunks.
func BenchmarkAlterAddIndex(b *testing.B) {
	const rows = 50000
	for _, tc := range []struct {
		unique bool
		budget int
	}{{false, 0}, {true, 0}, {true, 1}} {
		unique := tc.unique
		b.Run(fmt.Sprintf("unique=%v/budget=%d", tc.unique, tc.budget), func(b *testing.B) {
			e := openTestEnv(b)
			old := e.createTable(b, "create table t (id bigint primary key, v bigint)")
			e.insert(b, old, int64Rows(rows, rows+1)...)
			e.uniqueBudget = tc.budget
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p := addIndexPlan(old, unique)
				if _, err := e.alterLocked(p); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				// Drop the index again for the next iteration.
				cur := e.Cat.Table("d", "t")
				back := &AlterPlan{Old: cur, New: old.Clone(), DropIndexes: []*catalog.Index{cur.IndexByName("v_idx")}}
				if _, err := e.alterLocked(back); err != nil {
					b.Fatal(err)
				}
				old = e.Cat.Table("d", "t")
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
		})
	}
}

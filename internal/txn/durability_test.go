package txn_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/strata-db/strata/internal/txn"
)

func TestCommitSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	s := openKV(t, nil, dir)
	db := txn.New(s.DB, txn.Options{})
	for i := 0; i < 50; i++ {
		commitKVs(t, db, key(i), val(i, 0))
	}
	tx := begin(t, db)
	for i := 0; i < 50; i += 5 {
		mustDelete(t, tx, key(i))
	}
	mustSet(t, tx, key(1), val(1, 1))
	mustCommit(t, tx)
	// A rolled-back transaction leaves nothing on disk.
	rb := begin(t, db)
	mustSet(t, rb, "rolled-back", "x")
	mustDelete(t, rb, key(2))
	rb.Rollback()
	want := readAll(t, db)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s2 := openKV(t, nil, dir)
	db2 := txn.New(s2.DB, txn.Options{})
	got := readAll(t, db2)
	if !equalStrings(got, want) {
		t.Fatalf("after reopen:\n got  %q\n want %q", got, want)
	}
	if len(got) != 50-10 {
		t.Fatalf("after reopen: %d keys, want 40", len(got))
	}
	wantGet(t, begin(t, db2), false, key(1), val(1, 1), true)
	wantGet(t, begin(t, db2), false, key(2), val(2, 0), true)
	wantGet(t, begin(t, db2), false, "rolled-back", "", false)
}

// TestPowerLossSynced simulates power loss after several acknowledged
// commits: with the default (synced) commits, every one of them survives.
func TestPowerLossSynced(t *testing.T) {
	db, fs := openMem(t, txn.Options{})
	want := map[string]string{}
	for i := 0; i < 20; i++ {
		tx := begin(t, db)
		for j := 0; j < 5; j++ {
			k := key(i*5 + j)
			mustSet(t, tx, k, val(i*5+j, 0))
			want[k] = val(i*5+j, 0)
		}
		if i > 0 {
			k := key((i - 1) * 5)
			mustDelete(t, tx, k)
			delete(want, k)
		}
		mustCommit(t, tx)
	}
	// An uncommitted transaction at the time of the crash.
	open := begin(t, db)
	mustSet(t, open, "uncommitted", "x")

	crashed := fs.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: 0})
	s := openKV(t, crashed, "/db")
	got := readAll(t, txn.New(s.DB, txn.Options{}))
	if len(got) != len(want) {
		t.Fatalf("after power loss: %d keys, want %d: %q", len(got), len(want), got)
	}
	for _, kv := range got {
		k, v := splitKV(kv)
		if want[k] != v {
			t.Fatalf("after power loss: %s=%q, want %q", k, v, want[k])
		}
	}
}

// TestPowerLossNoSync documents what Options.NoSync risks. Commits return
// before the WAL is fsynced, so power loss can lose the most recent commits:
// here everything after the last WAL sync. What survives is always a prefix
// of the commit order (the WAL is replayed up to the first missing record),
// never a partial transaction and never a later commit without an earlier
// one. A later synced commit makes every earlier NoSync commit durable,
// because it syncs the whole WAL.
func TestPowerLossNoSync(t *testing.T) {
	db, fs := openMem(t, txn.Options{NoSync: true})
	const n = 200
	value := bytes.Repeat([]byte{'v'}, 4000) // ~800 KB: crosses WALBytesPerSync
	commitN := func(db *txn.DB, from, to int) {
		for i := from; i < to; i++ {
			tx := begin(t, db)
			// Two keys per transaction: a transaction survives whole or not.
			if err := tx.Set([]byte(key(i)), value); err != nil {
				t.Fatal(err)
			}
			if err := tx.Set([]byte("pair-"+key(i)), []byte{1}); err != nil {
				t.Fatal(err)
			}
			mustCommit(t, tx)
		}
	}
	commitN(db, 0, n)

	survivors := func(fs *vfs.MemFS) int {
		t.Helper()
		s := openKV(t, fs, "/db")
		defer s.Close()
		got := readAll(t, txn.New(s.DB, txn.Options{}))
		var keys, pairs []int
		for _, kv := range got {
			k, _ := splitKV(kv)
			pair := strings.HasPrefix(k, "pair-")
			var i int
			if _, err := fmt.Sscanf(strings.TrimPrefix(k, "pair-"), "k%d", &i); err != nil {
				t.Fatalf("unexpected key %q", k)
			}
			if pair {
				pairs = append(pairs, i)
			} else {
				keys = append(keys, i)
			}
		}
		if len(keys) != len(pairs) {
			t.Fatalf("partial transactions survived: %d keys, %d pairs", len(keys), len(pairs))
		}
		for j, i := range keys {
			if i != j || pairs[j] != j {
				t.Fatalf("survivors are not a prefix of the commit order: position %d holds txn %d", j, i)
			}
		}
		return len(keys)
	}
	lost := n - survivors(fs.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: 0}))
	t.Logf("NoSync: power loss lost %d of %d acknowledged commits", lost, n)

	// One synced commit (a second DB wrapper with the default durability
	// over the same store) makes all earlier commits durable.
	commitN(txn.New(db.KV(), txn.Options{}), n, n+1)
	if got := survivors(fs.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: 0})); got != n+1 {
		t.Fatalf("after a synced commit, %d of %d commits survive power loss", got, n+1)
	}
}

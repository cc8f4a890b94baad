package catalog

import (
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// TestTemporaryDataDeletedAfterCrash reserves ids for a temporary table,
// commits rows under them and loses power without dropping it: the next
// Load deletes the rows and the marks, and never hands the ids out again.
func TestTemporaryDataDeletedAfterCrash(t *testing.T) {
	fs := vfs.NewCrashableMem()
	s := openStore(t, fs, "/db")
	c := mustLoad(t, s.db)
	v := c.Version()
	ids, err := c.ReserveTemporary(2)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 2 || ids[1] != ids[0]+1 {
		t.Fatalf("ReserveTemporary(2) = %v", ids)
	}
	if c.Version() != v {
		t.Fatalf("ReserveTemporary changed the catalog version (%d -> %d): every cached plan would be dropped", v, c.Version())
	}
	for _, id := range ids {
		writeRows(t, s.db, id, "a", "b", "c")
	}
	if got := len(indexKeys(t, s.kv.Pebble(), ids[0])); got != 3 {
		t.Fatalf("rows under the temporary id: %d, want 3", got)
	}

	cs := openStore(t, fs.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: 0}), "/db")
	cc := mustLoad(t, cs.db)
	for _, id := range ids {
		if got := indexKeys(t, cs.kv.Pebble(), id); len(got) != 0 {
			t.Fatalf("after a crash, temporary data of id %d remains: %q", id, got)
		}
	}
	for _, k := range indexKeys(t, cs.kv.Pebble(), DictIndexID) {
		if k[0] == 'P' {
			t.Fatalf("after a crash, pending mark %q remains", k)
		}
	}
	d := cc.BeginDDL()
	id := d.NewIndexID()
	d.Abort()
	if id <= ids[1] {
		t.Fatalf("after a crash, NewIndexID = %d reuses a temporary id (%v)", id, ids)
	}
	checkConsistent(t, cc)
}

// TestDropTemporaryData deletes the rows and marks of one temporary table
// and leaves another's alone.
func TestDropTemporaryData(t *testing.T) {
	fs := vfs.NewMem()
	s := openStore(t, fs, "/db")
	c := mustLoad(t, s.db)
	gone, err := c.ReserveTemporary(1)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := c.ReserveTemporary(1)
	if err != nil {
		t.Fatal(err)
	}
	writeRows(t, s.db, gone[0], "a", "b")
	writeRows(t, s.db, kept[0], "a", "b")
	if err := c.DropTemporaryData(gone); err != nil {
		t.Fatal(err)
	}
	if got := indexKeys(t, s.kv.Pebble(), gone[0]); len(got) != 0 {
		t.Fatalf("dropped temporary data remains: %q", got)
	}
	if got := len(indexKeys(t, s.kv.Pebble(), kept[0])); got != 2 {
		t.Fatalf("the other temporary table lost rows: %d, want 2", got)
	}
	var marks []string
	for _, k := range indexKeys(t, s.kv.Pebble(), DictIndexID) {
		if k[0] == 'P' {
			marks = append(marks, k)
		}
	}
	if len(marks) != 1 || marks[0] != string(pendingKey(kept[0])[4:]) {
		t.Fatalf("pending marks %q, want only the kept table's", marks)
	}
	if ids, err := c.ReserveTemporary(0); err != nil || ids != nil {
		t.Fatalf("ReserveTemporary(0) = %v, %v", ids, err)
	}
}

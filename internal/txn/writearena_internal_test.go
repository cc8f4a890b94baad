package txn

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

// TestWriteArena writes entries across chunk boundaries, past the arena
// limit and larger than a carved piece, overwrites and rolls back some, and
// checks every entry reads back intact before and after the commit; the
// memory carved stays within the limit however often a key is rewritten.
func TestWriteArena(t *testing.T) {
	db, tx := beginInternal(t)

	want := map[string][]byte{}
	set := func(k string, v []byte) {
		t.Helper()
		if err := tx.Set([]byte(k), v); err != nil {
			t.Fatal(err)
		}
		want[k] = v
	}
	val := func(i, n int) []byte { return bytes.Repeat([]byte{byte('a' + i%26)}, n) }
	for i := 0; i < 3000; i++ { // ~100 KiB: past arenaLimit
		set(fmt.Sprintf("k%05d", i), val(i, 20+i%20))
	}
	set("big", val(7, 3*maxCarved)) // allocated alone
	if tx.wcarved > arenaLimit {
		t.Fatalf("carved %d bytes, limit %d", tx.wcarved, arenaLimit)
	}
	// Overwrites: dead versions in the arena do not grow it past the limit.
	for r := 0; r < 200; r++ {
		set("k00001", val(r, 30))
	}
	if tx.wcarved > arenaLimit {
		t.Fatalf("carved %d bytes after overwrites, limit %d", tx.wcarved, arenaLimit)
	}
	// A rolled-back statement restores the carved entries it replaced.
	tx.BeginStatement()
	if err := tx.Set([]byte("k00002"), []byte("changed")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Delete([]byte("k00003")); err != nil {
		t.Fatal(err)
	}
	tx.RollbackStatement()
	tx.EndStatement()

	check := func(when string, get func(k []byte) ([]byte, bool, error)) {
		t.Helper()
		for k, v := range want {
			got, ok, err := get([]byte(k))
			if err != nil || !ok || !bytes.Equal(got, v) {
				t.Fatalf("%s: %s = %q, %v, %v; want %q", when, k, got, ok, err, v)
			}
		}
	}
	check("in the transaction", tx.Get)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	check("after the commit", func(k []byte) ([]byte, bool, error) {
		r := db.Begin(context.Background(), RepeatableRead, 0)
		defer r.Rollback()
		return r.Get(k)
	})
}

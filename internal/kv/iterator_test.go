package kv

import (
	"strings"
	"testing"
)

// collect walks it forward from First, or backward from Last, and closes it.
func collect(t *testing.T, it *Iterator, reverse bool) string {
	t.Helper()
	var keys []string
	step, ok := it.Next, it.First()
	if reverse {
		step, ok = it.Prev, it.Last()
	}
	for ; ok; ok = step() {
		keys = append(keys, string(it.Key()))
	}
	if err := it.Error(); err != nil {
		t.Fatal(err)
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(keys, " ")
}

func TestIteratorBounds(t *testing.T) {
	db := openMem(t)
	for _, k := range []string{"a", "b1", "b2", "b3", "c"} {
		commitSet(t, db, []byte(k), []byte("v"+k), false)
	}
	for _, tc := range []struct {
		o       IterOptions
		reverse bool
		want    string
	}{
		{IterOptions{}, false, "a b1 b2 b3 c"},
		{IterOptions{}, true, "c b3 b2 b1 a"},
		{IterOptions{Lower: []byte("b"), Upper: []byte("c")}, false, "b1 b2 b3"},
		{IterOptions{Lower: []byte("b2"), Upper: []byte("b3")}, true, "b2"},
		{IterOptions{Lower: []byte("b2")}, false, "b2 b3 c"},
		{IterOptions{Upper: []byte("b2")}, true, "b1 a"},
		{IterOptions{Lower: []byte("d")}, false, ""},
	} {
		it, err := db.NewIter(tc.o)
		if err != nil {
			t.Fatal(err)
		}
		if got := collect(t, it, tc.reverse); got != tc.want {
			t.Errorf("[%s, %s) reverse=%v: %q, want %q", tc.o.Lower, tc.o.Upper, tc.reverse, got, tc.want)
		}
	}
}

// TestIteratorStepStats: stepping over superseded versions in the memtable
// shows as internal steps far above the visible ones.
func TestIteratorStepStats(t *testing.T) {
	db := openMem(t)
	const versions = 200
	for i := range versions {
		commitSet(t, db, []byte("hot"), []byte{byte(i)}, false)
		commitSet(t, db, []byte("hot2"), []byte{byte(i)}, false)
	}
	it, err := db.NewIter(IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		n++
	}
	s := it.StepStats()
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	if n != 2 || s.Visible != 3 || s.Internal < versions {
		t.Errorf("%d keys, stats %+v: want 2 keys, 3 visible steps (First, Next, Next) and >= %d internal", n, s, versions)
	}
}

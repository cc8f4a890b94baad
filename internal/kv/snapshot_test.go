package kv

import "testing"

func TestSnapshot(t *testing.T) {
	db := openMem(t)
	commitSet(t, db, []byte("a"), []byte("1"), true)
	commitSet(t, db, []byte("b"), []byte("1"), true)
	snap := db.NewSnapshot()
	commitSet(t, db, []byte("a"), []byte("2"), true)
	commitSet(t, db, []byte("c"), []byte("2"), true)
	b := db.NewBatch()
	if err := b.Delete([]byte("b")); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(true); err != nil {
		t.Fatal(err)
	}
	_ = b.Close()

	for _, tc := range []struct {
		key            string
		snap, latest   string
		inSnap, inLast bool
	}{
		{"a", "1", "2", true, true},
		{"b", "1", "", true, false},
		{"c", "", "2", false, true},
		{"d", "", "", false, false},
	} {
		v, ok, err := snap.Get([]byte(tc.key))
		if err != nil || ok != tc.inSnap || string(v) != tc.snap {
			t.Errorf("snapshot get %s = %q, %v, %v; want %q, %v", tc.key, v, ok, err, tc.snap, tc.inSnap)
		}
		v, ok, err = db.Get([]byte(tc.key))
		if err != nil || ok != tc.inLast || string(v) != tc.latest {
			t.Errorf("latest get %s = %q, %v, %v; want %q, %v", tc.key, v, ok, err, tc.latest, tc.inLast)
		}
	}
	it, err := snap.NewIter(IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := collect(t, it, false); got != "a b" {
		t.Errorf("snapshot keys %q, want \"a b\"", got)
	}
	it, err = db.NewIter(IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := collect(t, it, true); got != "c a" {
		t.Errorf("latest keys (reverse) %q, want \"c a\"", got)
	}
	if err := snap.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestGetCopies: a returned value is the caller's, unaffected by later
// writes and reads.
func TestGetCopies(t *testing.T) {
	db := openMem(t)
	commitSet(t, db, []byte("k"), []byte("old"), false)
	v, _, err := db.Get([]byte("k"))
	if err != nil {
		t.Fatal(err)
	}
	commitSet(t, db, []byte("k"), []byte("new"), false)
	if _, _, err := db.Get([]byte("k")); err != nil {
		t.Fatal(err)
	}
	if string(v) != "old" {
		t.Errorf("value changed under the caller: %q", v)
	}
}

package txn_test

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/strata-db/strata/internal/txn"
)

func TestIteratorMergeAndBounds(t *testing.T) {
	db, _ := openMem(t, txn.Options{})
	commitKVs(t, db, "b", "b0", "d", "d0", "f", "f0", "h", "h0")
	tx := begin(t, db)
	mustSet(t, tx, "a", "a1")  // before all committed keys
	mustSet(t, tx, "d", "d1")  // shadows a committed key
	mustDelete(t, tx, "f")     // hides a committed key
	mustSet(t, tx, "g", "g1")  // between committed keys
	mustSet(t, tx, "i", "i1")  // after all committed keys
	mustDelete(t, tx, "zz")    // delete of an absent key
	mustSet(t, tx, "c", "tmp") // put then delete: absent
	mustDelete(t, tx, "c")

	all := []string{"a=a1", "b=b0", "d=d1", "g=g1", "h=h0", "i=i1"}
	cases := []struct {
		lo, hi string
		want   []string
	}{
		{"", "", all},
		{"b", "", all[1:]},
		{"", "h", all[:4]},
		{"c", "h", []string{"d=d1", "g=g1"}},
		{"d", "d\x00", []string{"d=d1"}},
		{"f", "g", nil},
		{"f", "f\x00", nil},
		{"a", "b", []string{"a=a1"}},
		{"h", "i", []string{"h=h0"}},
		{"j", "", nil},
	}
	for _, c := range cases {
		for _, latest := range []bool{false, true} {
			o := txn.IterOptions{Latest: latest}
			if c.lo != "" {
				o.Lower = []byte(c.lo)
			}
			if c.hi != "" {
				o.Upper = []byte(c.hi)
			}
			got := scanOpts(t, tx, o)
			if !equalStrings(got, c.want) {
				t.Fatalf("[%q,%q) latest=%v: %q, want %q", c.lo, c.hi, latest, got, c.want)
			}
			o.Reverse = true
			got = scanOpts(t, tx, o)
			if want := reversed(c.want); !equalStrings(got, want) {
				t.Fatalf("reverse [%q,%q) latest=%v: %q, want %q", c.lo, c.hi, latest, got, want)
			}
		}
	}
}

func TestIteratorNoPendingWrites(t *testing.T) {
	db, _ := openMem(t, txn.Options{})
	tx := begin(t, db)
	wantScan(t, scanOpts(t, tx, txn.IterOptions{}))
	wantScan(t, scanOpts(t, tx, txn.IterOptions{Reverse: true}))
	commitKVs(t, db, "x", "1", "y", "2")
	tx2 := begin(t, db)
	wantScan(t, scanOpts(t, tx2, txn.IterOptions{}), "x=1", "y=2")
	wantScan(t, scanOpts(t, tx2, txn.IterOptions{Reverse: true}), "y=2", "x=1")
}

func TestIteratorStableView(t *testing.T) {
	db, _ := openMem(t, txn.Options{})
	commitKVs(t, db, "a", "a0", "c", "c0", "e", "e0")
	for _, reverse := range []bool{false, true} {
		tx := begin(t, db)
		mustSet(t, tx, "b", "b1")
		mustSet(t, tx, "z", "z1")
		it, err := tx.NewIter(txn.IterOptions{Reverse: reverse})
		if err != nil {
			t.Fatal(err)
		}
		// Writes after the iterator was created, including ones the
		// iterator has not reached yet and overwrites of pending keys.
		mustSet(t, tx, "a", "a2")
		mustSet(t, tx, "b", "b2")
		mustDelete(t, tx, "c")
		mustSet(t, tx, "d", "d2")
		mustDelete(t, tx, "e")
		mustDelete(t, tx, "z")
		mustSet(t, tx, "f", "f2")
		want := []string{"a=a0", "b=b1", "c=c0", "e=e0", "z=z1"}
		if reverse {
			want = reversed(want)
		}
		wantScan(t, scan(t, it), want...)
		// A new iterator sees the new writes.
		want = []string{"a=a2", "b=b2", "d=d2", "f=f2"}
		if reverse {
			want = reversed(want)
		}
		wantScan(t, scanOpts(t, tx, txn.IterOptions{Reverse: reverse}), want...)
		tx.Rollback()
	}
}

func TestIteratorStableViewMidScan(t *testing.T) {
	// The Halloween problem: an UPDATE scan that rewrites each row (here,
	// moving it to a larger key) must visit each original row once.
	db, _ := openMem(t, txn.Options{})
	for i := 0; i < 10; i++ {
		commitKVs(t, db, key(i), "orig")
	}
	tx := begin(t, db)
	it, err := tx.NewIter(txn.IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var visited int
	for ; it.Valid(); it.Next() {
		visited++
		if visited > 100 {
			t.Fatal("iterator sees its own later writes")
		}
		k := string(it.Key())
		mustDelete(t, tx, k)
		mustSet(t, tx, "moved-"+k, "x")
		mustSet(t, tx, k+"+", "x") // a key just after the current one
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	if visited != 10 {
		t.Fatalf("visited %d rows, want 10", visited)
	}
}

// TestIteratorRandomized compares the merged iterator with a model (a map of
// the committed state overlaid with the pending writes) over random
// committed keys, random pending puts and deletes and random bounds, in both
// directions and for both snapshot and latest views.
func TestIteratorRandomized(t *testing.T) {
	seed := uint64(rand.Int64())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	db, _ := openMem(t, txn.Options{})

	randKey := func() string {
		// Short keys over a small alphabet with varying lengths, so that
		// prefixes and neighbours of other keys are common.
		n := 1 + rng.IntN(3)
		b := make([]byte, n)
		for i := range b {
			b[i] = "abcd"[rng.IntN(4)]
		}
		return string(b)
	}

	for round := 0; round < 30; round++ {
		// Committed state: start from whatever earlier rounds left, apply a
		// random committed transaction.
		committed := map[string]string{}
		for _, kv := range readAll(t, db) {
			k, v := splitKV(kv)
			committed[k] = v
		}
		w := begin(t, db)
		for i := rng.IntN(30); i > 0; i-- {
			k := randKey()
			if rng.IntN(4) == 0 {
				mustDelete(t, w, k)
				delete(committed, k)
			} else {
				v := fmt.Sprintf("c%d-%d", round, i)
				mustSet(t, w, k, v)
				committed[k] = v
			}
		}
		mustCommit(t, w)

		// A transaction with random pending writes.
		tx := begin(t, db)
		model := map[string]string{}
		for k, v := range committed {
			model[k] = v
		}
		for i := rng.IntN(40); i > 0; i-- {
			k := randKey()
			if rng.IntN(3) == 0 {
				mustDelete(t, tx, k)
				delete(model, k)
			} else {
				v := fmt.Sprintf("p%d-%d", round, i)
				mustSet(t, tx, k, v)
				model[k] = v
			}
		}
		keys := make([]string, 0, len(model))
		for k := range model {
			keys = append(keys, k)
		}
		sort.Strings(keys)

		for q := 0; q < 20; q++ {
			var lo, hi string
			if rng.IntN(3) > 0 {
				lo = randKey()
			}
			if rng.IntN(3) > 0 {
				hi = randKey()
			}
			if lo != "" && hi != "" && lo >= hi {
				lo, hi = hi, lo
				if lo == hi {
					hi = lo + "\x00"
				}
			}
			var want []string
			for _, k := range keys {
				if (lo == "" || k >= lo) && (hi == "" || k < hi) {
					want = append(want, k+"="+model[k])
				}
			}
			o := txn.IterOptions{Latest: rng.IntN(2) == 0}
			if lo != "" {
				o.Lower = []byte(lo)
			}
			if hi != "" {
				o.Upper = []byte(hi)
			}
			got := scanOpts(t, tx, o)
			if !equalStrings(got, want) {
				t.Fatalf("seed %d round %d [%q,%q) latest=%v:\n got  %q\n want %q", seed, round, lo, hi, o.Latest, got, want)
			}
			o.Reverse = true
			got = scanOpts(t, tx, o)
			if rw := reversed(want); !equalStrings(got, rw) {
				t.Fatalf("seed %d round %d reverse [%q,%q) latest=%v:\n got  %q\n want %q", seed, round, lo, hi, o.Latest, got, rw)
			}
			// Point reads agree with the model too.
			k := randKey()
			v, ok := model[k]
			wantGet(t, tx, q%2 == 0, k, v, ok)
		}
		// Commit every other round so the pending writes become the next
		// committed state (exercises Commit's ordering of puts/deletes).
		if round%2 == 0 {
			mustCommit(t, tx)
			got := readAll(t, db)
			var want []string
			for _, k := range keys {
				want = append(want, k+"="+model[k])
			}
			if !equalStrings(got, want) {
				t.Fatalf("seed %d round %d after commit:\n got  %q\n want %q", seed, round, got, want)
			}
		} else {
			tx.Rollback()
		}
	}
}

func splitKV(s string) (string, string) {
	for i := 0; i < len(s); i++ {
		if s[i] == '=' {
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

func reversed(s []string) []string {
	if s == nil {
		return nil
	}
	out := make([]string, len(s))
	for i, x := range s {
		out[len(s)-1-i] = x
	}
	return out
}

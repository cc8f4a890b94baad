package extsort

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSortSpills sorts more records than the budget holds: the output is
// in key order, complete, and stable for equal keys.
func TestSortSpills(t *testing.T) {
	dir := t.TempDir()
	s := New(dir, 1<<16)
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 100000
	count := map[string]int{}
	for range n {
		k := fmt.Appendf(nil, "k%05d", rng.IntN(n/4)) // many duplicates
		// The value records the key's add order.
		v := fmt.Appendf(nil, "%d", count[string(k)])
		count[string(k)]++
		if err := s.Add(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if s.Runs() < 10 {
		t.Fatalf("%d runs: the test must spill", s.Runs())
	}
	it, err := s.Iter()
	if err != nil {
		t.Fatal(err)
	}
	var prev []byte
	seen, next := 0, map[string]int{}
	for it.Next() {
		k, v := it.Key(), it.Value()
		if prev != nil && bytes.Compare(prev, k) > 0 {
			t.Fatalf("out of order: %s after %s", k, prev)
		}
		if want := fmt.Sprint(next[string(k)]); string(v) != want {
			t.Fatalf("key %s: value %s, want %s (unstable)", k, v, want)
		}
		next[string(k)]++
		prev = append(prev[:0], k...)
		seen++
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	if seen != n {
		t.Fatalf("%d records out, %d in", seen, n)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, FilePrefix+"*")); len(m) != 0 {
		t.Fatalf("run file left: %v", m)
	}
}

func TestSortInMemoryAndEmpty(t *testing.T) {
	s := New(t.TempDir(), 1<<20)
	it, err := s.Iter()
	if err != nil || it.Next() {
		t.Fatalf("empty sorter yields records (%v)", err)
	}
	s = New(t.TempDir(), 1<<20)
	for _, k := range []string{"b", "a", "c", "a"} {
		if err := s.Add([]byte(k), []byte(k+"v")); err != nil {
			t.Fatal(err)
		}
	}
	it, err = s.Iter()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for it.Next() {
		got = append(got, string(it.Key())+"="+string(it.Value()))
	}
	if fmt.Sprint(got) != "[a=av a=av b=bv c=cv]" || s.Runs() != 0 {
		t.Fatalf("got %v (%d runs)", got, s.Runs())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestCorruptRun: a damaged run file is an error, not a panic.
func TestCorruptRun(t *testing.T) {
	s := New(t.TempDir(), 1<<16)
	for i := range 20000 {
		if err := s.Add(fmt.Appendf(nil, "%08d", i), []byte("value")); err != nil {
			t.Fatal(err)
		}
	}
	if s.Runs() == 0 {
		t.Fatal("no run spilled")
	}
	if err := os.Truncate(s.f.Name(), 100); err != nil {
		t.Fatal(err)
	}
	it, err := s.Iter()
	for err == nil && it.Next() {
	}
	if err == nil {
		err = it.Err()
	}
	if err == nil {
		t.Fatal("truncated run read without error")
	}
	_ = s.Close()
}

// TestSortLongKeys: keys that share their first 16 bytes, contain zero
// bytes, or are prefixes of one another sort as bytes.Compare orders them.
func TestSortLongKeys(t *testing.T) {
	s := New(t.TempDir(), 1<<16)
	rng := rand.New(rand.NewPCG(5, 6))
	var keys [][]byte
	for i := range 20000 {
		k := make([]byte, 14+rng.IntN(8)) // around the 16-byte prefix
		for j := range k {
			k[j] = byte(rng.IntN(3)) // mostly 0, 1, 2: long shared prefixes
		}
		if i%5 == 0 {
			k = k[:rng.IntN(len(k))] // prefixes of other keys
		}
		keys = append(keys, k)
		if err := s.Add(k, nil); err != nil {
			t.Fatal(err)
		}
	}
	it, err := s.Iter()
	if err != nil {
		t.Fatal(err)
	}
	var got [][]byte
	for it.Next() {
		got = append(got, append([]byte(nil), it.Key()...))
	}
	slices.SortFunc(keys, bytes.Compare)
	if len(got) != len(keys) {
		t.Fatalf("%d keys out, %d in", len(got), len(keys))
	}
	for i := range keys {
		if !bytes.Equal(got[i], keys[i]) {
			t.Fatalf("key %d: %x, want %x", i, got[i], keys[i])
		}
	}
	_ = s.Close()
}

// TestSortSharedPrefixParallel: many records whose keys share a long
// prefix (compared past it) and repeat (kept in their added order), sorted
// in parts on several goroutines, in memory and spilled.
func TestSortSharedPrefixParallel(t *testing.T) {
	for _, budget := range []int{64 << 20, 4 << 20} {
		s := New(t.TempDir(), budget)
		rng := rand.New(rand.NewPCG(7, 8))
		const n = 3 * parallelSortMin
		type kv struct {
			k string
			v int
		}
		var all []kv
		for i := range n {
			k := fmt.Sprintf("\x01\x00\x00\x00\x07https://www.example.com/%s/%d", []string{"a", "b", "c"}[rng.IntN(3)], rng.IntN(n/4))
			if i%1000 == 0 {
				k = "\x01\x00\x00\x00\x07https://www.example.com/" // a key that is all prefix
			}
			all = append(all, kv{k, i})
			if err := s.Add([]byte(k), fmt.Appendf(nil, "%d", i)); err != nil {
				t.Fatal(err)
			}
		}
		slices.SortStableFunc(all, func(a, b kv) int { return strings.Compare(a.k, b.k) })
		it, err := s.Iter()
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		for it.Next() {
			if i >= n || string(it.Key()) != all[i].k || string(it.Value()) != fmt.Sprint(all[i].v) {
				t.Fatalf("budget %d: record %d: %q=%s, want %q=%d", budget, i, it.Key(), it.Value(), all[i].k, all[i].v)
			}
			i++
		}
		if it.Err() != nil || i != n {
			t.Fatalf("budget %d: %d records, %v", budget, i, it.Err())
		}
		if budget < 8<<20 && s.Runs() < 2 {
			t.Fatalf("budget %d: %d runs, want spills", budget, s.Runs())
		}
		_ = s.Close()
	}
}

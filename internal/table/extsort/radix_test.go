package extsort

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// radixCase builds a sorter holding n keys of one kind after a shared
// prefix of lcp bytes.
func radixCase(t *testing.T, rng *rand.Rand, kind string, n, lcp int) *Sorter {
	t.Helper()
	s := New(t.TempDir(), 1<<40)
	prefix := make([]byte, lcp)
	for i := range prefix {
		prefix[i] = byte(rng.IntN(256))
	}
	var keys [][]byte
	for i := range n {
		var k []byte
		switch kind {
		case "random": // uniform bytes, lengths around 16
			k = make([]byte, rng.IntN(24))
			for j := range k {
				k[j] = byte(rng.IntN(256))
			}
		case "small-alphabet": // 0, 1, 255: long equal runs, zero bytes, keys that are prefixes of others
			k = make([]byte, rng.IntN(40))
			for j := range k {
				k[j] = []byte{0, 1, 255}[rng.IntN(3)]
			}
		case "short": // shorter than 16: padding must order "a" < "a\x00" < "a\x00\x00"
			k = make([]byte, rng.IntN(4))
			for j := range k {
				k[j] = byte(rng.IntN(2))
			}
		case "same-prefix": // equal 16 prefix bytes, tails differ
			k = append(make([]byte, 16), byte(rng.IntN(4)), byte(rng.IntN(256)))
			k = k[:16+rng.IntN(3)]
		case "duplicates": // exact repeats of a few keys
			if len(keys) > 0 && rng.IntN(4) != 0 {
				k = keys[rng.IntN(len(keys))]
			} else {
				k = []byte(fmt.Sprintf("dup%03d", rng.IntN(1000)))
			}
		case "long-shared": // groups sharing 30-70 bytes (reloads), some ending at window edges or in zeros
			g := rng.IntN(3)
			k = fmt.Appendf(nil, "group-%d-%s", g, string(make([]byte, 20+20*g)))
			switch rng.IntN(4) {
			case 0:
				k = k[:16*(1+rng.IntN(len(k)/16))]
			case 1:
				k = append(k, 0, 0, byte(rng.IntN(3)))
			default:
				k = fmt.Appendf(k, "/path/%d/%d", rng.IntN(3), rng.IntN(100))
			}
		case "all-equal":
			k = []byte("the same key, longer than sixteen bytes")
		case "timestamp": // high bytes constant, skewed low bytes, then a pk
			ts := uint64(1_700_000_000_000_000) + uint64(rng.ExpFloat64()*1e6)
			k = []byte{byte(ts >> 56), byte(ts >> 48), byte(ts >> 40), byte(ts >> 32), byte(ts >> 24), byte(ts >> 16), byte(ts >> 8), byte(ts), 0, 0, 0, 0, byte(i >> 24), byte(i >> 16), byte(i >> 8), byte(i)}
		case "skewed": // most records in one bucket at each of several levels
			k = make([]byte, 20)
			for j := range k {
				if rng.IntN(10) == 0 {
					k[j] = byte(rng.IntN(256))
				}
			}
			k = k[:rng.IntN(21)]
		}
		keys = append(keys, k)
		full := append(append([]byte(nil), prefix...), k...)
		if err := s.Add(full, []byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestRadixSortMatchesCmp: radixSorter orders records exactly as
// slices.SortFunc with the same comparison (key, then added order) does,
// on inputs that reach every branch: short keys, equal 16-byte prefixes
// with differing tails, long shared prefixes (reloaded windows), keys that
// differ only by trailing zero bytes, exact duplicates, all-equal keys, constant leading
// bytes, skewed buckets, and sizes around radixMin.
func TestRadixSortMatchesCmp(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	kinds := []string{"random", "small-alphabet", "short", "same-prefix", "long-shared", "duplicates", "all-equal", "timestamp", "skewed"}
	sizes := []int{0, 1, 2, 3, radixMin - 1, radixMin, radixMin + 1, 2*radixMin + 1, 257, 1000, 5000, 30000}
	for _, kind := range kinds {
		for _, n := range sizes {
			for _, lcp := range []int{0, 3} {
				s := radixCase(t, rng, kind, n, lcp)
				s.loadPrefixes()
				cmp := s.cmpFunc()
				want := slices.Clone(s.recs)
				slices.SortFunc(want, cmp)
				got := slices.Clone(s.recs)
				(&radixSorter{arena: s.arena, lcp: s.lcp, cmp: cmp}).sort(got, 0, 0)
				for i := range want {
					if got[i].off != want[i].off {
						t.Fatalf("%s n=%d lcp=%d: record %d: key %x (off %d), want %x (off %d)", kind, n, lcp, i,
							s.key(got[i]), got[i].off, s.key(want[i]), want[i].off)
					}
				}
			}
		}
	}
}

// TestRadixSortNoAlloc: sorting allocates nothing.
func TestRadixSortNoAlloc(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	s := radixCase(t, rng, "skewed", 20000, 2)
	s.loadPrefixes()
	cmp := s.cmpFunc()
	orig := slices.Clone(s.recs)
	if a := testing.AllocsPerRun(5, func() {
		copy(s.recs, orig)
		(&radixSorter{arena: s.arena, lcp: s.lcp, cmp: cmp}).sort(s.recs, 0, 0)
	}); a != 0 {
		t.Fatalf("%v allocations per sort", a)
	}
}

// TestSortMemTwice: a second sortMem (whose first left later key bytes in
// some records' p0 and p1) keeps the order, with and without a shared
// prefix.
func TestSortMemTwice(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	for _, first := range []string{"ab", "aa"} { // lcp 0 and 1
		s := New(t.TempDir(), 1<<40)
		for range 5000 {
			k := fmt.Appendf(nil, "%c-shared-by-many-keys-%d", first[rng.IntN(2)], rng.IntN(1000))
			if err := s.Add(k, nil); err != nil {
				t.Fatal(err)
			}
		}
		s.sortMem()
		sorted := slices.Clone(s.recs)
		s.sortMem()
		for i := range sorted {
			if s.recs[i].off != sorted[i].off {
				t.Fatalf("lcp %d: record %d moved by a second sort", s.lcp, i)
			}
		}
	}
}

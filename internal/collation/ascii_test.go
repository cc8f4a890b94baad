package collation

import (
	"bytes"
	"math/rand"
	"testing"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/colldata"
)

// TestASCIIFastPath: for every collation with the fast path, random ASCII
// strings weigh and compare exactly as colldata's WeightString and Collate.
func TestASCIIFastPath(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	rnd := func() []byte {
		b := make([]byte, rng.Intn(12))
		for i := range b {
			b[i] = byte(rng.Intn(128))
		}
		return b
	}
	sign := func(n int) int {
		switch {
		case n < 0:
			return -1
		case n > 0:
			return 1
		}
		return 0
	}
	n := 0
	for id := range asciiWeights {
		w := asciiWeights[id]
		if w == nil {
			continue
		}
		n++
		c := colldata.Lookup(collations.ID(id))
		for i := 0; i < 2000; i++ {
			a, b := rnd(), rnd()
			if i%3 == 0 {
				b = bytes.ToUpper(a)
			}
			if got, want := AppendWeightString(nil, collations.ID(id), c, a), c.WeightString(nil, a, 0); !bytes.Equal(got, want) {
				t.Fatalf("collation %d: weight of %q = %x, want %x", id, a, got, want)
			}
			if got, want := sign(CompareASCII(w, a, b)), sign(c.Collate(a, b, false)); got != want {
				t.Fatalf("collation %d: compare %q %q = %d, want %d", id, a, b, got, want)
			}
		}
	}
	if n == 0 || ASCIIWeights(collations.ID(45)) == nil {
		t.Fatalf("no collation has the fast path (utf8mb4_general_ci must)")
	}
	// Non-ASCII input takes colldata's path.
	c := colldata.Lookup(collations.ID(45))
	s := []byte("é and E")
	if got, want := AppendWeightString(nil, 45, c, s), c.WeightString(nil, s, 0); !bytes.Equal(got, want) {
		t.Fatalf("non-ASCII weight %x, want %x", got, want)
	}
}

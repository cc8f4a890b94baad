package collation

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/charset"
	"vitess.io/vitess/go/mysql/collations/colldata"
)

// TestConcatWeights: for every UTF-8 collation, AppendWeightString gives
// exactly the collation's own weights, by a table or not, on random ASCII
// strings with spaces, controls and letters that form contractions in some
// languages; and ASCIIPrefix cuts ASCII text as charset.Slice does.
func TestConcatWeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("chCHllLLdzsDZSnyNY aeiouAEIOU0129-_/.:\t\x00\x01\x7f~")
	fast, slow := 0, 0
	for id := range 4096 {
		coll := colldata.Lookup(collations.ID(id))
		if coll == nil {
			continue
		}
		if name := coll.Charset().Name(); name != "utf8mb4" && name != "utf8mb3" {
			continue
		}
		for range 200 {
			s := make([]byte, rng.IntN(12))
			for i := range s {
				s[i] = alphabet[rng.IntN(len(alphabet))]
			}
			if _, ok := appendConcatWeights(nil, collations.ID(id), coll, s); ok {
				fast++
			} else {
				slow++
			}
			got := AppendWeightString(nil, collations.ID(id), coll, s)
			if want := coll.WeightString(nil, s, 0); !bytes.Equal(got, want) {
				t.Fatalf("collation %s, %q: table %x, collation %x", coll.Name(), s, got, want)
			}
		}
	}
	if fast == 0 {
		t.Fatal("no collation took the ASCII table")
	}
	t.Logf("%d strings weighed by table, %d by the collation", fast, slow)
	cs := colldata.Lookup(collations.ID(255)).Charset()
	for _, s := range []string{"", "abc", "abcdefgh", "abcdefghijklmnopq", "ab€cd", "€abc", "abcdé", "abcdefghij€"} {
		for n := 1; n < 20; n++ {
			want := charset.Slice(cs, []byte(s), 0, n)
			var got []byte
			if k := ASCIIPrefix([]byte(s), n); k == n || k == len(s) {
				got = []byte(s)[:k]
			} else {
				got = want
			}
			if !bytes.Equal(got, want) {
				t.Errorf("prefix %d of %q: %q, want %q", n, s, got, want)
			}
		}
	}
}

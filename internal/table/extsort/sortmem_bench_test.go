package extsort

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchKeys returns n index keys of one of the shapes ADD INDEX sorts
// (each after a 4-byte index id the sorter's lcp strips):
//   - "datetime": an 8-byte datetime encoding + an 8-byte primary key;
//   - "user-datetime": a uint32 user id (skewed), a datetime, a pk;
//   - "url": a URL's weight string (2 bytes a character; hosts skewed,
//     paths sharing long prefixes within a host) + a pk.
func benchKeys(shape string, n int) [][]byte {
	rng := rand.New(rand.NewPCG(11, 12))
	id := []byte{0, 0, 0, 9}
	base := int64(1_700_000_000) * 1_000_000 // µs
	datetime := func(k []byte) []byte {
		t := base + rng.Int64N(365*24*3600)*1_000_000
		return binary.BigEndian.AppendUint64(k, uint64(t)^1<<63)
	}
	pk := func(k []byte, i int) []byte { return binary.BigEndian.AppendUint64(k, uint64(i)^1<<63) }
	keys := make([][]byte, n)
	switch shape {
	case "datetime":
		for i := range keys {
			keys[i] = pk(datetime(append([]byte(nil), id...)), i)
		}
	case "user-datetime":
		z := rand.NewZipf(rng, 1.1, 1, 200_000)
		for i := range keys {
			k := binary.BigEndian.AppendUint32(append([]byte(nil), id...), uint32(z.Uint64()))
			keys[i] = pk(datetime(k), i)
		}
	case "url":
		const hosts = 2000
		names := make([]string, hosts)
		for i := range names {
			var b []byte
			if rng.IntN(2) == 0 {
				b = append(b, "www."...)
			}
			for range 4 + rng.IntN(10) {
				b = append(b, byte('a'+rng.IntN(26)))
			}
			names[i] = string(b) + []string{".com", ".org", ".net", ".io"}[rng.IntN(4)]
		}
		sections := []string{"articles", "blog/posts", "products/category", "users", "wiki/Special:Search"}
		z := rand.NewZipf(rng, 1.2, 1, hosts-1)
		for i := range keys {
			u := fmt.Sprintf("https://%s/%s/%d/item-%d", names[z.Uint64()], sections[rng.IntN(len(sections))], rng.IntN(50), rng.IntN(100000))
			k := append([]byte(nil), id...)
			for j := 0; j < len(u); j++ {
				c := u[j]
				if 'a' <= c && c <= 'z' {
					c -= 'a' - 'A'
				}
				k = append(k, 0, c)
			}
			keys[i] = pk(k, i)
		}
	}
	return keys
}

// BenchmarkSortMem sorts 1M buffered records (sortMem) of each key shape;
// run with -cpu=1 for one part on one goroutine.
func BenchmarkSortMem(b *testing.B) {
	for _, shape := range []string{"datetime", "user-datetime", "url"} {
		b.Run(shape, func(b *testing.B) {
			const n = 1 << 20
			s := New(b.TempDir(), 1<<40)
			for _, k := range benchKeys(shape, n) {
				if err := s.Add(k, nil); err != nil {
					b.Fatal(err)
				}
			}
			orig := append([]rec(nil), s.recs...)
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				copy(s.recs, orig)
				b.StartTimer()
				s.sortMem()
			}
		})
	}
}

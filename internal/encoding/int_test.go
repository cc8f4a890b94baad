package encoding

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestUint32(t *testing.T) {
	for _, v := range []uint32{0, 1, 255, 256, 1 << 31, math.MaxUint32} {
		b := EncodeUint32([]byte("x"), v)
		rest, got, err := DecodeUint32(b[1:])
		if err != nil || got != v || len(rest) != 0 {
			t.Fatalf("uint32 %d: got %d rest %x err %v", v, got, rest, err)
		}
	}
	if _, _, err := DecodeUint32([]byte{1, 2, 3}); err == nil {
		t.Fatal("expected short-buffer error")
	}
}

func int64Corpus(rng *rand.Rand) []int64 {
	vs := []int64{math.MinInt64, math.MinInt64 + 1, -1 << 32, -256, -255, -1, 0, 1, 127, 128, 255, 256, 1 << 40, math.MaxInt64 - 1, math.MaxInt64}
	for i := 0; i < 500; i++ {
		vs = append(vs, rng.Int64()>>rng.IntN(64)*int64(1-2*rng.IntN(2)))
	}
	return vs
}

func TestInt64AscOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vs := int64Corpus(rng)
	enc := make([][]byte, len(vs))
	for i, v := range vs {
		enc[i] = EncodeInt64Asc(nil, v)
		rest, got, err := DecodeInt64Asc(append(enc[i], 0xab))
		if err != nil || got != v || !bytes.Equal(rest, []byte{0xab}) {
			t.Fatalf("int64 %d: got %d rest %x err %v", v, got, rest, err)
		}
	}
	checkOrder(t, len(vs), func(i, j int) int { return cmpInt(vs[i], vs[j]) }, enc)
}

func TestUint64AscOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vs := []uint64{0, 1, 255, 256, 1 << 63, math.MaxUint64}
	for i := 0; i < 300; i++ {
		vs = append(vs, rng.Uint64()>>rng.IntN(64))
	}
	enc := make([][]byte, len(vs))
	for i, v := range vs {
		enc[i] = EncodeUint64Asc(nil, v)
		_, got, err := DecodeUint64Asc(enc[i])
		if err != nil || got != v {
			t.Fatalf("uint64 %d: got %d err %v", v, got, err)
		}
	}
	checkOrder(t, len(vs), func(i, j int) int { return cmpInt(vs[i], vs[j]) }, enc)
}

func TestIntNAsc(t *testing.T) {
	for width := 1; width <= 8; width++ {
		lo := int64(-1) << (8*width - 1)
		hi := -(lo + 1)
		vs := []int64{lo, lo + 1, -1, 0, 1, hi - 1, hi}
		var enc [][]byte
		for _, v := range vs {
			b := EncodeIntAsc(nil, v, width)
			if len(b) != width {
				t.Fatalf("width %d: len %d", width, len(b))
			}
			_, got, err := DecodeIntAsc(b, width)
			if err != nil || got != v {
				t.Fatalf("width %d: %d decoded as %d (%v)", width, v, got, err)
			}
			enc = append(enc, b)
		}
		checkOrder(t, len(vs), func(i, j int) int { return cmpInt(vs[i], vs[j]) }, enc)

		umax := uint64(math.MaxUint64) >> (64 - 8*width)
		us := []uint64{0, 1, umax / 2, umax}
		enc = enc[:0]
		for _, v := range us {
			b := EncodeUintAsc(nil, v, width)
			_, got, err := DecodeUintAsc(b, width)
			if err != nil || got != v {
				t.Fatalf("width %d: %d decoded as %d (%v)", width, v, got, err)
			}
			enc = append(enc, b)
		}
		checkOrder(t, len(us), func(i, j int) int { return cmpInt(us[i], us[j]) }, enc)
	}
}

func cmpInt[T int64 | uint64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// checkOrder asserts that for all pairs, bytes.Compare of the encodings
// equals cmp of the values, and that inverted encodings give the reverse.
func checkOrder(t *testing.T, n int, cmp func(i, j int) int, enc [][]byte) {
	t.Helper()
	inv := make([][]byte, n)
	for i := range enc {
		inv[i] = slices.Clone(enc[i])
		Invert(inv[i])
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			want := cmp(i, j)
			if got := bytes.Compare(enc[i], enc[j]); got != want {
				t.Fatalf("order of #%d vs #%d: bytes %d want %d (%x vs %x)", i, j, got, want, enc[i], enc[j])
			}
			if got := bytes.Compare(inv[i], inv[j]); got != -want {
				t.Fatalf("inverted order of #%d vs #%d: bytes %d want %d", i, j, got, -want)
			}
		}
	}
}

func BenchmarkEncodeInt64Asc(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, 0, 64)
	for i := 0; i < b.N; i++ {
		buf = EncodeInt64Asc(buf[:0], int64(i))
	}
}

func BenchmarkDecodeInt64Asc(b *testing.B) {
	b.ReportAllocs()
	buf := EncodeInt64Asc(nil, -12345)
	for i := 0; i < b.N; i++ {
		if _, _, err := DecodeInt64Asc(buf); err != nil {
			b.Fatal(err)
		}
	}
}

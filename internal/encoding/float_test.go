package encoding

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestFloat64AscOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	vs := []float64{math.Inf(-1), -math.MaxFloat64, -1e300, -1.5, -1, -math.SmallestNonzeroFloat64, math.Copysign(0, -1), 0,
		math.SmallestNonzeroFloat64, 1e-300, 0.1, 1, 1.5, 1e300, math.MaxFloat64, math.Inf(1)}
	for i := 0; i < 300; i++ {
		vs = append(vs, rng.NormFloat64()*math.Pow(10, float64(rng.IntN(40)-20)))
	}
	enc := make([][]byte, len(vs))
	for i, v := range vs {
		enc[i] = EncodeFloat64Asc(nil, v)
		_, got, err := DecodeFloat64Asc(enc[i])
		if err != nil || got != v {
			t.Fatalf("float64 %g: got %g err %v", v, got, err)
		}
		if v == 0 && math.Signbit(got) {
			t.Fatalf("-0 decoded with sign bit")
		}
	}
	checkOrder(t, len(vs), func(i, j int) int { return cmpInt(vs[i], vs[j]) }, enc)
}

func TestFloat32AscOrder(t *testing.T) {
	vs := []float32{float32(math.Inf(-1)), -math.MaxFloat32, -2.5, -1, float32(math.Copysign(0, -1)), 0, 1e-30, 1, 3.25, math.MaxFloat32, float32(math.Inf(1))}
	enc := make([][]byte, len(vs))
	for i, v := range vs {
		enc[i] = EncodeFloat32Asc(nil, v)
		if len(enc[i]) != 4 {
			t.Fatalf("len %d", len(enc[i]))
		}
		_, got, err := DecodeFloat32Asc(enc[i])
		if err != nil || got != v {
			t.Fatalf("float32 %g: got %g err %v", v, got, err)
		}
	}
	checkOrder(t, len(vs), func(i, j int) int { return cmpInt(float64(vs[i]), float64(vs[j])) }, enc)
}

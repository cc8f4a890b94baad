package encoding

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestBytesAsc(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	vs := [][]byte{nil, {0}, {0, 0}, {0, 1}, {0, 0xff}, {1}, {0xff}, {0xff, 0}, {0xff, 0xff}, []byte("a"), []byte("a\x00"), []byte("a\x00b"),
		[]byte("ab"), []byte("abc"), []byte("b")}
	alphabet := []byte{0, 1, 'a', 0xfe, 0xff}
	for i := 0; i < 200; i++ {
		v := make([]byte, rng.IntN(6))
		for j := range v {
			v[j] = alphabet[rng.IntN(len(alphabet))]
		}
		vs = append(vs, v)
	}
	enc := make([][]byte, len(vs))
	for i, v := range vs {
		enc[i] = EncodeBytesAsc([]byte("p"), v)[1:]
		tail := append(slices.Clone(enc[i]), 0x07)
		rest, got, err := DecodeBytesAsc(tail, []byte("buf"))
		if err != nil || !bytes.Equal(got, append([]byte("buf"), v...)) || !bytes.Equal(rest, []byte{7}) {
			t.Fatalf("bytes %x: got %x rest %x err %v", v, got, rest, err)
		}
		rest, err = SkipBytesAsc(tail)
		if err != nil || !bytes.Equal(rest, []byte{7}) {
			t.Fatalf("skip %x: rest %x err %v", v, rest, err)
		}
		desc := slices.Clone(enc[i])
		Invert(desc)
		desc = append(desc, 0x07)
		rest, got, err = DecodeBytesDesc(desc, nil)
		if err != nil || !bytes.Equal(got, v) || !bytes.Equal(rest, []byte{7}) {
			t.Fatalf("desc bytes %x: got %x rest %x err %v", v, got, rest, err)
		}
		rest, err = SkipBytesDesc(desc)
		if err != nil || !bytes.Equal(rest, []byte{7}) {
			t.Fatalf("skip desc %x: rest %x err %v", v, rest, err)
		}
	}
	checkOrder(t, len(vs), func(i, j int) int { return bytes.Compare(vs[i], vs[j]) }, enc)
}

func TestBytesCorrupt(t *testing.T) {
	for _, in := range [][]byte{nil, []byte("abc"), {'a', 0}, {'a', 0, 5}} {
		if _, _, err := DecodeBytesAsc(in, nil); err == nil {
			t.Errorf("decode %x: expected error", in)
		}
		if _, err := SkipBytesAsc(in); err == nil {
			t.Errorf("skip %x: expected error", in)
		}
	}
	if _, err := SkipBytesAsc([]byte{'a', 0, 5}); !errors.Is(err, ErrCorrupt) {
		t.Errorf("want ErrCorrupt, got %v", err)
	}
}

func TestPrefixEnd(t *testing.T) {
	for _, c := range []struct{ in, want []byte }{
		{nil, nil},
		{[]byte{0xff, 0xff}, nil},
		{[]byte{1, 2}, []byte{1, 3}},
		{[]byte{1, 0xff}, []byte{2}},
		{[]byte{0, 0, 0, 7, 0xff, 0xff}, []byte{0, 0, 0, 8}},
	} {
		in := slices.Clone(c.in)
		got := PrefixEnd(in)
		if !bytes.Equal(got, c.want) || (got == nil) != (c.want == nil) {
			t.Errorf("PrefixEnd(%x) = %x want %x", c.in, got, c.want)
		}
		if !bytes.Equal(in, c.in) {
			t.Errorf("PrefixEnd modified its input")
		}
		if got != nil {
			ext := append(slices.Clone(c.in), 0xff, 0xff, 0xff)
			if bytes.Compare(ext, got) >= 0 || bytes.Compare(c.in, got) >= 0 {
				t.Errorf("PrefixEnd(%x) = %x is not above keys with the prefix", c.in, got)
			}
		}
	}
}

func BenchmarkEncodeBytesAsc(b *testing.B) {
	b.ReportAllocs()
	data := bytes.Repeat([]byte("0123456789-"), 11)
	buf := make([]byte, 0, 256)
	for i := 0; i < b.N; i++ {
		buf = EncodeBytesAsc(buf[:0], data)
	}
}

func BenchmarkDecodeBytesAsc(b *testing.B) {
	b.ReportAllocs()
	enc := EncodeBytesAsc(nil, bytes.Repeat([]byte("01234\x0056789-"), 10))
	buf := make([]byte, 0, 256)
	for i := 0; i < b.N; i++ {
		var err error
		if _, buf, err = DecodeBytesAsc(enc, buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}

package encoding

import (
	"bytes"
	"errors"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestDecimalRoundTrip(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0", "0"}, {"0.00", "0"}, {"-0.00", "0"}, {"+5", "5"},
		{"-0.5", "-0.5"}, {"0.05", "0.05"}, {"100", "100"}, {"99.99", "99.99"},
		{"-100", "-100"}, {"1.50", "1.5"}, {"-12.340", "-12.34"}, {"007.100", "7.1"},
		{"10", "10"}, {"0.000001", "0.000001"}, {"123456", "123456"}, {"1234567", "1234567"},
		{"12345678901234567890123456789.123456789", "12345678901234567890123456789.123456789"},
		{"-12345678901234567890123456789.123456789", "-12345678901234567890123456789.123456789"},
		{".5", "0.5"}, {"5.", "5"},
	} {
		enc := EncodeDecimalAsc([]byte{0xaa}, c.in)[1:]
		tail := append(slices.Clone(enc), 0x07)
		rest, got, err := DecodeDecimalAsc(tail)
		if err != nil || got != c.want || !bytes.Equal(rest, []byte{7}) {
			t.Errorf("decimal %q: got %q rest %x err %v (enc %x)", c.in, got, rest, err, enc)
		}
		if rest, err := SkipDecimalAsc(tail); err != nil || !bytes.Equal(rest, []byte{7}) {
			t.Errorf("skip %q: rest %x err %v", c.in, rest, err)
		}
		desc := slices.Clone(enc)
		Invert(desc)
		desc = append(desc, 7)
		rest, out, err := AppendDecodedDecimal(desc, []byte("x"), true)
		if err != nil || string(out) != "x"+c.want || !bytes.Equal(rest, []byte{7}) {
			t.Errorf("desc decimal %q: got %q rest %x err %v", c.in, out, rest, err)
		}
		if rest, err := SkipDecimalDesc(desc); err != nil || !bytes.Equal(rest, []byte{7}) {
			t.Errorf("skip desc %q: rest %x err %v", c.in, rest, err)
		}
	}
}

func TestDecimalScaleInsensitive(t *testing.T) {
	for _, group := range [][]string{{"1.5", "1.50", "1.500000", "01.5"}, {"0", "0.0", "-0", "0.000"}, {"-100", "-100.00"}} {
		want := EncodeDecimalAsc(nil, group[0])
		for _, s := range group[1:] {
			if got := EncodeDecimalAsc(nil, s); !bytes.Equal(got, want) {
				t.Errorf("%q encodes as %x, %q as %x", s, got, group[0], want)
			}
		}
	}
}

func TestDecimalMalformed(t *testing.T) {
	for _, s := range []string{"", "-", ".", "1.2.3", "1e5", "abc", "--1", " 1"} {
		if _, err := AppendDecimalAsc(nil, []byte(s)); !errors.Is(err, ErrBadDecimal) {
			t.Errorf("%q: want ErrBadDecimal, got %v", s, err)
		}
	}
	for _, in := range [][]byte{nil, {0x09}, {decimalPos, 0x80}, {decimalPos, 0x80, 0x01, 0x05}, {decimalPos, 0x80, 0x01, 0xf0, 0x00}} {
		if _, _, err := DecodeDecimalAsc(in); err == nil {
			t.Errorf("decode %x: expected error", in)
		}
	}
}

func randDecimal(rng *rand.Rand) string {
	var sb strings.Builder
	if rng.IntN(2) == 0 {
		sb.WriteByte('-')
	}
	intDigits := rng.IntN(8)
	if rng.IntN(10) == 0 {
		intDigits = 30
	}
	if intDigits == 0 {
		sb.WriteByte('0')
	}
	for i := 0; i < intDigits; i++ {
		sb.WriteByte(byte('0' + rng.IntN(10)))
	}
	if scale := rng.IntN(7); scale > 0 {
		sb.WriteByte('.')
		for i := 0; i < scale; i++ {
			// Bias toward zeros to exercise trailing/leading zero handling.
			d := rng.IntN(14)
			if d >= 10 {
				d = 0
			}
			sb.WriteByte(byte('0' + d))
		}
	}
	return sb.String()
}

func TestDecimalOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	vs := []string{"0", "-0.5", "0.05", "100", "99.99", "-100", "12345678901234567890123456789.123456789",
		"-12345678901234567890123456789.123456789", "0.5", "-0.05", "1", "-1", "10", "1.01", "1.1", "0.0001", "-0.0001", "99.999"}
	for i := 0; i < 300; i++ {
		vs = append(vs, randDecimal(rng))
	}
	rats := make([]*big.Rat, len(vs))
	enc := make([][]byte, len(vs))
	for i, s := range vs {
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("bad test decimal %q", s)
		}
		rats[i] = r
		enc[i] = EncodeDecimalAsc(nil, s)
		_, back, err := DecodeDecimalAsc(enc[i])
		if err != nil {
			t.Fatalf("decode %q: %v", s, err)
		}
		if br, ok := new(big.Rat).SetString(back); !ok || br.Cmp(r) != 0 {
			t.Fatalf("%q decoded as %q", s, back)
		}
	}
	checkOrder(t, len(vs), func(i, j int) int { return rats[i].Cmp(rats[j]) }, enc)
}

package encoding

import (
	"math"
	"testing"
)

func TestVarint(t *testing.T) {
	for _, v := range []int64{math.MinInt64, -1 << 40, -65, -64, -1, 0, 1, 63, 64, 1 << 40, math.MaxInt64} {
		b := AppendVarint(nil, v)
		rest, got, err := DecodeVarint(append(b, 9))
		if err != nil || got != v || len(rest) != 1 {
			t.Fatalf("varint %d: got %d rest %x err %v", v, got, rest, err)
		}
	}
	if n := len(AppendVarint(nil, -1)); n != 1 {
		t.Fatalf("zigzag -1 took %d bytes", n)
	}
	for _, v := range []uint64{0, 127, 128, 1 << 63, math.MaxUint64} {
		b := AppendUvarint(nil, v)
		_, got, err := DecodeUvarint(b)
		if err != nil || got != v {
			t.Fatalf("uvarint %d: got %d err %v", v, got, err)
		}
	}
	if _, _, err := DecodeUvarint([]byte{0x80}); err == nil {
		t.Fatal("expected error for truncated uvarint")
	}
	if _, _, err := DecodeUvarint([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}); err == nil {
		t.Fatal("expected error for overflowing uvarint")
	}
}

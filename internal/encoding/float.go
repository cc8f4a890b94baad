package encoding

import (
	"encoding/binary"
	"fmt"
	"math"
)

// EncodeFloat64Asc appends an order-preserving 8-byte encoding of f:
// non-negative numbers have the sign bit flipped, negative numbers have all
// bits inverted. -0 is encoded as +0. NaN is not supported (MySQL has none).
func EncodeFloat64Asc(b []byte, f float64) []byte {
	if f == 0 {
		f = 0 // -0 -> +0
	}
	u := math.Float64bits(f)
	if u&(1<<63) != 0 {
		u = ^u
	} else {
		u ^= 1 << 63
	}
	return binary.BigEndian.AppendUint64(b, u)
}

// DecodeFloat64Asc decodes a value written by EncodeFloat64Asc.
func DecodeFloat64Asc(b []byte) ([]byte, float64, error) {
	if len(b) < 8 {
		return b, 0, fmt.Errorf("decode float64 from %d bytes: %w", len(b), ErrShortBuffer)
	}
	u := binary.BigEndian.Uint64(b)
	if u&(1<<63) != 0 {
		u ^= 1 << 63
	} else {
		u = ^u
	}
	return b[8:], math.Float64frombits(u), nil
}

// EncodeFloat32Asc is EncodeFloat64Asc for a float32, in 4 bytes.
func EncodeFloat32Asc(b []byte, f float32) []byte {
	if f == 0 {
		f = 0
	}
	u := math.Float32bits(f)
	if u&(1<<31) != 0 {
		u = ^u
	} else {
		u ^= 1 << 31
	}
	return binary.BigEndian.AppendUint32(b, u)
}

// DecodeFloat32Asc decodes a value written by EncodeFloat32Asc.
func DecodeFloat32Asc(b []byte) ([]byte, float32, error) {
	if len(b) < 4 {
		return b, 0, fmt.Errorf("decode float32 from %d bytes: %w", len(b), ErrShortBuffer)
	}
	u := binary.BigEndian.Uint32(b)
	if u&(1<<31) != 0 {
		u ^= 1 << 31
	} else {
		u = ^u
	}
	return b[4:], math.Float32frombits(u), nil
}

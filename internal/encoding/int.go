package encoding

import (
	"encoding/binary"
	"fmt"
)

// NullMarker and NotNullMarker prefix a nullable key part; NULL sorts first.
const (
	NullMarker    = 0x00
	NotNullMarker = 0x01
)

// EncodeUint32 appends v as 4 big-endian bytes (used for index ids).
func EncodeUint32(b []byte, v uint32) []byte {
	return binary.BigEndian.AppendUint32(b, v)
}

// DecodeUint32 decodes a value written by EncodeUint32.
func DecodeUint32(b []byte) (rest []byte, v uint32, err error) {
	if len(b) < 4 {
		return b, 0, fmt.Errorf("decode uint32 from %d bytes: %w", len(b), ErrShortBuffer)
	}
	return b[4:], binary.BigEndian.Uint32(b), nil
}

// EncodeInt64Asc appends v in 8 bytes, big-endian with the sign bit flipped,
// so that negative numbers sort before positive ones.
func EncodeInt64Asc(b []byte, v int64) []byte {
	return binary.BigEndian.AppendUint64(b, uint64(v)^(1<<63))
}

// DecodeInt64Asc decodes a value written by EncodeInt64Asc.
func DecodeInt64Asc(b []byte) ([]byte, int64, error) {
	if len(b) < 8 {
		return b, 0, fmt.Errorf("decode int64 from %d bytes: %w", len(b), ErrShortBuffer)
	}
	return b[8:], int64(binary.BigEndian.Uint64(b) ^ (1 << 63)), nil
}

// EncodeUint64Asc appends v as 8 big-endian bytes.
func EncodeUint64Asc(b []byte, v uint64) []byte {
	return binary.BigEndian.AppendUint64(b, v)
}

// DecodeUint64Asc decodes a value written by EncodeUint64Asc.
func DecodeUint64Asc(b []byte) ([]byte, uint64, error) {
	if len(b) < 8 {
		return b, 0, fmt.Errorf("decode uint64 from %d bytes: %w", len(b), ErrShortBuffer)
	}
	return b[8:], binary.BigEndian.Uint64(b), nil
}

// EncodeIntAsc appends v in width bytes (1..8), big-endian with the sign bit
// of that width flipped. v must fit in a signed integer of width bytes (the
// caller checks the range); the order is then that of the values.
func EncodeIntAsc(b []byte, v int64, width int) []byte {
	u := uint64(v) ^ (1 << (8*uint(width) - 1))
	return appendUintN(b, u, width)
}

// DecodeIntAsc decodes a value written by EncodeIntAsc with the same width.
func DecodeIntAsc(b []byte, width int) ([]byte, int64, error) {
	if len(b) < width {
		return b, 0, fmt.Errorf("decode int%d from %d bytes: %w", 8*width, len(b), ErrShortBuffer)
	}
	u := readUintN(b, width) ^ (1 << (8*uint(width) - 1))
	// Sign-extend from the width's top bit.
	shift := 64 - 8*uint(width)
	return b[width:], int64(u<<shift) >> shift, nil
}

// EncodeUintAsc appends v in width bytes (1..8), big-endian. v must fit.
func EncodeUintAsc(b []byte, v uint64, width int) []byte {
	return appendUintN(b, v, width)
}

// DecodeUintAsc decodes a value written by EncodeUintAsc with the same width.
func DecodeUintAsc(b []byte, width int) ([]byte, uint64, error) {
	if len(b) < width {
		return b, 0, fmt.Errorf("decode uint%d from %d bytes: %w", 8*width, len(b), ErrShortBuffer)
	}
	return b[width:], readUintN(b, width), nil
}

func appendUintN(b []byte, u uint64, width int) []byte {
	for i := width - 1; i >= 0; i-- {
		b = append(b, byte(u>>(8*uint(i))))
	}
	return b
}

func readUintN(b []byte, width int) uint64 {
	var u uint64
	for i := 0; i < width; i++ {
		u = u<<8 | uint64(b[i])
	}
	return u
}

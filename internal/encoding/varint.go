package encoding

import (
	"encoding/binary"
	"fmt"
)

// AppendUvarint appends v as an encoding/binary uvarint (1..10 bytes).
func AppendUvarint(b []byte, v uint64) []byte {
	return binary.AppendUvarint(b, v)
}

// DecodeUvarint decodes a value written by AppendUvarint.
func DecodeUvarint(b []byte) ([]byte, uint64, error) {
	v, n := binary.Uvarint(b)
	if n <= 0 {
		if n == 0 {
			return b, 0, fmt.Errorf("decode uvarint: %w", ErrShortBuffer)
		}
		return b, 0, fmt.Errorf("decode uvarint: overflow: %w", ErrCorrupt)
	}
	return b[n:], v, nil
}

// AppendVarint appends v zigzag-encoded as a uvarint, so small negative
// numbers stay short.
func AppendVarint(b []byte, v int64) []byte {
	return binary.AppendUvarint(b, uint64(v<<1)^uint64(v>>63))
}

// DecodeVarint decodes a value written by AppendVarint.
func DecodeVarint(b []byte) ([]byte, int64, error) {
	rest, u, err := DecodeUvarint(b)
	if err != nil {
		return b, 0, err
	}
	return rest, int64(u>>1) ^ -int64(u&1), nil
}

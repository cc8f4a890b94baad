package encoding

import (
	"bytes"
	"fmt"
)

const (
	escape      = 0x00
	escaped00   = 0xff
	terminator  = 0x01
	escapeDesc  = ^byte(escape)
	escaped00D  = ^byte(escaped00)
	terminatorD = ^byte(terminator)
)

// EncodeBytesAsc appends data escaped so that the encoding sorts like data:
// every 0x00 becomes 0x00 0xff and the value ends with 0x00 0x01.
func EncodeBytesAsc(b, data []byte) []byte {
	for {
		i := bytes.IndexByte(data, escape)
		if i < 0 {
			break
		}
		b = append(b, data[:i]...)
		b = append(b, escape, escaped00)
		data = data[i+1:]
	}
	b = append(b, data...)
	return append(b, escape, terminator)
}

// DecodeBytesAsc decodes a value written by EncodeBytesAsc, appending the
// unescaped bytes to buf; data is the extended buf.
func DecodeBytesAsc(b []byte, buf []byte) (rest, data []byte, err error) {
	return decodeBytes(b, buf, escape, escaped00, terminator, false)
}

// SkipBytesAsc returns b after one value written by EncodeBytesAsc.
func SkipBytesAsc(b []byte) (rest []byte, err error) {
	return skipBytes(b, escape, escaped00, terminator)
}

// DecodeBytesDesc decodes the ones' complement of an EncodeBytesAsc value
// (a descending key part), appending the original bytes to buf.
func DecodeBytesDesc(b []byte, buf []byte) (rest, data []byte, err error) {
	return decodeBytes(b, buf, escapeDesc, escaped00D, terminatorD, true)
}

// SkipBytesDesc returns b after the ones' complement of an EncodeBytesAsc
// value.
func SkipBytesDesc(b []byte) (rest []byte, err error) {
	return skipBytes(b, escapeDesc, escaped00D, terminatorD)
}

func decodeBytes(b, buf []byte, esc, esc00, term byte, invert bool) (rest, data []byte, err error) {
	for {
		i := bytes.IndexByte(b, esc)
		if i < 0 || i+1 >= len(b) {
			return b, buf, fmt.Errorf("decode bytes: missing terminator: %w", ErrShortBuffer)
		}
		start := len(buf)
		buf = append(buf, b[:i]...)
		if invert {
			Invert(buf[start:])
		}
		switch b[i+1] {
		case term:
			return b[i+2:], buf, nil
		case esc00:
			buf = append(buf, 0x00)
			b = b[i+2:]
		default:
			return b, buf, fmt.Errorf("decode bytes: byte 0x%02x after escape: %w", b[i+1], ErrCorrupt)
		}
	}
}

func skipBytes(b []byte, esc, esc00, term byte) ([]byte, error) {
	off := 0
	for {
		i := bytes.IndexByte(b[off:], esc)
		if i < 0 || off+i+1 >= len(b) {
			return b, fmt.Errorf("skip bytes: missing terminator: %w", ErrShortBuffer)
		}
		off += i
		switch b[off+1] {
		case term:
			return b[off+2:], nil
		case esc00:
			off += 2
		default:
			return b, fmt.Errorf("skip bytes: byte 0x%02x after escape: %w", b[off+1], ErrCorrupt)
		}
	}
}

// Package encoding holds strata's memcomparable primitives: byte encodings of
// values whose bytewise order (bytes.Compare) equals the natural order of the
// values, plus the small varint helpers used by the row format. It knows
// nothing about SQL; the table codec builds index keys and row values from it.
//
// Every encoder is append-style: it appends to b and returns the extended
// slice, so a caller can reuse one buffer for many keys. Every Encode has its
// Decode, which returns the remaining input first.
//
// # Byte layout
//
// The grammar below uses "||" for concatenation; all multi-byte integers are
// big-endian unless marked LE.
//
//	uint32      = 4 bytes                         (index ids)
//	null-marker = 0x00 (NULL) | 0x01 (NOT NULL)   (NULL sorts first)
//
//	int64-asc   = uint64(v) XOR 1<<63, 8 bytes    (sign bit flipped)
//	intN-asc    = uint(v) XOR 1<<(8N-1), N bytes  (N = 1..8, v fits N bytes)
//	uint64-asc  = v, 8 bytes
//	uintN-asc   = v, N bytes
//
//	float64-asc = bits(f) XOR 1<<63     if f >= 0 (-0 is encoded as +0)
//	            | NOT bits(f)           if f <  0, 8 bytes
//	float32-asc = the same over the 32 bits of a float32, 4 bytes
//
//	bytes-asc   = { 0x00 0xff | b } 0x00 0x01     (b is any byte except 0x00)
//
//	decimal-asc = 0x01 || NOT(exp || digits || 0x00)   negative
//	            | 0x02                                 zero
//	            | 0x03 || exp || digits || 0x00        positive
//	exp         = uint16(E + 0x8000), 2 bytes, where |value| = 0.d1d2d3... * 10^E, d1 != 0
//	digits      = { pair }                          significant digits d1 d2 ... with the
//	                                                trailing zeros dropped, two per byte:
//	pair        = 1 + 10*d(2i-1) + d(2i)            (1..100; a missing last digit counts as 0)
//
//	uvarint     = encoding/binary uvarint           (row format, not ordered)
//	varint      = uvarint of the zigzag transform   (row format, not ordered)
//
// A descending key part is the ones' complement of the ascending one (Invert).
// Every variable-length encoding above is prefix-free (terminated), so a
// complemented encoding still sorts in exactly the reverse order, and one key
// part can be skipped without knowing the ones that follow it.
//
// Decimal values equal in value encode identically whatever their scale
// ("1.50" and "1.5", "0.00" and "0"), which is what an index needs; the
// decoder returns the shortest text and the caller re-applies the scale.
package encoding

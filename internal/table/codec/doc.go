// Package codec maps SQL values to the bytes strata stores: memcomparable
// key parts for primary and secondary index keys (AppendKey, DecodeKey,
// SkipKey) and compact row values (RowCodec).
//
// # Values
//
// Values are sqltypes.Value already converted to the column's type, in
// canonical MySQL text: integers "123"/"-5"; DECIMAL with exactly the column
// scale ("12.50"); FLOAT/DOUBLE as strconv 'g' shortest text; DATE
// "2024-01-31"; DATETIME/TIMESTAMP "2024-01-31 13:45:00[.ffffff]" (Scale
// digits); TIME "[-]HH:MM:SS[.ffffff]" (hours up to 838); YEAR "2024"; ENUM
// the member text; SET comma-separated members; text as utf8mb4 (or the
// column's charset); binary strings and BIT as raw bytes; JSON text. NULL is
// sqltypes.NULL. Malformed text fails with ErrBadValue, values outside the
// type's range with ErrOutOfRange.
//
// # Key parts
//
//	keypart   = 0x00                         NULL (sorts first)
//	          | 0x01 || typed                not NULL
//	desc part = NOT keypart                  ones' complement of the whole part
//
//	typed, by column type:
//	  TINYINT..BIGINT        intN-asc in the type's width (1, 2, 3, 4, 8 bytes)
//	  ... UNSIGNED           uintN-asc in the type's width
//	  YEAR                   1 byte: 0 for 0000, else year-1900
//	  FLOAT / DOUBLE         float32-asc / float64-asc
//	  DECIMAL                decimal-asc (scale-insensitive: 1.50 == 1.5)
//	  DATE                   uint24-asc(year<<9 | month<<5 | day)
//	  DATETIME, TIMESTAMP    uint40-asc(((year*13+month)<<5|day)<<17 | hour<<12 | minute<<6 | second)
//	                         || uintF-asc(fraction), F = 0, 1, 2, 3 bytes for fsp 0, 1-2, 3-4, 5-6
//	  TIME                   int(24+8F)-asc(±(seconds*100^F + fraction))
//	  ENUM                   uint16-asc(member index), declaration order like MySQL
//	  SET                    uint64-asc(member bitmask)
//	  BIT                    uint64-asc(value)
//	  CHAR, VARCHAR, TEXT    the collation's weight string of the value (the text is
//	                         UTF-8 in every character set: a latin1, cp1250, ...
//	                         column weighs under its nearest utf8mb4 collation,
//	                         collation.EvalCollation; after
//	                         truncation to the key-part prefix and, for PAD SPACE
//	                         collations, stripping trailing spaces), made prefix-free:
//	                           *_general_ci (utf8)   units16(weights), 1 byte per ASCII char
//	                           utf8mb4_bin, utf8mb3_bin  bytes-asc(text): UTF-8 byte order
//	                                                 is their weight order
//	                           all others            bytes-asc(weights)
//	                         (units16 is defined in text.go; every form sorts exactly
//	                         like the weight strings and is skipped by SkipKey)
//	  binary strings, JSON   bytes-asc(raw bytes)
//
// (intN-asc, decimal-asc, bytes-asc and friends are defined in package
// encoding.) The primary key of a table without one (HiddenPK) is the hidden
// row id as uint64-asc, without a null marker (AppendHiddenPK).
//
// Which key parts can be decoded back is told by KeyDecodable: text weights
// cannot (a case-insensitive collation maps 'a' and 'A' to the same bytes),
// floats fold -0 into +0; everything else decodes exactly.
//
// # Rows
//
// The row value layout is documented on RowCodec.
package codec

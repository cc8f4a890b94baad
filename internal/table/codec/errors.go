package codec

import "errors"

// Errors returned by the codecs, wrapped with the column name; test with
// errors.Is. Decoding errors from package encoding (ErrShortBuffer,
// ErrCorrupt) are passed through wrapped as well.
var (
	// ErrBadValue means a value's text is not the canonical form of the
	// column's type (see the package doc); the caller should have converted it.
	ErrBadValue = errors.New("codec: value not in the column type's canonical form")
	// ErrOutOfRange means a value does not fit the column's type, e.g. 300 for
	// a TINYINT key part. Integer key parts use the type's native width, so a
	// planner building range bounds must clamp constants to the type's range.
	ErrOutOfRange = errors.New("codec: value out of range for column type")
	// ErrCorruptRow means a stored row value or key cannot be decoded.
	ErrCorruptRow = errors.New("codec: corrupt row or key")
	// ErrUnknownCollation means a text column's collation id is not known.
	ErrUnknownCollation = errors.New("codec: unknown collation")
)

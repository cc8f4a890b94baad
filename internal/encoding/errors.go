package encoding

import "errors"

// Errors returned by the decoders. They are returned wrapped with context;
// test with errors.Is.
var (
	// ErrShortBuffer means the input ended inside an encoded value.
	ErrShortBuffer = errors.New("encoding: input too short")
	// ErrCorrupt means the input is not a valid encoding of the expected kind.
	ErrCorrupt = errors.New("encoding: corrupt input")
	// ErrBadDecimal means a decimal text is not of the form [-]digits[.digits].
	ErrBadDecimal = errors.New("encoding: malformed decimal text")
)

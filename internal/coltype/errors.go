package coltype

import (
	"strconv"

	"vitess.io/vitess/go/mysql/sqlerror"
)

// MySQL error codes that the sqlerror package does not name.
const (
	erTooBigScale     = sqlerror.ErrorCode(1425)
	erTooBigPrecision = sqlerror.ErrorCode(1426)
	erMBiggerThanD    = sqlerror.ErrorCode(1427)
	erTooBigDisplay   = sqlerror.ErrorCode(1439)
	erNotSupportedYet = sqlerror.ErrorCode(1235)
	// ER_UNSUPPORTED_ACTION_ON_GENERATED_COLUMN
	erUnsupportedOnGenerated = sqlerror.ErrorCode(3106)
)

// SQLSTATE values used below.
const (
	ssSyntax      = "42000"
	ssGeneral     = "HY000"
	ssOutOfRange  = "22003"
	ssTooLong     = "22001"
	ssBadDatetime = "22007"
	ssTruncated   = "01000"
	ssBadJSON     = "22032"
)

// Warning is a condition raised by a conversion that did not fail: a "Note"
// (e.g. DECIMAL rounding) or a "Warning" (e.g. clipping in non-strict mode).
type Warning struct {
	// Level is "Warning" or "Note".
	Level   string
	Code    uint16
	Message string
}

// Warning levels.
const (
	LevelWarning = "Warning"
	LevelNote    = "Note"
)

func atRow(row int) string { return " at row " + strconv.Itoa(row) }

func msgOutOfRange(col string, row int) string {
	return "Out of range value for column '" + col + "'" + atRow(row)
}

func msgTruncated(col string, row int) string {
	return "Data truncated for column '" + col + "'" + atRow(row)
}

func msgTooLong(col string, row int) string {
	return "Data too long for column '" + col + "'" + atRow(row)
}

func msgIncorrect(kind, val, col string, row int) string {
	return "Incorrect " + kind + " value: '" + val + "' for column '" + col + "'" + atRow(row)
}

func newErr(code sqlerror.ErrorCode, state, msg string) *sqlerror.SQLError {
	return sqlerror.NewSQLError(code, state, msg)
}

// errInvalidDefault is error 1067.
func errInvalidDefault(col string) error {
	return newErr(sqlerror.ERInvalidDefault, ssSyntax, "Invalid default value for '"+col+"'")
}

// errWrongFieldSpec is error 1063.
func errWrongFieldSpec(col string) error {
	return newErr(sqlerror.ERWrongFieldSpec, ssSyntax, "Incorrect column specifier for column '"+col+"'")
}

// errTooBigFieldLength is error 1074.
func errTooBigFieldLength(col string, max int) error {
	return newErr(sqlerror.ERTooBigFieldLength, ssSyntax,
		"Column length too big for column '"+col+"' (max = "+strconv.Itoa(max)+"); use BLOB or TEXT instead")
}

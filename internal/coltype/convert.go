package coltype

import (
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/tz"
)

// Mode holds the sql_mode flags that affect store assignment.
type Mode uint8

const (
	// ModeStrict is STRICT_TRANS_TABLES / STRICT_ALL_TABLES: bad values are
	// errors instead of warnings.
	ModeStrict Mode = 1 << iota
	// ModeNoZeroDate is NO_ZERO_DATE: '0000-00-00' is rejected.
	ModeNoZeroDate
	// ModeNoZeroInDate is NO_ZERO_IN_DATE: '2024-00-10' is rejected.
	ModeNoZeroInDate
)

// ModeDefault is MySQL 8.0's default sql_mode as far as store assignment
// is concerned (STRICT_TRANS_TABLES, NO_ZERO_DATE, NO_ZERO_IN_DATE).
const ModeDefault = ModeStrict | ModeNoZeroDate | ModeNoZeroInDate

// Convert performs MySQL store assignment of v into col and returns the
// canonical stored form (see the package documentation). strict selects
// MySQL 8.0's default strict sql_mode (ModeDefault); non-strict is
// sql_mode=”. Problems are errors (*sqlerror.SQLError) in strict mode and a
// *Warning otherwise; Notes are returned in both modes. NULL is returned
// unchanged. row is the 1-based row number used in messages. The result may
// share v's bytes (text already in its stored form is kept as it is).
func Convert(col *catalog.Column, v sqltypes.Value, strict bool, row int) (sqltypes.Value, *Warning, error) {
	mode := Mode(0)
	if strict {
		mode = ModeDefault
	}
	return ConvertMode(col, v, mode, row)
}

// ConvertMode is Convert under explicit sql_mode flags.
func ConvertMode(col *catalog.Column, v sqltypes.Value, mode Mode, row int) (sqltypes.Value, *Warning, error) {
	return convertIn(col, v, mode, row, nil)
}

// ConvertIn is Convert with a TIMESTAMP value taken as local time of zone
// (nil: UTC), as MySQL stores a TIMESTAMP: the range check applies to the
// UTC instant, and a time in a spring-forward gap moves to the first
// instant after it (error 1292 in strict mode, warning 1299 otherwise).
// The result is still local time, normalised (the time it reads back as).
func ConvertIn(col *catalog.Column, v sqltypes.Value, strict bool, row int, zone *tz.Zone) (sqltypes.Value, *Warning, error) {
	mode := Mode(0)
	if strict {
		mode = ModeDefault
	}
	return convertIn(col, v, mode, row, zone)
}

func convertIn(col *catalog.Column, v sqltypes.Value, mode Mode, row int, zone *tz.Zone) (sqltypes.Value, *Warning, error) {
	if v.IsNull() {
		return v, nil, nil
	}
	if zone != nil && zone.IsUTC() {
		zone = nil
	}
	c := conv{col: col, mode: mode, row: row, zone: zone}
	var out sqltypes.Value
	var err error
	switch col.Type {
	case sqltypes.Int8, sqltypes.Uint8, sqltypes.Int16, sqltypes.Uint16, sqltypes.Int24, sqltypes.Uint24,
		sqltypes.Int32, sqltypes.Uint32, sqltypes.Int64, sqltypes.Uint64:
		out, err = c.toInt(v)
	case sqltypes.Decimal:
		out, err = c.toDecimal(v)
	case sqltypes.Float32, sqltypes.Float64:
		out, err = c.toFloat(v)
	case sqltypes.Bit:
		out, err = c.toBit(v)
	case sqltypes.Year:
		out, err = c.toYear(v)
	case sqltypes.Date, sqltypes.Datetime, sqltypes.Timestamp:
		out, err = c.toDatetime(v)
	case sqltypes.Time:
		out, err = c.toTime(v)
	case sqltypes.Enum:
		out, err = c.toEnum(v)
	case sqltypes.Set:
		out, err = c.toSet(v)
	case sqltypes.TypeJSON:
		out, err = c.toJSON(v)
	case sqltypes.Char, sqltypes.VarChar, sqltypes.Text:
		out, err = c.toText(v)
	case sqltypes.Binary, sqltypes.VarBinary, sqltypes.Blob:
		out, err = c.toBinary(v)
	default:
		err = newErr(sqlerror.ERUnknownError, ssGeneral, "unsupported column type "+col.Type.String()+" for column '"+col.Name+"'")
	}
	if err != nil {
		return sqltypes.Value{}, nil, err
	}
	return out, c.w, nil
}

// conv carries the state of one conversion.
type conv struct {
	col  *catalog.Column
	mode Mode
	row  int
	w    *Warning
	// zone: TIMESTAMP values are local time of zone (nil: UTC); utc is
	// set while toDatetime holds the value as its UTC instant.
	zone *tz.Zone
	utc  bool
}

func (c *conv) strict() bool { return c.mode&ModeStrict != 0 }

// problem reports a condition that is an error in strict mode and a warning
// otherwise. It returns the error to fail with, or nil to go on.
func (c *conv) problem(code uint16, state, msg string) error {
	if c.strict() {
		return newErr(sqlerror.ErrorCode(code), state, msg)
	}
	c.warn(LevelWarning, code, msg)
	return nil
}

// warn records a warning or note; a Warning outranks a Note, else the first
// condition wins.
func (c *conv) warn(level string, code uint16, msg string) {
	if c.w != nil && (c.w.Level == LevelWarning || level == LevelNote) {
		return
	}
	c.w = &Warning{Level: level, Code: code, Message: msg}
}

func (c *conv) outOfRange() error {
	return c.problem(1264, ssOutOfRange, msgOutOfRange(c.col.Name, c.row))
}

func (c *conv) truncated() error {
	return c.problem(1265, ssTruncated, msgTruncated(c.col.Name, c.row))
}

func (c *conv) noteTruncated() {
	c.warn(LevelNote, 1265, msgTruncated(c.col.Name, c.row))
}

// tooLong is error 1406 in strict mode; otherwise the value is cut and the
// warning is "Data truncated" (strings) or "Out of range" (BIT).
func (c *conv) tooLong(outOfRange bool) error {
	if c.strict() {
		return newErr(sqlerror.ERDataTooLong, ssTooLong, msgTooLong(c.col.Name, c.row))
	}
	if outOfRange {
		c.warn(LevelWarning, 1264, msgOutOfRange(c.col.Name, c.row))
	} else {
		c.warn(LevelWarning, 1265, msgTruncated(c.col.Name, c.row))
	}
	return nil
}

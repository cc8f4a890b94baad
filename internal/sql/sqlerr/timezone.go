package sqlerr

import "vitess.io/vitess/go/mysql/sqlerror"

// UnknownTimeZone is 1298 for a time_zone value (SET time_zone, the
// --default-time-zone option) that names no zone.
func UnknownTimeZone(name string) error {
	return New(sqlerror.ERUnknownTimeZone, sqlerror.SSUnknownSQLState, "Unknown or incorrect time zone: '%s'", name)
}

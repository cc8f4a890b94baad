package sysvar

import (
	"time"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/tz"
)

// normalizeTimeZone validates a time_zone value as MySQL does: a string
// naming a zone (tz.Resolve), stored as the zone's name ('+5:00' becomes
// '+05:00'); NULL is 1231, a number 1232, an unknown zone 1298.
func normalizeTimeZone(v sqltypes.Value) (sqltypes.Value, error) {
	if v.IsNull() {
		return v, sqlerr.New(sqlerror.ERWrongValueForVar, sqlerror.SSClientError, "Variable 'time_zone' can't be set to the value of 'NULL'")
	}
	if v.IsIntegral() || v.IsFloat() || v.IsDecimal() {
		return v, sqlerr.New(sqlerror.ERWrongTypeForVar, sqlerror.SSClientError, "Incorrect argument type to variable 'time_zone'")
	}
	z, err := tz.Resolve(v.ToString())
	if err != nil {
		return v, sqlerr.UnknownTimeZone(v.ToString())
	}
	return sqltypes.NewVarChar(z.Name()), nil
}

// systemTimeZone is @@system_time_zone: the abbreviation of the server's
// local zone at startup ("UTC" on the machines strata is tested on).
func systemTimeZone() string {
	name, _ := time.Now().Zone()
	return name
}

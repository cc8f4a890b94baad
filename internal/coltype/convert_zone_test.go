package coltype

import (
	"testing"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/tz"
)

// ConvertIn checks a TIMESTAMP's range on its UTC instant and moves a time
// in a DST gap to the transition, as MySQL stores it.
func TestConvertInZone(t *testing.T) {
	col := mustCol(t, "ts timestamp(1) null")
	plus5, _ := tz.Resolve("+05:00")
	minus5, _ := tz.Resolve("-05:00")
	ny, _ := tz.Resolve("America/New_York")
	for _, c := range []struct {
		zone   *tz.Zone
		in     string
		strict bool
		out    string
		code   uint16 // error (strict) or warning code, 0 for none
	}{
		{plus5, "1970-01-01 05:00:01", true, "1970-01-01 05:00:01.0", 0},
		{plus5, "1970-01-01 05:00:00", true, "", 1292},
		{plus5, "1970-01-01 05:00:00", false, "0000-00-00 00:00:00.0", 1264},
		{minus5, "1969-12-31 19:00:01", true, "1969-12-31 19:00:01.0", 0},
		{minus5, "1969-12-31 19:00:00", true, "", 1292},
		{plus5, "2038-01-19 08:14:07", true, "2038-01-19 08:14:07.0", 0},
		{minus5, "2038-01-19 00:00:00", true, "", 1292},
		{nil, "2038-01-19 03:14:07", true, "2038-01-19 03:14:07.0", 0},
		{ny, "2020-03-08 02:30:00.5", true, "", 1292},
		{ny, "2020-03-08 02:30:00.5", false, "2020-03-08 03:00:00.5", 1299},
		{ny, "2020-11-01 01:30:00", true, "2020-11-01 01:30:00.0", 0},
		{ny, "0000-00-00 00:00:00", false, "0000-00-00 00:00:00.0", 0},
	} {
		out, w, err := ConvertIn(col, sqltypes.NewVarChar(c.in), c.strict, 1, c.zone)
		var code uint16
		switch {
		case err != nil:
			code = uint16(errCode(err))
		case w != nil:
			code = w.Code
		}
		name := "UTC"
		if c.zone != nil {
			name = c.zone.Name()
		}
		if code != c.code || err == nil && out.ToString() != c.out {
			t.Errorf("%s ConvertIn(%q, strict=%v) = %q, code %d (%v); want %q, code %d", name, c.in, c.strict, out.ToString(), code, err, c.out, c.code)
		}
	}
}

func errCode(err error) int {
	if se, ok := err.(interface{ Number() sqlerror.ErrorCode }); ok {
		return int(se.Number())
	}
	return -1
}

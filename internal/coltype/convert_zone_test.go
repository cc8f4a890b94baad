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

// A datetime literal with an offset (MySQL 8.0.19+) is converted into the
// session's zone, for DATETIME and TIMESTAMP columns alike.
func TestConvertOffsetLiteral(t *testing.T) {
	ts := mustCol(t, "ts timestamp null")
	dt := mustCol(t, "dt datetime null")
	minus5, _ := tz.Resolve("-05:00")
	for _, c := range []struct {
		col      string
		zone     *tz.Zone
		in, want string
	}{
		{"dt", nil, "2020-01-01 10:10:10+05:30", "2020-01-01 04:40:10"},
		{"dt", minus5, "2020-01-01 10:10:10+05:30", "2019-12-31 23:40:10"},
		{"ts", minus5, "2020-01-01 10:10:10-08:00", "2020-01-01 13:10:10"},
		{"dt", nil, "2020-01-01 10:10:10+14:00", "2019-12-31 20:10:10"},
	} {
		col := dt
		if c.col == "ts" {
			col = ts
		}
		out, w, err := ConvertIn(col, sqltypes.NewVarChar(c.in), true, 1, c.zone)
		if err != nil || w != nil || out.ToString() != c.want {
			t.Errorf("%s %q = %q, %v, %v; want %q", c.col, c.in, out.ToString(), w, err, c.want)
		}
	}
	for _, bad := range []string{"2020-01-01 10:10:10+14:01", "2020-01-01 10:10:10-00:00", "2020-01-01 10:10:10+5:30", "2020-00-01 10:10:10+05:30"} {
		if _, _, err := ConvertIn(dt, sqltypes.NewVarChar(bad), true, 1, nil); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

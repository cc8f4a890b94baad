package builtins

import (
	"testing"

	"vitess.io/vitess/go/sqltypes"
)

func mustDatetime(t *testing.T, s string) mtime {
	t.Helper()
	v, _, ok := parseDatetimeString(s)
	if !ok {
		t.Fatalf("parseDatetimeString(%q) failed", s)
	}
	return v
}

func TestParseDatetimeString(t *testing.T) {
	for s, want := range map[string]string{
		"2020-01-02":                   "2020-01-02",
		"2020-1-2 3:04:05":             "2020-01-02 03:04:05",
		"2020-01-02 10:00":             "2020-01-02 10:00:00",
		"2020-01-02T10:11:12.5":        "2020-01-02 10:11:12.5",
		"  2007-12-31 23:59:59.999999": "2007-12-31 23:59:59.999999",
		"20200102":                     "2020-01-02",
		"200102":                       "2020-01-02",
		"20200102101112":               "2020-01-02 10:11:12",
		"20-01-02":                     "2020-01-02",
		"99/12/31":                     "1999-12-31",
		"0000-00-00":                   "0000-00-00",
	} {
		if got := mustDatetime(t, s).String(); got != want {
			t.Errorf("parseDatetimeString(%q) = %q, want %q", s, got, want)
		}
	}
	for _, s := range []string{"", "abc", "10:00", "2020-13-01", "2020-01-01 25:00:00", "2020"} {
		if v, _, ok := parseDatetimeString(s); ok && v.kind != tkDate {
			t.Errorf("parseDatetimeString(%q) = %v, want failure", s, v)
		}
	}
}

func TestTimestampDiff(t *testing.T) {
	for _, c := range []struct {
		unit, a, b string
		want       int64
	}{
		{"month", "2003-02-01", "2003-05-01", 3},
		{"year", "2002-05-01", "2001-01-01", -1},
		{"minute", "2003-02-01", "2003-05-01 12:05:55", 128885},
		{"month", "2020-01-31", "2020-02-29", 0},
		{"month", "2020-02-29", "2020-01-31", 0},
		{"month", "2020-01-15 10:00:00", "2020-02-15 09:59:59", 0},
		{"month", "2020-01-15 10:00:00", "2020-02-15 10:00:00", 1},
		{"quarter", "2020-01-15", "2021-01-14", 3},
		{"year", "2000-02-29", "2004-02-29", 4},
		{"microsecond", "2020-01-01 00:00:00.5", "2020-01-01 00:00:01", 500000},
		{"second", "2020-01-01 00:00:01", "2020-01-01 00:00:00.5", 0},
		{"week", "2020-01-01", "2020-01-15", 2},
		{"day", "2020-01-02", "2020-01-01 00:00:01", 0},
	} {
		got, ok := timestampDiff(c.unit, mustDatetime(t, c.a), mustDatetime(t, c.b))
		if !ok || got != c.want {
			t.Errorf("TIMESTAMPDIFF(%s, %s, %s) = %d, want %d", c.unit, c.a, c.b, got, c.want)
		}
	}
	if _, ok := timestampDiff("day_hour", mtime{}, mtime{}); ok {
		t.Error("TIMESTAMPDIFF accepted a compound unit")
	}
}

func TestExtract(t *testing.T) {
	dt := mustDatetime(t, "2020-01-02 03:04:05.000006")
	for unit, want := range map[string]int64{
		"year": 2020, "quarter": 1, "month": 1, "week": 0, "day": 2, "year_month": 202001,
		"hour": 3, "minute": 4, "second": 5, "microsecond": 6,
		"day_hour": 203, "day_minute": 20304, "day_second": 2030405, "day_microsecond": 2030405000006,
		"hour_minute": 304, "hour_second": 30405, "hour_microsecond": 30405000006,
		"minute_second": 405, "minute_microsecond": 405000006, "second_microsecond": 5000006,
	} {
		if got, ok := extract(unit, dt); !ok || got != want {
			t.Errorf("EXTRACT(%s) = %d, want %d", unit, got, want)
		}
	}
	neg, _, ok := parseTimeString("-100:34:56")
	if !ok {
		t.Fatal("parseTimeString failed")
	}
	if got, _ := extract("hour", neg); got != -100 {
		t.Errorf("EXTRACT(HOUR FROM '-100:34:56') = %d, want -100", got)
	}
	if got, _ := extract("minute_second", neg); got != -3456 {
		t.Errorf("EXTRACT(MINUTE_SECOND FROM '-100:34:56') = %d, want -3456", got)
	}
}

func TestAddTimeTimediff(t *testing.T) {
	env := &testEnv{}
	vc := sqltypes.NewVarChar
	for _, c := range []struct {
		got  sqltypes.Value
		want string
	}{
		{addTime(env, vc("2007-12-31 23:59:59.999999"), vc("1 1:1:1.000002"), 1), "2008-01-02 01:01:01.000001"},
		{addTime(env, vc("01:00:00.999999"), vc("02:00:00.999998"), 1), "03:00:01.999997"},
		{addTime(env, vc("01:00:00.999999"), vc("02:00:00.999998"), -1), "-00:59:59.999999"},
		{addTime(env, vc("830:00:00"), vc("10:00:00"), 1), "838:59:59"},
		{addTime(env, vc("2020-01-01 00:00:00"), vc("2020-01-01 01:00:00"), 1), "NULL"},
		{addTime(env, sqltypes.MakeTrusted(sqltypes.Date, []byte("2020-01-01")), vc("01:00"), 1), "2020-01-01 01:00:00"},
	} {
		if got := c.got.ToString(); c.got.IsNull() && c.want != "NULL" || !c.got.IsNull() && got != c.want {
			t.Errorf("ADDTIME = %v, want %s", c.got, c.want)
		}
	}
	v, _ := fnTimediff(env, []sqltypes.Value{vc("2008-12-31 23:59:59.000001"), vc("2008-12-30 01:01:01.000002")})
	if got := v.ToString(); got != "46:58:57.999999" || v.Type() != sqltypes.Time {
		t.Errorf("TIMEDIFF = %v, want 46:58:57.999999", v)
	}
	v, _ = fnTimediff(env, []sqltypes.Value{vc("10:00"), vc("2020-01-01 10:00:00")})
	if !v.IsNull() {
		t.Errorf("TIMEDIFF(time, datetime) = %v, want NULL", v)
	}
}

func TestDatediffDayname(t *testing.T) {
	vc := sqltypes.NewVarChar
	v, _ := fnDatediff(&testEnv{}, []sqltypes.Value{vc("2010-11-30 23:59:59"), vc("2010-12-31")})
	if n, _ := v.ToInt64(); n != -31 {
		t.Errorf("DATEDIFF = %v, want -31", v)
	}
	v, _ = fnDatediff(&testEnv{}, []sqltypes.Value{vc("2020-02-30"), vc("2010-12-31")})
	if !v.IsNull() {
		t.Errorf("DATEDIFF(invalid) = %v, want NULL", v)
	}
	v, _ = fnDayname(&testEnv{}, []sqltypes.Value{vc("2007-02-03")})
	if v.ToString() != "Saturday" {
		t.Errorf("DAYNAME = %v, want Saturday", v)
	}
}

func TestStrToDate(t *testing.T) {
	vc := sqltypes.NewVarChar
	for _, c := range []struct {
		s, f, want string
		typ        sqltypes.Type
	}{
		{"01,5,2013", "%d,%m,%Y", "2013-05-01", sqltypes.Date},
		{"May 1, 2013", "%M %d,%Y", "2013-05-01", sqltypes.Date},
		{"a09:30:17", "a%h:%i:%s", "09:30:17", sqltypes.Time},
		{"2013-05-01 14:05:06.123", "%Y-%m-%d %H:%i:%s.%f", "2013-05-01 14:05:06.123000", sqltypes.Datetime},
		{"13-5-1 2:05:06 PM", "%y-%c-%e %r", "2013-05-01 14:05:06", sqltypes.Datetime},
		{"Wed, 01 May 2013", "%a, %d %b %Y", "2013-05-01", sqltypes.Date},
		{"2013 121", "%Y %j", "2013-05-01", sqltypes.Date},
		{"12 AM", "%h %p", "00:00:00", sqltypes.Time},
		{"3rd March 2021", "%D %M %Y", "2021-03-03", sqltypes.Date},
		{"04/31/2004", "%m/%d/%Y", "2004-04-31", sqltypes.VarChar},
		{"a09:30:17", "%h:%i:%s", "NULL", sqltypes.Null},
		{"13:00 PM", "%h:%i %p", "NULL", sqltypes.Null},
		{"2013-05-01 100%", "%Y-%m-%d 100%%", "NULL", sqltypes.Null},
		{"9", "%m", "NULL", sqltypes.Null}, // NO_ZERO_IN_DATE (testEnv: the default sql_mode)
	} {
		v, err := fnStrToDate(&testEnv{}, []sqltypes.Value{vc(c.s), vc(c.f)})
		if err != nil {
			t.Fatal(err)
		}
		got := v.ToString()
		if v.IsNull() {
			got = "NULL"
		}
		if got != c.want || v.Type() != c.typ {
			t.Errorf("STR_TO_DATE(%q, %q) = %v (%v), want %s (%v)", c.s, c.f, got, v.Type(), c.want, c.typ)
		}
	}
}

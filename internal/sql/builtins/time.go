package builtins

import (
	"strings"

	"vitess.io/vitess/go/mysql/datetime"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Date/time functions evalengine lacks: DATEDIFF, TIMESTAMPDIFF, EXTRACT,
// ADDTIME, SUBTIME, TIMEDIFF, DAYNAME, TIMESTAMP(expr[, time]). STR_TO_DATE
// is in strtodate.go.

func init() {
	register("datediff", &Func{MinArgs: 2, MaxArgs: 2, Eval: fnDatediff, Type: typeOf(sqltypes.Int64)})
	register("timestampdiff", &Func{MinArgs: 3, MaxArgs: 3, Eval: fnTimestampdiff, Type: typeOf(sqltypes.Int64)})
	register("extract", &Func{MinArgs: 2, MaxArgs: 2, Eval: fnExtract, Type: typeOf(sqltypes.Int64)})
	register("addtime", &Func{MinArgs: 2, MaxArgs: 2, Eval: func(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
		return addTime(env, a[0], a[1], 1), nil
	}, Type: addTimeType})
	register("subtime", &Func{MinArgs: 2, MaxArgs: 2, Eval: func(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
		return addTime(env, a[0], a[1], -1), nil
	}, Type: addTimeType})
	register("timediff", &Func{MinArgs: 2, MaxArgs: 2, Eval: fnTimediff, Type: timeDiffType})
	register("dayname", &Func{MinArgs: 1, MaxArgs: 1, Eval: fnDayname, Type: typeOf(sqltypes.VarChar)})
	register("timestamp", &Func{MinArgs: 1, MaxArgs: 2, Eval: fnTimestamp, Type: timestampType})
}

func fnDatediff(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	x, ok1 := dateArg(env, a[0])
	y, ok2 := dateArg(env, a[1])
	if !ok1 || !ok2 {
		return sqltypes.NULL, nil
	}
	return sqltypes.NewInt64(int64(x.dayNumber() - y.dayNumber())), nil
}

func fnTimestampdiff(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	if a[0].IsNull() {
		return sqltypes.NULL, nil
	}
	unit := strings.ToLower(a[0].ToString())
	x, ok1 := dateArg(env, a[1])
	y, ok2 := dateArg(env, a[2])
	if !ok1 || !ok2 {
		return sqltypes.NULL, nil
	}
	n, ok := timestampDiff(unit, x, y)
	if !ok {
		return sqltypes.NULL, sqlerr.New(sqlerror.ERParseError, sqlerror.SSClientError, "You have an error in your SQL syntax; unknown TIMESTAMPDIFF unit '%s'", unit)
	}
	return sqltypes.NewInt64(n), nil
}

// timestampDiff returns y - x in unit, with MySQL's arithmetic: whole units,
// truncated toward zero; months count only when the day and time of the
// later value reach those of the earlier one.
func timestampDiff(unit string, x, y mtime) (int64, bool) {
	diff := y.totalUsec() - x.totalUsec()
	sign := int64(1)
	beg, end := x, y
	if diff < 0 {
		sign, diff = -1, -diff
		beg, end = y, x
	}
	secs := diff / usecPerSec
	switch unit {
	case "microsecond":
		return sign * diff, true
	case "second":
		return sign * secs, true
	case "minute":
		return sign * (secs / 60), true
	case "hour":
		return sign * (secs / 3600), true
	case "day":
		return sign * (secs / 86400), true
	case "week":
		return sign * (secs / 86400 / 7), true
	case "month", "quarter", "year":
	default:
		return 0, false
	}
	before := end.month < beg.month || (end.month == beg.month && end.day < beg.day)
	years := int64(end.year - beg.year)
	if before {
		years--
	}
	months := 12 * years
	if before {
		months += int64(12 - (beg.month - end.month))
	} else {
		months += int64(end.month - beg.month)
	}
	if end.day < beg.day {
		months--
	} else if end.day == beg.day {
		bt, et := beg.timeUsec(), end.timeUsec()
		if et < bt {
			months--
		}
	}
	switch unit {
	case "quarter":
		return sign * (months / 3), true
	case "year":
		return sign * (months / 12), true
	}
	return sign * months, true
}

// extractDateUnits are the EXTRACT units read from a date (get_date); the
// others are read from a time (get_time).
// (MySQL reads DAY_HOUR .. DAY_MICROSECOND from a time; MariaDB from a
// date, so EXTRACT(DAY_HOUR FROM '2021-03-04') is 0 in MySQL, 400 there.)
var extractDateUnits = map[string]bool{"year": true, "quarter": true, "month": true, "week": true, "day": true, "year_month": true}

func fnExtract(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	if a[0].IsNull() {
		return sqltypes.NULL, nil
	}
	unit := strings.ToLower(a[0].ToString())
	t, ok := tempArg(env, a[1], !extractDateUnits[unit])
	if !ok {
		return sqltypes.NULL, nil
	}
	n, ok := extract(unit, t)
	if !ok {
		return sqltypes.NULL, sqlerr.New(sqlerror.ERParseError, sqlerror.SSClientError, "You have an error in your SQL syntax; unknown EXTRACT unit '%s'", unit)
	}
	return sqltypes.NewInt64(n), nil
}

// extract implements EXTRACT(unit FROM t). Time units of a negative TIME are
// negative; a TIME has no days, so its hours are all in the hour part.
func extract(unit string, t mtime) (int64, bool) {
	y, mo, d := int64(t.year), int64(t.month), int64(t.day)
	h, mi, s, us := int64(t.hour), int64(t.minute), int64(t.second), int64(t.usec)
	sign := int64(1)
	if t.neg {
		sign = -1
	}
	switch unit {
	case "year":
		return y, true
	case "quarter":
		return (mo + 2) / 3, true
	case "month":
		return mo, true
	case "week":
		if t.zeroInDate() {
			return 0, true
		}
		return int64(datetime.DateFromDayNumber(t.dayNumber()).Week(0)), true
	case "day":
		return d, true
	case "year_month":
		return y*100 + mo, true
	case "hour":
		return sign * h, true
	case "minute":
		return sign * mi, true
	case "second":
		return sign * s, true
	case "microsecond":
		return sign * us, true
	case "day_hour":
		return sign * (d*100 + h), true
	case "day_minute":
		return sign * (d*10000 + h*100 + mi), true
	case "day_second":
		return sign * (d*1000000 + h*10000 + mi*100 + s), true
	case "day_microsecond":
		return sign * ((d*1000000+h*10000+mi*100+s)*1000000 + us), true
	case "hour_minute":
		return sign * (h*100 + mi), true
	case "hour_second":
		return sign * (h*10000 + mi*100 + s), true
	case "hour_microsecond":
		return sign * ((h*10000+mi*100+s)*1000000 + us), true
	case "minute_second":
		return sign * (mi*100 + s), true
	case "minute_microsecond":
		return sign * ((mi*100+s)*1000000 + us), true
	case "second_microsecond":
		return sign * (s*1000000 + us), true
	}
	return 0, false
}

// addTime implements ADDTIME (sign 1) and SUBTIME (sign -1): a DATETIME (or
// DATE) plus a TIME is a DATETIME, a TIME plus a TIME is a TIME; a second
// argument that is a date is NULL.
func addTime(env Env, av, bv sqltypes.Value, sign int64) sqltypes.Value {
	if av.IsNull() || bv.IsNull() {
		return sqltypes.NULL
	}
	switch bv.Type() {
	case sqltypes.Datetime, sqltypes.Timestamp, sqltypes.Date:
		return sqltypes.NULL
	}
	a, ok1 := tempArg(env, av, true)
	b, ok2 := tempArg(env, bv, true)
	if !ok1 || !ok2 || b.kind != tkTime {
		return sqltypes.NULL
	}
	prec := max(a.prec, b.prec)
	if a.kind == tkTime {
		return timeResult(env, a.timeUsec()+sign*b.timeUsec(), prec)
	}
	t, ok := datetimeFromUsec(a.totalUsec()+sign*b.timeUsec(), prec)
	if !ok {
		return sqltypes.NULL
	}
	return t.value()
}

func fnTimediff(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	if anyNullArg(a...) {
		return sqltypes.NULL, nil
	}
	x, ok1 := tempArg(env, a[0], true)
	y, ok2 := tempArg(env, a[1], true)
	if !ok1 || !ok2 || x.kind != y.kind {
		return sqltypes.NULL, nil
	}
	prec := max(x.prec, y.prec)
	if x.kind == tkTime {
		return timeResult(env, x.timeUsec()-y.timeUsec(), prec), nil
	}
	return timeResult(env, x.totalUsec()-y.totalUsec(), prec), nil
}

var dayNames = [7]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}

// weekday returns MySQL's weekday (0 = Monday) of a day number.
func weekday(daynr int) int { return (daynr + 5) % 7 }

func fnDayname(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	t, ok := dateArg(env, a[0])
	if !ok {
		return sqltypes.NULL, nil
	}
	return sqltypes.MakeTrusted(sqltypes.VarChar, []byte(dayNames[weekday(t.dayNumber())])), nil
}

func fnTimestamp(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	if anyNullArg(a...) {
		return sqltypes.NULL, nil
	}
	t, ok := tempArg(env, a[0], false)
	if !ok {
		return sqltypes.NULL, nil
	}
	t.kind = tkDatetime
	if len(a) == 1 {
		return t.value(), nil
	}
	b, ok := tempArg(env, a[1], true)
	if !ok || b.kind != tkTime {
		return sqltypes.NULL, nil
	}
	r, ok := datetimeFromUsec(t.totalUsec()+b.timeUsec(), max(t.prec, b.prec))
	if !ok {
		return sqltypes.NULL, nil
	}
	return r.value(), nil
}

package builtins

import (
	"strconv"
	"strings"
	"time"

	"vitess.io/vitess/go/mysql/datetime"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
)

// This file holds mtime, strata's MYSQL_TIME: the parsed form of DATE,
// DATETIME and TIME arguments of the date/time builtins, MySQL's lenient
// string-to-temporal conversions, day-number arithmetic and the text format
// of the results.

// tkind is the type of an mtime.
type tkind uint8

const (
	tkDate tkind = iota + 1
	tkDatetime
	tkTime
)

// mtime is a MySQL temporal value. For tkTime, hour holds the whole number
// of hours (up to 838) and the date fields are zero.
type mtime struct {
	kind                       tkind
	neg                        bool
	year, month, day           int
	hour, minute, second, usec int
	prec                       int // fractional digits shown
}

const (
	usecPerSec    = int64(1_000_000)
	usecPerDay    = 86400 * usecPerSec
	maxTimeUsec   = (838*3600+59*60+59)*usecPerSec + 999_999
	maxDayNumber  = 3652424 // 9999-12-31
	minDateDayNum = 366     // 0001-01-01
)

// daysInMonth returns the number of days of month m (1-12) in year y.
func daysInMonth(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func (t mtime) zeroDate() bool { return t.year == 0 && t.month == 0 && t.day == 0 }

func (t mtime) zeroInDate() bool { return t.year == 0 || t.month == 0 || t.day == 0 }

// validDay reports whether the day exists in its month (zero parts allowed).
func (t mtime) validDay() bool {
	return t.month == 0 || t.day == 0 || t.day <= daysInMonth(t.year, t.month)
}

// dayNumber returns MySQL's day number of the date part.
func (t mtime) dayNumber() int { return datetime.MysqlDayNumber(t.year, t.month, t.day) }

// timeUsec returns the time part in microseconds (negative for negative
// TIME values).
func (t mtime) timeUsec() int64 {
	u := ((int64(t.hour)*60+int64(t.minute))*60+int64(t.second))*usecPerSec + int64(t.usec)
	if t.neg {
		return -u
	}
	return u
}

// totalUsec returns a date/datetime as microseconds since day 0.
func (t mtime) totalUsec() int64 { return int64(t.dayNumber())*usecPerDay + t.timeUsec() }

// datetimeFromUsec builds a DATETIME from microseconds since day 0; false
// when outside 0001-01-01 .. 9999-12-31.
func datetimeFromUsec(u int64, prec int) (mtime, bool) {
	if u < 0 {
		return mtime{}, false
	}
	daynr := u / usecPerDay
	if daynr < minDateDayNum || daynr > maxDayNumber {
		return mtime{}, false
	}
	d := datetime.DateFromDayNumber(int(daynr))
	t := timeFromUsec(u%usecPerDay, prec)
	t.kind = tkDatetime
	t.year, t.month, t.day = d.Year(), d.Month(), d.Day()
	return t, true
}

// timeFromUsec builds a TIME value (not range-checked).
func timeFromUsec(u int64, prec int) mtime {
	t := mtime{kind: tkTime, prec: prec}
	if u < 0 {
		t.neg = true
		u = -u
	}
	t.usec = int(u % usecPerSec)
	s := u / usecPerSec
	t.second = int(s % 60)
	t.minute = int(s / 60 % 60)
	t.hour = int(s / 3600)
	return t
}

// clampTime limits a TIME in microseconds to ±838:59:59.999999; the bool is
// false when it had to.
func clampTime(u int64) (int64, bool) {
	switch {
	case u > maxTimeUsec:
		return maxTimeUsec, false
	case u < -maxTimeUsec:
		return -maxTimeUsec, false
	}
	return u, true
}

// timeResult returns a TIME value of u microseconds, clamped to the TIME
// range with MySQL's warning.
func timeResult(env Env, u int64, prec int) sqltypes.Value {
	c, ok := clampTime(u)
	if !ok {
		env.Warn(sqlerror.ERTruncatedWrongValue, "Truncated incorrect time value: '"+timeFromUsec(u, prec).String()+"'")
	}
	return timeFromUsec(c, prec).value()
}

// String formats t in MySQL's text format.
func (t mtime) String() string { return string(t.appendFormat(nil)) }

func appendPad(b []byte, n, width int) []byte {
	var tmp [20]byte
	s := strconv.AppendInt(tmp[:0], int64(n), 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

func (t mtime) appendFormat(b []byte) []byte {
	switch t.kind {
	case tkDate, tkDatetime:
		b = appendPad(b, t.year, 4)
		b = append(b, '-')
		b = appendPad(b, t.month, 2)
		b = append(b, '-')
		b = appendPad(b, t.day, 2)
		if t.kind == tkDate {
			return b
		}
		b = append(b, ' ')
	case tkTime:
		if t.neg {
			b = append(b, '-')
		}
	}
	b = appendPad(b, t.hour, 2)
	b = append(b, ':')
	b = appendPad(b, t.minute, 2)
	b = append(b, ':')
	b = appendPad(b, t.second, 2)
	if t.prec > 0 {
		b = append(b, '.')
		frac := t.usec
		for i := t.prec; i < 6; i++ {
			frac /= 10
		}
		b = appendPad(b, frac, t.prec)
	}
	return b
}

// value returns t as a typed SQL value.
func (t mtime) value() sqltypes.Value {
	typ := sqltypes.Datetime
	switch t.kind {
	case tkDate:
		typ = sqltypes.Date
	case tkTime:
		typ = sqltypes.Time
	}
	return sqltypes.MakeTrusted(typ, t.appendFormat(nil))
}

// year2000 maps a two-digit year as MySQL does (00-69 → 20xx, 70-99 → 19xx).
func year2000(y int) int {
	switch {
	case y < 70:
		return y + 2000
	case y < 100:
		return y + 1900
	}
	return y
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// readInt reads up to max digits from s at i.
func readInt(s string, i, max int) (n, next int, ok bool) {
	j := i
	for j < len(s) && j-i < max && isDigit(s[j]) {
		n = n*10 + int(s[j]-'0')
		j++
	}
	return n, j, j > i
}

// readFrac reads a fraction's digits at i (more than six are truncated),
// returning microseconds and the number of digits kept.
func readFrac(s string, i int) (usec, digits, next int) {
	j := i
	for j < len(s) && isDigit(s[j]) {
		if digits < 6 {
			usec = usec*10 + int(s[j]-'0')
			digits++
		}
		j++
	}
	for k := digits; k < 6; k++ {
		usec *= 10
	}
	return usec, digits, j
}

// parseDatetimeString parses a DATE or DATETIME literal the way MySQL's
// str_to_datetime does: delimited ("2020-1-2 3:04:05.6", any punctuation
// as delimiter, 'T' or spaces before the time) or digits only (YYMMDD,
// YYYYMMDD, YYMMDDhhmmss, YYYYMMDDhhmmss, with an optional fraction).
// trailing reports ignored garbage after the value. Field ranges are checked,
// the day against its month is not.
func parseDatetimeString(s string) (t mtime, trailing, ok bool) {
	s = strings.TrimRight(strings.TrimLeft(s, " \t\n\r"), " \t\n\r")
	if s == "" {
		return t, false, false
	}
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == len(s) || (s[i] == '.' && i >= 6) {
		return parseDatetimeDigits(s, i)
	}
	// Delimited.
	y, j, _ := readInt(s, 0, 4)
	if j == 0 {
		return t, false, false
	}
	if j <= 2 {
		y = year2000(y)
	}
	t.kind = tkDate
	t.year = y
	fields := []*int{&t.month, &t.day}
	for _, f := range fields {
		if j >= len(s) || isDigit(s[j]) || isSpace(s[j]) {
			return t, false, false
		}
		for j < len(s) && !isDigit(s[j]) && !isSpace(s[j]) {
			j++
		}
		var okf bool
		*f, j, okf = readInt(s, j, 2)
		if !okf {
			return t, false, false
		}
	}
	if j < len(s) && (s[j] == 'T' || isSpace(s[j])) {
		k := j + 1
		for k < len(s) && isSpace(s[k]) {
			k++
		}
		if h, k2, okh := readInt(s, k, 2); okh {
			t.kind = tkDatetime
			t.hour = h
			j = k2
			for _, f := range []*int{&t.minute, &t.second} {
				if j+1 < len(s) && !isDigit(s[j]) && !isSpace(s[j]) && isDigit(s[j+1]) {
					*f, j, _ = readInt(s, j+1, 2)
				} else {
					break
				}
			}
			if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
				t.usec, t.prec, j = readFrac(s, j+1)
			}
		}
	}
	if !t.inRange() {
		return t, false, false
	}
	return t, j < len(s), true
}

// parseDatetimeDigits parses a digits-only DATE/DATETIME (n integer digits).
func parseDatetimeDigits(s string, n int) (t mtime, trailing, ok bool) {
	num, err := strconv.ParseInt(s[:n], 10, 64)
	if err != nil {
		return t, false, false
	}
	t, ok = numberToDatetime(num)
	if !ok {
		return t, false, false
	}
	if n < len(s) && s[n] == '.' {
		if t.kind == tkDate {
			t.kind = tkDatetime
		}
		var j int
		t.usec, t.prec, j = readFrac(s, n+1)
		return t, j < len(s), true
	}
	return t, false, true
}

// numberToDatetime interprets a number as MySQL's number_to_datetime does.
func numberToDatetime(n int64) (mtime, bool) {
	t := mtime{kind: tkDate}
	switch {
	case n == 0:
		return t, true
	case n < 101:
		return t, false
	case n <= 691231:
		n += 20000000
	case n < 700101:
		return t, false
	case n <= 991231:
		n += 19000000
	case n < 10000101:
		return t, false
	case n <= 99991231:
	case n < 101000000:
		return t, false
	case n <= 691231235959:
		n += 20000000000000
		t.kind = tkDatetime
	case n < 700101000000:
		return t, false
	case n <= 991231235959:
		n += 19000000000000
		t.kind = tkDatetime
	default:
		t.kind = tkDatetime
	}
	if t.kind == tkDatetime {
		if n > 99991231235959 {
			return t, false
		}
		t.second = int(n % 100)
		t.minute = int(n / 100 % 100)
		t.hour = int(n / 10000 % 100)
		n /= 1000000
	}
	t.day = int(n % 100)
	t.month = int(n / 100 % 100)
	t.year = int(n / 10000)
	return t, t.inRange()
}

func (t mtime) inRange() bool {
	return t.year <= 9999 && t.month <= 12 && t.day <= 31 && t.hour <= 23 && t.minute <= 59 && t.second <= 59
}

// parseTimeString parses a TIME argument the way MySQL's str_to_time does:
// strings of 12 or more characters that are full datetimes are DATETIME
// values; anything else is read as [-][D ]hh:mm:ss[.frac] (or hhmmss).
// truncated reports a partly-read or clamped value.
func parseTimeString(s string) (t mtime, truncated, ok bool) {
	if len(s) >= 12 {
		if dt, trailing, ok := parseDatetimeString(s); ok && dt.kind == tkDatetime {
			return dt, trailing, true
		}
	}
	vt, prec, state := datetime.ParseTime(s, -1)
	if state == datetime.TimeInvalid {
		return t, false, false
	}
	t = mtime{kind: tkTime, neg: vt.Neg(), hour: vt.Hour(), minute: vt.Minute(), second: vt.Second(), usec: vt.Nanosecond() / 1000, prec: max(prec, 0)}
	if t.hour == 838 && t.minute == 59 && t.second == 59 && state != datetime.TimeOK {
		t.usec = 999_999
	}
	return t, state != datetime.TimeOK, true
}

// numericString returns the text of a numeric value for temporal parsing.
func numericString(v sqltypes.Value) string {
	return v.ToString()
}

// tempArg converts a builtin argument to a temporal value.
//
// wantTime selects MySQL's get_time (TIME functions: strings are times unless
// they are full datetimes) over get_date (DATE functions: strings are dates or
// datetimes, TIME values get today's date). The bool is false for NULL and
// for values that do not convert; those add a warning.
func tempArg(env Env, v sqltypes.Value, wantTime bool) (mtime, bool) {
	if v.IsNull() {
		return mtime{}, false
	}
	raw := v.ToString()
	var t mtime
	var ok, trailing bool
	switch typ := v.Type(); {
	case typ == sqltypes.Datetime || typ == sqltypes.Timestamp || typ == sqltypes.Date:
		t, trailing, ok = parseDatetimeString(raw)
		if ok && typ != sqltypes.Date {
			t.kind = tkDatetime
		}
	case typ == sqltypes.Time:
		t, trailing, ok = parseTimeString(raw)
	case v.IsIntegral() || v.IsFloat() || typ == sqltypes.Decimal:
		if wantTime {
			num := strings.TrimLeft(raw, "-")
			if intPart, _, _ := strings.Cut(num, "."); len(intPart) <= 10 {
				t, trailing, ok = parseTimeString(raw)
				break
			}
		}
		t, trailing, ok = parseDatetimeString(numericString(v))
	default:
		if wantTime {
			t, trailing, ok = parseTimeString(raw)
			if !ok || trailing {
				env.Warn(sqlerror.ERTruncatedWrongValue, "Truncated incorrect time value: '"+raw+"'")
			}
			return t, ok
		}
		t, trailing, ok = parseDatetimeString(raw)
	}
	if !ok {
		env.Warn(sqlerror.ERTruncatedWrongValue, "Incorrect datetime value: '"+raw+"'")
		return t, false
	}
	if trailing {
		env.Warn(sqlerror.ERTruncatedWrongValue, "Truncated incorrect datetime value: '"+raw+"'")
	}
	if !t.validDay() {
		env.Warn(sqlerror.ERTruncatedWrongValue, "Incorrect datetime value: '"+raw+"'")
		return t, false
	}
	if !wantTime && t.kind == tkTime {
		t = timeOnToday(t)
	}
	return t, true
}

// dateArg converts an argument for DATE functions that need a real date
// (DATEDIFF, DAYNAME, TIMESTAMPDIFF): zero dates and zero parts are
// rejected with "Incorrect datetime value".
func dateArg(env Env, v sqltypes.Value) (mtime, bool) {
	t, ok := tempArg(env, v, false)
	if !ok {
		return t, false
	}
	if t.zeroInDate() {
		env.Warn(sqlerror.ERTruncatedWrongValue, "Incorrect datetime value: '"+v.ToString()+"'")
		return t, false
	}
	return t, true
}

// timeOnToday converts a TIME to a DATETIME on the current date, as MySQL
// does when a TIME is used where a date is expected.
func timeOnToday(t mtime) mtime {
	now := time.Now()
	today := mtime{kind: tkDate, year: now.Year(), month: int(now.Month()), day: now.Day()}
	dt, ok := datetimeFromUsec(today.totalUsec()+t.timeUsec(), t.prec)
	if !ok {
		return mtime{kind: tkDatetime, prec: t.prec}
	}
	return dt
}

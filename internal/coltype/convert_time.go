package coltype

import (
	"math"
	"time"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/tz"
)

// timestamp range in UTC: 1970-01-01 00:00:01 .. 2038-01-19 03:14:07.
var (
	tsMin = dtParts{year: 1970, month: 1, day: 1, second: 1}
	tsMax = dtParts{year: 2038, month: 1, day: 19, hour: 3, minute: 14, second: 7, nanos: 999999999}
)

func cmpParts(a, b *dtParts) int {
	x := [...]int{a.year, a.month, a.day, a.hour, a.minute, a.second, a.nanos}
	y := [...]int{b.year, b.month, b.day, b.hour, b.minute, b.second, b.nanos}
	for i := range x {
		if x[i] != y[i] {
			if x[i] < y[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// splitNumber splits a non-negative numeric input into integer and
// nanosecond parts.
func splitNumber(n number) (ip int64, nanos int, neg, ok bool) {
	switch n.kind {
	case numInt:
		if n.over || n.mag > math.MaxInt64 {
			return 0, 0, n.neg, false
		}
		return int64(n.mag), 0, n.neg, true
	case numFloat:
		f := n.f
		if f < 0 {
			neg, f = true, -f
		}
		if math.IsNaN(f) || f >= 1e18 {
			return 0, 0, neg, false
		}
		i, frac := math.Modf(f)
		return int64(i), int(frac * 1e9), neg, true
	}
	d, big, tiny := n.decimalOf()
	if big != 0 {
		return 0, 0, big < 0, false
	}
	if tiny {
		return 0, 0, false, true
	}
	if d.Sign() < 0 {
		neg, d = true, d.Abs()
	}
	id := d.Truncate(0)
	i, ok := id.Int64()
	if !ok {
		return 0, 0, neg, false
	}
	fr, _ := d.Sub(id).Mul(decimalE9).Truncate(0).Int64()
	return i, int(fr), neg, true
}

// numberToDatetime interprets YYMMDD, YYYYMMDD, YYMMDDhhmmss and
// YYYYMMDDhhmmss numbers as MySQL does.
func numberToDatetime(n int64) (p dtParts, ok bool) {
	var date, clock int64
	twoDigit := false
	switch {
	case n == 0:
		return p, true
	case n < 101:
		return p, false
	case n <= 991231:
		date, twoDigit = n, true
	case n < 10000101:
		return p, false
	case n <= 99991231:
		date = n
	case n < 101000000:
		return p, false
	case n <= 991231235959:
		date, clock, twoDigit = n/1000000, n%1000000, true
	case n < 10000101000000:
		return p, false
	case n <= 99991231235959:
		date, clock = n/1000000, n%1000000
	default:
		return p, false
	}
	p.year, p.month, p.day = int(date/10000), int(date/100%100), int(date%100)
	if twoDigit {
		p.year = twoDigitYear(p.year)
	}
	p.hour, p.minute, p.second = int(clock/10000), int(clock/100%100), int(clock%100)
	p.hasTime = clock != 0
	return p, true
}

func (c *conv) temporalKind() string {
	switch c.col.Type {
	case sqltypes.Date:
		return "date"
	case sqltypes.Time:
		return "time"
	}
	return "datetime"
}

// badTemporal handles an unparseable or invalid value: error 1292 in strict
// mode, else a zero value with warning 1265.
func (c *conv) badTemporal(v sqltypes.Value) error {
	if c.strict() {
		return newErr(1292, ssBadDatetime, msgIncorrect(c.temporalKind(), v.ToString(), c.col.Name, c.row))
	}
	c.warn(LevelWarning, 1265, msgTruncated(c.col.Name, c.row))
	return nil
}

func (c *conv) zeroTemporal() sqltypes.Value { return ImplicitDefault(c.col) }

func (c *conv) toDatetime(v sqltypes.Value) (sqltypes.Value, error) {
	t := v.Type()
	if (c.col.Type == sqltypes.Datetime || c.col.Type == sqltypes.Date) && v.IsText() && canonicalDatetime(v.Raw(), c.col.Type == sqltypes.Date, c.col.Scale) {
		// Already the text the slow path would format: kept as it is.
		return sqltypes.MakeTrusted(c.col.Type, v.Raw()), nil
	}
	var p dtParts
	ok := true
	switch {
	case t == sqltypes.Time:
		tp, _, tok := parseTime(v.RawStr())
		if !tok {
			ok = false
			break
		}
		now := time.Now()
		d := time.Duration(tp.hour)*time.Hour + time.Duration(tp.minute)*time.Minute +
			time.Duration(tp.second)*time.Second + time.Duration(tp.nanos)
		if tp.neg {
			d = -d
		}
		tt := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).Add(d)
		p = dtParts{year: tt.Year(), month: int(tt.Month()), day: tt.Day(), hour: tt.Hour(),
			minute: tt.Minute(), second: tt.Second(), nanos: tt.Nanosecond(), hasTime: true}
	case isNumberInput(t):
		n, err := c.numberOf(v, c.temporalKind())
		if err != nil {
			return sqltypes.Value{}, err
		}
		ip, nanos, neg, nok := splitNumber(n)
		if !nok || neg {
			ok = false
			break
		}
		p, ok = numberToDatetime(ip)
		p.nanos = nanos
	default:
		text, off, hasOff := string(bytesOf(v)), int64(0), false
		if c.col.Type != sqltypes.Date {
			text, off, hasOff = splitOffset(text)
		}
		p, ok = parseDatetime(text)
		if ok && hasOff {
			ok = c.fromOffset(&p, off)
		}
	}
	st := dateInvalid
	if ok {
		st = checkDate(&p)
	}
	switch st {
	case dateInvalid:
		if err := c.badTemporal(v); err != nil {
			return sqltypes.Value{}, err
		}
		return c.zeroTemporal(), nil
	case dateZero:
		if c.mode&ModeNoZeroDate != 0 {
			if err := c.badTemporal(v); err != nil {
				return sqltypes.Value{}, err
			}
		}
	case dateZeroInDate:
		if c.mode&ModeNoZeroInDate != 0 {
			if err := c.badTemporal(v); err != nil {
				return sqltypes.Value{}, err
			}
			return c.zeroTemporal(), nil
		}
	}
	if p.garbage {
		if c.strict() {
			return sqltypes.Value{}, newErr(1292, ssBadDatetime, msgIncorrect(c.temporalKind(), v.ToString(), c.col.Name, c.row))
		}
		c.warn(LevelWarning, 1265, msgTruncated(c.col.Name, c.row))
	}
	if c.col.Type == sqltypes.Date {
		if p.hour|p.minute|p.second|p.nanos != 0 {
			c.noteTruncated()
		}
		return sqltypes.MakeTrusted(sqltypes.Date, formatDate(make([]byte, 0, 10), &p)), nil
	}
	roundDatetime(&p, c.col.Scale)
	if p.year > 9999 {
		if err := c.badTemporal(v); err != nil {
			return sqltypes.Value{}, err
		}
		return c.zeroTemporal(), nil
	}
	if c.col.Type == sqltypes.Timestamp && st != dateZero && c.zone != nil {
		if err := c.inZone(&p, v); err != nil {
			return sqltypes.Value{}, err
		}
	}
	if c.col.Type == sqltypes.Timestamp && st != dateZero &&
		(cmpParts(&p, &tsMin) < 0 || cmpParts(&p, &tsMax) > 0) {
		if c.strict() {
			return sqltypes.Value{}, newErr(1292, ssBadDatetime, msgIncorrect("datetime", v.ToString(), c.col.Name, c.row))
		}
		c.warn(LevelWarning, 1264, msgOutOfRange(c.col.Name, c.row))
		return c.zeroTemporal(), nil
	}
	if c.utc {
		// Back to local time: the time the stored instant reads as.
		wall := c.zone.FromUnix(tz.Wall(p.year, p.month, p.day, p.hour, p.minute, p.second))
		p.year, p.month, p.day, p.hour, p.minute, p.second = tz.Civil(wall)
	}
	b := formatDate(make([]byte, 0, 26), &p)
	b = append(b, ' ')
	b = formatClock(b, &p, c.col.Scale)
	return sqltypes.MakeTrusted(c.col.Type, b), nil
}

// maxTimeHours is TIME's range: -838:59:59 .. 838:59:59.
const maxTimeHours = 838

func (c *conv) toTime(v sqltypes.Value) (sqltypes.Value, error) {
	t := v.Type()
	var p dtParts
	ok := true
	fromDate := false
	switch {
	case t == sqltypes.Date:
		p = dtParts{}
	case t == sqltypes.Datetime || t == sqltypes.Timestamp:
		p, ok = parseDatetime(v.RawStr())
		p.year, p.month, p.day = 0, 0, 0
	case isNumberInput(t):
		n, err := c.numberOf(v, "time")
		if err != nil {
			return sqltypes.Value{}, err
		}
		ip, nanos, neg, nok := splitNumber(n)
		if !nok {
			ok = false
			break
		}
		if ip >= 10000000000 {
			// A datetime number: keep its time part.
			dp, dok := numberToDatetime(ip)
			p, ok = dtParts{hour: dp.hour, minute: dp.minute, second: dp.second}, dok
		} else {
			p = dtParts{neg: neg, hour: int(ip / 10000), minute: int(ip / 100 % 100), second: int(ip % 100)}
		}
		p.nanos = nanos
	default:
		p, fromDate, ok = parseTime(string(bytesOf(v)))
	}
	if !ok || p.minute > 59 || p.second > 59 {
		if err := c.badTemporal(v); err != nil {
			return sqltypes.Value{}, err
		}
		return c.zeroTemporal(), nil
	}
	if p.garbage {
		if c.strict() {
			return sqltypes.Value{}, newErr(1292, ssBadDatetime, msgIncorrect("time", v.ToString(), c.col.Name, c.row))
		}
		c.warn(LevelWarning, 1265, msgTruncated(c.col.Name, c.row))
	}
	if fromDate {
		c.noteTruncated()
	}
	if roundFrac(&p, c.col.Scale) {
		p.second++
		if p.second == 60 {
			p.second = 0
			p.minute++
			if p.minute == 60 {
				p.minute = 0
				p.hour++
			}
		}
	}
	if p.hour > maxTimeHours || (p.hour == maxTimeHours && (p.minute > 59 || p.second > 59)) ||
		(p.hour == maxTimeHours && p.minute == 59 && p.second == 59 && p.nanos > 0) {
		if c.strict() {
			return sqltypes.Value{}, newErr(1292, ssBadDatetime, msgIncorrect("time", v.ToString(), c.col.Name, c.row))
		}
		c.warn(LevelWarning, 1264, msgOutOfRange(c.col.Name, c.row))
		p.hour, p.minute, p.second, p.nanos = maxTimeHours, 59, 59, 0
	}
	b := make([]byte, 0, 18)
	if p.neg && (p.hour|p.minute|p.second|p.nanos) != 0 {
		b = append(b, '-')
	}
	b = formatClock(b, &p, c.col.Scale)
	return sqltypes.MakeTrusted(sqltypes.Time, b), nil
}

// inZone checks a TIMESTAMP value given in c.zone's local time: p is
// replaced by the UTC instant MySQL stores for it (a time in a gap by the
// transition, with MySQL's warning), for the range check, and
// toDatetime turns it back into local time after the range check.
func (c *conv) inZone(p *dtParts, v sqltypes.Value) error {
	u, gap := c.zone.ToUnix(tz.Wall(p.year, p.month, p.day, p.hour, p.minute, p.second))
	if gap {
		if c.strict() {
			return newErr(1292, ssBadDatetime, msgIncorrect("datetime", v.ToString(), c.col.Name, c.row))
		}
		c.warn(LevelWarning, 1299, "Invalid TIMESTAMP value in column '"+c.col.Name+"'"+atRow(c.row))
	}
	p.year, p.month, p.day, p.hour, p.minute, p.second = tz.Civil(u)
	c.utc = true
	return nil
}

// splitOffset splits a time zone offset off a datetime string (MySQL
// 8.0.19+: '2020-01-01 10:10:10+05:30'): exactly '[+-]hh:mm' right after
// the time's last digit, from -13:59 to +14:00, '-00:00' refused.
func splitOffset(s string) (string, int64, bool) {
	n := len(s)
	if n < 7 || s[n-6] != '+' && s[n-6] != '-' || s[n-3] != ':' || !isDigit(s[n-7]) {
		return s, 0, false
	}
	for _, i := range [...]int{n - 5, n - 4, n - 2, n - 1} {
		if !isDigit(s[i]) {
			return s, 0, false
		}
	}
	h, m := int64(s[n-5]-'0')*10+int64(s[n-4]-'0'), int64(s[n-2]-'0')*10+int64(s[n-1]-'0')
	off := (h*60 + m) * 60
	if s[n-6] == '-' {
		off = -off
		if off == 0 {
			return s, 0, false
		}
	}
	if m > 59 || off < -(13*3600+59*60) || off > 14*3600 {
		return s, 0, false
	}
	return s[:n-6], off, true
}

// fromOffset turns p, a time at UTC offset off, into the session's local
// time (c.zone, nil for UTC), as MySQL stores a datetime literal with an
// offset into DATETIME and TIMESTAMP columns. A zero month or day is
// refused.
func (c *conv) fromOffset(p *dtParts, off int64) bool {
	if p.month == 0 || p.day == 0 {
		return false
	}
	u := tz.Wall(p.year, p.month, p.day, p.hour, p.minute, p.second) - off
	wall := u
	if c.zone != nil {
		wall = c.zone.FromUnix(u)
	}
	p.year, p.month, p.day, p.hour, p.minute, p.second = tz.Civil(wall)
	return true
}

// canonicalDatetime reports whether b is a valid date (YYYY-MM-DD) or, when
// !date, datetime (YYYY-MM-DD hh:mm:ss, with exactly scale fraction
// digits) in the canonical text toDatetime formats: no zero parts, no
// rounding, nothing to warn about (a loaded file's timestamps mostly are).
func canonicalDatetime(b []byte, date bool, scale int) bool {
	n := 10
	if !date {
		n = 19
		if scale > 0 {
			n += 1 + scale
		}
	}
	if len(b) != n || scale < 0 || scale > 6 {
		return false
	}
	var f [6]int
	for i, pos := range [...]int{0, 5, 8, 11, 14, 17} {
		if date && i == 3 {
			break
		}
		w := 2
		if i == 0 {
			w = 4
		}
		for _, ch := range b[pos : pos+w] {
			if ch < '0' || ch > '9' {
				return false
			}
			f[i] = f[i]*10 + int(ch-'0')
		}
	}
	if b[4] != '-' || b[7] != '-' {
		return false
	}
	if !date {
		if b[10] != ' ' || b[13] != ':' || b[16] != ':' {
			return false
		}
		if scale > 0 {
			if b[19] != '.' {
				return false
			}
			for _, ch := range b[20:] {
				if ch < '0' || ch > '9' {
					return false
				}
			}
		}
	}
	year, month, day := f[0], f[1], f[2]
	if year < 1 || month < 1 || month > 12 || day < 1 || f[3] > 23 || f[4] > 59 || f[5] > 59 {
		return false
	}
	return day <= daysIn(month, year)
}

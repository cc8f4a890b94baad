package coltype

import "time"

// dtParts is a parsed date, datetime or time.
type dtParts struct {
	neg                  bool // TIME only
	year, month, day     int
	hour, minute, second int // hour may exceed 23 for TIME
	nanos                int
	hasTime              bool
	garbage              bool // non-space text follows the value
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !isDigit(c) && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z')
}

// digitRun returns the value and length of the digit run at s[i:], capped
// at max digits.
func digitRun(s string, i, max int) (v, n int) {
	for i+n < len(s) && n < max && isDigit(s[i+n]) {
		v = v*10 + int(s[i+n]-'0')
		n++
	}
	return v, n
}

// parseFrac reads ".ddd" at s[i:] into nanoseconds (extra digits are used
// only for rounding by the caller, which sees the first nine).
func parseFrac(s string, i int) (nanos, next int) {
	if i >= len(s) || s[i] != '.' {
		return 0, i
	}
	j := i + 1
	scale := 100000000
	for j < len(s) && isDigit(s[j]) {
		nanos += int(s[j]-'0') * scale
		scale /= 10
		j++
	}
	return nanos, j
}

func trailing(s string, i int) bool {
	for ; i < len(s); i++ {
		if !isSpace(s[i]) {
			return true
		}
	}
	return false
}

func twoDigitYear(y int) int {
	if y < 70 {
		return y + 2000
	}
	return y + 1900
}

// parseDatetime parses MySQL date and datetime text: delimited
// ("2024-1-2 3:4:5.6", "24/01/02T03:04") or digits-only
// ("20240102030405", "240102"). ok is false when no date can be read.
func parseDatetime(s string) (p dtParts, ok bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	s = s[i:]
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n == 0 {
		return p, false
	}
	if n == len(s) || s[n] == '.' || isSpace(s[n]) {
		// Digits only: YYYYMMDD[hhmmss] or YYMMDD[hhmmss].
		yl := 2
		if n == 4 || n == 8 || n >= 14 {
			yl = 4
		}
		if n > yl+10 || n < yl+4 {
			return p, false
		}
		fields := []*int{&p.year, &p.month, &p.day, &p.hour, &p.minute, &p.second}
		pos := 0
		for f := 0; f < len(fields) && pos < n; f++ {
			w := 2
			if f == 0 {
				w = yl
			}
			if pos+w > n {
				w = n - pos
			}
			*fields[f], _ = digitRun(s, pos, w)
			pos += w
			if f >= 3 {
				p.hasTime = true
			}
		}
		if yl == 2 {
			p.year = twoDigitYear(p.year)
		}
		var next int
		p.nanos, next = parseFrac(s, n)
		if p.nanos > 0 {
			p.hasTime = true
		}
		p.garbage = trailing(s, next)
		return p, true
	}
	var yl int
	p.year, yl = digitRun(s, 0, 4)
	i = yl
	if i < len(s) && isDigit(s[i]) {
		return p, false
	}
	var l int
	for _, f := range []*int{&p.month, &p.day} {
		start := i
		for i < len(s) && isPunct(s[i]) {
			i++
		}
		if i == start {
			return p, false
		}
		*f, l = digitRun(s, i, 2)
		if l == 0 {
			return p, false
		}
		i += l
	}
	if yl <= 2 {
		p.year = twoDigitYear(p.year)
	}
	if i < len(s) && isDigit(s[i]) {
		p.garbage = true
		return p, true
	}
	j := i
	if j < len(s) && s[j] == 'T' {
		j++
	} else {
		for j < len(s) && isSpace(s[j]) {
			j++
		}
	}
	if j == i || j >= len(s) || !isDigit(s[j]) {
		p.garbage = trailing(s, i)
		return p, true
	}
	i = j
	p.hasTime = true
	p.hour, l = digitRun(s, i, 2)
	i += l
	for _, f := range []*int{&p.minute, &p.second} {
		if i+1 < len(s) && isPunct(s[i]) && s[i] != '.' && isDigit(s[i+1]) {
			*f, l = digitRun(s, i+1, 2)
			i += 1 + l
		} else {
			break
		}
	}
	p.nanos, i = parseFrac(s, i)
	p.garbage = trailing(s, i)
	return p, true
}

// parseTime parses MySQL TIME text: "[-][D ]hh:mm[:ss][.f]", "[-]hhmmss[.f]"
// or a datetime whose time part is taken (fromDate reports a date part).
func parseTime(s string) (p dtParts, fromDate, ok bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	s = s[i:]
	if dt, ok := parseDatetime(s); ok && !dt.garbage && len(s) >= 8 && hasDateDelim(s) {
		dt.year, dt.month, dt.day = 0, 0, 0
		return dt, true, true
	}
	if s != "" && s[0] == '-' {
		p.neg = true
		s = s[1:]
	}
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n == 0 {
		return p, false, false
	}
	var l int
	i = n
	switch {
	case n < len(s) && s[n] == ' ' && n+1 < len(s) && isDigit(s[n+1]):
		days, _ := digitRun(s, 0, 9)
		if n > 9 {
			days = 1 << 20
		}
		i = n + 1
		p.hour, l = digitRun(s, i, 2)
		i += l
		p.hour += days * 24
		fallthrough
	case n < len(s) && s[n] == ':':
		if p.hour == 0 && i == n {
			p.hour, _ = digitRun(s, 0, 9)
			if n > 9 {
				p.hour = 1 << 30
			}
		}
		for _, f := range []*int{&p.minute, &p.second} {
			if i+1 < len(s) && s[i] == ':' && isDigit(s[i+1]) {
				*f, l = digitRun(s, i+1, 2)
				i += 1 + l
			} else {
				break
			}
		}
	default:
		// [H...]HHMMSS
		v := 0
		for k := 0; k < n; k++ {
			if v < 1<<40 {
				v = v*10 + int(s[k]-'0')
			}
		}
		p.second = v % 100
		p.minute = v / 100 % 100
		p.hour = v / 10000
	}
	p.nanos, i = parseFrac(s, i)
	p.garbage = trailing(s, i)
	p.hasTime = true
	return p, false, true
}

func hasDateDelim(s string) bool {
	for i := 0; i < len(s) && i < 11; i++ {
		if s[i] == '-' || s[i] == '/' {
			return i > 0
		}
	}
	return false
}

// dateStatus classifies a parsed date.
type dateStatus uint8

const (
	dateOK dateStatus = iota
	dateInvalid
	dateZero       // 0000-00-00
	dateZeroInDate // a zero month or day
)

func daysIn(m, y int) int {
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		return 29 // the proleptic Gregorian calendar, as time.Date's
	}
	return monthDays[m]
}

// monthDays is the length of each month (1-12) in a common year.
var monthDays = [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

func checkDate(p *dtParts) dateStatus {
	if p.year > 9999 || p.month > 12 || p.day > 31 || p.hour > 23 || p.minute > 59 || p.second > 59 {
		return dateInvalid
	}
	if p.year == 0 && p.month == 0 && p.day == 0 {
		return dateZero
	}
	if p.month == 0 || p.day == 0 {
		return dateZeroInDate
	}
	if p.day > daysIn(p.month, p.year) {
		return dateInvalid
	}
	return dateOK
}

var pow10 = [10]int{1e9, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 1e2, 1e1, 1}

// roundFrac rounds p's fraction half up to fsp digits and reports whether a
// whole second was carried.
func roundFrac(p *dtParts, fsp int) bool {
	if fsp < 0 {
		fsp = 0
	}
	if fsp > 9 {
		fsp = 9
	}
	unit := pow10[fsp]
	r := (p.nanos + unit/2) / unit * unit
	if r >= 1e9 {
		p.nanos = 0
		return true
	}
	p.nanos = r
	return false
}

// roundDatetime rounds p to fsp digits, carrying into the date when needed.
func roundDatetime(p *dtParts, fsp int) {
	save := *p
	if !roundFrac(p, fsp) {
		return
	}
	if p.month == 0 || p.day == 0 {
		// No calendar to carry through: truncate instead.
		*p = save
		p.nanos = p.nanos / pow10[fsp] * pow10[fsp]
		return
	}
	t := time.Date(p.year, time.Month(p.month), p.day, p.hour, p.minute, p.second+1, 0, time.UTC)
	p.year, p.month, p.day = t.Year(), int(t.Month()), t.Day()
	p.hour, p.minute, p.second = t.Hour(), t.Minute(), t.Second()
}

func appendN(b []byte, v, width int) []byte {
	var tmp [20]byte
	i := len(tmp)
	for v > 0 || i == len(tmp) {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
	}
	for k := len(tmp) - i; k < width; k++ {
		b = append(b, '0')
	}
	return append(b, tmp[i:]...)
}

func appendFrac(b []byte, nanos, fsp int) []byte {
	if fsp <= 0 {
		return b
	}
	if fsp > 9 {
		fsp = 9
	}
	b = append(b, '.')
	return appendN(b, nanos/pow10[fsp], fsp)
}

func formatDate(b []byte, p *dtParts) []byte {
	b = appendN(b, p.year, 4)
	b = append(b, '-')
	b = appendN(b, p.month, 2)
	b = append(b, '-')
	return appendN(b, p.day, 2)
}

func formatClock(b []byte, p *dtParts, fsp int) []byte {
	b = appendN(b, p.hour, 2)
	b = append(b, ':')
	b = appendN(b, p.minute, 2)
	b = append(b, ':')
	b = appendN(b, p.second, 2)
	return appendFrac(b, p.nanos, fsp)
}

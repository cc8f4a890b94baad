package codec

// Temporal values are parsed from and formatted to their canonical MySQL text
// without allocating, and packed into order-preserving integers:
//
//	date     = year<<9 | month<<5 | day                                   (23 bits)
//	datetime = ((year*13+month)<<5 | day)<<17 | hour<<12 | minute<<6 | second   (39 bits)
//	           plus microseconds kept separately
//	time     = sign * (hours*3600 + minutes*60 + seconds), plus microseconds
//
// Keys store the packed seconds and the fraction at the column's precision
// (MySQL's 0, 1, 2 or 3 fraction bytes for fsp 0, 1-2, 3-4, 5-6).

// datetime holds the fields of a DATE, DATETIME or TIMESTAMP value.
type datetime struct {
	year, month, day, hour, minute, second, micro int
}

// readNum reads 1..maxDigits decimal digits at s[i:].
func readNum(s []byte, i, maxDigits int) (v, next int, ok bool) {
	start := i
	for i < len(s) && i-start < maxDigits && s[i] >= '0' && s[i] <= '9' {
		v = v*10 + int(s[i]-'0')
		i++
	}
	return v, i, i > start
}

// expect reports whether s[i] == c.
func expect(s []byte, i int, c byte) bool {
	return i < len(s) && s[i] == c
}

// parseFrac parses the ".ffffff" part at s[i:] (i at the '.'), returning
// microseconds; at most 6 digits are accepted.
func parseFrac(s []byte, i int) (micro int, ok bool) {
	if i == len(s) {
		return 0, true
	}
	if s[i] != '.' {
		return 0, false
	}
	i++
	n := len(s) - i
	if n > 6 {
		return 0, false
	}
	v, next, ok := readNum(s, i, 6)
	if !ok && n > 0 || next != len(s) {
		return 0, false
	}
	for ; n < 6; n++ {
		v *= 10
	}
	return v, true
}

// parseDatetime parses "YYYY-MM-DD" and, when withTime, an optional
// " HH:MM:SS[.ffffff]".
func parseDatetime(s []byte, withTime bool) (datetime, error) {
	var d datetime
	var i int
	var ok bool
	if d.year, i, ok = readNum(s, 0, 4); !ok || !expect(s, i, '-') {
		return d, ErrBadValue
	}
	if d.month, i, ok = readNum(s, i+1, 2); !ok || !expect(s, i, '-') {
		return d, ErrBadValue
	}
	if d.day, i, ok = readNum(s, i+1, 2); !ok {
		return d, ErrBadValue
	}
	if d.month > 12 || d.day > 31 {
		return d, ErrOutOfRange
	}
	if i == len(s) {
		return d, nil
	}
	if !withTime || (s[i] != ' ' && s[i] != 'T') {
		return d, ErrBadValue
	}
	if d.hour, i, ok = readNum(s, i+1, 2); !ok || !expect(s, i, ':') {
		return d, ErrBadValue
	}
	if d.minute, i, ok = readNum(s, i+1, 2); !ok || !expect(s, i, ':') {
		return d, ErrBadValue
	}
	if d.second, i, ok = readNum(s, i+1, 2); !ok {
		return d, ErrBadValue
	}
	if d.micro, ok = parseFrac(s, i); !ok {
		return d, ErrBadValue
	}
	if d.hour > 23 || d.minute > 59 || d.second > 59 {
		return d, ErrOutOfRange
	}
	return d, nil
}

func (d datetime) packDate() uint64 {
	return uint64(d.year)<<9 | uint64(d.month)<<5 | uint64(d.day)
}

func unpackDate(p uint64) datetime {
	return datetime{year: int(p >> 9), month: int(p >> 5 & 15), day: int(p & 31)}
}

func (d datetime) packSeconds() uint64 {
	ymd := uint64(d.year*13+d.month)<<5 | uint64(d.day)
	return ymd<<17 | uint64(d.hour)<<12 | uint64(d.minute)<<6 | uint64(d.second)
}

func unpackSeconds(p uint64, micro int) datetime {
	ym := int(p >> 22)
	return datetime{
		year: ym / 13, month: ym % 13, day: int(p >> 17 & 31),
		hour: int(p >> 12 & 31), minute: int(p >> 6 & 63), second: int(p & 63),
		micro: micro,
	}
}

func append2(b []byte, v int) []byte {
	return append(b, byte('0'+v/10%10), byte('0'+v%10))
}

// appendFrac appends ".ffffff" truncated to scale digits (nothing for 0).
func appendFrac(b []byte, micro, scale int) []byte {
	if scale <= 0 {
		return b
	}
	b = append(b, '.')
	div := 100000
	for i := 0; i < scale; i++ {
		b = append(b, byte('0'+micro/div%10))
		div /= 10
	}
	return b
}

func (d datetime) appendDate(b []byte) []byte {
	b = append2(append2(b, d.year/100), d.year%100)
	b = append2(append(b, '-'), d.month)
	return append2(append(b, '-'), d.day)
}

func (d datetime) appendDatetime(b []byte, scale int) []byte {
	b = d.appendDate(b)
	b = append2(append(b, ' '), d.hour)
	b = append2(append(b, ':'), d.minute)
	b = append2(append(b, ':'), d.second)
	return appendFrac(b, d.micro, scale)
}

// maxTimeSeconds bounds TIME magnitudes (MySQL: 838:59:59).
const maxTimeSeconds = 838*3600 + 59*60 + 59

// parseTime parses "[-]HH:MM:SS[.ffffff]" (hours up to 838).
func parseTime(s []byte) (neg bool, secs int64, micro int, err error) {
	i := 0
	if expect(s, 0, '-') {
		neg = true
		i = 1
	}
	h, i, ok := readNum(s, i, 3)
	if !ok || !expect(s, i, ':') {
		return false, 0, 0, ErrBadValue
	}
	m, i, ok := readNum(s, i+1, 2)
	if !ok || !expect(s, i, ':') {
		return false, 0, 0, ErrBadValue
	}
	sec, i, ok := readNum(s, i+1, 2)
	if !ok {
		return false, 0, 0, ErrBadValue
	}
	if micro, ok = parseFrac(s, i); !ok {
		return false, 0, 0, ErrBadValue
	}
	if m > 59 || sec > 59 {
		return false, 0, 0, ErrOutOfRange
	}
	secs = int64(h*3600 + m*60 + sec)
	if secs > maxTimeSeconds {
		return false, 0, 0, ErrOutOfRange
	}
	if secs == 0 && micro == 0 {
		neg = false
	}
	return neg, secs, micro, nil
}

func appendTime(b []byte, neg bool, secs int64, micro, scale int) []byte {
	if neg {
		b = append(b, '-')
	}
	h := int(secs / 3600)
	if h >= 100 {
		b = append(b, byte('0'+h/100%10))
	}
	b = append2(b, h%100)
	b = append2(append(b, ':'), int(secs/60%60))
	b = append2(append(b, ':'), int(secs%60))
	return appendFrac(b, micro, scale)
}

// fracBytes is the number of key bytes holding the fraction at precision
// scale, and fracUnit the microseconds per unit stored.
func fracBytes(scale int) int { return (scale + 1) / 2 }

var fracUnit = [4]int{1, 10000, 100, 1}

// fracMul is the multiplier of the integer seconds in a TIME key at a given
// number of fraction bytes.
var fracMul = [4]int64{1, 100, 10000, 1000000}

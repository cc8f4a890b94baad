package builtins

import (
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
)

// STR_TO_DATE(str, format), after MySQL's extract_date_time.

func init() {
	register("str_to_date", &Func{MinArgs: 2, MaxArgs: 2, Eval: fnStrToDate, Type: strToDateType})
}

var (
	monthNames   = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	monthAbbrevs = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	dayAbbrevs   = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
)

// strToDateKind returns the result type STR_TO_DATE gives a format, and
// whether it shows microseconds (%f): DATETIME with date and time parts,
// TIME with only time parts, DATE otherwise.
func strToDateKind(format string) (tkind, bool) {
	var date, tm, frac bool
	for i := 0; i+1 < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		switch format[i] {
		case 'a', 'b', 'c', 'D', 'd', 'e', 'j', 'M', 'm', 'U', 'u', 'V', 'v', 'W', 'w', 'X', 'x', 'Y', 'y':
			date = true
		case 'f':
			frac, tm = true, true
		case 'H', 'h', 'I', 'i', 'k', 'l', 'p', 'r', 'S', 's', 'T':
			tm = true
		}
	}
	switch {
	case date && tm:
		return tkDatetime, frac
	case tm:
		return tkTime, frac
	}
	return tkDate, false
}

func fnStrToDate(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	if anyNullArg(a...) {
		return sqltypes.NULL, nil
	}
	s, format := a[0].ToString(), a[1].ToString()
	kind, frac := strToDateKind(format)
	t, rest, ok := extractDateTime(s, format, false)
	if ok && rest != "" && strings.TrimLeft(rest, " \t\n\r\v\f") != "" {
		what := map[tkind]string{tkDate: "date", tkDatetime: "datetime", tkTime: "time"}[kind]
		env.Warn(sqlerror.ERTruncatedWrongValue, "Truncated incorrect "+what+" value: '"+s+"'")
	}
	if ok && kind != tkTime && t.zeroInDate() && env.NoZeroDates() {
		ok = false
	}
	if !ok {
		env.Warn(sqlerror.ErrWrongValueForType, "Incorrect datetime value: '"+s+"' for function str_to_date")
		return sqltypes.NULL, nil
	}
	t.kind = kind
	if frac {
		t.prec = 6
	}
	if kind == tkTime {
		t.hour += 24 * t.day
		t.year, t.month, t.day = 0, 0, 0
		return t.value(), nil
	}
	if !t.validDay() || (t.zeroInDate() && !t.zeroDate()) {
		// MySQL returns dates such as 2004-04-31 or 2020-00-00 (without
		// NO_ZERO_IN_DATE) unchanged; evalengine rejects them as DATE
		// values, so they are returned as text.
		return sqltypes.MakeTrusted(sqltypes.VarChar, t.appendFormat(nil)), nil
	}
	return t.value(), nil
}

// checkWord matches the alphabetic word at the start of s against names
// (case-insensitively, a unique prefix is enough), returning the 1-based
// index and the rest of s.
func checkWord(names []string, s string) (int, string) {
	n := 0
	for n < len(s) && (s[n]|0x20 >= 'a' && s[n]|0x20 <= 'z') {
		n++
	}
	word := s[:n]
	if word == "" {
		return 0, s
	}
	found := 0
	for i, name := range names {
		if strings.EqualFold(name, word) {
			return i + 1, s[n:]
		}
		if len(word) < len(name) && strings.EqualFold(name[:len(word)], word) {
			if found != 0 {
				return 0, s // ambiguous
			}
			found = i + 1
		}
	}
	return found, s[n:]
}

// extractDateTime parses s against a STR_TO_DATE format. It returns the
// parsed fields and the unparsed rest of s. sub is set for the compound
// specifiers %r and %T, which skip the final checks.
func extractDateTime(s, format string, sub bool) (t mtime, rest string, ok bool) {
	return extractInto(&t, s, format, sub)
}

func extractInto(t *mtime, s, format string, sub bool) (mtime, string, bool) {
	val := s
	usaTime := false
	daypart := 0
	yearday := -1
	fail := func() (mtime, string, bool) { return *t, val, false }
	for i := 0; i < len(format) && val != ""; i++ {
		fm := format[i]
		spec := false
		if fm == '%' && i+1 < len(format) {
			i++
			fm = format[i]
			spec = true
		}
		// Skip spaces before each part.
		val = strings.TrimLeft(val, " \t\n\r\v\f")
		if val == "" {
			break
		}
		if !spec {
			if !isSpace(fm) {
				if val[0] != fm {
					return fail()
				}
				val = val[1:]
			}
			continue
		}
		num := func(width int) (int, bool) {
			n, j, ok := readInt(val, 0, width)
			if !ok {
				return 0, false
			}
			val = val[j:]
			return n, true
		}
		var okp bool
		switch fm {
		case 'Y':
			n, j, ok := readInt(val, 0, 4)
			if !ok {
				return fail()
			}
			if j <= 2 {
				n = year2000(n)
			}
			t.year, val, okp = n, val[j:], true
		case 'y':
			var n int
			n, okp = num(2)
			t.year = year2000(n)
		case 'm', 'c':
			t.month, okp = num(2)
		case 'M':
			t.month, val = checkWord(monthNames, val)
			okp = t.month > 0
		case 'b':
			t.month, val = checkWord(monthAbbrevs, val)
			okp = t.month > 0
		case 'd', 'e':
			t.day, okp = num(2)
		case 'D':
			t.day, okp = num(2)
			val = val[min(2, len(val)):]
		case 'h', 'I', 'l':
			usaTime = true
			t.hour, okp = num(2)
		case 'H', 'k':
			t.hour, okp = num(2)
		case 'i':
			t.minute, okp = num(2)
		case 's', 'S':
			t.second, okp = num(2)
		case 'f':
			n, j, ok := readInt(val, 0, 6)
			if !ok {
				return fail()
			}
			for k := j; k < 6; k++ {
				n *= 10
			}
			t.usec, val, okp = n, val[j:], true
		case 'p':
			if !usaTime || len(val) < 2 {
				return fail()
			}
			switch strings.ToUpper(val[:2]) {
			case "PM":
				daypart = 12
			case "AM":
			default:
				return fail()
			}
			val, okp = val[2:], true
		case 'W':
			var wd int
			wd, val = checkWord(dayNames[:], val)
			okp = wd > 0
		case 'a':
			var wd int
			wd, val = checkWord(dayAbbrevs, val)
			okp = wd > 0
		case 'w':
			var wd int
			wd, okp = num(1)
			okp = okp && wd < 7
		case 'j':
			yearday, okp = num(3)
		case 'r':
			var r string
			if _, r, okp = extractInto(t, val, "%I:%i:%S %p", true); !okp {
				return *t, r, false
			}
			val = r
		case 'T':
			var r string
			if _, r, okp = extractInto(t, val, "%H:%i:%S", true); !okp {
				return *t, r, false
			}
			val = r
		case '.':
			for val != "" && isPunct(val[0]) {
				val = val[1:]
			}
			okp = true
		case '@':
			for val != "" && (val[0]|0x20 >= 'a' && val[0]|0x20 <= 'z') {
				val = val[1:]
			}
			okp = true
		case '#':
			for val != "" && isDigit(val[0]) {
				val = val[1:]
			}
			okp = true
		}
		if !okp {
			return fail()
		}
	}
	if usaTime {
		if t.hour > 12 || t.hour < 1 {
			return fail()
		}
		t.hour = t.hour%12 + daypart
	}
	if sub {
		return *t, val, true
	}
	if yearday > 0 {
		days := int64(mtime{year: t.year, month: 1, day: 1}.dayNumber() + yearday - 1)
		d, ok := datetimeFromUsec(days*usecPerDay, 0)
		if !ok {
			return fail()
		}
		t.year, t.month, t.day = d.year, d.month, d.day
	}
	if t.month > 12 || t.day > 31 || t.hour > 23 || t.minute > 59 || t.second > 59 {
		return fail()
	}
	return *t, val, true
}

func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

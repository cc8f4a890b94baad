package builtins

import (
	"strings"

	"vitess.io/vitess/go/sqltypes"
)

// TIME_FORMAT(time, format) and GET_FORMAT({DATE|TIME|DATETIME|TIMESTAMP},
// 'EUR'|'USA'|'JIS'|'ISO'|'INTERNAL').
//
// TIME_FORMAT formats a TIME as DATE_FORMAT does a date, with MySQL's
// rules for a time: only the hour, minute, second and microsecond
// specifiers (%f %H %h %I %i %k %l %p %r %S %s %T) and %% apply, any date
// specifier (%a %b %c %D %d %e %j %M %m %U %u %V %v %W %w %X %x %Y %y)
// makes the result NULL; %H and %k show hours past 23 as they are, the
// 12-hour forms and %p take them modulo 24; a negative time is prefixed
// with '-'; any other character after % stands for itself. A DATETIME
// argument is formatted by its time of day; NULL, a value that is no time
// and an empty format give NULL.

func init() {
	register("time_format", &Func{MinArgs: 2, MaxArgs: 2, Eval: fnTimeFormat, Type: typeOf(sqltypes.VarChar)})
	register("get_format", &Func{MinArgs: 2, MaxArgs: 2, Eval: fnGetFormat, Type: typeOf(sqltypes.VarChar)})
}

func fnTimeFormat(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	if anyNullArg(a...) {
		return sqltypes.NULL, nil
	}
	t, ok := tempArg(env, a[0], true)
	if !ok {
		return sqltypes.NULL, nil
	}
	out, ok := formatTime(nil, t, a[1].ToString())
	if !ok {
		return sqltypes.NULL, nil
	}
	return sqltypes.MakeTrusted(sqltypes.VarChar, out), nil
}

// formatTime appends t formatted by format; false when format uses a date
// specifier or is empty.
func formatTime(b []byte, t mtime, format string) ([]byte, bool) {
	if format == "" {
		return nil, false
	}
	hour := t.hour // a TIME's whole hours; a DATETIME's hour of day
	if t.neg {
		b = append(b, '-')
	}
	hour12 := (hour%24+11)%12 + 1
	ampm := "AM"
	if hour%24 >= 12 {
		ampm = "PM"
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b = append(b, c)
			continue
		}
		i++
		switch format[i] {
		case 'f':
			b = appendPad(b, t.usec, 6)
		case 'H':
			b = appendPad(b, hour, 2)
		case 'h', 'I':
			b = appendPad(b, hour12, 2)
		case 'i':
			b = appendPad(b, t.minute, 2)
		case 'k':
			b = appendPad(b, hour, 1)
		case 'l':
			b = appendPad(b, hour12, 1)
		case 'p':
			b = append(b, ampm...)
		case 'r':
			b = appendPad(b, hour12, 2)
			b = append(b, ':')
			b = appendPad(b, t.minute, 2)
			b = append(b, ':')
			b = appendPad(b, t.second, 2)
			b = append(b, ' ')
			b = append(b, ampm...)
		case 'S', 's':
			b = appendPad(b, t.second, 2)
		case 'T':
			b = appendPad(b, hour, 2)
			b = append(b, ':')
			b = appendPad(b, t.minute, 2)
			b = append(b, ':')
			b = appendPad(b, t.second, 2)
		case 'a', 'b', 'c', 'D', 'd', 'e', 'j', 'M', 'm', 'U', 'u', 'V', 'v', 'W', 'w', 'X', 'x', 'Y', 'y':
			return nil, false
		default:
			b = append(b, format[i])
		}
	}
	return b, true
}

// getFormats are GET_FORMAT's answers by type and standard.
var getFormats = map[string]map[string]string{
	"date": {"usa": "%m.%d.%Y", "jis": "%Y-%m-%d", "iso": "%Y-%m-%d", "eur": "%d.%m.%Y", "internal": "%Y%m%d"},
	"datetime": {"usa": "%Y-%m-%d %H.%i.%s", "jis": "%Y-%m-%d %H:%i:%s", "iso": "%Y-%m-%d %H:%i:%s",
		"eur": "%Y-%m-%d %H.%i.%s", "internal": "%Y%m%d%H%i%s"},
	"time": {"usa": "%h:%i:%s %p", "jis": "%H:%i:%s", "iso": "%H:%i:%s", "eur": "%H.%i.%s", "internal": "%H%i%s"},
}

// fnGetFormat answers GET_FORMAT; its first argument is the type's name
// as a string (parse.FunctionCalls turns the keyword into one).
func fnGetFormat(_ Env, a []sqltypes.Value) (sqltypes.Value, error) {
	if anyNullArg(a...) {
		return sqltypes.NULL, nil
	}
	typ := strings.ToLower(a[0].ToString())
	if typ == "timestamp" {
		typ = "datetime"
	}
	f, ok := getFormats[typ][strings.ToLower(a[1].ToString())]
	if !ok {
		return sqltypes.NULL, nil
	}
	return sqltypes.MakeTrusted(sqltypes.VarChar, []byte(f)), nil
}

package builtins

import (
	"math"
	"strconv"
	"strings"
	"unicode"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/colldata"
	"vitess.io/vitess/go/mysql/decimal"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
)

// String functions evalengine lacks (or gets wrong): UPPER/UCASE,
// LOWER/LCASE, SUBSTRING_INDEX, FIND_IN_SET, FORMAT, QUOTE, SOUNDEX,
// CHARSET, MAKE_SET, EXPORT_SET; and ANY_VALUE.

func init() {
	upper := &Func{MinArgs: 1, MaxArgs: 1, Eval: func(_ Env, a []sqltypes.Value) (sqltypes.Value, error) {
		return changeCase(a[0], strings.ToUpper), nil
	}, Type: caseType}
	lower := &Func{MinArgs: 1, MaxArgs: 1, Eval: func(_ Env, a []sqltypes.Value) (sqltypes.Value, error) {
		return changeCase(a[0], strings.ToLower), nil
	}, Type: caseType}
	register("upper", upper)
	register("ucase", upper)
	register("lower", lower)
	register("lcase", lower)
	register("any_value", &Func{MinArgs: 1, MaxArgs: 1, Eval: func(_ Env, a []sqltypes.Value) (sqltypes.Value, error) {
		return a[0], nil
	}, Type: argType0})
	register("substring_index", &Func{MinArgs: 3, MaxArgs: 3, Eval: fnSubstringIndex, Type: strResultType(0, 1)})
	register("find_in_set", &Func{MinArgs: 2, MaxArgs: 2, Eval: fnFindInSet, Type: typeOf(sqltypes.Int64)})
	register("format", &Func{MinArgs: 2, MaxArgs: 3, Eval: fnFormat, Type: typeOf(sqltypes.VarChar)})
	register("quote", &Func{MinArgs: 1, MaxArgs: 1, Eval: fnQuote, Type: strResultType(0)})
	register("soundex", &Func{MinArgs: 1, MaxArgs: 1, Eval: fnSoundex, Type: strResultType(0)})
	register("charset", &Func{MinArgs: 1, MaxArgs: 1, Eval: fnCharset, Type: typeOf(sqltypes.VarChar)})
	register("make_set", &Func{MinArgs: 2, MaxArgs: -1, Eval: fnMakeSet, Type: strResultType(1, -1)})
	register("export_set", &Func{MinArgs: 3, MaxArgs: 5, Eval: fnExportSet, Type: strResultType(1, 2)})
}

// changeCase maps the case of text; binary strings are returned unchanged,
// as in MySQL.
func changeCase(v sqltypes.Value, f func(string) string) sqltypes.Value {
	if v.IsNull() {
		return v
	}
	if v.IsBinary() {
		return v
	}
	t := v.Type()
	if !v.IsText() {
		t = sqltypes.VarChar
	}
	return sqltypes.MakeTrusted(t, []byte(f(v.ToString())))
}

// anyNullArg reports whether one of vs is NULL.
func anyNullArg(vs ...sqltypes.Value) bool {
	for _, v := range vs {
		if v.IsNull() {
			return true
		}
	}
	return false
}

// strResult returns s as a string value; binary when any of the string
// arguments like is binary, as MySQL derives the result character set.
func strResult(s string, like ...sqltypes.Value) sqltypes.Value {
	for _, v := range like {
		if v.IsBinary() {
			return sqltypes.MakeTrusted(sqltypes.VarBinary, []byte(s))
		}
	}
	return sqltypes.MakeTrusted(sqltypes.VarChar, []byte(s))
}

// argInt converts an argument to an integer the way MySQL's val_int does
// (strings and decimals are parsed, fractions rounded half away from zero).
func argInt(v sqltypes.Value) int64 {
	switch {
	case v.IsSigned():
		n, _ := v.ToInt64()
		return n
	case v.IsUnsigned():
		n, _ := v.ToUint64()
		return int64(n)
	}
	f := argFloat(v)
	if math.IsNaN(f) {
		return 0
	}
	f = math.Round(f)
	if f >= math.MaxInt64 {
		return math.MaxInt64
	}
	if f <= math.MinInt64 {
		return math.MinInt64
	}
	return int64(f)
}

// argUint converts an argument to the unsigned 64-bit value MySQL uses for
// bit sets (negative numbers wrap).
func argUint(v sqltypes.Value) uint64 {
	if v.IsUnsigned() {
		n, _ := v.ToUint64()
		return n
	}
	if v.IsSigned() {
		n, _ := v.ToInt64()
		return uint64(n)
	}
	f := math.Round(argFloat(v))
	switch {
	case f >= math.MaxUint64:
		return math.MaxUint64
	case f < 0:
		return uint64(int64(f))
	}
	return uint64(f)
}

// argFloat converts an argument to a double, parsing the longest numeric
// prefix of strings as MySQL does.
func argFloat(v sqltypes.Value) float64 {
	if v.IsNull() {
		return 0
	}
	if v.IsIntegral() || v.IsFloat() || v.Type() == sqltypes.Decimal {
		f, err := strconv.ParseFloat(v.ToString(), 64)
		if err == nil {
			return f
		}
	}
	return parseFloatPrefix(v.ToString())
}

// parseFloatPrefix parses the longest prefix of s that is a number.
func parseFloatPrefix(s string) float64 {
	s = strings.TrimLeft(s, " \t\n\r")
	end := 0
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := false
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits = true
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits = true
		}
	}
	if !digits {
		return 0
	}
	end = i
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j {
			end = k
		}
	}
	f, _ := strconv.ParseFloat(s[:end], 64)
	return f
}

func fnSubstringIndex(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	if anyNullArg(a...) {
		return sqltypes.NULL, nil
	}
	return strResult(substringIndex(a[0].ToString(), a[1].ToString(), argInt(a[2])), a[0], a[1]), nil
}

// substringIndex implements SUBSTRING_INDEX(s, delim, count): the part of s
// before the count-th delimiter (from the right when count is negative).
// Delimiters are matched case-sensitively.
func substringIndex(s, delim string, count int64) string {
	if s == "" || delim == "" || count == 0 {
		return ""
	}
	if count > 0 {
		pos := 0
		for ; count > 0; count-- {
			i := strings.Index(s[pos:], delim)
			if i < 0 {
				return s
			}
			pos += i
			if count > 1 {
				pos += len(delim)
			}
		}
		return s[:pos]
	}
	end := len(s)
	for ; count < 0; count++ {
		i := strings.LastIndex(s[:end], delim)
		if i < 0 {
			return s
		}
		end = i
		if count == -1 {
			return s[i+len(delim):]
		}
	}
	return s[end:]
}

func fnFindInSet(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	if anyNullArg(a...) {
		return sqltypes.NULL, nil
	}
	coll := collations.ID(collations.CollationBinaryID)
	if !a[0].IsBinary() && !a[1].IsBinary() {
		// The collation both arguments derive (a _bin column wins).
		coll = env.ArgCollation(a)
	}
	return sqltypes.NewInt64(findInSet(a[0].ToString(), a[1].ToString(), coll)), nil
}

// findInSet returns the 1-based position of s in the comma-separated list,
// comparing under coll; 0 when absent or when s contains a comma.
func findInSet(s, list string, coll collations.ID) int64 {
	if list == "" || strings.IndexByte(s, ',') >= 0 {
		return 0
	}
	c := colldata.Lookup(coll)
	n := int64(1)
	for {
		i := strings.IndexByte(list, ',')
		item := list
		if i >= 0 {
			item = list[:i]
		}
		var eq bool
		if c == nil {
			eq = item == s
		} else {
			eq = c.Collate([]byte(item), []byte(s), false) == 0
		}
		if eq {
			return n
		}
		if i < 0 {
			return 0
		}
		list = list[i+1:]
		n++
	}
}

// numLocale holds the number formatting of a MySQL locale.
type numLocale struct {
	decimal, thousands string
}

// numLocales are the FORMAT() locales strata knows, with MySQL's separators.
var numLocales = map[string]numLocale{
	"en_us": {".", ","}, "en_gb": {".", ","}, "ja_jp": {".", ","}, "zh_cn": {".", ","},
	"ko_kr": {".", ","}, "hi_in": {".", ","}, "en_au": {".", ","}, "en_ca": {".", ","},
	"en_in": {".", ","}, "en_nz": {".", ","}, "zh_tw": {".", ","}, "zh_hk": {".", ","},
	"de_de": {",", "."}, "es_es": {",", "."}, "da_dk": {",", "."}, "nb_no": {",", "."},
	"tr_tr": {",", "."}, "uk_ua": {",", "."}, "id_id": {",", "."},
	"fr_fr": {",", ""}, "it_it": {",", ""}, "pt_br": {",", ""}, "nl_nl": {",", ""},
	"pl_pl": {",", ""}, "pt_pt": {",", ""}, "de_at": {",", ""},
	"ru_ru": {",", " "}, "sv_se": {",", " "}, "fi_fi": {",", " "}, "cs_cz": {",", " "},
	"de_ch": {".", "'"},
}

// erUnknownLocale is ER_UNKNOWN_LOCALE.
const erUnknownLocale = sqlerror.ErrorCode(1649)

func fnFormat(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	if a[0].IsNull() || a[1].IsNull() {
		return sqltypes.NULL, nil
	}
	loc := numLocales["en_us"]
	if len(a) == 3 && !a[2].IsNull() {
		name := a[2].ToString()
		if l, ok := numLocales[strings.ToLower(name)]; ok {
			loc = l
		} else {
			env.Warn(erUnknownLocale, "Unknown locale: '"+name+"'")
		}
	}
	d := argInt(a[1])
	d = max(0, min(d, 30))
	var digits string
	switch {
	case a[0].IsIntegral() || a[0].Type() == sqltypes.Decimal:
		dec, err := decimal.NewFromString(a[0].ToString())
		if err != nil {
			dec = decimal.NewFromFloat(argFloat(a[0]))
		}
		digits = dec.Round(int32(d)).StringFixed(int32(d))
	default:
		digits = formatDouble(argFloat(a[0]), int(d))
	}
	return sqltypes.MakeTrusted(sqltypes.VarChar, []byte(groupDigits(digits, loc))), nil
}

// formatDouble rounds f to d decimals as MySQL does for doubles (rint, i.e.
// half to even on the scaled value) and prints it with exactly d decimals,
// padding the shortest representation with zeros.
func formatDouble(f float64, d int) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	scale := math.Pow10(d)
	if r := math.RoundToEven(f*scale) / scale; !math.IsInf(f*scale, 0) {
		f = r
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	dot := strings.IndexByte(s, '.')
	if dot < 0 {
		if d == 0 {
			return s
		}
		return s + "." + strings.Repeat("0", d)
	}
	frac := len(s) - dot - 1
	switch {
	case d == 0:
		return s[:dot]
	case frac >= d:
		return s[:dot+1+d]
	default:
		return s + strings.Repeat("0", d-frac)
	}
}

// groupDigits inserts the locale's thousands separator into a plain decimal
// string ("-1234.50") and replaces its decimal point.
func groupDigits(s string, loc numLocale) string {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i+1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i := 0; i < len(intPart); i++ {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteString(loc.thousands)
		}
		b.WriteByte(intPart[i])
	}
	if frac != "" {
		b.WriteString(loc.decimal)
		b.WriteString(frac)
	}
	return b.String()
}

func fnQuote(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	if a[0].IsNull() {
		return sqltypes.MakeTrusted(sqltypes.VarChar, []byte("NULL")), nil
	}
	return strResult(quoteString(a[0].ToString()), a[0]), nil
}

// quoteString implements QUOTE: single quotes around s, with backslash,
// single quote, NUL and Ctrl-Z escaped.
func quoteString(s string) string {
	b := make([]byte, 0, len(s)+2)
	b = append(b, '\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '\'':
			b = append(b, '\\', c)
		case 0:
			b = append(b, '\\', '0')
		case 0x1a:
			b = append(b, '\\', 'Z')
		default:
			b = append(b, c)
		}
	}
	return string(append(b, '\''))
}

func fnSoundex(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	if a[0].IsNull() {
		return sqltypes.NULL, nil
	}
	return strResult(soundex(a[0].ToString()), a[0]), nil
}

// soundexCodes maps A..Z to MySQL's soundex digits ('0' for vowels and the
// letters that are skipped).
const soundexCodes = "01230120022455012623010202"

// soundex implements MySQL's SOUNDEX: the first letter, then the codes of
// the following letters with repeats (of adjacent codes, ignoring vowels)
// dropped, padded with '0' to at least four characters. Non-letters are
// ignored; a string without letters gives ”.
func soundex(s string) string {
	code := func(r rune) byte {
		if r >= 'A' && r <= 'Z' {
			return soundexCodes[r-'A']
		}
		return '0' // other alphabetic characters (non-ASCII): no code
	}
	var out []byte
	var last byte
	for _, r := range s {
		if !unicode.IsLetter(r) {
			continue
		}
		r = unicode.ToUpper(r)
		if out == nil {
			out = append(out, []byte(string(r))...)
			last = code(r)
			continue
		}
		c := code(r)
		if c != '0' && c != last {
			out = append(out, c)
			last = c
		}
	}
	if out == nil {
		return ""
	}
	for len(out) < 4 {
		out = append(out, '0')
	}
	return string(out)
}

func fnCharset(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	name := "binary"
	if !a[0].IsNull() && a[0].IsText() {
		name = "utf8mb4"
		if c := colldata.Lookup(env.ArgCollation(a)); c != nil {
			name = c.Charset().Name()
		}
	}
	return sqltypes.MakeTrusted(sqltypes.VarChar, []byte(name)), nil
}

func fnMakeSet(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	if a[0].IsNull() {
		return sqltypes.NULL, nil
	}
	bits := argUint(a[0])
	var b strings.Builder
	first := true
	for i, v := range a[1:] {
		if i >= 64 {
			break
		}
		if bits&(1<<uint(i)) == 0 || v.IsNull() {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(v.ToString())
	}
	return strResult(b.String(), a[1:]...), nil
}

func fnExportSet(env Env, a []sqltypes.Value) (sqltypes.Value, error) {
	if anyNullArg(a...) {
		return sqltypes.NULL, nil
	}
	sep := ","
	if len(a) > 3 {
		sep = a[3].ToString()
	}
	n := int64(64)
	if len(a) > 4 {
		n = argInt(a[4])
		if n < 0 || n > 64 {
			n = 64
		}
	}
	return strResult(exportSet(argUint(a[0]), a[1].ToString(), a[2].ToString(), sep, int(n)), a[1], a[2]), nil
}

// exportSet implements EXPORT_SET: for the n lowest bits of bits, on or off,
// separated by sep.
func exportSet(bits uint64, on, off, sep string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(sep)
		}
		if bits&(1<<uint(i)) != 0 {
			b.WriteString(on)
		} else {
			b.WriteString(off)
		}
	}
	return b.String()
}

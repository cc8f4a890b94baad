package coltype

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/charset"
	"vitess.io/vitess/go/mysql/collations/colldata"
	"vitess.io/vitess/go/mysql/json"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/collation"
)

// bytesOf returns the byte content of v as a string operand.
func bytesOf(v sqltypes.Value) []byte {
	if isLiteralBytes(v.Type()) {
		if b, err := literalBytes(v); err == nil {
			return b
		}
	}
	return v.Raw()
}

// isBinaryInput reports whether v carries bytes rather than characters.
func isBinaryInput(t sqltypes.Type) bool {
	return sqltypes.IsBinary(t) || isLiteralBytes(t) || t == sqltypes.Bit
}

// equalInColl compares two strings under a collation.
func equalInColl(id collations.ID, a, b string) bool {
	if c := colldata.Lookup(id); c != nil && id != collations.CollationBinaryID {
		return c.Collate([]byte(a), []byte(b), false) == 0
	}
	return a == b
}

// badStringMsg formats MySQL's "Incorrect string value" text for the bytes
// starting at the first invalid character.
func badStringMsg(bad []byte, col string, row int) string {
	var sb strings.Builder
	n := len(bad)
	if n > 6 {
		n = 6
	}
	for _, c := range bad[:n] {
		if c >= 0x20 && c < 0x7f {
			sb.WriteByte(c)
		} else {
			sb.WriteString(`\x`)
			sb.WriteByte("0123456789ABCDEF"[c>>4])
			sb.WriteByte("0123456789ABCDEF"[c&15])
		}
	}
	if len(bad) > 6 {
		sb.WriteString("...")
	}
	return msgIncorrect("string", sb.String(), col, row)
}

// toCharset checks that text b can be stored in the column's character set
// and returns it as UTF-8. Binary input is read in the column's charset.
func (c *conv) toCharset(b []byte, binaryIn bool) ([]byte, error) {
	cs := charsetOf(c.col.Collation)
	name := ""
	if cs != nil {
		name = cs.Name()
	}
	if binaryIn && name != "" && name != "utf8mb4" && name != "utf8mb3" && name != "binary" {
		out, err := charset.Convert(nil, charset.Charset_utf8mb4{}, b, cs)
		if err == nil {
			return out, nil
		}
		return c.fixString(b, func(r rune) bool { return false })
	}
	var ok func(r rune) bool
	switch name {
	case "utf8mb4", "binary", "":
		if utf8.Valid(b) {
			return b, nil
		}
		return c.fixString(b, func(r rune) bool { return true })
	case "utf8mb3":
		ok = func(r rune) bool { return r <= 0xFFFF }
	default:
		ok = func(r rune) bool {
			var tmp [4]byte
			return cs.EncodeRune(tmp[:], r) > 0
		}
	}
	if collation.IsASCII(b) {
		return b, nil // every character set has ASCII
	}
	if utf8.Valid(b) {
		good := true
		for _, r := range string(b) {
			if !ok(r) {
				good = false
				break
			}
		}
		if good {
			return b, nil
		}
	}
	return c.fixString(b, ok)
}

// fixString reports an incorrect string value and, in non-strict mode,
// replaces each bad character with '?'.
func (c *conv) fixString(b []byte, ok func(r rune) bool) ([]byte, error) {
	out := make([]byte, 0, len(b))
	reported := false
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if (r == utf8.RuneError && size <= 1) || !ok(r) {
			if !reported {
				reported = true
				if err := c.problem(1366, ssGeneral, badStringMsg(b[i:], c.col.Name, c.row)); err != nil {
					return nil, err
				}
			}
			out = append(out, '?')
			i += size
			continue
		}
		out = append(out, b[i:i+size]...)
		i += size
	}
	return out, nil
}

func allSpaces(b []byte) bool {
	for _, c := range b {
		if c != ' ' {
			return false
		}
	}
	return true
}

// cutChars returns the length in bytes of the first n characters of b.
func cutChars(b []byte, n int) int {
	// ASCII characters are a byte each.
	i := collation.ASCIIPrefix(b, n)
	if i == n || i == len(b) {
		return i
	}
	for n -= i; n > 0 && i < len(b); n-- {
		_, size := utf8.DecodeRune(b[i:])
		i += size
	}
	return i
}

// cutBytes returns the largest character boundary <= n in b.
func cutBytes(b []byte, n int) int {
	if n >= len(b) {
		return len(b)
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return n
}

func (c *conv) toText(v sqltypes.Value) (sqltypes.Value, error) {
	b := bytesOf(v)
	binaryIn := isBinaryInput(v.Type())
	// ASCII text is valid in every character set and counts one character
	// per byte: one scan instead of a validation and a character count.
	ascii := !binaryIn && collation.IsASCII(b)
	if !ascii {
		var err error
		if b, err = c.toCharset(b, binaryIn); err != nil {
			return sqltypes.Value{}, err
		}
	}
	var cut int
	switch {
	case c.col.Type == sqltypes.Text:
		cut = cutBytes(b, c.col.Length)
	case ascii:
		cut = min(len(b), max(c.col.Length, 0))
	default:
		cut = cutChars(b, c.col.Length)
	}
	if cut < len(b) {
		if allSpaces(b[cut:]) {
			if c.col.Type != sqltypes.Char {
				c.noteTruncated()
			}
		} else if err := c.tooLong(false); err != nil {
			return sqltypes.Value{}, err
		}
		b = b[:cut]
	}
	if c.col.Type == sqltypes.Char {
		for len(b) > 0 && b[len(b)-1] == ' ' {
			b = b[:len(b)-1]
		}
	}
	return sqltypes.MakeTrusted(c.col.Type, b), nil
}

func (c *conv) toBinary(v sqltypes.Value) (sqltypes.Value, error) {
	b := bytesOf(v)
	if len(b) > c.col.Length {
		if err := c.tooLong(false); err != nil {
			return sqltypes.Value{}, err
		}
		b = b[:c.col.Length]
	}
	if c.col.Type == sqltypes.Binary && len(b) < c.col.Length {
		out := make([]byte, c.col.Length)
		copy(out, b)
		b = out
	}
	return sqltypes.MakeTrusted(c.col.Type, b), nil
}

// isNumberInput reports whether v is a number rather than text (ENUM and SET
// take numbers as ordinals / bit masks).
func isNumberInput(t sqltypes.Type) bool {
	return sqltypes.IsNumber(t) || t == sqltypes.Decimal
}

func (c *conv) enumIndex(v sqltypes.Value) (idx uint64, isNum bool, err error) {
	if isNumberInput(v.Type()) {
		n, err := c.numberOf(v, "integer")
		if err != nil {
			return 0, true, err
		}
		neg, mag, over := toInteger(n)
		if neg || over {
			return 0, true, nil
		}
		return mag, true, nil
	}
	return 0, false, nil
}

func (c *conv) toEnum(v sqltypes.Value) (sqltypes.Value, error) {
	members := c.col.EnumValues
	idx, isNum, err := c.enumIndex(v)
	if err != nil {
		return sqltypes.Value{}, err
	}
	if !isNum {
		s := strings.TrimRight(string(bytesOf(v)), " ")
		for _, m := range members {
			if equalInColl(c.col.Collation, m, s) {
				return sqltypes.MakeTrusted(sqltypes.Enum, []byte(m)), nil
			}
		}
		// A string of digits that names no member is an ordinal.
		if num, isInt, ok, garbage := scanNumber(s); ok && isInt && !garbage && !strings.HasPrefix(num, "-") {
			if u, err := strconv.ParseUint(strings.TrimPrefix(num, "+"), 10, 64); err == nil {
				idx, isNum = u, true
			}
		}
	}
	if isNum && idx >= 1 && idx <= uint64(len(members)) {
		return sqltypes.MakeTrusted(sqltypes.Enum, []byte(members[idx-1])), nil
	}
	if err := c.truncated(); err != nil {
		return sqltypes.Value{}, err
	}
	return sqltypes.MakeTrusted(sqltypes.Enum, []byte{}), nil
}

func (c *conv) toSet(v sqltypes.Value) (sqltypes.Value, error) {
	members := c.col.EnumValues
	var mask uint64
	all := uint64(1)<<uint(len(members)) - 1
	if len(members) >= 64 {
		all = ^uint64(0)
	}
	idx, isNum, err := c.enumIndex(v)
	if err != nil {
		return sqltypes.Value{}, err
	}
	if isNum {
		mask = idx
		if mask&^all != 0 {
			if err := c.truncated(); err != nil {
				return sqltypes.Value{}, err
			}
			mask &= all
		}
	} else if s := string(bytesOf(v)); s != "" {
		bad := false
		for _, item := range strings.Split(s, ",") {
			item = strings.TrimRight(item, " ")
			found := false
			for i, m := range members {
				if equalInColl(c.col.Collation, m, item) {
					mask |= 1 << uint(i)
					found = true
					break
				}
			}
			if !found {
				bad = true
			}
		}
		if bad {
			if err := c.truncated(); err != nil {
				return sqltypes.Value{}, err
			}
		}
	}
	var out []byte
	for i, m := range members {
		if mask&(1<<uint(i)) != 0 {
			if len(out) > 0 {
				out = append(out, ',')
			}
			out = append(out, m...)
		}
	}
	if out == nil {
		out = []byte{}
	}
	return sqltypes.MakeTrusted(sqltypes.Set, out), nil
}

func (c *conv) toJSON(v sqltypes.Value) (sqltypes.Value, error) {
	var p json.Parser
	j, err := p.ParseBytes(bytesOf(v))
	if err != nil {
		return sqltypes.Value{}, newErr(3140, ssBadJSON,
			`Invalid JSON text: "Invalid value." at position 0 in value for column '`+c.col.Name+`'.`)
	}
	return sqltypes.MakeTrusted(sqltypes.TypeJSON, j.MarshalTo(nil)), nil
}

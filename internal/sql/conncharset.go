package sql

import (
	"bytes"
	"strings"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/collations/charset"
	"vitess.io/vitess/go/mysql/collations/colldata"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// connCharsets is what the session converts between its client's
// character sets and the UTF-8 strata keeps text in (MySQL's
// character_set_client and character_set_results). A nil set needs no
// conversion: utf8mb4 and utf8mb3 (UTF-8 already), ascii and binary
// (bytes taken as they come), or character_set_results NULL.
type connCharsets struct {
	client      charset.Charset
	results     charset.Charset
	resultsColl collations.ID // the id result columns are labelled with
}

// conversionCharset returns the character set named cs when text in it
// must be converted to or from UTF-8, nil when not, and ok false for a
// name MySQL does not know.
func conversionCharset(cs string) (charset.Charset, collations.ID, bool) {
	env := collations.MySQL8()
	name := strings.ToLower(cs)
	if a, ok := env.CharsetAlias(name); ok {
		name = a
	}
	switch name {
	case "utf8mb4", "utf8mb3", "utf8", "ascii", "binary", "", "null":
		return nil, 0, env.DefaultCollationForCharset(name) != collations.Unknown || name == "" || name == "null" || name == "utf8"
	}
	id := env.DefaultCollationForCharset(name)
	if id == collations.Unknown {
		return nil, 0, false
	}
	c := colldata.Lookup(id)
	if c == nil {
		return nil, 0, false
	}
	return c.Charset(), id, true
}

// loadConnCharsets reads the session's character_set_client and
// character_set_results into s.conv.
func (s *Session) loadConnCharsets() {
	v, _ := s.sysVar("character_set_client")
	s.conv.client, _, _ = conversionCharset(v.ToString())
	v, _ = s.sysVar("character_set_results")
	if v.IsNull() {
		s.conv.results = nil
		return
	}
	s.conv.results, s.conv.resultsColl, _ = conversionCharset(v.ToString())
}

// canonicalCharset is the name SHOW VARIABLES shows for a character set
// written cs (utf8 is utf8mb3, as in MySQL 8).
func canonicalCharset(cs string) string {
	if a, ok := collations.MySQL8().CharsetAlias(cs); ok {
		return a
	}
	return cs
}

// checkCharsetName answers error 1115 for a character set MySQL does not
// know, 1231 for one a client cannot use (the UCS-2 and UTF-16/32 sets;
// variable names the setting), and 1235 for one strata cannot convert.
func checkCharsetName(variable, cs string) error {
	name := canonicalCharset(strings.ToLower(cs))
	env := collations.MySQL8()
	if env.DefaultCollationForCharset(name) == collations.Unknown && !mysqlCharsets[name] {
		return sqlerr.New(sqlerror.ERUnknownCharacterSet, sqlerror.SSUnknownSQLState, "Unknown character set: '%s'", cs)
	}
	switch name {
	case "ucs2", "utf16", "utf16le", "utf32":
		if variable != "character_set_results" && variable != "character_set_connection" {
			return sqlerr.New(sqlerror.ERWrongValueForVar, sqlerror.SSClientError, "Variable '%s' can't be set to the value of '%s'", variable, cs)
		}
	}
	if _, _, ok := conversionCharset(name); !ok {
		return sqlerr.Unsupported("character set '%s' for a connection", cs)
	}
	return nil
}

// mysqlCharsets are the character sets of MySQL 8 (SHOW CHARACTER SET),
// some of which strata's collation tables lack.
var mysqlCharsets = map[string]bool{
	"armscii8": true, "ascii": true, "big5": true, "binary": true, "cp1250": true, "cp1251": true,
	"cp1256": true, "cp1257": true, "cp850": true, "cp852": true, "cp866": true, "cp932": true,
	"dec8": true, "eucjpms": true, "euckr": true, "gb18030": true, "gb2312": true, "gbk": true,
	"geostd8": true, "greek": true, "hebrew": true, "hp8": true, "keybcs2": true, "koi8r": true,
	"koi8u": true, "latin1": true, "latin2": true, "latin5": true, "latin7": true, "macce": true,
	"macroman": true, "sjis": true, "swe7": true, "tis620": true, "ucs2": true, "ujis": true,
	"utf16": true, "utf16le": true, "utf32": true, "utf8mb3": true, "utf8mb4": true,
}

// SetHandshakeCollation applies the collation a client asked for in its
// handshake (or COM_CHANGE_USER), as MySQL does: character_set_client,
// _connection and _results become its character set and
// collation_connection the collation. A UTF-8 collation (what nearly
// every client sends) leaves the server defaults in place, so a client's
// utf8mb4_general_ci does not override collation_connection; an unknown
// id is ignored.
func (s *Session) SetHandshakeCollation(id uint8) {
	env := collations.MySQL8()
	cs := env.LookupCharsetName(collations.ID(id))
	switch cs {
	case "", "utf8mb4", "utf8mb3":
		return
	}
	for _, n := range []string{"character_set_client", "character_set_connection", "character_set_results"} {
		s.setVar(n, sqltypes.NewVarChar(cs))
	}
	s.setVar("collation_connection", sqltypes.NewVarChar(env.LookupName(collations.ID(id))))
	s.loadConnCharsets()
}

// DecodeQuery returns a statement sent by the client as UTF-8 text: it is
// converted from character_set_client, except the bytes of string
// literals introduced by _binary, which stay as sent. Without a client
// set to convert from, or for a statement of ASCII only, it is sql itself.
func (s *Session) DecodeQuery(sql string) string {
	cs := s.conv.client
	if cs == nil || isASCII(sql) {
		return sql
	}
	return decodeClientText(cs, sql)
}

// DecodeParam returns a prepared statement's string argument (sent as
// CHAR or VARCHAR: MySQL converts those, not the BLOB types) as UTF-8.
func (s *Session) DecodeParam(v sqltypes.Value) sqltypes.Value {
	cs := s.conv.client
	if cs == nil || (v.Type() != sqltypes.VarChar && v.Type() != sqltypes.Char) || isASCII(v.RawStr()) {
		return v
	}
	b, _ := charset.Convert(nil, charset.Charset_utf8mb4{}, v.Raw(), cs)
	return sqltypes.MakeTrusted(v.Type(), b)
}

// ResultCharset returns the character set result text is converted into
// and the collation id its columns are labelled with; nil when results
// are sent as stored.
func (s *Session) ResultCharset() (charset.Charset, collations.ID) {
	return s.conv.results, s.conv.resultsColl
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// decodeClientText converts sql from cs to UTF-8, keeping the bytes of
// _binary string literals. It walks the text a character of cs at a time,
// so a multi-byte character whose second byte looks like a quote or a
// backslash (gbk, sjis) is never taken for one.
func decodeClientText(cs charset.Charset, sql string) string {
	src := []byte(sql)
	out := make([]byte, 0, len(src)+len(src)/2)
	var buf [4]byte
	put := func(r rune) {
		n := charset.Charset_utf8mb4{}.EncodeRune(buf[:], r)
		if n < 0 {
			n = charset.Charset_utf8mb4{}.EncodeRune(buf[:], '?')
		}
		out = append(out, buf[:n]...)
	}
	i := 0
	for i < len(src) {
		r, w := cs.DecodeRune(src[i:])
		if w <= 0 {
			w, r = 1, '?'
		}
		if (r == '\'' || r == '"') && binaryIntroduced(out) {
			// Copy the literal's bytes as sent, up to its closing quote.
			out = append(out, src[i])
			j := i + 1
			for j < len(src) {
				c := src[j]
				out = append(out, c)
				j++
				if c == '\\' && j < len(src) {
					out = append(out, src[j])
					j++
					continue
				}
				if c == byte(r) {
					if j < len(src) && src[j] == byte(r) { // doubled quote
						out = append(out, src[j])
						j++
						continue
					}
					break
				}
			}
			i = j
			continue
		}
		if r == utf8RuneError {
			r = '?'
		}
		put(r)
		i += w
	}
	return string(out)
}

const utf8RuneError = '\uFFFD'

// binaryIntroduced reports whether text (converted so far) ends with the
// _binary introducer, possibly followed by spaces.
func binaryIntroduced(text []byte) bool {
	t := bytes.TrimRight(text, " \t\r\n")
	const intro = "_binary"
	if len(t) < len(intro) || !bytes.EqualFold(t[len(t)-len(intro):], []byte(intro)) {
		return false
	}
	if len(t) == len(intro) {
		return true
	}
	c := t[len(t)-len(intro)-1]
	return !(c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80)
}

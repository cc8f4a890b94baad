package parse

import "strings"

// A token scanner for stored-program bodies (compound.go). It knows just
// enough of MySQL's lexical rules to find statement boundaries and the
// keywords of compound statements: quoted strings, backticked names,
// comments (skipped; the text of executable comments /*! ... */ is
// scanned as code), numbers, words, @variables and punctuation.

// Token kinds.
const (
	tkWord   = 'w' // a bare word (keyword or identifier)
	tkQuoted = 'q' // a `backticked` or "double-quoted" name
	tkString = 's' // a 'string'
	tkNumber = 'n'
	tkVar    = 'v' // @name or @@name
	tkPunct  = 'p' // one or two characters of punctuation
)

// spToken is one token: its kind and its place in the source text.
type spToken struct {
	kind       byte
	start, end int
	// up is the upper-cased text of a word (or the punctuation).
	up string
}

// spTokenize splits src into tokens; ok is false when a quote or a
// comment is not closed.
func spTokenize(src string) ([]spToken, bool) {
	var out []spToken
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case isSpace(c):
			i++
		case c == '/' && i+2 < len(src) && src[i+1] == '*' && src[i+2] == '!':
			// Executable comment: its text is code (version digits skipped).
			i += 3
			for i < len(src) && src[i] >= '0' && src[i] <= '9' {
				i++
			}
		case c == '*' && i+1 < len(src) && src[i+1] == '/':
			i += 2 // the end of an executable comment
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return out, false
			}
			i += end + 4
		case c == '#' || c == '-' && i+2 < len(src) && src[i+1] == '-' && (isSpace(src[i+2])):
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				i = len(src)
			} else {
				i += end + 1
			}
		case c == '\'' || c == '"' || c == '`':
			j := quoteEnd(src, i)
			if j < 0 {
				return out, false
			}
			k := byte(tkString)
			if c != '\'' {
				k = tkQuoted
			}
			out = append(out, spToken{kind: k, start: i, end: j + 1})
			i = j + 1
		case c == '@':
			j := i + 1
			if j < len(src) && src[j] == '@' {
				j++
			}
			if j < len(src) && (src[j] == '`' || src[j] == '\'' || src[j] == '"') {
				e := quoteEnd(src, j)
				if e < 0 {
					return out, false
				}
				j = e + 1
			} else {
				for j < len(src) && (isWordByte(src[j]) || src[j] == '.') {
					j++
				}
			}
			out = append(out, spToken{kind: tkVar, start: i, end: j})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(src) && (isWordByte(src[j]) || src[j] == '.') {
				j++
			}
			out = append(out, spToken{kind: tkNumber, start: i, end: j})
			i = j
		case isWordByte(c):
			j := i
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
			out = append(out, spToken{kind: tkWord, start: i, end: j, up: strings.ToUpper(src[i:j])})
			i = j
		default:
			n := 1
			if i+1 < len(src) {
				switch src[i : i+2] {
				case ":=", "<=", ">=", "<>", "!=", "||", "&&", "<<", ">>":
					n = 2
				}
			}
			out = append(out, spToken{kind: tkPunct, start: i, end: i + n, up: src[i : i+n]})
			i += n
		}
	}
	return out, true
}

// identText returns the name a word or quoted-name token stands for.
func spIdentText(src string, t spToken) string {
	s := src[t.start:t.end]
	if t.kind == tkQuoted {
		q := string(s[0])
		return strings.ReplaceAll(s[1:len(s)-1], q+q, q)
	}
	return s
}

// stringText returns the value of a 'string' token.
func stringText(src string, t spToken) string {
	s := src[t.start+1 : t.end-1]
	if !strings.ContainsAny(s, `\'`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			default:
				b.WriteByte(s[i])
			}
			continue
		}
		if c == '\'' && i+1 < len(s) && s[i+1] == '\'' {
			i++
		}
		b.WriteByte(c)
	}
	return b.String()
}

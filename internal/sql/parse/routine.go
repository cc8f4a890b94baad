package parse

import (
	"regexp"
	"strings"
)

// Routine is a statement on a stored program — a stored function or
// procedure, a trigger or an event — which strata does not have yet. Vitess's
// parser rejects most of these (or parses only some), so they are recognised
// from the text.
type Routine struct {
	Verb     string // CREATE, ALTER or DROP
	Kind     string // FUNCTION, PROCEDURE, TRIGGER or EVENT
	Schema   string // the qualifier of the name, "" when unqualified
	Name     string
	IfExists bool // DROP ... IF EXISTS
}

var reRoutine = regexp.MustCompile(`(?is)^\s*(CREATE|ALTER|DROP)\s+` +
	`(?:OR\s+REPLACE\s+)?` +
	`(?:DEFINER\s*=\s*(?:CURRENT_USER(?:\s*\(\s*\))?|` + userPart + `(?:\s*@\s*` + userPart + `)?)\s+)?` +
	`(?:SQL\s+SECURITY\s+(?:DEFINER|INVOKER)\s+)?` +
	`(?:AGGREGATE\s+)?` +
	`(FUNCTION|PROCEDURE|TRIGGER|EVENT)\s+` +
	`(IF\s+(?:NOT\s+)?EXISTS\s+)?` +
	`(` + ident + `)(?:\s*\.\s*(` + ident + `))?`)

const (
	userPart = "(?:'[^']*'|\"[^\"]*\"|`[^`]*`|[\\w$.%-]+)"
	ident    = "(?:`(?:[^`]|``)+`|[\\w$]+)"
)

// ParseRoutine recognises CREATE/ALTER/DROP of a FUNCTION, PROCEDURE,
// TRIGGER or EVENT (with DEFINER, SQL SECURITY, OR REPLACE, AGGREGATE, IF
// [NOT] EXISTS, a schema-qualified name, and MySQL comments anywhere). It
// looks at the first word before anything else, so other statements cost a
// few byte comparisons.
func ParseRoutine(sql string) (Routine, bool) {
	if !maybeRoutine(sql) {
		return Routine{}, false
	}
	m := reRoutine.FindStringSubmatch(stripComments(sql))
	if m == nil {
		return Routine{}, false
	}
	r := Routine{Verb: strings.ToUpper(m[1]), Kind: strings.ToUpper(m[2]), Name: unquoteIdent(m[4])}
	if m[5] != "" {
		r.Schema, r.Name = r.Name, unquoteIdent(m[5])
	}
	r.IfExists = m[3] != "" && r.Verb == "DROP" && !strings.Contains(strings.ToUpper(m[3]), "NOT")
	return r, true
}

// maybeRoutine reports whether sql starts (after spaces and comments) with
// CREATE, ALTER or DROP.
func maybeRoutine(sql string) bool {
	for i := 0; i < len(sql); i++ {
		switch sql[i] {
		case ' ', '\t', '\n', '\r', '\f':
			continue
		case '/', '#', '-':
			return true // a comment first: let the full match decide
		}
		switch sql[i] | 0x20 {
		case 'c':
			return len(sql)-i >= 6 && strings.EqualFold(sql[i:i+6], "create")
		case 'a':
			return len(sql)-i >= 5 && strings.EqualFold(sql[i:i+5], "alter")
		case 'd':
			return len(sql)-i >= 4 && strings.EqualFold(sql[i:i+4], "drop")
		default:
			return false
		}
	}
	return false
}

// stripComments removes -- , # and /* */ comments outside quotes and keeps
// the text of MySQL's executable comments /*! ... */ and /*!NNNNN ... */
// (mysqldump writes CREATE TRIGGER inside them).
func stripComments(sql string) string {
	if !strings.ContainsAny(sql, "/#-") {
		return sql
	}
	var b strings.Builder
	b.Grow(len(sql))
	var q byte
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		switch {
		case q != 0:
			if c == '\\' && q != '`' && i+1 < len(sql) {
				b.WriteByte(c)
				i++
				c = sql[i]
			} else if c == q {
				q = 0
			}
		case c == '\'' || c == '"' || c == '`':
			q = c
		case c == '/' && i+2 < len(sql) && sql[i+1] == '*' && sql[i+2] == '!':
			i += 3
			for i < len(sql) && sql[i] >= '0' && sql[i] <= '9' {
				i++
			}
			i--
			c = ' '
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += end + 3
			c = ' '
		case c == '*' && i+1 < len(sql) && sql[i+1] == '/':
			i++ // the end of an executable comment
			c = ' '
		case c == '#' || (c == '-' && i+2 < len(sql) && sql[i+1] == '-' && (sql[i+2] == ' ' || sql[i+2] == '\t')):
			end := strings.IndexByte(sql[i:], '\n')
			if end < 0 {
				return b.String()
			}
			i += end
			c = '\n'
		}
		b.WriteByte(c)
	}
	return b.String()
}

func unquoteIdent(s string) string {
	if len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`' {
		return strings.ReplaceAll(s[1:len(s)-1], "``", "`")
	}
	return s
}

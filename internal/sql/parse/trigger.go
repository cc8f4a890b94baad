package parse

import (
	"errors"
	"strings"
)

// CreateTrigger is a parsed CREATE TRIGGER statement:
//
//	CREATE [DEFINER = user] TRIGGER [IF NOT EXISTS] [db.]name
//	    {BEFORE|AFTER} {INSERT|UPDATE|DELETE} ON [db.]tbl FOR EACH ROW
//	    [{FOLLOWS|PRECEDES} other] body
//
// Vitess's parser does not know it; the header is read here and the body
// kept as text (SplitBody cuts a BEGIN ... END body into statements).
type CreateTrigger struct {
	// Definer is the DEFINER clause's account as written ("" without one,
	// "CURRENT_USER" for CURRENT_USER[()]); DefinerHost its host part.
	Definer, DefinerHost string
	IfNotExists          bool
	Schema, Name         string
	Timing, Event        string // BEFORE/AFTER, INSERT/UPDATE/DELETE
	TableSchema, Table   string
	// Order is FOLLOWS or PRECEDES ("" without), OrderName the other
	// trigger.
	Order, OrderName string
	Body             string
}

// ErrTriggerSyntax is a CREATE TRIGGER statement this parser cannot read.
var ErrTriggerSyntax = errors.New("CREATE TRIGGER syntax")

// IsCreateTrigger reports whether sql is a CREATE ... TRIGGER statement
// (MySQL comments anywhere before the name).
func IsCreateTrigger(sql string) bool {
	r, ok := ParseRoutine(sql)
	return ok && r.Verb == "CREATE" && r.Kind == "TRIGGER"
}

// ParseCreateTrigger parses a CREATE TRIGGER statement. The text of
// executable comments (/*!50003 ... */, as mysqldump writes) is kept,
// other comments are dropped.
func ParseCreateTrigger(sql string) (CreateTrigger, error) {
	var ct CreateTrigger
	sc := &scanner{s: stripComments(sql)}
	if !sc.keyword("CREATE") {
		return ct, ErrTriggerSyntax
	}
	var ok bool
	if ct.Definer, ct.DefinerHost, ok = sc.definerClause(); !ok {
		return ct, ErrTriggerSyntax
	}
	if !sc.keyword("TRIGGER") {
		return ct, ErrTriggerSyntax
	}
	if sc.keyword("IF") {
		if !sc.keyword("NOT") || !sc.keyword("EXISTS") {
			return ct, ErrTriggerSyntax
		}
		ct.IfNotExists = true
	}
	if ct.Schema, ct.Name, ok = sc.qualifiedName(); !ok {
		return ct, ErrTriggerSyntax
	}
	switch {
	case sc.keyword("BEFORE"):
		ct.Timing = "BEFORE"
	case sc.keyword("AFTER"):
		ct.Timing = "AFTER"
	default:
		return ct, ErrTriggerSyntax
	}
	switch {
	case sc.keyword("INSERT"):
		ct.Event = "INSERT"
	case sc.keyword("UPDATE"):
		ct.Event = "UPDATE"
	case sc.keyword("DELETE"):
		ct.Event = "DELETE"
	default:
		return ct, ErrTriggerSyntax
	}
	if !sc.keyword("ON") {
		return ct, ErrTriggerSyntax
	}
	if ct.TableSchema, ct.Table, ok = sc.qualifiedName(); !ok {
		return ct, ErrTriggerSyntax
	}
	if !sc.keyword("FOR") || !sc.keyword("EACH") || !sc.keyword("ROW") {
		return ct, ErrTriggerSyntax
	}
	switch {
	case sc.keyword("FOLLOWS"):
		ct.Order = "FOLLOWS"
	case sc.keyword("PRECEDES"):
		ct.Order = "PRECEDES"
	}
	if ct.Order != "" {
		if ct.OrderName, ok = sc.ident(); !ok {
			return ct, ErrTriggerSyntax
		}
	}
	sc.space()
	ct.Body = strings.TrimRight(strings.TrimSpace(sc.s[sc.i:]), "; \t\r\n")
	if ct.Body == "" {
		return ct, ErrTriggerSyntax
	}
	return ct, nil
}

// scanner reads the words of a statement header.
type scanner struct {
	s string
	i int
}

func (sc *scanner) space() {
	for sc.i < len(sc.s) && isSpace(sc.s[sc.i]) {
		sc.i++
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// keyword consumes the word w (case-insensitive) when it comes next.
func (sc *scanner) keyword(w string) bool {
	sc.space()
	end := sc.i + len(w)
	if end > len(sc.s) || !strings.EqualFold(sc.s[sc.i:end], w) || end < len(sc.s) && isWordByte(sc.s[end]) {
		return false
	}
	sc.i = end
	return true
}

// punct consumes the character c when it comes next.
func (sc *scanner) punct(c byte) bool {
	sc.space()
	if sc.i < len(sc.s) && sc.s[sc.i] == c {
		sc.i++
		return true
	}
	return false
}

// ident reads an identifier, bare or in backticks (or double quotes).
func (sc *scanner) ident() (string, bool) {
	sc.space()
	if sc.i >= len(sc.s) {
		return "", false
	}
	if q := sc.s[sc.i]; q == '`' || q == '"' {
		return sc.quoted(q)
	}
	start := sc.i
	for sc.i < len(sc.s) && isWordByte(sc.s[sc.i]) {
		sc.i++
	}
	return sc.s[start:sc.i], sc.i > start
}

// quoted reads a quoted name or string whose quote is doubled inside.
func (sc *scanner) quoted(q byte) (string, bool) {
	var b strings.Builder
	for i := sc.i + 1; i < len(sc.s); i++ {
		c := sc.s[i]
		if c == '\\' && q != '`' && i+1 < len(sc.s) {
			i++
			b.WriteByte(sc.s[i])
			continue
		}
		if c == q {
			if i+1 < len(sc.s) && sc.s[i+1] == q {
				b.WriteByte(q)
				i++
				continue
			}
			sc.i = i + 1
			return b.String(), true
		}
		b.WriteByte(c)
	}
	return "", false
}

// qualifiedName reads name or db.name.
func (sc *scanner) qualifiedName() (db, name string, ok bool) {
	if name, ok = sc.ident(); !ok {
		return "", "", false
	}
	if sc.punct('.') {
		db = name
		if name, ok = sc.ident(); !ok {
			return "", "", false
		}
	}
	return db, name, true
}

// userPart reads one part of an account name: quoted, or bare (letters,
// digits, _ $ . % -).
func (sc *scanner) userPart() (string, bool) {
	sc.space()
	if sc.i >= len(sc.s) {
		return "", false
	}
	if q := sc.s[sc.i]; q == '`' || q == '"' || q == '\'' {
		return sc.quoted(q)
	}
	start := sc.i
	for sc.i < len(sc.s) && (isWordByte(sc.s[sc.i]) || strings.IndexByte(".%-", sc.s[sc.i]) >= 0) {
		sc.i++
	}
	return sc.s[start:sc.i], sc.i > start
}

// SplitBody returns the statements of a trigger body: the body itself, or
// the statements of BEGIN ... END split at semicolons outside quotes,
// backticks, comments and parentheses (SplitTopLevel). A nested BEGIN or a labelled block is left to
// the caller to refuse (FirstWord of each statement).
func SplitBody(body string) ([]string, error) {
	sc := &scanner{s: body}
	if !sc.keyword("BEGIN") {
		return []string{strings.TrimSpace(body)}, nil
	}
	inner := strings.TrimSpace(body[sc.i:])
	if len(inner) < 3 || !strings.EqualFold(inner[len(inner)-3:], "END") || len(inner) > 3 && isWordByte(inner[len(inner)-4]) {
		return nil, ErrTriggerSyntax
	}
	parts, ok := SplitTopLevel(inner[:len(inner)-3], ';')
	if !ok {
		return nil, ErrTriggerSyntax
	}
	var out []string
	for _, st := range parts {
		if st = strings.TrimSpace(st); st != "" {
			out = append(out, st)
		}
	}
	return out, nil
}

// FirstWord returns a statement's first word in upper case, after
// comments; a label ("name:") comes back with its colon.
func FirstWord(stmt string) string {
	s := strings.TrimSpace(stripComments(stmt))
	i := 0
	for i < len(s) && isWordByte(s[i]) {
		i++
	}
	w := strings.ToUpper(s[:i])
	if rest := strings.TrimLeft(s[i:], " \t\r\n"); strings.HasPrefix(rest, ":") && !strings.HasPrefix(rest, ":=") {
		return w + ":"
	}
	return w
}

// Signal is a parsed SIGNAL statement:
//
//	SIGNAL SQLSTATE [VALUE] 'xxxxx' [SET MESSAGE_TEXT = 'text' [, MYSQL_ERRNO = n]]
type Signal struct {
	State   string
	Message string // "" when not set
	Errno   int    // 0 when not set
}

// ParseSignal recognises a SIGNAL statement; ok is false for any other
// statement, err reports a SIGNAL this parser cannot read.
func ParseSignal(sql string) (sig Signal, ok bool, err error) {
	if !maybeSignal(sql) {
		return sig, false, nil
	}
	sc := &scanner{s: stripComments(sql)}
	if !sc.keyword("SIGNAL") {
		return sig, false, nil
	}
	bad := errors.New("SIGNAL syntax: only SIGNAL SQLSTATE 'xxxxx' [SET MESSAGE_TEXT = '...', MYSQL_ERRNO = n]")
	if !sc.keyword("SQLSTATE") {
		return sig, true, bad
	}
	sc.keyword("VALUE")
	sc.space()
	if sc.i >= len(sc.s) || (sc.s[sc.i] != '\'' && sc.s[sc.i] != '"') {
		return sig, true, bad
	}
	st, okq := sc.quoted(sc.s[sc.i])
	if !okq {
		return sig, true, bad
	}
	sig.State = st
	if sc.keyword("SET") {
		for {
			name, okn := sc.ident()
			if !okn || !sc.punct('=') {
				return sig, true, bad
			}
			sc.space()
			switch strings.ToUpper(name) {
			case "MESSAGE_TEXT":
				if sc.i >= len(sc.s) || (sc.s[sc.i] != '\'' && sc.s[sc.i] != '"') {
					return sig, true, bad
				}
				if sig.Message, okn = sc.quoted(sc.s[sc.i]); !okn {
					return sig, true, bad
				}
			case "MYSQL_ERRNO":
				start := sc.i
				for sc.i < len(sc.s) && sc.s[sc.i] >= '0' && sc.s[sc.i] <= '9' {
					sig.Errno = sig.Errno*10 + int(sc.s[sc.i]-'0')
					sc.i++
				}
				if sc.i == start || sig.Errno > 65535 {
					return sig, true, bad
				}
			default:
				return sig, true, bad
			}
			if !sc.punct(',') {
				break
			}
		}
	}
	sc.space()
	for sc.i < len(sc.s) && sc.s[sc.i] == ';' {
		sc.i++
		sc.space()
	}
	if sc.i != len(sc.s) {
		return sig, true, bad
	}
	return sig, true, nil
}

// maybeSignal reports whether sql starts (after spaces) with SIGNAL or a
// comment: other statements cost a few byte comparisons.
func maybeSignal(sql string) bool {
	for i := 0; i < len(sql); i++ {
		switch c := sql[i]; {
		case isSpace(c):
			continue
		case c == '/' || c == '#' || c == '-':
			return true
		default:
			return len(sql)-i >= 6 && strings.EqualFold(sql[i:i+6], "signal")
		}
	}
	return false
}

// definerClause reads an optional DEFINER = user clause of CREATE
// TRIGGER/PROCEDURE/FUNCTION: the account as written ("" without the
// clause, "CURRENT_USER" for CURRENT_USER[()]) and its host ('%' when the
// account names none); ok false for a malformed clause.
func (sc *scanner) definerClause() (user, host string, ok bool) {
	if !sc.keyword("DEFINER") {
		return "", "", true
	}
	if !sc.punct('=') {
		return "", "", false
	}
	if sc.keyword("CURRENT_USER") {
		if sc.punct('(') && !sc.punct(')') {
			return "", "", false
		}
		return "CURRENT_USER", "", true
	}
	u, ok := sc.userPart()
	if !ok {
		return "", "", false
	}
	if sc.punct('@') {
		h, ok := sc.userPart()
		return u, h, ok
	}
	if i := strings.IndexByte(u, '@'); i >= 0 {
		return u[:i], u[i+1:], true
	}
	return u, "%", true
}

package parse

import (
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"
)

// SplitStatements splits a multi-statement COM_QUERY into its statements.
// Vitess's splitter cuts at every semicolon outside quotes and comments,
// which cuts a CREATE TRIGGER, PROCEDURE or FUNCTION whose body is BEGIN ... END (the mysql
// client sends it whole, with the body's semicolons, after DELIMITER); a
// text that holds one is split here, keeping such a body's semicolons.
// Other texts go to Vitess's splitter.
func SplitStatements(p *sqlparser.Parser, query string) ([]string, error) {
	if !containsFold(query, "trigger") && !containsFold(query, "procedure") && !containsFold(query, "function") {
		return p.SplitStatementToPieces(query)
	}
	var out []string
	start, depth := 0, 0
	trigger := false // the current statement is a CREATE TRIGGER
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			i = skipQuoted(query, i)
		case c == '/' && i+1 < len(query) && query[i+1] == '*':
			end := strings.Index(query[i+2:], "*/")
			if end < 0 {
				i = len(query)
			} else {
				i += end + 3
			}
			i--
		case c == '#' || c == '-' && i+2 < len(query) && query[i+1] == '-' && isSpace(query[i+2]):
			end := strings.IndexByte(query[i:], '\n')
			if end < 0 {
				i = len(query)
			} else {
				i += end
			}
		case isWordByte(c) && (i == 0 || !isWordByte(query[i-1])):
			j := i
			for j < len(query) && isWordByte(query[j]) {
				j++
			}
			if !trigger && strings.TrimSpace(stripComments(query[start:i])) == "" {
				trigger = isCreateCompound(query[start:])
			}
			if trigger {
				depth += blockDepth(query[i:j], query[j:])
			}
			i = j - 1
		case c == ';' && depth <= 0:
			if st := strings.TrimSpace(query[start:i]); st != "" {
				out = append(out, st)
			}
			start, depth, trigger = i+1, 0, false
		}
	}
	if st := strings.TrimSpace(query[start:]); st != "" {
		out = append(out, st)
	}
	return out, nil
}

// isCreateCompound reports whether sql is a CREATE TRIGGER, PROCEDURE or
// FUNCTION, whose body may hold semicolons inside BEGIN ... END.
func isCreateCompound(sql string) bool {
	r, ok := ParseRoutine(sql)
	return ok && r.Verb == "CREATE" && r.Kind != "EVENT"
}

// blockDepth is how a word changes the nesting of BEGIN ... END blocks in
// a stored-program body: BEGIN and CASE open one, END closes one unless
// END IF, END LOOP, END WHILE or END REPEAT ends a statement whose opening
// word did not count.
func blockDepth(word, rest string) int {
	switch {
	case strings.EqualFold(word, "BEGIN"), strings.EqualFold(word, "CASE"):
		return 1
	case strings.EqualFold(word, "END"):
		sc := &scanner{s: rest}
		if sc.keyword("IF") || sc.keyword("LOOP") || sc.keyword("WHILE") || sc.keyword("REPEAT") {
			return 0
		}
		return -1
	}
	return 0
}

// skipQuoted returns the index of the quote closing the quoted text that
// starts at s[i] (len(s)-1 when it is not closed).
func skipQuoted(s string, i int) int {
	if j := quoteEnd(s, i); j >= 0 {
		return j
	}
	return len(s) - 1
}

// quoteEnd returns the index of the quote closing the quoted text that
// starts at s[i], or -1 when it is not closed. A backslash escapes the
// next byte in '...' and "...", not in backticks; a doubled quote stands
// for itself and stays inside.
func quoteEnd(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			if q != '`' {
				j++
			}
		case q:
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j
		}
	}
	return -1
}

// SplitTopLevel splits s at sep where it stands outside quotes, backticks,
// comments and parentheses. ok is false when a quote or a /* comment is
// not closed (the parts then end at it).
func SplitTopLevel(s string, sep byte) (parts []string, ok bool) {
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'', c == '"', c == '`':
			if i = quoteEnd(s, i); i < 0 {
				return append(parts, s[start:]), false
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return append(parts, s[start:]), false
			}
			i += end + 3
		case c == '#' || c == '-' && i+2 < len(s) && s[i+1] == '-' && isSpace(s[i+2]):
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				i = len(s)
			} else {
				i += end
			}
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == sep && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:]), true
}

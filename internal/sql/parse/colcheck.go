package parse

import (
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"
)

// MoveColumnChecks rewrites the column-level CHECK constraints of a CREATE
// TABLE or ALTER TABLE statement into table-level ones that Vitess's
// parser accepts.
//
// MySQL takes CHECK among a column's attributes, anywhere and more than once
// (`n INT CHECK (n > 0) NOT NULL CHECK (n < 9)`); Vitess's grammar takes one
// only as the last attribute and never on a table's first column (it then
// parses a partial statement). Each such clause is cut out of its column
// definition and appended right after it: `, CHECK (...)` in CREATE TABLE,
// `, ADD CHECK (...)` in ALTER TABLE (ADD [COLUMN], MODIFY, CHANGE). A
// moved clause keeps its place among the statement's CHECK constraints, so
// MySQL's generated names (<table>_chk_<n>, by position) are unchanged.
//
// cols has one entry per CHECK constraint of the rewritten statement, in
// order: the column a column-level constraint was written on, "" for a
// table-level one. MySQL requires a column-level constraint to refer to its
// column only; once parsed, the two kinds are otherwise the same. ok is false
// (sql returned unchanged, cols nil) when the statement has no column-level
// CHECK constraint.
func MoveColumnChecks(p *sqlparser.Parser, sql string) (out string, cols []string, ok bool) {
	if !startsWithFold(sql, "create") && !startsWithFold(sql, "alter") || !containsFold(sql, "check") {
		return sql, nil, false
	}
	s := &checkScan{sql: sql, toks: codeTokens(p, sql)}
	if len(s.toks) < 3 {
		return sql, nil, false
	}
	switch s.toks[0].typ {
	case sqlparser.CREATE:
		s.createTable()
	case sqlparser.ALTER:
		s.alterTable()
	default:
		return sql, nil, false
	}
	if !s.moved || overlapping(s.edits) {
		// Nothing to move, or a form not understood: left to the parser.
		return sql, nil, false
	}
	return applyEdits(sql, s.edits), s.cols, true
}

// codeTokens tokenizes sql (see tokens) without its comments, so that
// neighbouring tokens of the statement are neighbours in the slice; nil when
// it does not scan or its parentheses do not balance.
func codeTokens(p *sqlparser.Parser, sql string) []token {
	all, ok := tokens(p, sql)
	if !ok {
		return nil
	}
	out := all[:0]
	for _, t := range all {
		if t.typ != sqlparser.COMMENT {
			out = append(out, t)
		}
	}
	return out
}

// tokStart is where a token's own text starts: tokens() puts the opener
// (/*!80016) or closer (*/) of a version comment before a token inside its
// span.
func tokStart(sql string, t token) int {
	i := t.start
	for {
		for i < t.end && (sql[i] == ' ' || sql[i] == '\t' || sql[i] == '\n' || sql[i] == '\r') {
			i++
		}
		switch {
		case strings.HasPrefix(sql[i:t.end], "*/"):
			i += 2
		case strings.HasPrefix(sql[i:t.end], "/*!"):
			i += 3
			for i < t.end && sql[i] >= '0' && sql[i] <= '9' {
				i++
			}
		default:
			return i
		}
	}
}

// identText is the identifier a token spells: its text, unquoted.
func identText(sql string, t token) string {
	s := sql[tokStart(sql, t):t.end]
	if len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`' {
		return strings.ReplaceAll(s[1:len(s)-1], "``", "`")
	}
	return s
}

// checkScan finds column-level CHECK clauses and plans the edits that move
// them.
type checkScan struct {
	sql   string
	toks  []token
	edits []edit
	cols  []string
	moved bool
}

// notColumn are the keywords that start a table element other than a column
// definition (they are reserved, so a column of that name is quoted and
// scans as an identifier).
var notColumn = map[int]bool{
	sqlparser.CONSTRAINT: true, sqlparser.CHECK: true, sqlparser.PRIMARY: true,
	sqlparser.UNIQUE: true, sqlparser.KEY: true, sqlparser.INDEX: true,
	sqlparser.FULLTEXT: true, sqlparser.SPATIAL: true, sqlparser.FOREIGN: true,
	sqlparser.PARTITION: true,
}

// createTable handles CREATE [TEMPORARY] TABLE [IF NOT EXISTS] name (...).
func (s *checkScan) createTable() {
	i := 1
	if i < len(s.toks) && s.toks[i].typ == sqlparser.TEMPORARY {
		i++
	}
	if i >= len(s.toks) || s.toks[i].typ != sqlparser.TABLE {
		return
	}
	for ; i < len(s.toks); i++ {
		if s.toks[i].typ == '(' {
			s.elements(i+1, ", ", -1)
			return
		}
	}
}

// elements walks the comma-separated table elements from toks[i] to the
// parenthesis that closes their list, and returns its index. A column's
// CHECK clauses move to the end of their element, with sep before them, or
// to byte offset atEnd when it is >= 0 (the end of ALTER TABLE ADD (...)).
func (s *checkScan) elements(i int, sep string, atEnd int) int {
	for i < len(s.toks) {
		j := s.elementEnd(i)
		s.element(i, j, "", sep, atEnd)
		if j >= len(s.toks) || s.toks[j].typ != ',' {
			return j
		}
		i = j + 1
	}
	return i
}

// elementEnd returns the index of the ',' or ')' that ends the element
// starting at toks[i] (len(toks) when the statement ends first).
func (s *checkScan) elementEnd(i int) int {
	depth := 0
	for ; i < len(s.toks); i++ {
		switch s.toks[i].typ {
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return i
			}
			depth--
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}

// element handles one element toks[i:j]. col is the column it defines when
// the caller knows it (ALTER TABLE forms); "" reads it from the element.
func (s *checkScan) element(i, j int, col, sep string, atEnd int) {
	if i >= j {
		return
	}
	column := col != "" || !notColumn[s.toks[i].typ]
	if column && col == "" {
		col = identText(s.sql, s.toks[i])
	}
	depth := 0
	for k := i; k < j; k++ {
		switch s.toks[k].typ {
		case '(':
			depth++
		case ')':
			depth--
		case sqlparser.CHECK:
			if depth != 0 || k+1 >= j || s.toks[k+1].typ != '(' {
				continue
			}
			if !column {
				s.cols = append(s.cols, "")
				continue
			}
			end := s.moveCheck(i, k, j, sep, atEnd)
			s.cols = append(s.cols, col)
			k = end
		}
	}
}

// moveCheck moves the clause whose CHECK keyword is toks[k] in the element
// toks[i:j] and returns the index of its last token.
func (s *checkScan) moveCheck(i, k, j int, sep string, atEnd int) int {
	start := k
	name, hasConstraint := "", false
	if k-1 >= i && s.toks[k-1].typ == sqlparser.CONSTRAINT {
		start, hasConstraint = k-1, true
	} else if k-2 >= i && s.toks[k-2].typ == sqlparser.CONSTRAINT {
		start, hasConstraint, name = k-2, true, identText(s.sql, s.toks[k-1])
	}
	closeIdx := s.matching(k+1, j)
	last := closeIdx
	enforced := ""
	switch {
	case last+1 < j && s.toks[last+1].typ == sqlparser.ENFORCED:
		last++
	case last+2 < j && s.toks[last+1].typ == sqlparser.NOT && s.toks[last+2].typ == sqlparser.ENFORCED:
		last += 2
		enforced = " NOT ENFORCED"
	}
	var b strings.Builder
	b.WriteString(sep)
	if hasConstraint {
		b.WriteString("CONSTRAINT ")
		if name != "" {
			b.WriteString(quoteIdent(name))
			b.WriteByte(' ')
		}
	}
	b.WriteString("CHECK (")
	b.WriteString(s.sql[s.toks[k+1].end:tokStart(s.sql, s.toks[closeIdx])])
	b.WriteByte(')')
	b.WriteString(enforced)
	from, to := tokStart(s.sql, s.toks[start]), s.toks[last].end
	// A clause ending inside a version comment (/*!80016 NOT ENFORCED */)
	// takes the comment's end with it.
	if strings.Contains(s.sql[from:to], "/*!") {
		if e := strings.Index(s.sql[to:], "*/"); e >= 0 {
			to += e + 2
		}
	}
	s.edits = append(s.edits, edit{pos: from, end: to, text: " ", order: len(s.edits)})
	dest := atEnd
	if dest < 0 {
		dest = s.elementEndOffset(j)
	}
	s.edits = append(s.edits, edit{pos: dest, text: b.String(), order: len(s.edits)})
	s.moved = true
	return last
}

// elementEndOffset is the byte offset where an element ending before
// toks[j] ends: the start of the ',' or ')' that closes it, or the end of
// the statement's last token.
func (s *checkScan) elementEndOffset(j int) int {
	if j < len(s.toks) {
		return tokStart(s.sql, s.toks[j])
	}
	return s.toks[len(s.toks)-1].end
}

// matching returns the index of the ')' matching the '(' at toks[open]
// (limit when unbalanced before it).
func (s *checkScan) matching(open, limit int) int {
	depth := 0
	for i := open; i < limit; i++ {
		switch s.toks[i].typ {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return limit - 1
}

// alterTable handles ALTER TABLE name spec, spec, ...: column definitions
// of ADD [COLUMN], MODIFY [COLUMN] and CHANGE [COLUMN].
func (s *checkScan) alterTable() {
	i := 1
	for i < len(s.toks) && s.toks[i].typ != sqlparser.TABLE {
		i++
	}
	i++ // the table name (db.table: three tokens)
	if i+2 < len(s.toks) && s.toks[i+1].typ == '.' {
		i += 2
	}
	i++
	for i < len(s.toks) {
		j := s.elementEnd(i)
		s.alterSpec(i, j)
		if j >= len(s.toks) || s.toks[j].typ != ',' {
			return
		}
		i = j + 1
	}
}

// alterSpec handles one ALTER TABLE specification toks[i:j].
func (s *checkScan) alterSpec(i, j int) {
	k := i
	switch s.toks[k].typ {
	case sqlparser.ADD:
		k++
		if k < j && s.toks[k].typ == sqlparser.COLUMN {
			k++
		}
		if k >= j {
			return
		}
		if s.toks[k].typ == '(' {
			// ADD [COLUMN] (a INT CHECK (...), b INT): the list's checks move
			// after the parenthesis.
			s.elements(k+1, ", ADD ", s.elementEndOffset(j))
			return
		}
		if notColumn[s.toks[k].typ] {
			s.element(k, j, "", ", ADD ", -1)
			return
		}
		s.element(k, j, identText(s.sql, s.toks[k]), ", ADD ", -1)
	case sqlparser.MODIFY:
		k++
		if k < j && s.toks[k].typ == sqlparser.COLUMN {
			k++
		}
		if k < j {
			s.element(k, j, identText(s.sql, s.toks[k]), ", ADD ", -1)
		}
	case sqlparser.CHANGE:
		k++
		if k < j && s.toks[k].typ == sqlparser.COLUMN {
			k++
		}
		if k+1 < j {
			s.element(k+1, j, identText(s.sql, s.toks[k+1]), ", ADD ", -1)
		}
	}
}

// overlapping reports whether an insertion falls inside a replaced span
// (applyEdits would drop it).
func overlapping(edits []edit) bool {
	for _, a := range edits {
		for _, b := range edits {
			if b.end > b.pos && a.pos > b.pos && a.pos < b.end {
				return true
			}
		}
	}
	return false
}

func quoteIdent(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// startsWithFold reports whether sql, after leading blanks, starts with
// word (ASCII case-insensitive).
func startsWithFold(sql, word string) bool {
	sql = strings.TrimLeft(sql, " \t\r\n(")
	return len(sql) >= len(word) && strings.EqualFold(sql[:len(word)], word)
}

package parse

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// LoadData is a parsed LOAD DATA statement (MySQL 8.0):
//
//	LOAD DATA [LOW_PRIORITY | CONCURRENT] [LOCAL] INFILE 'file'
//	    [REPLACE | IGNORE] INTO TABLE [db.]tbl [PARTITION (p, ...)]
//	    [CHARACTER SET cs]
//	    [{FIELDS | COLUMNS} [TERMINATED BY 's'] [[OPTIONALLY] ENCLOSED BY 'c'] [ESCAPED BY 'c']]
//	    [LINES [STARTING BY 's'] [TERMINATED BY 's']]
//	    [IGNORE n {LINES | ROWS}]
//	    [(col_or_@var, ...)]
//	    [SET col = expr, ...]
//
// Vitess's parser reads it as an empty node; this scanner reads it from the
// text. The FIELDS and LINES options may come in any order within their
// clause, as MySQL's grammar allows. The SET expressions are kept as text
// for the expression parser.
type LoadData struct {
	Local bool
	File  string
	// Replace and Ignore are the duplicate-key handling words.
	Replace, Ignore bool
	Schema, Table   string
	// Partitions lists the PARTITION clause's names (nil without one).
	Partitions []string
	// Charset is the CHARACTER SET clause ("" without one).
	Charset string
	// FieldsTerm, Enclosed, Escaped, LinesStart and LinesTerm are the
	// options' strings; nil when the option is not given.
	FieldsTerm, Enclosed, Escaped, LinesStart, LinesTerm *string
	OptEnclosed                                          bool
	// IgnoreLines is IGNORE n LINES.
	IgnoreLines uint64
	// Targets is the column and user-variable list (nil without one).
	Targets []LoadTarget
	// Set is the SET list.
	Set []LoadSet
}

// LoadTarget is one entry of the column list: a column or @var.
type LoadTarget struct {
	Name string
	Var  bool
}

// LoadSet is one SET assignment; Expr is the expression's text.
type LoadSet struct {
	Column string
	Expr   string
}

// ErrLoadXML is LOAD XML, which strata does not support.
var ErrLoadXML = errors.New("LOAD XML")

// LoadDataSyntaxError is a LOAD DATA statement this parser cannot read;
// Near is the text from where reading stopped (MySQL's "near '...'").
type LoadDataSyntaxError struct{ Near string }

func (e *LoadDataSyntaxError) Error() string {
	return fmt.Sprintf("LOAD DATA syntax near '%s'", e.Near)
}

// IsLoadData reports whether sql is a LOAD DATA or LOAD XML statement
// (after spaces and comments); LOAD INDEX INTO CACHE is not.
func IsLoadData(sql string) bool {
	if !maybeLoad(sql) {
		return false
	}
	sc := &scanner{s: stripComments(sql)}
	return sc.keyword("LOAD") && (sc.keyword("DATA") || sc.keyword("XML"))
}

// maybeLoad reports whether sql starts (after spaces) with LOAD or a
// comment: other statements cost a few byte comparisons.
func maybeLoad(sql string) bool {
	for i := 0; i < len(sql); i++ {
		switch c := sql[i]; {
		case isSpace(c):
			continue
		case c == '/' || c == '#' || c == '-':
			return true
		default:
			return len(sql)-i >= 4 && strings.EqualFold(sql[i:i+4], "load")
		}
	}
	return false
}

// ParseLoadData parses a LOAD DATA statement. noBackslashEscapes is the
// session's NO_BACKSLASH_ESCAPES mode (string literals keep their
// backslashes under it).
func ParseLoadData(sql string, noBackslashEscapes bool) (*LoadData, error) {
	sc := &scanner{s: stripComments(sql)}
	ld := &LoadData{}
	bad := func() error {
		sc.space()
		return &LoadDataSyntaxError{Near: firstLine(sc.s[sc.i:])}
	}
	if !sc.keyword("LOAD") {
		return nil, bad()
	}
	if sc.keyword("XML") {
		return nil, ErrLoadXML
	}
	if !sc.keyword("DATA") {
		return nil, bad()
	}
	if !sc.keyword("LOW_PRIORITY") {
		sc.keyword("CONCURRENT")
	}
	ld.Local = sc.keyword("LOCAL")
	if !sc.keyword("INFILE") {
		return nil, bad()
	}
	var ok bool
	if ld.File, ok = sc.stringLit(noBackslashEscapes); !ok {
		return nil, bad()
	}
	switch {
	case sc.keyword("REPLACE"):
		ld.Replace = true
	case sc.keyword("IGNORE"):
		ld.Ignore = true
	}
	if !sc.keyword("INTO") || !sc.keyword("TABLE") {
		return nil, bad()
	}
	if ld.Schema, ld.Table, ok = sc.qualifiedName(); !ok {
		return nil, bad()
	}
	if sc.keyword("PARTITION") {
		if !sc.punct('(') {
			return nil, bad()
		}
		for {
			name, ok := sc.ident()
			if !ok {
				return nil, bad()
			}
			ld.Partitions = append(ld.Partitions, name)
			if sc.punct(')') {
				break
			}
			if !sc.punct(',') {
				return nil, bad()
			}
		}
	}
	if sc.keyword("CHARACTER") {
		if !sc.keyword("SET") {
			return nil, bad()
		}
		if ld.Charset, ok = sc.charsetName(noBackslashEscapes); !ok {
			return nil, bad()
		}
	} else if sc.keyword("CHARSET") {
		if ld.Charset, ok = sc.charsetName(noBackslashEscapes); !ok {
			return nil, bad()
		}
	}
	if sc.keyword("FIELDS") || sc.keyword("COLUMNS") {
		n := 0
		for ; ; n++ {
			var dst **string
			switch {
			case sc.keyword("TERMINATED"):
				dst = &ld.FieldsTerm
			case sc.keyword("OPTIONALLY"):
				if !sc.keyword("ENCLOSED") {
					return nil, bad()
				}
				ld.OptEnclosed = true
				dst = &ld.Enclosed
			case sc.keyword("ENCLOSED"):
				dst = &ld.Enclosed
			case sc.keyword("ESCAPED"):
				dst = &ld.Escaped
			}
			if dst == nil {
				break
			}
			v, ok := sc.byLiteral(noBackslashEscapes)
			if !ok {
				return nil, bad()
			}
			*dst = v
		}
		if n == 0 {
			return nil, bad()
		}
	}
	if sc.keyword("LINES") {
		n := 0
		for ; ; n++ {
			var dst **string
			switch {
			case sc.keyword("TERMINATED"):
				dst = &ld.LinesTerm
			case sc.keyword("STARTING"):
				dst = &ld.LinesStart
			}
			if dst == nil {
				break
			}
			v, ok := sc.byLiteral(noBackslashEscapes)
			if !ok {
				return nil, bad()
			}
			*dst = v
		}
		if n == 0 {
			return nil, bad()
		}
	}
	if sc.keyword("IGNORE") {
		sc.space()
		start := sc.i
		for sc.i < len(sc.s) && isDigit(sc.s[sc.i]) {
			sc.i++
		}
		n, err := strconv.ParseUint(sc.s[start:sc.i], 10, 64)
		if err != nil {
			sc.i = start
			return nil, bad()
		}
		if !sc.keyword("LINES") && !sc.keyword("ROWS") {
			return nil, bad()
		}
		ld.IgnoreLines = n
	}
	if sc.punct('(') {
		ld.Targets = []LoadTarget{}
		if !sc.punct(')') {
			for {
				var t LoadTarget
				if sc.punct('@') {
					t.Var = true
					name, ok := sc.varName(noBackslashEscapes)
					if !ok {
						return nil, bad()
					}
					t.Name = name
				} else {
					_, name, ok := sc.qualifiedColumn()
					if !ok {
						return nil, bad()
					}
					t.Name = name
				}
				ld.Targets = append(ld.Targets, t)
				if sc.punct(')') {
					break
				}
				if !sc.punct(',') {
					return nil, bad()
				}
			}
		}
	}
	if sc.keyword("SET") {
		sc.space()
		parts, ok := SplitTopLevel(sc.s[sc.i:], ',')
		if !ok {
			return nil, bad()
		}
		for _, p := range parts {
			as := &scanner{s: p}
			_, col, ok := as.qualifiedColumn()
			if !ok || !as.punct('=') {
				return nil, &LoadDataSyntaxError{Near: firstLine(strings.TrimSpace(p))}
			}
			expr := strings.TrimSpace(as.s[as.i:])
			expr = strings.TrimRight(expr, "; \t\r\n")
			if expr == "" {
				return nil, &LoadDataSyntaxError{Near: firstLine(strings.TrimSpace(p))}
			}
			ld.Set = append(ld.Set, LoadSet{Column: col, Expr: expr})
		}
		sc.i = len(sc.s)
	}
	sc.space()
	for sc.i < len(sc.s) && sc.s[sc.i] == ';' {
		sc.i++
		sc.space()
	}
	if sc.i != len(sc.s) {
		return nil, bad()
	}
	return ld, nil
}

// firstLine shortens the rest of a statement for a syntax error.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 80 {
		s = s[:80]
	}
	return s
}

// qualifiedColumn reads col, tbl.col or db.tbl.col and returns the
// qualifier and the column name.
func (sc *scanner) qualifiedColumn() (qual, name string, ok bool) {
	if name, ok = sc.ident(); !ok {
		return "", "", false
	}
	for sc.punct('.') {
		qual = name
		if name, ok = sc.ident(); !ok {
			return "", "", false
		}
	}
	return qual, name, true
}

// varName reads a user variable's name after its @: bare, or quoted
// (`x`, 'x', "x").
func (sc *scanner) varName(noBackslashEscapes bool) (string, bool) {
	if sc.i >= len(sc.s) {
		return "", false
	}
	switch q := sc.s[sc.i]; q {
	case '`':
		return sc.quoted(q)
	case '\'', '"':
		return sc.stringLit(noBackslashEscapes)
	}
	start := sc.i
	for sc.i < len(sc.s) && (isWordByte(sc.s[sc.i]) || sc.s[sc.i] == '.') {
		sc.i++
	}
	return sc.s[start:sc.i], sc.i > start
}

// charsetName reads a character set name: a word or a string.
func (sc *scanner) charsetName(noBackslashEscapes bool) (string, bool) {
	sc.space()
	if sc.i < len(sc.s) && (sc.s[sc.i] == '\'' || sc.s[sc.i] == '"') {
		return sc.stringLit(noBackslashEscapes)
	}
	return sc.ident()
}

// stringLit reads a string literal in single or double quotes with
// MySQL's escapes (\0 \' \" \b \n \r \t \Z \\; \% and \_ keep their
// backslash; without NO_BACKSLASH_ESCAPES), a doubled quote standing for
// itself, and adjacent literals concatenated ('a' 'b').
func (sc *scanner) stringLit(noBackslashEscapes bool) (string, bool) {
	sc.space()
	var b strings.Builder
	n := 0
	for sc.i < len(sc.s) && (sc.s[sc.i] == '\'' || sc.s[sc.i] == '"') {
		q := sc.s[sc.i]
		i := sc.i + 1
		closed := false
		for i < len(sc.s) {
			c := sc.s[i]
			if c == '\\' && !noBackslashEscapes && i+1 < len(sc.s) {
				i++
				if e := sc.s[i]; e == '%' || e == '_' {
					b.WriteByte('\\')
					b.WriteByte(e)
				} else {
					b.WriteByte(UnescapeByte(e))
				}
				i++
				continue
			}
			if c == q {
				if i+1 < len(sc.s) && sc.s[i+1] == q {
					b.WriteByte(q)
					i += 2
					continue
				}
				closed = true
				i++
				break
			}
			b.WriteByte(c)
			i++
		}
		if !closed {
			return "", false
		}
		sc.i = i
		n++
		sc.space()
	}
	return b.String(), n > 0
}

// byLiteral reads `BY 'string'`, the value of a FIELDS or LINES option.
func (sc *scanner) byLiteral(noBackslashEscapes bool) (*string, bool) {
	if !sc.keyword("BY") {
		return nil, false
	}
	v, ok := sc.stringLit(noBackslashEscapes)
	return &v, ok
}

package parse

import (
	"errors"
	"strings"
)

// CreateRoutine is a parsed CREATE PROCEDURE or CREATE FUNCTION:
//
//	CREATE [DEFINER = user] PROCEDURE [IF NOT EXISTS] [db.]name
//	    ([IN|OUT|INOUT] p type, ...) [characteristic ...] body
//	CREATE [DEFINER = user] FUNCTION [IF NOT EXISTS] [db.]name
//	    (p type, ...) RETURNS type [characteristic ...] body
//
// The body is kept as text (ParseBody reads it).
type CreateRoutine struct {
	// Definer is the DEFINER clause's user ("" without one,
	// "CURRENT_USER" for CURRENT_USER[()]), DefinerHost its host.
	Definer, DefinerHost string
	IfNotExists          bool
	// Kind is PROCEDURE or FUNCTION.
	Kind         string
	Schema, Name string
	// ParamList is the text between the parentheses; Params its
	// parameters.
	ParamList string
	Params    []RoutineParam
	// Returns is a function's return type as written.
	Returns string
	Chars   Characteristics
	Body    string
}

// RoutineParam is one parameter: Mode is IN, OUT or INOUT (IN when not
// written; "" for functions).
type RoutineParam struct {
	Mode, Name, Type string
}

// Characteristics are a routine's characteristics; nil or "" fields were
// not written.
type Characteristics struct {
	Comment       *string
	Deterministic *bool
	// DataAccess is CONTAINS SQL, NO SQL, READS SQL DATA or MODIFIES SQL
	// DATA.
	DataAccess string
	// Security is DEFINER or INVOKER.
	Security string
}

// ErrRoutineSyntax is a CREATE or ALTER PROCEDURE/FUNCTION this parser
// cannot read.
var ErrRoutineSyntax = errors.New("stored routine syntax")

// ParseCreateRoutine parses CREATE PROCEDURE and CREATE FUNCTION (MySQL
// comments anywhere; the text of executable comments is kept, as
// mysqldump writes the statement inside them).
func ParseCreateRoutine(sql string) (CreateRoutine, error) {
	var cr CreateRoutine
	sc := &scanner{s: strings.TrimSpace(stripComments(sql))}
	if !sc.keyword("CREATE") {
		return cr, ErrRoutineSyntax
	}
	var ok bool
	if cr.Definer, cr.DefinerHost, ok = sc.definerClause(); !ok {
		return cr, ErrRoutineSyntax
	}
	switch {
	case sc.keyword("PROCEDURE"):
		cr.Kind = "PROCEDURE"
	case sc.keyword("FUNCTION"):
		cr.Kind = "FUNCTION"
	default:
		return cr, ErrRoutineSyntax
	}
	if sc.keyword("IF") {
		if !sc.keyword("NOT") || !sc.keyword("EXISTS") {
			return cr, ErrRoutineSyntax
		}
		cr.IfNotExists = true
	}
	if cr.Schema, cr.Name, ok = sc.qualifiedName(); !ok {
		return cr, ErrRoutineSyntax
	}
	if !sc.punct('(') {
		return cr, ErrRoutineSyntax
	}
	start := sc.i
	depth := 1
	for ; sc.i < len(sc.s) && depth > 0; sc.i++ {
		switch c := sc.s[sc.i]; c {
		case '(':
			depth++
		case ')':
			depth--
		case '\'', '"', '`':
			j := quoteEnd(sc.s, sc.i)
			if j < 0 {
				return cr, ErrRoutineSyntax
			}
			sc.i = j
		}
	}
	if depth != 0 {
		return cr, ErrRoutineSyntax
	}
	cr.ParamList = strings.TrimSpace(sc.s[start : sc.i-1])
	params, err := parseParams(cr.ParamList, cr.Kind == "PROCEDURE")
	if err != nil {
		return cr, err
	}
	cr.Params = params
	rest := sc.s[sc.i:]
	toks, ok := spTokenize(rest)
	if !ok {
		return cr, ErrRoutineSyntax
	}
	p := &spParser{src: rest, toks: toks}
	if cr.Kind == "FUNCTION" {
		if !p.word("RETURNS") {
			return cr, ErrRoutineSyntax
		}
		typ, err := p.expr(returnsStop...)
		if err != nil {
			return cr, ErrRoutineSyntax
		}
		cr.Returns = typ
	}
	if cr.Chars, err = p.characteristics(); err != nil {
		return cr, err
	}
	if p.i >= len(p.toks) {
		return cr, ErrRoutineSyntax
	}
	body := strings.TrimSpace(rest[p.toks[p.i].start:])
	for strings.HasSuffix(body, ";") {
		body = strings.TrimSpace(body[:len(body)-1])
	}
	cr.Body = body
	return cr, nil
}

// returnsStop are the words that end a RETURNS type: characteristics and
// the statements a body starts with.
var returnsStop = []string{"COMMENT", "LANGUAGE", "NOT", "DETERMINISTIC", "CONTAINS", "NO", "READS", "MODIFIES", "SQL",
	"BEGIN", "RETURN", "SELECT", "INSERT", "UPDATE", "DELETE", "SET", "IF", "CASE", "WHILE", "LOOP", "REPEAT", "DECLARE", "CALL"}

// characteristics reads routine characteristics while they come.
func (p *spParser) characteristics() (Characteristics, error) {
	var ch Characteristics
	for p.i < len(p.toks) {
		switch {
		case p.word("COMMENT"):
			if p.i >= len(p.toks) || p.toks[p.i].kind != tkString {
				return ch, ErrRoutineSyntax
			}
			c := stringText(p.src, p.toks[p.i])
			ch.Comment = &c
			p.i++
		case p.peekWord("LANGUAGE"):
			p.i++
			if !p.word("SQL") {
				return ch, ErrRoutineSyntax
			}
		case p.peekWord("NOT") && p.peekWordAt(p.i+1, "DETERMINISTIC"):
			p.i += 2
			f := false
			ch.Deterministic = &f
		case p.word("DETERMINISTIC"):
			t := true
			ch.Deterministic = &t
		case p.peekWord("CONTAINS") && p.peekWordAt(p.i+1, "SQL"):
			p.i += 2
			ch.DataAccess = "CONTAINS SQL"
		case p.peekWord("NO") && p.peekWordAt(p.i+1, "SQL"):
			p.i += 2
			ch.DataAccess = "NO SQL"
		case p.peekWord("READS") && p.peekWordAt(p.i+1, "SQL") && p.peekWordAt(p.i+2, "DATA"):
			p.i += 3
			ch.DataAccess = "READS SQL DATA"
		case p.peekWord("MODIFIES") && p.peekWordAt(p.i+1, "SQL") && p.peekWordAt(p.i+2, "DATA"):
			p.i += 3
			ch.DataAccess = "MODIFIES SQL DATA"
		case p.peekWord("SQL") && p.peekWordAt(p.i+1, "SECURITY"):
			p.i += 2
			switch {
			case p.word("DEFINER"):
				ch.Security = "DEFINER"
			case p.word("INVOKER"):
				ch.Security = "INVOKER"
			default:
				return ch, ErrRoutineSyntax
			}
		default:
			return ch, nil
		}
	}
	return ch, nil
}

// parseParams reads a parameter list.
func parseParams(list string, proc bool) ([]RoutineParam, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	parts, ok := SplitTopLevel(list, ',')
	if !ok {
		return nil, ErrRoutineSyntax
	}
	var out []RoutineParam
	for _, part := range parts {
		sc := &scanner{s: strings.TrimSpace(part)}
		var prm RoutineParam
		if proc {
			prm.Mode = "IN"
			switch {
			case sc.keyword("INOUT"):
				prm.Mode = "INOUT"
			case sc.keyword("OUT"):
				prm.Mode = "OUT"
			case sc.keyword("IN"):
			}
		}
		name, ok := sc.ident()
		if !ok || name == "" {
			return nil, ErrRoutineSyntax
		}
		prm.Name = name
		prm.Type = strings.TrimSpace(sc.s[sc.i:])
		if prm.Type == "" {
			return nil, ErrRoutineSyntax
		}
		out = append(out, prm)
	}
	return out, nil
}

// ParseAlterRoutine parses ALTER {PROCEDURE|FUNCTION} [db.]name
// [characteristic ...].
func ParseAlterRoutine(sql string) (kind, schema, name string, ch Characteristics, err error) {
	sc := &scanner{s: strings.TrimSpace(stripComments(sql))}
	if !sc.keyword("ALTER") {
		return "", "", "", ch, ErrRoutineSyntax
	}
	switch {
	case sc.keyword("PROCEDURE"):
		kind = "PROCEDURE"
	case sc.keyword("FUNCTION"):
		kind = "FUNCTION"
	default:
		return "", "", "", ch, ErrRoutineSyntax
	}
	var ok bool
	if schema, name, ok = sc.qualifiedName(); !ok {
		return "", "", "", ch, ErrRoutineSyntax
	}
	rest := sc.s[sc.i:]
	toks, ok := spTokenize(rest)
	if !ok {
		return "", "", "", ch, ErrRoutineSyntax
	}
	p := &spParser{src: rest, toks: toks}
	if ch, err = p.characteristics(); err != nil {
		return "", "", "", ch, err
	}
	for p.punct(";") {
	}
	if p.i < len(p.toks) {
		return "", "", "", ch, ErrRoutineSyntax
	}
	return kind, schema, name, ch, nil
}

// ParseCall parses CALL [db.]name[([arg, ...])]: the arguments come back
// as expression texts.
func ParseCall(sql string) (schema, name string, args []string, err error) {
	sc := &scanner{s: strings.TrimSpace(stripComments(sql))}
	if !sc.keyword("CALL") {
		return "", "", nil, ErrRoutineSyntax
	}
	var ok bool
	if schema, name, ok = sc.qualifiedName(); !ok {
		return "", "", nil, ErrRoutineSyntax
	}
	rest := strings.TrimSpace(sc.s[sc.i:])
	for strings.HasSuffix(rest, ";") {
		rest = strings.TrimSpace(rest[:len(rest)-1])
	}
	if rest == "" {
		return schema, name, nil, nil
	}
	if rest[0] != '(' || rest[len(rest)-1] != ')' {
		return "", "", nil, ErrRoutineSyntax
	}
	inner := strings.TrimSpace(rest[1 : len(rest)-1])
	if inner == "" {
		return schema, name, nil, nil
	}
	parts, ok := SplitTopLevel(inner, ',')
	if !ok {
		return "", "", nil, ErrRoutineSyntax
	}
	for _, a := range parts {
		a = strings.TrimSpace(a)
		if a == "" {
			return "", "", nil, ErrRoutineSyntax
		}
		args = append(args, a)
	}
	return schema, name, args, nil
}

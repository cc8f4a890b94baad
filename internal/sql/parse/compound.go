package parse

import (
	"fmt"
	"strconv"
	"strings"
)

// Stored-program bodies (MySQL's compound statements): BEGIN ... END
// blocks with labels, DECLARE of variables, conditions, cursors and
// handlers, IF, CASE, LOOP, WHILE, REPEAT, LEAVE, ITERATE, RETURN, OPEN,
// FETCH, CLOSE, SIGNAL, RESIGNAL, GET DIAGNOSTICS and any other SQL
// statement. ParseBody reads a body by recursive descent over spTokenize's
// tokens; expressions and plain SQL statements stay text, for Vitess's
// parser (the interpreter in internal/sql compiles them).

// SPKind is the kind of an SPNode.
type SPKind uint8

// Kinds of body statements.
const (
	SPSQL            SPKind = iota // a plain SQL statement (Text)
	SPBlock                        // [label:] BEGIN ... END [label]
	SPDeclareVar                   // DECLARE Names Type [DEFAULT Expr]
	SPDeclareCond                  // DECLARE Name CONDITION FOR Conds[0]
	SPDeclareCursor                // DECLARE Name CURSOR FOR Text
	SPDeclareHandler               // DECLARE Handler HANDLER FOR Conds Body[0]
	SPSet                          // SET (Text: the whole statement)
	SPIf                           // IF Branches [ELSE Else] END IF
	SPCase                         // CASE [Expr] Branches [ELSE Else] END CASE
	SPLoop                         // [label:] LOOP Body END LOOP
	SPWhile                        // [label:] WHILE Expr DO Body END WHILE
	SPRepeat                       // [label:] REPEAT Body UNTIL Expr END REPEAT
	SPLeave                        // LEAVE Name
	SPIterate                      // ITERATE Name
	SPReturn                       // RETURN Expr
	SPOpen                         // OPEN Name
	SPFetch                        // FETCH [[NEXT] FROM] Name INTO Names
	SPClose                        // CLOSE Name
	SPSignal                       // SIGNAL Conds[0] [SET Items]
	SPResignal                     // RESIGNAL [Conds[0]] [SET Items]
	SPGetDiag                      // GET [CURRENT] DIAGNOSTICS ... (Text)
	SPCall                         // CALL Text (the whole statement)
)

// SPNode is one statement of a stored-program body.
type SPNode struct {
	Kind SPKind
	// Label is a block's or loop's label ("" without).
	Label string
	// Text is the statement text of SPSQL, SPSet, SPGetDiag and SPCall,
	// the query of SPDeclareCursor.
	Text string
	// Name is a cursor, condition or label name.
	Name string
	// Names are DECLARE's variables and FETCH's targets.
	Names []string
	// Type is DECLARE's type text.
	Type string
	// Expr is DEFAULT's, RETURN's, WHILE's and UNTIL's expression, and the
	// operand of a simple CASE.
	Expr string
	// Body is a block's or loop's statements, and a handler's statement.
	Body []*SPNode
	// Branches are IF's and ELSEIF's conditions, or CASE's WHEN values,
	// with their statements.
	Branches []SPBranch
	// Else is the ELSE branch; HasElse says it was written.
	Else    []*SPNode
	HasElse bool
	// Handler is CONTINUE, EXIT or UNDO.
	Handler string
	// Conds are a handler's conditions, a DECLARE CONDITION's value and a
	// SIGNAL's condition.
	Conds []SPCond
	// Items are SIGNAL's and RESIGNAL's SET items (name upper-cased,
	// value expression text).
	Items []SPItem
}

// SPBranch is one IF/ELSEIF condition or CASE WHEN value with its
// statements.
type SPBranch struct {
	Cond string
	Body []*SPNode
}

// SPCond is a condition: a SQLSTATE, an error number, a condition name,
// or one of SQLWARNING, NOT FOUND, SQLEXCEPTION (Kind).
type SPCond struct {
	Kind  string // SQLSTATE, ERRNO, NAME, SQLWARNING, NOT FOUND, SQLEXCEPTION
	State string
	Errno int
	Name  string
}

// SPItem is one SET item of SIGNAL.
type SPItem struct {
	Name string
	Expr string
}

// SPSyntaxError is a body this parser cannot read; Near is the text where
// it stopped (MySQL's "near '...'").
type SPSyntaxError struct {
	Near string
}

func (e *SPSyntaxError) Error() string {
	return "syntax error near '" + e.Near + "'"
}

// spParser is the state of ParseBody.
type spParser struct {
	src  string
	toks []spToken
	i    int
}

// ParseBody parses a stored-program body: one statement, usually BEGIN
// ... END (a trailing semicolon is allowed).
func ParseBody(src string) (*SPNode, error) {
	toks, ok := spTokenize(src)
	if !ok {
		return nil, &SPSyntaxError{Near: firstLine(src)}
	}
	p := &spParser{src: src, toks: toks}
	n, err := p.statement()
	if err != nil {
		return nil, err
	}
	for p.punct(";") {
	}
	if p.i < len(p.toks) {
		return nil, p.errHere()
	}
	return n, nil
}

func (p *spParser) errHere() error {
	if p.i >= len(p.toks) {
		return &SPSyntaxError{Near: ""}
	}
	return &SPSyntaxError{Near: firstLine(p.src[p.toks[p.i].start:])}
}

// peekWord reports whether the next token is the word w.
func (p *spParser) peekWord(w string) bool {
	return p.i < len(p.toks) && p.toks[p.i].kind == tkWord && p.toks[p.i].up == w
}

// peekWordAt reports whether token i is the word w.
func (p *spParser) peekWordAt(i int, w string) bool {
	return i < len(p.toks) && p.toks[i].kind == tkWord && p.toks[i].up == w
}

func (p *spParser) word(w string) bool {
	if p.peekWord(w) {
		p.i++
		return true
	}
	return false
}

func (p *spParser) expectWord(w string) error {
	if !p.word(w) {
		return p.errHere()
	}
	return nil
}

func (p *spParser) punct(s string) bool {
	if p.i < len(p.toks) && p.toks[p.i].kind == tkPunct && p.toks[p.i].up == s {
		p.i++
		return true
	}
	return false
}

// ident reads a name (bare word or quoted).
func (p *spParser) ident() (string, bool) {
	if p.i < len(p.toks) && (p.toks[p.i].kind == tkWord || p.toks[p.i].kind == tkQuoted) {
		p.i++
		return spIdentText(p.src, p.toks[p.i-1]), true
	}
	return "", false
}

// textUntilSemi returns the text from token i to the next semicolon (or
// the end), leaving the parser at the semicolon.
func (p *spParser) textUntilSemi() string {
	start := p.i
	for p.i < len(p.toks) && !(p.toks[p.i].kind == tkPunct && p.toks[p.i].up == ";") {
		p.i++
	}
	if start == p.i {
		return ""
	}
	return p.src[p.toks[start].start:p.toks[p.i-1].end]
}

// expr returns the text of an expression that ends before one of the
// words stop (outside parentheses and CASE ... END) or a semicolon.
func (p *spParser) expr(stop ...string) (string, error) {
	return p.exprTo(false, stop...)
}

// exprTo is expr that also stops at a top-level comma when comma is set.
func (p *spParser) exprTo(comma bool, stop ...string) (string, error) {
	start := p.i
	depth, cases := 0, 0
	for ; p.i < len(p.toks); p.i++ {
		t := p.toks[p.i]
		if t.kind == tkPunct {
			switch t.up {
			case "(":
				depth++
			case ")":
				depth--
			case ";":
				if depth == 0 {
					goto done
				}
			case ",":
				if depth == 0 && comma && cases == 0 {
					goto done
				}
			}
			continue
		}
		if t.kind != tkWord || depth > 0 {
			continue
		}
		if cases == 0 {
			for _, w := range stop {
				if t.up == w {
					goto done
				}
			}
		}
		switch t.up {
		case "CASE":
			cases++
		case "END":
			if cases > 0 {
				cases--
			}
		}
	}
done:
	if p.i == start {
		return "", p.errHere()
	}
	return p.src[p.toks[start].start:p.toks[p.i-1].end], nil
}

// list parses statements, each ending with a semicolon, until one of the
// words end comes next.
func (p *spParser) list(end ...string) ([]*SPNode, error) {
	var out []*SPNode
	for {
		if p.i >= len(p.toks) {
			return nil, p.errHere()
		}
		for _, w := range end {
			if p.peekWord(w) {
				return out, nil
			}
		}
		n, err := p.statement()
		if err != nil {
			return nil, err
		}
		if !p.punct(";") {
			return nil, p.errHere()
		}
		out = append(out, n)
	}
}

// endLabel reads the optional label after END of a labelled statement,
// which must match.
func (p *spParser) endLabel(label string) error {
	if p.i >= len(p.toks) {
		return nil
	}
	t := p.toks[p.i]
	if t.kind == tkQuoted || t.kind == tkWord && !isReservedAfterEnd(t.up) {
		if label == "" || !strings.EqualFold(spIdentText(p.src, t), label) {
			return p.errHere()
		}
		p.i++
	}
	return nil
}

// isReservedAfterEnd: words that cannot be an end label (they follow END
// in other constructs, or start the next clause).
func isReservedAfterEnd(w string) bool {
	switch w {
	case "IF", "LOOP", "WHILE", "REPEAT", "CASE", "ELSE", "ELSEIF", "WHEN", "END", "UNTIL":
		return true
	}
	return false
}

// statement parses one statement (without its semicolon).
func (p *spParser) statement() (*SPNode, error) {
	if p.i >= len(p.toks) {
		return nil, p.errHere()
	}
	// [label:]
	label := ""
	if t := p.toks[p.i]; (t.kind == tkWord || t.kind == tkQuoted) && p.i+1 < len(p.toks) &&
		p.toks[p.i+1].kind == tkPunct && p.toks[p.i+1].up == ":" {
		label = spIdentText(p.src, t)
		p.i += 2
		if !(p.peekWord("BEGIN") || p.peekWord("LOOP") || p.peekWord("WHILE") || p.peekWord("REPEAT")) {
			return nil, p.errHere()
		}
	}
	t := p.toks[p.i]
	if t.kind != tkWord {
		return p.plain(SPSQL)
	}
	switch t.up {
	case "BEGIN":
		// BEGIN WORK / BEGIN; (a transaction) is not a block inside a body.
		p.i++
		if p.peekWord("WORK") {
			return nil, p.errHere()
		}
		n := &SPNode{Kind: SPBlock, Label: label}
		body, err := p.list("END")
		if err != nil {
			return nil, err
		}
		p.i++
		n.Body = body
		return n, p.endLabel(label)
	case "LOOP":
		p.i++
		body, err := p.list("END")
		if err != nil {
			return nil, err
		}
		p.i++
		if err := p.expectWord("LOOP"); err != nil {
			return nil, err
		}
		return &SPNode{Kind: SPLoop, Label: label, Body: body}, p.endLabel(label)
	case "WHILE":
		p.i++
		cond, err := p.expr("DO")
		if err != nil {
			return nil, err
		}
		if err := p.expectWord("DO"); err != nil {
			return nil, err
		}
		body, err := p.list("END")
		if err != nil {
			return nil, err
		}
		p.i++
		if err := p.expectWord("WHILE"); err != nil {
			return nil, err
		}
		return &SPNode{Kind: SPWhile, Label: label, Expr: cond, Body: body}, p.endLabel(label)
	case "REPEAT":
		p.i++
		body, err := p.list("UNTIL")
		if err != nil {
			return nil, err
		}
		p.i++
		cond, err := p.expr("END")
		if err != nil {
			return nil, err
		}
		if err := p.expectWord("END"); err != nil {
			return nil, err
		}
		if err := p.expectWord("REPEAT"); err != nil {
			return nil, err
		}
		return &SPNode{Kind: SPRepeat, Label: label, Expr: cond, Body: body}, p.endLabel(label)
	case "IF":
		return p.ifStmt()
	case "CASE":
		return p.caseStmt()
	case "DECLARE":
		return p.declare()
	case "LEAVE", "ITERATE":
		p.i++
		name, ok := p.ident()
		if !ok {
			return nil, p.errHere()
		}
		k := SPLeave
		if t.up == "ITERATE" {
			k = SPIterate
		}
		return &SPNode{Kind: k, Name: name}, nil
	case "RETURN":
		p.i++
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		return &SPNode{Kind: SPReturn, Expr: e}, nil
	case "OPEN", "CLOSE":
		p.i++
		name, ok := p.ident()
		if !ok {
			return nil, p.errHere()
		}
		k := SPOpen
		if t.up == "CLOSE" {
			k = SPClose
		}
		return &SPNode{Kind: k, Name: name}, nil
	case "FETCH":
		p.i++
		if p.word("NEXT") {
			if err := p.expectWord("FROM"); err != nil {
				return nil, err
			}
		} else {
			p.word("FROM")
		}
		name, ok := p.ident()
		if !ok {
			return nil, p.errHere()
		}
		if err := p.expectWord("INTO"); err != nil {
			return nil, err
		}
		n := &SPNode{Kind: SPFetch, Name: name}
		for {
			v, ok := p.ident()
			if !ok {
				return nil, p.errHere()
			}
			n.Names = append(n.Names, v)
			if !p.punct(",") {
				break
			}
		}
		return n, nil
	case "SIGNAL", "RESIGNAL":
		return p.signal(t.up)
	case "SET":
		return p.plain(SPSet)
	case "CALL":
		return p.plain(SPCall)
	case "GET":
		if p.peekWordAt(p.i+1, "DIAGNOSTICS") || p.peekWordAt(p.i+1, "CURRENT") || p.peekWordAt(p.i+1, "STACKED") {
			return p.plain(SPGetDiag)
		}
	case "END", "ELSE", "ELSEIF", "WHEN", "UNTIL", "THEN":
		return nil, p.errHere()
	}
	return p.plain(SPSQL)
}

// plain reads a statement up to its semicolon.
func (p *spParser) plain(k SPKind) (*SPNode, error) {
	text := p.textUntilSemi()
	if text == "" {
		return nil, p.errHere()
	}
	return &SPNode{Kind: k, Text: text}, nil
}

func (p *spParser) ifStmt() (*SPNode, error) {
	n := &SPNode{Kind: SPIf}
	p.i++ // IF
	for {
		if err := p.branch(n, "ELSEIF", "ELSE", "END"); err != nil {
			return nil, err
		}
		if !p.word("ELSEIF") {
			break
		}
	}
	return n, p.elseEnd(n, "IF")
}

// branch reads `cond THEN statements` up to one of the words in stop and
// adds it to n's branches (IF, ELSEIF, CASE's WHEN).
func (p *spParser) branch(n *SPNode, stop ...string) error {
	cond, err := p.expr("THEN")
	if err != nil {
		return err
	}
	if err := p.expectWord("THEN"); err != nil {
		return err
	}
	body, err := p.list(stop...)
	if err != nil {
		return err
	}
	n.Branches = append(n.Branches, SPBranch{Cond: cond, Body: body})
	return nil
}

// elseEnd reads an optional `ELSE statements`, then `END kw` (END IF,
// END CASE).
func (p *spParser) elseEnd(n *SPNode, kw string) error {
	if p.word("ELSE") {
		body, err := p.list("END")
		if err != nil {
			return err
		}
		n.Else, n.HasElse = body, true
	}
	if err := p.expectWord("END"); err != nil {
		return err
	}
	return p.expectWord(kw)
}

func (p *spParser) caseStmt() (*SPNode, error) {
	n := &SPNode{Kind: SPCase}
	p.i++ // CASE
	if !p.peekWord("WHEN") {
		e, err := p.expr("WHEN")
		if err != nil {
			return nil, err
		}
		n.Expr = e
	}
	for p.word("WHEN") {
		if err := p.branch(n, "WHEN", "ELSE", "END"); err != nil {
			return nil, err
		}
	}
	if len(n.Branches) == 0 {
		return nil, p.errHere()
	}
	return n, p.elseEnd(n, "CASE")
}

func (p *spParser) declare() (*SPNode, error) {
	p.i++ // DECLARE
	if p.peekWord("CONTINUE") || p.peekWord("EXIT") || p.peekWord("UNDO") {
		if p.peekWordAt(p.i+1, "HANDLER") {
			n := &SPNode{Kind: SPDeclareHandler, Handler: p.toks[p.i].up}
			p.i += 2
			if err := p.expectWord("FOR"); err != nil {
				return nil, err
			}
			for {
				c, err := p.cond(true)
				if err != nil {
					return nil, err
				}
				n.Conds = append(n.Conds, c)
				if !p.punct(",") {
					break
				}
			}
			st, err := p.statement()
			if err != nil {
				return nil, err
			}
			n.Body = []*SPNode{st}
			return n, nil
		}
	}
	name, ok := p.ident()
	if !ok {
		return nil, p.errHere()
	}
	switch {
	case p.peekWord("CURSOR"):
		p.i++
		if err := p.expectWord("FOR"); err != nil {
			return nil, err
		}
		text := p.textUntilSemi()
		if text == "" {
			return nil, p.errHere()
		}
		return &SPNode{Kind: SPDeclareCursor, Name: name, Text: text}, nil
	case p.peekWord("CONDITION"):
		p.i++
		if err := p.expectWord("FOR"); err != nil {
			return nil, err
		}
		c, err := p.cond(false)
		if err != nil {
			return nil, err
		}
		return &SPNode{Kind: SPDeclareCond, Name: name, Conds: []SPCond{c}}, nil
	}
	n := &SPNode{Kind: SPDeclareVar, Names: []string{name}}
	for p.punct(",") {
		v, ok := p.ident()
		if !ok {
			return nil, p.errHere()
		}
		n.Names = append(n.Names, v)
	}
	typ, err := p.expr("DEFAULT")
	if err != nil {
		return nil, err
	}
	n.Type = typ
	if p.word("DEFAULT") {
		if n.Expr, err = p.expr(); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// cond reads a condition value: SQLSTATE [VALUE] 'x' or an error number;
// with more (handlers) also a condition name, SQLWARNING, NOT FOUND or
// SQLEXCEPTION.
func (p *spParser) cond(more bool) (SPCond, error) {
	if p.word("SQLSTATE") {
		p.word("VALUE")
		if p.i >= len(p.toks) || p.toks[p.i].kind != tkString {
			return SPCond{}, p.errHere()
		}
		st := stringText(p.src, p.toks[p.i])
		p.i++
		return SPCond{Kind: "SQLSTATE", State: st}, nil
	}
	if p.i < len(p.toks) && p.toks[p.i].kind == tkNumber {
		n, err := strconv.Atoi(p.src[p.toks[p.i].start:p.toks[p.i].end])
		if err != nil {
			return SPCond{}, p.errHere()
		}
		p.i++
		return SPCond{Kind: "ERRNO", Errno: n}, nil
	}
	if !more {
		return SPCond{}, p.errHere()
	}
	switch {
	case p.word("SQLWARNING"):
		return SPCond{Kind: "SQLWARNING"}, nil
	case p.word("SQLEXCEPTION"):
		return SPCond{Kind: "SQLEXCEPTION"}, nil
	case p.peekWord("NOT") && p.peekWordAt(p.i+1, "FOUND"):
		p.i += 2
		return SPCond{Kind: "NOT FOUND"}, nil
	}
	name, ok := p.ident()
	if !ok {
		return SPCond{}, p.errHere()
	}
	return SPCond{Kind: "NAME", Name: name}, nil
}

// signal reads SIGNAL {SQLSTATE [VALUE] 'x' | name} [SET item = value,
// ...] and RESIGNAL [condition] [SET ...].
func (p *spParser) signal(kw string) (*SPNode, error) {
	p.i++
	n := &SPNode{Kind: SPSignal}
	if kw == "RESIGNAL" {
		n.Kind = SPResignal
	}
	if !p.peekWord("SET") && !(p.i < len(p.toks) && p.toks[p.i].kind == tkPunct) {
		c, err := p.cond(false)
		if err != nil {
			// a condition name
			name, ok := p.ident()
			if !ok {
				return nil, p.errHere()
			}
			c = SPCond{Kind: "NAME", Name: name}
		}
		n.Conds = []SPCond{c}
	} else if kw == "SIGNAL" {
		return nil, p.errHere()
	}
	if p.word("SET") {
		for {
			name, ok := p.ident()
			if !ok || !p.punct("=") {
				return nil, p.errHere()
			}
			e, err := p.exprTo(true)
			if err != nil {
				return nil, err
			}
			n.Items = append(n.Items, SPItem{Name: strings.ToUpper(name), Expr: e})
			if !p.punct(",") {
				break
			}
		}
	}
	return n, nil
}

// String renders a tree for tests: one line per statement, indented.
func (n *SPNode) String() string {
	var b strings.Builder
	n.write(&b, 0)
	return b.String()
}

var spKindNames = [...]string{"SQL", "BLOCK", "DECLARE", "CONDITION", "CURSOR", "HANDLER", "SET", "IF", "CASE", "LOOP", "WHILE", "REPEAT", "LEAVE", "ITERATE", "RETURN", "OPEN", "FETCH", "CLOSE", "SIGNAL", "RESIGNAL", "GET", "CALL"}

func (n *SPNode) write(b *strings.Builder, depth int) {
	pad := strings.Repeat("  ", depth)
	fmt.Fprintf(b, "%s%s", pad, spKindNames[n.Kind])
	if n.Label != "" {
		fmt.Fprintf(b, " label=%s", n.Label)
	}
	if n.Name != "" {
		fmt.Fprintf(b, " name=%s", n.Name)
	}
	if len(n.Names) > 0 {
		fmt.Fprintf(b, " names=%s", strings.Join(n.Names, ","))
	}
	if n.Type != "" {
		fmt.Fprintf(b, " type=%s", n.Type)
	}
	if n.Handler != "" {
		fmt.Fprintf(b, " %s", n.Handler)
	}
	for _, c := range n.Conds {
		fmt.Fprintf(b, " cond=%s%s%s", c.Kind, c.State+c.Name, map[bool]string{true: strconv.Itoa(c.Errno), false: ""}[c.Errno != 0])
	}
	for _, it := range n.Items {
		fmt.Fprintf(b, " %s=%s", it.Name, it.Expr)
	}
	if n.Expr != "" {
		fmt.Fprintf(b, " expr=%s", n.Expr)
	}
	if n.Text != "" {
		fmt.Fprintf(b, " text=%s", n.Text)
	}
	b.WriteByte('\n')
	for _, c := range n.Body {
		c.write(b, depth+1)
	}
	for _, br := range n.Branches {
		fmt.Fprintf(b, "%s WHEN %s\n", pad, br.Cond)
		for _, c := range br.Body {
			c.write(b, depth+1)
		}
	}
	if n.HasElse {
		fmt.Fprintf(b, "%s ELSE\n", pad)
		for _, c := range n.Else {
			c.write(b, depth+1)
		}
	}
}

// GetDiagnostics is a parsed GET [CURRENT | STACKED] DIAGNOSTICS:
// statement information items, or those of CONDITION n. Targets are
// variable names (a user variable with its @), Items the item names
// (upper case), pairwise.
type GetDiagnostics struct {
	Stacked   bool
	Condition string
	Targets   []string
	Items     []string
}

// ParseGetDiagnostics parses GET DIAGNOSTICS.
func ParseGetDiagnostics(text string) (GetDiagnostics, error) {
	var g GetDiagnostics
	toks, ok := spTokenize(text)
	if !ok {
		return g, ErrRoutineSyntax
	}
	p := &spParser{src: text, toks: toks}
	if !p.word("GET") {
		return g, ErrRoutineSyntax
	}
	if p.word("STACKED") {
		g.Stacked = true
	} else {
		p.word("CURRENT")
	}
	if !p.word("DIAGNOSTICS") {
		return g, ErrRoutineSyntax
	}
	if p.word("CONDITION") {
		// The condition number is a literal or a variable: one token.
		if p.i >= len(p.toks) {
			return g, ErrRoutineSyntax
		}
		g.Condition = text[p.toks[p.i].start:p.toks[p.i].end]
		p.i++
	}
	for {
		if p.i >= len(p.toks) {
			return g, ErrRoutineSyntax
		}
		t := p.toks[p.i]
		var target string
		switch t.kind {
		case tkVar:
			target = "@" + strings.Trim(text[t.start+1:t.end], "`'\"")
		case tkWord, tkQuoted:
			target = spIdentText(text, t)
		default:
			return g, ErrRoutineSyntax
		}
		p.i++
		if !p.punct("=") {
			return g, ErrRoutineSyntax
		}
		item, ok := p.ident()
		if !ok {
			return g, ErrRoutineSyntax
		}
		g.Targets = append(g.Targets, target)
		g.Items = append(g.Items, strings.ToUpper(item))
		if !p.punct(",") {
			break
		}
	}
	for p.punct(";") {
	}
	if p.i < len(p.toks) {
		return g, ErrRoutineSyntax
	}
	return g, nil
}

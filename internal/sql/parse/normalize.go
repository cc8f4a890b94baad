package parse

import (
	"math"
	"strconv"
)

// Literal normalisation for plan-cache keys.
//
// A text statement that differs from another only in the constants it
// compares columns with can run the other's plan: the plan is built from
// the statement with those constants replaced by parameters (?), and each
// execution binds the constants it was sent with, as a prepared statement
// does. Normalizer finds such constants in one scan of the text, without
// parsing it: it returns the text with each of them replaced by '?' (the
// plan-cache key, which for integer constants is exactly the text a client
// would prepare) and their positions and MySQL types.
//
// The scan is deliberately narrow. It only looks at SELECT, UPDATE, DELETE
// and INSERT statements without comments, bind variables or statement
// separators, and only replaces a constant in the top-level WHERE clause
// that is
//
//	column <op> constant            op one of = <=> <> != < <= > >=
//	column [NOT] BETWEEN constant AND constant
//	column [NOT] IN (constant, ...)
//
// and is followed by what ends such a comparison (AND, OR, XOR, a closing
// parenthesis, the next clause, the end), and in UPDATE's SET list one
// that is a whole assignment (col = constant, followed by a comma, WHERE,
// ORDER BY, LIMIT or the end), and in INSERT ... VALUES one that is a whole
// value of a row (followed by a comma or the row's closing parenthesis). A constant is an integer, a
// decimal (digits on both sides of the point), a float with an exponent, an
// optionally negative one of those directly after the operator, or a string
// in single quotes without backslashes (its meaning would depend on the
// server's escape rules). Every other literal — in the select list (MySQL
// names a column by its text), ORDER BY / GROUP BY positions, LIMIT,
// function arguments, INTERVALs, CASTs, COLLATE, subqueries, strings with a
// charset introducer or in double quotes, hex and bit literals, NULL, TRUE,
// FALSE — stays in the key verbatim.
//
// The scan is a filter, not the authority: whoever builds a plan from the
// key must check on the parsed statement that every '?' really sits in one
// of those positions (the SQL layer's normalisation check), since a
// lexical scan cannot see operator precedence.

// LitKind is the MySQL type of a normalised constant.
type LitKind byte

// The kinds of normalised constants.
const (
	// LitInt is an integer literal that fits BIGINT.
	LitInt LitKind = 'i'
	// LitUint is an integer literal that fits BIGINT UNSIGNED only.
	LitUint LitKind = 'u'
	// LitDecimal is a decimal literal, or an integer literal too large for
	// BIGINT UNSIGNED (which MySQL types DECIMAL).
	LitDecimal LitKind = 'd'
	// LitFloat is a literal with an exponent (DOUBLE).
	LitFloat LitKind = 'f'
	// LitString is a quoted string in the connection character set.
	LitString LitKind = 's'
)

// Literal is one normalised constant: Text[Start:End] of the scanned
// statement is its token (sign and quotes included).
type Literal struct {
	Kind       LitKind
	Start, End int
	// doubled: a string containing '' (an escaped quote).
	doubled bool
}

// maxNumberDigits bounds the digits of a normalised number: MySQL's
// DECIMAL has at most 65.
const maxNumberDigits = 65

// Normalizer scans statement texts for plan-cache keys. Its buffers are
// reused from one statement to the next; it is not safe for concurrent use.
type Normalizer struct {
	// Key is the normalised text of the last statement scanned: the
	// statement with every literal of Lits replaced by '?', followed, when
	// a literal is not a BIGINT, by a NUL byte and one LitKind byte per
	// literal (so that a key fixes the kinds of its parameters, and a key
	// whose parameters are all integers is the text a client would
	// prepare).
	Key []byte
	// Lits are the normalised literals, in text order.
	Lits []Literal

	sql    string
	parens []byte
	// blocked counts the open parentheses other than plain groupings.
	blocked int
}

type tokKind uint8

const (
	tokNone tokKind = iota
	tokWord
	tokIdent // `quoted`
	tokNumber
	tokString
	tokOp
	tokLParen
	tokRParen
	tokComma
)

// Keywords the scan reacts to.
const (
	kwNone = iota
	kwSelect
	kwWith
	kwUpdate
	kwDelete
	kwInsert
	kwValues
	kwWhere
	kwAnd
	kwOr
	kwXor
	kwNot
	kwBetween
	kwIn
	kwEnd // a clause after WHERE: GROUP, HAVING, ORDER, LIMIT, ...
	kwSet
	kwSetOp
)

type ntoken struct {
	kind tokKind
	kw   int
	op   string
	// ord numbers the significant tokens.
	ord int
	// afterAt: a word right after '@' (a variable name).
	afterAt bool
}

// Where a statement's scan is.
const (
	clauseBefore = iota // before WHERE
	clauseWhere
	clauseAfter // GROUP BY, ORDER BY, LIMIT, ...
	clauseSet   // UPDATE's SET list
	clauseValues
)

// candidate roles.
const (
	roleSet = iota + 1
	roleRow
	roleCmp
	roleBetweenLo
	roleBetweenHi
	roleIn
)

// Normalize scans sql. It returns false when the statement is not one the
// normaliser handles (Key and Lits are then meaningless); true with no
// literals when it has nothing to replace.
func (n *Normalizer) Normalize(sql string) bool {
	n.Key, n.Lits, n.parens, n.blocked, n.sql = n.Key[:0], n.Lits[:0], n.parens[:0], 0, sql
	var (
		prev, prev2 ntoken
		ord         int
		clause      int // clauseBefore, clauseWhere, clauseAfter, clauseSet, clauseValues
		first       int // the statement's first keyword
		pending     = -1
		pendRole    int
		betweenLo   = -1 // ord of a confirmed BETWEEN lower bound
	)
	i := 0
	for {
		// Skip white space.
		for i < len(sql) && isSpace(sql[i]) {
			i++
		}
		var t ntoken
		start := i
		if i >= len(sql) {
			t.kind = tokNone
		} else {
			c := sql[i]
			switch {
			case c == '-' && i+1 < len(sql) && isDigit(sql[i+1]) && n.candidateRole(prev, prev2, clause, betweenLo) != 0:
				// A negative number where a constant may stand: one
				// literal, as Vitess's parser folds it.
				t.kind = tokNumber
				i = n.scanNumber(i+1, &t)
			case isDigit(c):
				t.kind = tokNumber
				i = n.scanNumber(i, &t)
			case isIdentStart(c):
				j := i + 1
				for j < len(sql) && isIdentChar(sql[j]) {
					j++
				}
				t.kind, t.kw = tokWord, keyword(sql[i:j])
				t.afterAt = prev.kind == tokOp && prev.op == "@"
				i = j
			case c == '`':
				j, ok := scanQuoted(sql, i, '`')
				if !ok {
					return false
				}
				t.kind, i = tokIdent, j
			case c == '\'' || c == '"':
				j, ok := scanQuoted(sql, i, c)
				if !ok {
					return false
				}
				t.kind, i = tokString, j
			case c == '(':
				t.kind, i = tokLParen, i+1
			case c == ')':
				t.kind, i = tokRParen, i+1
			case c == ',':
				t.kind, i = tokComma, i+1
			default:
				op := scanOp(sql, i)
				if op == "" {
					return false // comments, ?, ;, :, braces, backslashes, ...
				}
				t.kind, t.op, i = tokOp, op, i+len(op)
			}
		}
		t.ord = ord
		ord++

		// The token after a candidate decides whether it stays one.
		if pending >= 0 {
			if !n.follows(pendRole, t) {
				n.Lits = n.Lits[:pending]
			} else if pendRole == roleBetweenLo {
				betweenLo = prev.ord
			}
			pending = -1
		}

		if prev.kind == tokNone {
			if t.kind != tokWord || (t.kw != kwSelect && t.kw != kwUpdate && t.kw != kwDelete && t.kw != kwInsert) {
				return false // not a SELECT, UPDATE, DELETE or INSERT (or nothing at all)
			}
			first = t.kw
		}
		switch t.kind {
		case tokNone:
			if len(n.parens) != 0 {
				return false
			}
			n.buildKey()
			return true
		case tokWord:
			if prev.kind == tokLParen && (t.kw == kwSelect || t.kw == kwWith) {
				// A subquery: nothing inside it is normalised.
				if n.parens[len(n.parens)-1] == 'g' {
					n.blocked++
				}
				n.parens[len(n.parens)-1] = 's'
			}
			if len(n.parens) == 0 && clause == clauseValues {
				// ON DUPLICATE KEY UPDATE, AS alias, ROW(...): the
				// rows are over.
				clause = clauseAfter
			}
			if len(n.parens) == 0 {
				switch t.kw {
				case kwWhere:
					if (clause == clauseBefore || clause == clauseSet) && first != kwInsert {
						clause = clauseWhere
					}
				case kwValues:
					if first == kwInsert && clause == clauseBefore {
						clause = clauseValues
					}
				case kwEnd:
					if clause == clauseWhere || clause == clauseSet {
						clause = clauseAfter
					}
				case kwSet:
					if first == kwUpdate && clause == clauseBefore {
						clause = clauseSet
					}
				case kwSetOp:
					return false
				}
			}
		case tokNumber, tokString:
			if role := n.candidateRole(prev, prev2, clause, betweenLo); role != 0 {
				if lit, ok := literalAt(sql, start, i, t.kind); ok {
					n.Lits = append(n.Lits, lit)
					pending, pendRole = len(n.Lits)-1, role
				}
			}
		case tokLParen:
			kind := byte('g')
			if clause == clauseValues && len(n.parens) == 0 {
				kind = 'v' // a row of INSERT ... VALUES
			} else if prev.kind == tokWord && prev.kw == kwIn {
				kind = 'i'
			} else if prev.kind == tokWord || prev.kind == tokIdent {
				switch prev.kw {
				case kwWhere, kwAnd, kwOr, kwXor, kwNot:
				default:
					kind = 'f'
				}
			}
			if kind != 'g' {
				n.blocked++
			}
			n.parens = append(n.parens, kind)
		case tokRParen:
			if len(n.parens) == 0 {
				return false
			}
			if n.parens[len(n.parens)-1] != 'g' {
				n.blocked--
			}
			n.parens = n.parens[:len(n.parens)-1]
		}
		prev2, prev = prev, t
	}
}

// candidateRole says whether a literal after prev2 prev may be normalised,
// and as what.
func (n *Normalizer) candidateRole(prev, prev2 ntoken, clause, betweenLo int) int {
	if clause == clauseValues {
		// INSERT ... VALUES (constant, ...), ...
		if len(n.parens) == 1 && n.parens[0] == 'v' && (prev.kind == tokLParen || prev.kind == tokComma) {
			return roleRow
		}
		return 0
	}
	if clause == clauseSet {
		// UPDATE ... SET col = constant, ...
		if len(n.parens) == 0 && prev.kind == tokOp && prev.op == "=" && isColumn(prev2) {
			return roleSet
		}
		return 0
	}
	if clause != clauseWhere {
		return 0
	}
	inList := len(n.parens) > 0 && n.parens[len(n.parens)-1] == 'i'
	if inList {
		if n.blocked == 1 && (prev.kind == tokLParen || prev.kind == tokComma) {
			return roleIn
		}
		return 0
	}
	if n.blocked != 0 {
		return 0
	}
	switch {
	case prev.kind == tokOp && isComparison(prev.op):
		if isColumn(prev2) {
			return roleCmp
		}
	case prev.kind == tokWord && prev.kw == kwBetween:
		return roleBetweenLo
	case prev.kind == tokWord && prev.kw == kwAnd && betweenLo >= 0 && prev.ord == betweenLo+1:
		return roleBetweenHi
	}
	return 0
}

// isColumn reports whether t may name a column.
func isColumn(t ntoken) bool {
	return (t.kind == tokWord && t.kw == kwNone && !t.afterAt) || t.kind == tokIdent
}

// follows reports whether t may follow a candidate literal of role.
func (n *Normalizer) follows(role int, t ntoken) bool {
	switch role {
	case roleSet:
		return t.kind == tokComma || t.kind == tokNone || (t.kind == tokWord && (t.kw == kwWhere || t.kw == kwEnd))
	case roleIn, roleRow:
		return t.kind == tokComma || t.kind == tokRParen
	case roleBetweenLo:
		return t.kind == tokWord && t.kw == kwAnd
	}
	switch t.kind {
	case tokNone, tokRParen:
		return true
	case tokWord:
		switch t.kw {
		case kwAnd, kwOr, kwXor:
			return true
		case kwEnd:
			return len(n.parens) == 0
		}
	case tokOp:
		return t.op == "&&" || t.op == "||"
	}
	return false
}

// scanNumber scans a number starting with a digit at i and returns its
// end; t becomes a word when the digits start an identifier (1abc) and a
// plain token (never normalised) for hex and bit literals.
func (n *Normalizer) scanNumber(i int, t *ntoken) int {
	sql := n.sql
	if sql[i] == '0' && i+1 < len(sql) && (sql[i+1]|0x20 == 'x' || sql[i+1]|0x20 == 'b') {
		j := i + 1
		for j < len(sql) && isIdentChar(sql[j]) {
			j++
		}
		t.kind = tokWord // 0x1F, 0b101: never normalised
		return j
	}
	j := i
	for j < len(sql) && isDigit(sql[j]) {
		j++
	}
	if j < len(sql) && sql[j] == '.' {
		j++
		for j < len(sql) && isDigit(sql[j]) {
			j++
		}
	}
	if j < len(sql) && sql[j]|0x20 == 'e' {
		k := j + 1
		if k < len(sql) && (sql[k] == '+' || sql[k] == '-') {
			k++
		}
		if k < len(sql) && isDigit(sql[k]) {
			for k < len(sql) && isDigit(sql[k]) {
				k++
			}
			j = k
		}
	}
	if j < len(sql) && (isIdentChar(sql[j]) || sql[j] == '.') {
		// 1abc is an identifier; 1.2.3 and 1e5x are not numbers we
		// normalise either.
		for j < len(sql) && (isIdentChar(sql[j]) || sql[j] == '.') {
			j++
		}
		t.kind = tokWord
	}
	return j
}

// literalAt classifies the literal token sql[start:end] and reports
// whether it may be normalised.
func literalAt(sql string, start, end int, kind tokKind) (Literal, bool) {
	lit := Literal{Start: start, End: end}
	s := sql[start:end]
	if kind == tokString {
		if s[0] != '\'' {
			return lit, false // "…": a string or an identifier by sql_mode
		}
		for k := 1; k < len(s)-1; k++ {
			switch s[k] {
			case '\\':
				return lit, false
			case '\'':
				lit.doubled = true
				k++
			}
		}
		lit.Kind = LitString
		return lit, true
	}
	digits := s
	neg := false
	if digits[0] == '-' {
		digits, neg = digits[1:], true
	}
	point, exp := -1, -1
	for k := 0; k < len(digits); k++ {
		switch digits[k] {
		case '.':
			point = k
		case 'e', 'E':
			exp = k
		}
	}
	switch {
	case exp >= 0:
		if point >= 0 && (point == 0 || point+1 == exp) {
			return lit, false
		}
		if !finiteFloat(s) {
			return lit, false
		}
		lit.Kind = LitFloat
	case point >= 0:
		if point == 0 || point == len(digits)-1 || len(digits)-1 > maxNumberDigits {
			return lit, false // .5 and 5. stay as written
		}
		lit.Kind = LitDecimal
	default:
		if len(digits) > maxNumberDigits {
			return lit, false
		}
		switch {
		case fitsLimit(digits, neg, "9223372036854775807", "9223372036854775808"):
			lit.Kind = LitInt
		case !neg && fitsLimit(digits, false, "18446744073709551615", ""):
			lit.Kind = LitUint
		default:
			lit.Kind = LitDecimal
		}
	}
	return lit, true
}

// finiteFloat reports whether s parses as a finite DOUBLE.
func finiteFloat(s string) bool {
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && !math.IsInf(f, 0)
}

// fitsLimit reports whether the decimal digits fit under max (or negMax
// when neg).
func fitsLimit(digits string, neg bool, max, negMax string) bool {
	for len(digits) > 1 && digits[0] == '0' {
		digits = digits[1:]
	}
	if neg {
		max = negMax
	}
	if len(digits) != len(max) {
		return len(digits) < len(max)
	}
	return digits <= max
}

// buildKey writes Key from the text and Lits.
func (n *Normalizer) buildKey() {
	if len(n.Lits) == 0 {
		return
	}
	last := 0
	allInt := true
	for _, l := range n.Lits {
		n.Key = append(n.Key, n.sql[last:l.Start]...)
		n.Key = append(n.Key, '?')
		last = l.End
		if l.Kind != LitInt {
			allInt = false
		}
	}
	n.Key = append(n.Key, n.sql[last:]...)
	if !allInt {
		n.Key = append(n.Key, 0)
		for _, l := range n.Lits {
			n.Key = append(n.Key, byte(l.Kind))
		}
	}
}

// ParamText returns the part of Key that is statement text (Key without the
// kinds of its parameters).
func (n *Normalizer) ParamText() []byte {
	for _, l := range n.Lits {
		if l.Kind != LitInt {
			return n.Key[:len(n.Key)-len(n.Lits)-1]
		}
	}
	return n.Key
}

// AppendValue appends the value of literal i (a number's text, a string
// without its quotes and with ” as ') to dst.
func (n *Normalizer) AppendValue(dst []byte, i int) []byte {
	l := n.Lits[i]
	s := n.sql[l.Start:l.End]
	if l.Kind != LitString {
		return append(dst, s...)
	}
	s = s[1 : len(s)-1]
	if !l.doubled {
		return append(dst, s...)
	}
	for k := 0; k < len(s); k++ {
		dst = append(dst, s[k])
		if s[k] == '\'' {
			k++
		}
	}
	return dst
}

// scanQuoted returns the end of the quoted token at i (quote q): a doubled
// quote stands for one, and a backslash escapes the next byte in strings
// (as Vitess's tokenizer reads them) but not in identifiers.
func scanQuoted(sql string, i int, q byte) (int, bool) {
	for j := i + 1; j < len(sql); j++ {
		switch sql[j] {
		case '\\':
			if q != '`' {
				j++
			}
		case q:
			if j+1 < len(sql) && sql[j+1] == q {
				j++
				continue
			}
			return j + 1, true
		}
	}
	return 0, false
}

// scanOp returns the operator at i, or "" for anything the normaliser does
// not handle (comments, ?, ;, :, {, }, [, ], \, control bytes).
func scanOp(sql string, i int) string {
	rest := sql[i:]
	for _, op := range multiOps {
		if len(rest) >= len(op) && rest[:len(op)] == op {
			if op == "--" || op == "/*" {
				return ""
			}
			return op
		}
	}
	switch rest[0] {
	case '=', '<', '>', '!', '~', '+', '-', '*', '/', '%', '&', '|', '^', '.', '@':
		return rest[:1]
	}
	return ""
}

// multiOps are the operators longer than one byte, longest first; "--" and
// "/*" start comments (refused).
var multiOps = [...]string{"<=>", "->>", "<=", ">=", "<>", "!=", "<<", ">>", "->", "&&", "||", "--", "/*"}

func isComparison(op string) bool {
	switch op {
	case "=", "<=>", "<>", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

func keyword(w string) int {
	switch len(w) {
	case 2:
		switch {
		case eqFold(w, "or"):
			return kwOr
		case eqFold(w, "in"):
			return kwIn
		}
	case 3:
		switch {
		case eqFold(w, "and"):
			return kwAnd
		case eqFold(w, "xor"):
			return kwXor
		case eqFold(w, "not"):
			return kwNot
		case eqFold(w, "for"):
			return kwEnd
		case eqFold(w, "set"):
			return kwSet
		}
	case 4:
		switch {
		case eqFold(w, "with"):
			return kwWith
		case eqFold(w, "into"), eqFold(w, "lock"):
			return kwEnd
		}
	case 5:
		switch {
		case eqFold(w, "where"):
			return kwWhere
		case eqFold(w, "value"):
			return kwValues
		case eqFold(w, "group"), eqFold(w, "order"), eqFold(w, "limit"), eqFold(w, "union"):
			if eqFold(w, "union") {
				return kwSetOp
			}
			return kwEnd
		}
	case 6:
		switch {
		case eqFold(w, "select"):
			return kwSelect
		case eqFold(w, "insert"), eqFold(w, "values"):
			if eqFold(w, "insert") {
				return kwInsert
			}
			return kwValues
		case eqFold(w, "update"):
			return kwUpdate
		case eqFold(w, "delete"):
			return kwDelete
		case eqFold(w, "having"), eqFold(w, "window"):
			return kwEnd
		case eqFold(w, "except"):
			return kwSetOp
		}
	case 7:
		if eqFold(w, "between") {
			return kwBetween
		}
	case 9:
		if eqFold(w, "intersect") {
			return kwSetOp
		}
		if eqFold(w, "procedure") {
			return kwEnd
		}
	}
	return kwNone
}

// eqFold compares w with the lower-case ASCII word kw, ignoring case.
func eqFold(w, kw string) bool {
	if len(w) != len(kw) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i]|0x20 != kw[i] {
			return false
		}
	}
	return true
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c >= 0x80
}

func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) }

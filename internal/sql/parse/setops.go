package parse

import (
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"
)

// SetOp is the operator joining the two sides of a *sqlparser.Union node.
type SetOp uint8

const (
	// Union is UNION: the node as Vitess parsed it.
	Union SetOp = iota
	// Except is EXCEPT (MySQL 8.0.31): rows of the left side not in the right.
	Except
	// Intersect is INTERSECT (MySQL 8.0.31): rows in both sides.
	Intersect
)

func (o SetOp) String() string {
	switch o {
	case Except:
		return "EXCEPT"
	case Intersect:
		return "INTERSECT"
	}
	return "UNION"
}

// Vitess's parser knows UNION only. setOperations rewrites
//
//	A EXCEPT [ALL|DISTINCT] B     as  A UNION [ALL|DISTINCT] SELECT * FROM (B) AS __strata_except
//	A INTERSECT [ALL|DISTINCT] B  as  A UNION [ALL|DISTINCT] SELECT * FROM (B) AS __strata_intersect
//
// and parenthesises runs of INTERSECT, which binds tighter than UNION and
// EXCEPT; UnwrapSetOperand recognises the wrapper on a Union's right side.
// The wrapper is never planned as a derived table.
const (
	exceptAlias    = "__strata_except"
	intersectAlias = "__strata_intersect"
)

// UnwrapSetOperand returns the operator a Union node with right side right
// stands for, and the real right operand.
func UnwrapSetOperand(right sqlparser.TableStatement) (SetOp, sqlparser.TableStatement) {
	sel, ok := right.(*sqlparser.Select)
	if !ok || len(sel.From) != 1 || sel.Where != nil || sel.GroupBy != nil || sel.Having != nil ||
		sel.OrderBy != nil || sel.Limit != nil || sel.With != nil || len(sel.SelectExprs.Exprs) != 1 {
		return Union, right
	}
	if _, star := sel.SelectExprs.Exprs[0].(*sqlparser.StarExpr); !star {
		return Union, right
	}
	ate, ok := sel.From[0].(*sqlparser.AliasedTableExpr)
	if !ok {
		return Union, right
	}
	dt, ok := ate.Expr.(*sqlparser.DerivedTable)
	if !ok {
		return Union, right
	}
	switch ate.As.String() {
	case exceptAlias:
		return Except, dt.Select
	case intersectAlias:
		return Intersect, dt.Select
	}
	return Union, right
}

// token is one token of a statement with its byte span and paren depth.
type token struct {
	typ        int
	word       string // lower-cased text of an unquoted word, else ""
	start, end int
	depth      int
}

// tokens scans sql into tokens with spans and depths. Comments are tokens
// too (word ""), so spans between tokens hold only blanks.
func tokens(p *sqlparser.Parser, sql string) ([]token, bool) {
	tkn := p.NewStringTokenizer(sql)
	var out []token
	depth, prev := 0, 0
	for {
		typ, val := tkn.Scan()
		if typ == 0 {
			break
		}
		if typ == sqlparser.LEX_ERROR {
			return nil, false
		}
		end := tkn.Pos
		start := prev
		for start < end && (sql[start] == ' ' || sql[start] == '\t' || sql[start] == '\n' || sql[start] == '\r') {
			start++
		}
		prev = end
		t := token{typ: typ, start: start, end: end, depth: depth}
		switch typ {
		case '(':
			depth++
		case ')':
			depth--
			t.depth = depth
		default:
			if strings.EqualFold(sql[start:end], val) {
				t.word = strings.ToLower(val)
			}
		}
		out = append(out, t)
	}
	return out, depth == 0
}

// setOperations rewrites EXCEPT and INTERSECT (see exceptAlias) at every
// nesting level of sql.
func setOperations(p *sqlparser.Parser, sql string) (string, bool) {
	if !containsFold(sql, "except") && !containsFold(sql, "intersect") {
		return sql, false
	}
	toks, ok := tokens(p, sql)
	if !ok {
		return sql, false
	}
	var edits []edit
	// Every region (the statement, and the inside of each parenthesis) is
	// handled on its own.
	regionStarts := []int{0}
	for i, t := range toks {
		if t.typ == '(' {
			regionStarts = append(regionStarts, i+1)
		}
	}
	for _, rs := range regionStarts {
		depth := 0
		if rs > 0 {
			depth = toks[rs-1].depth + 1
		}
		edits = append(edits, regionEdits(toks, rs, depth)...)
	}
	if len(edits) == 0 {
		return sql, false
	}
	return applyEdits(sql, edits), true
}

// edit inserts text at pos, or replaces [pos, end) with text.
type edit struct {
	pos, end int
	text     string
	order    int // among edits at the same position: lower first
}

func applyEdits(sql string, edits []edit) string {
	// Stable order by position; inserts before replacements at one position
	// keep their relative order.
	for i := 1; i < len(edits); i++ {
		for j := i; j > 0 && (edits[j].pos < edits[j-1].pos || edits[j].pos == edits[j-1].pos && edits[j].order < edits[j-1].order); j-- {
			edits[j], edits[j-1] = edits[j-1], edits[j]
		}
	}
	var b strings.Builder
	last := 0
	for _, e := range edits {
		if e.pos < last {
			continue
		}
		b.WriteString(sql[last:e.pos])
		b.WriteString(e.text)
		last = e.pos
		if e.end > e.pos {
			last = e.end
		}
	}
	b.WriteString(sql[last:])
	return b.String()
}

// primary is one SELECT (or parenthesised query) of a set operation:
// tokens [from, to), with the operator before it.
type primary struct {
	from, to int
	op       string // "", "union", "except", "intersect"
	opTok    int    // index of the operator token, -1 for the first
}

// regionEdits returns the rewrite of the set operations at depth of the
// region starting at token rs.
func regionEdits(toks []token, rs, depth int) []edit {
	// The region ends at the token closing it (or the statement's end).
	re := len(toks)
	for i := rs; i < len(toks); i++ {
		if toks[i].typ == ')' && toks[i].depth == depth-1 {
			re = i
			break
		}
	}
	if rs >= re {
		return nil
	}
	// Set operators at this depth.
	var ops []int
	hasNew := false
	for i := rs; i < re; i++ {
		t := toks[i]
		if t.depth != depth {
			continue
		}
		switch t.word {
		case "union":
			ops = append(ops, i)
		case "except", "intersect":
			ops = append(ops, i)
			hasNew = true
		}
	}
	if !hasNew {
		return nil
	}
	// The first operand starts the region, or follows a statement prefix
	// (WITH …, INSERT … , CREATE TABLE … AS) at its first SELECT.
	body := rs
	switch toks[rs].word {
	case "select", "values", "table":
	default:
		if toks[rs].typ != '(' {
			body = -1
			for i := rs; i < ops[0]; i++ {
				if toks[i].depth == depth && toks[i].word == "select" {
					body = i
					break
				}
			}
			if body < 0 {
				return nil
			}
		}
	}
	// The last operand ends before a trailing ORDER BY / LIMIT / INTO /
	// FOR / LOCK at this depth: those apply to the whole operation.
	end := re
	for i := ops[len(ops)-1] + 1; i < re; i++ {
		t := toks[i]
		if t.depth != depth {
			continue
		}
		if t.word == "order" || t.word == "limit" || t.word == "into" || t.word == "for" || t.word == "lock" || t.typ == ';' {
			end = i
			break
		}
	}
	var prims []primary
	from, op, opTok := body, "", -1
	for _, oi := range ops {
		prims = append(prims, primary{from: from, to: oi, op: op, opTok: opTok})
		op, opTok = toks[oi].word, oi
		from = oi + 1
		if from < end && toks[from].depth == depth && (toks[from].word == "all" || toks[from].word == "distinct") {
			from++
		}
	}
	prims = append(prims, primary{from: from, to: end, op: op, opTok: opTok})
	for _, p := range prims {
		if p.from >= p.to {
			return nil // an empty operand: leave the error to the parser
		}
	}
	startOf := func(i int) int { return toks[i].start }
	endOf := func(i int) int { return toks[i-1].end }

	var edits []edit
	// Terms: runs of primaries joined by INTERSECT, which binds tighter.
	for k := 0; k < len(prims); {
		j := k
		for j+1 < len(prims) && prims[j+1].op == "intersect" {
			j++
		}
		// INTERSECT inside the term: wrap each later primary.
		for x := k + 1; x <= j; x++ {
			p := prims[x]
			edits = append(edits,
				edit{pos: toks[p.opTok].start, end: toks[p.opTok].end, text: "UNION", order: 0},
				edit{pos: startOf(p.from), text: "SELECT * FROM (", order: 1},
				edit{pos: endOf(p.to), text: ") AS " + intersectAlias, order: 0})
		}
		switch {
		case prims[k].op == "except":
			// The whole term is EXCEPT's right side.
			edits = append(edits,
				edit{pos: toks[prims[k].opTok].start, end: toks[prims[k].opTok].end, text: "UNION", order: 0},
				edit{pos: startOf(prims[k].from), text: "SELECT * FROM (", order: 0},
				edit{pos: endOf(prims[j].to), text: ") AS " + exceptAlias, order: 1})
		case j > k && !(k == 0 && j == len(prims)-1):
			edits = append(edits,
				edit{pos: startOf(prims[k].from), text: "(", order: 0},
				edit{pos: endOf(prims[j].to), text: ")", order: 1})
		}
		k = j + 1
	}
	return edits
}

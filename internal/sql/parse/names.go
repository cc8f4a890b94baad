package parse

import (
	"vitess.io/vitess/go/vt/sqlparser"
)

// MySQL names an unaliased select expression by its text as written:
// SELECT COUNT( * ), 1+1 has columns "COUNT( * )" and "1+1". Vitess's AST
// keeps no source positions, so ExprTexts recovers them: it splits every
// select list of the statement text into its expressions, and Name finds the
// one whose parse equals a given expression.

// selectOptions may follow SELECT before the first expression.
var selectOptions = map[string]bool{
	"all": true, "distinct": true, "distinctrow": true, "high_priority": true,
	"straight_join": true, "sql_small_result": true, "sql_big_result": true,
	"sql_buffer_result": true, "sql_no_cache": true, "sql_cache": true,
	"sql_calc_found_rows": true,
}

// selectListEnd ends a select list at its depth.
var selectListEnd = map[string]bool{
	"from": true, "into": true, "where": true, "group": true, "having": true,
	"order": true, "limit": true, "window": true, "for": true, "lock": true,
	"union": true, "except": true, "intersect": true,
}

// ExprTexts indexes the select-list expressions of one statement's text.
type ExprTexts struct {
	p     *sqlparser.Parser
	sql   string
	built bool
	exprs []exprText
}

type exprText struct {
	text string
	ast  sqlparser.Expr
}

// NewExprTexts returns an index over sql; the work happens at the first
// Name call.
func NewExprTexts(p *sqlparser.Parser, sql string) *ExprTexts {
	return &ExprTexts{p: p, sql: sql}
}

// Reset makes x index sql instead, reusing its memory.
func (x *ExprTexts) Reset(sql string) {
	clear(x.exprs)
	x.sql, x.built, x.exprs = sql, false, x.exprs[:0]
}

// SQL returns the statement text x indexes.
func (x *ExprTexts) SQL() string { return x.sql }

// Name returns the text e was written as in the statement, if e is one of
// its unaliased select expressions.
func (x *ExprTexts) Name(e sqlparser.Expr) (string, bool) {
	if x == nil || x.sql == "" {
		return "", false
	}
	if !x.built {
		x.build()
	}
	var cmp sqlparser.Comparator
	for _, c := range x.exprs {
		if cmp.Expr(c.ast, e) {
			return c.text, true
		}
	}
	return "", false
}

func (x *ExprTexts) build() {
	x.built = true
	toks, ok := tokens(x.p, x.sql)
	if !ok {
		return
	}
	for i, t := range toks {
		if t.word != "select" {
			continue
		}
		depth := t.depth
		j := i + 1
		for j < len(toks) && toks[j].depth == depth && selectOptions[toks[j].word] {
			j++
		}
		start := j
		for k := j; k <= len(toks); k++ {
			end := k == len(toks)
			if !end {
				tk := toks[k]
				switch {
				case tk.typ == ')' && tk.depth < depth, tk.typ == ';' && tk.depth == depth:
					end = true
				case tk.depth == depth && selectListEnd[tk.word]:
					end = true
				}
			}
			if end || toks[k].typ == ',' && toks[k].depth == depth {
				if k > start {
					x.add(toks, start, k)
				}
				if end {
					break
				}
				start = k + 1
			}
		}
	}
}

// add records the expression spanning tokens [from, to) if it parses as one
// expression (an aliased one does not, and needs no name).
func (x *ExprTexts) add(toks []token, from, to int) {
	text := x.sql[toks[from].start:toks[to-1].end]
	st, err := x.p.Parse("SELECT " + text)
	if err != nil {
		return
	}
	st = FunctionCalls(st, text)
	sel, ok := st.(*sqlparser.Select)
	if !ok || len(sel.SelectExprs.Exprs) != 1 {
		return
	}
	ae, ok := sel.SelectExprs.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok || !ae.As.IsEmpty() {
		return
	}
	x.exprs = append(x.exprs, exprText{text: text, ast: ae.Expr})
}

package sql

import (
	"strconv"
	"strings"
	"sync"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Compilation of stored procedures and functions. A routine's body
// (parse.ParseBody) is compiled once per definition into a tree of spOps:
// variables and parameters become numbered slots, labels, cursors and
// conditions are resolved, and every SQL statement and expression is
// parsed once, with each bare name that denotes a variable in scope
// rewritten to the bind variable of its slot (MySQL: a local variable
// takes precedence over a column of the same name). The program is
// immutable and shared by every session; an execution (routine_exec.go)
// clones the statements it runs and keeps the variables' values in its
// own frame.

// spProgram is one compiled routine.
type spProgram struct {
	def *catalog.Routine
	// name is db.name, for messages.
	name   string
	isFunc bool
	params []spParam
	// ret is a function's return type.
	ret *catalog.Column
	// slots are the variables' declared types by slot (parameters
	// first); bvNames their bind-variable names.
	slots   []*catalog.Column
	bvNames []string
	body    *spOp
	// cursors are the DECLARE CURSOR statements by cursor number (their
	// state is per execution).
	cursors []*spOp
	sqlMode sqlMode
	// results: some statement of the body sends a result set.
	results bool
}

// spParam is one parameter: its mode (IN, OUT, INOUT; IN for functions)
// and its slot.
type spParam struct {
	mode string
	name string
	slot int
}

// spOp is one compiled statement of a body.
type spOp struct {
	kind parse.SPKind
	// text is the statement's text (messages).
	text string
	// stmt is a plain SQL statement with its variables bound; into, for
	// SELECT ... INTO, the targets (stmt then has no INTO clause).
	stmt      sqlparser.Statement
	into      []spTarget
	resultSet bool
	// maybeRows: a resultSet statement that may answer no rows (EXECUTE):
	// an answer without columns is no result set.
	maybeRows bool
	// special is the text of a statement run as text (specialText).
	special string
	// exprs are the expressions: DEFAULT, RETURN, WHILE/UNTIL conditions,
	// IF conditions and CASE WHEN tests (one per branch), SIGNAL items,
	// CALL arguments, SET values.
	exprs []sqlparser.Expr
	// targets are SET's, FETCH's and CALL's OUT targets.
	targets []spTarget
	// setSys are SET items on system variables that are not evaluated
	// (SET sql_mode = TRADITIONAL, DEFAULT, NAMES): run as they are.
	setSys []*sqlparser.SetExpr
	// slots are DECLARE's variables; col their type.
	slots []int
	col   *catalog.Column
	// body is a block's or loop's statements; branches IF's and CASE's.
	body     []*spOp
	branches [][]*spOp
	els      []*spOp
	hasElse  bool
	// target is the block or loop LEAVE and ITERATE go to.
	target *spOp
	// handlers are a block's handlers; cursors the cursors it declares.
	handlers []*spHandler
	cursors  []int
	// cursor is OPEN's, FETCH's and CLOSE's cursor, and a DECLARE
	// CURSOR's.
	cursor int
	// cond is SIGNAL's condition, items its SET item names (upper case).
	cond  *parse.SPCond
	items []string
	// call is a CALL's routine name (db, name).
	callDB, callName string
	// diag is GET DIAGNOSTICS.
	diag *spDiag
}

// spTarget is where a value goes: a slot (>= 0), a user variable (-1), a
// column of a trigger's NEW row (spNewCol).
type spTarget struct {
	slot int
	user string
	col  int
}

// spHandler is a compiled DECLARE ... HANDLER.
type spHandler struct {
	exit  bool
	conds []parse.SPCond
	body  *spOp
	// block is the block that declares it.
	block *spOp
}

// spScope is one block's names.
type spScope struct {
	vars    map[string]int
	conds   map[string]parse.SPCond
	cursors map[string]int
}

// spCompiler compiles one routine.
type spCompiler struct {
	e      *Engine
	p      *spProgram
	scopes []*spScope
	// labels are the enclosing labelled blocks and loops, innermost last.
	labels []*spOp
	// inHandler counts the handler bodies being compiled.
	inHandler int
	// trg is the trigger whose body is compiled (nil for routines):
	// NEW.col and OLD.col are bound too, seen collects them; bindErr is
	// the first error of binding them.
	trg     *trgProgram
	seen    map[string]bool
	bindErr error
}

// spCache holds compiled routines by definition (a replaced or dropped
// routine has a new definition pointer; stale entries are dropped when the
// catalog version moves).
type spCache struct {
	mu      sync.Mutex
	version uint64
	progs   map[*catalog.Routine]*spProgram
}

// routineProgram returns r compiled.
func (e *Engine) routineProgram(r *catalog.Routine) (*spProgram, error) {
	v := e.Cat.Version()
	e.sp.mu.Lock()
	if e.sp.version != v || e.sp.progs == nil {
		e.sp.progs, e.sp.version = map[*catalog.Routine]*spProgram{}, v
	}
	p := e.sp.progs[r]
	e.sp.mu.Unlock()
	if p != nil {
		return p, nil
	}
	p, err := e.compileRoutine(r)
	if err != nil {
		return nil, err
	}
	e.sp.mu.Lock()
	if e.sp.version == v {
		e.sp.progs[r] = p
	}
	e.sp.mu.Unlock()
	return p, nil
}

// compileRoutine compiles a routine definition.
func (e *Engine) compileRoutine(r *catalog.Routine) (*spProgram, error) {
	p := &spProgram{def: r, name: r.DB + "." + r.Name, isFunc: r.Type == "FUNCTION", sqlMode: parseSQLMode(r.SQLMode)}
	c := &spCompiler{e: e, p: p}
	c.push()
	for _, prm := range r.Params {
		if _, dup := c.scopes[0].vars[strings.ToLower(prm.Name)]; dup {
			return nil, sqlerr.New(sqlerr.SPDupParam, "42000", "Duplicate parameter: %s", prm.Name)
		}
		col, err := e.spColumn(prm.Type)
		if err != nil {
			return nil, err
		}
		mode := prm.Mode
		if mode == "" {
			mode = "IN"
		}
		slot := c.newSlot(prm.Name, col)
		p.params = append(p.params, spParam{mode: mode, name: prm.Name, slot: slot})
	}
	if p.isFunc {
		col, err := e.spColumn(r.Returns)
		if err != nil {
			return nil, err
		}
		p.ret = col
	}
	tree, err := parse.ParseBody(r.Body)
	if err != nil {
		return nil, spSyntax(err, r.Body)
	}
	body, err := c.stmt(tree)
	if err != nil {
		return nil, err
	}
	p.body = body
	if p.isFunc && !hasReturn(body) {
		return nil, sqlerr.New(sqlerr.SPNoReturn, "42000", "No RETURN found in FUNCTION %s", p.name)
	}
	return p, nil
}

// spSyntax turns a body parse error into MySQL's 1064.
func spSyntax(err error, body string) error {
	near := firstWords(body, 3)
	if se, ok := err.(*parse.SPSyntaxError); ok {
		near = se.Near
	}
	return sqlerr.Syntax("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '" + near + "' at line 1")
}

func hasReturn(op *spOp) bool {
	if op.kind == parse.SPReturn {
		return true
	}
	for _, l := range [][]*spOp{op.body, op.els} {
		for _, c := range l {
			if hasReturn(c) {
				return true
			}
		}
	}
	for _, b := range op.branches {
		for _, c := range b {
			if hasReturn(c) {
				return true
			}
		}
	}
	return false
}

// spColumn parses a declared type into a column.
func (e *Engine) spColumn(typ string) (*catalog.Column, error) {
	stmt, err := e.Parser.ParseStrictDDL("CREATE TABLE t (v " + typ + ")")
	if err != nil {
		return nil, parseErr(err)
	}
	ct, ok := stmt.(*sqlparser.CreateTable)
	if !ok || ct.TableSpec == nil || len(ct.TableSpec.Columns) != 1 {
		return nil, sqlerr.Syntax("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '" + typ + "' at line 1")
	}
	col, err := coltype.FromAST(ct.TableSpec.Columns[0], collations.ID(255))
	if err != nil {
		return nil, err
	}
	col.Nullable = true
	return &col, nil
}

func (c *spCompiler) push() {
	c.scopes = append(c.scopes, &spScope{vars: map[string]int{}, conds: map[string]parse.SPCond{}, cursors: map[string]int{}})
}

func (c *spCompiler) pop() { c.scopes = c.scopes[:len(c.scopes)-1] }

func (c *spCompiler) newSlot(name string, col *catalog.Column) int {
	slot := len(c.p.slots)
	// The variable's own copy: conversion errors name it.
	cc := *col
	cc.Name = name
	c.p.slots = append(c.p.slots, &cc)
	c.p.bvNames = append(c.p.bvNames, "spv_"+strconv.Itoa(slot))
	c.scopes[len(c.scopes)-1].vars[strings.ToLower(name)] = slot
	return slot
}

// lookup finds a variable in scope.
func (c *spCompiler) lookup(name string) (int, bool) {
	name = strings.ToLower(name)
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if s, ok := c.scopes[i].vars[name]; ok {
			return s, true
		}
	}
	return 0, false
}

func (c *spCompiler) lookupCond(name string) (parse.SPCond, bool) {
	name = strings.ToLower(name)
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if s, ok := c.scopes[i].conds[name]; ok {
			return s, true
		}
	}
	return parse.SPCond{}, false
}

func (c *spCompiler) lookupCursor(name string) (int, error) {
	l := strings.ToLower(name)
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if s, ok := c.scopes[i].cursors[l]; ok {
			return s, nil
		}
	}
	return 0, sqlerr.New(sqlerr.SPUndeclaredCursor, "42000", "Undefined CURSOR: %s", name)
}

// bind rewrites the bare names of variables in scope to their bind
// variables. Assignment targets of UPDATE and ON DUPLICATE KEY UPDATE are
// columns and stay.
func (c *spCompiler) bind(node sqlparser.SQLNode) sqlparser.SQLNode {
	var pre func(cur *sqlparser.Cursor) bool
	pre = func(cur *sqlparser.Cursor) bool {
		switch n := cur.Node().(type) {
		case *sqlparser.UpdateExpr:
			n.Expr = sqlparser.Rewrite(n.Expr, pre, nil).(sqlparser.Expr)
			return false
		case *sqlparser.AliasedExpr:
			// A selected variable is named as written (MySQL names the
			// column by the expression's text).
			if n.As.IsEmpty() && c.readsVar(n.Expr) {
				n.As = sqlparser.NewIdentifierCI(sqlparser.String(n.Expr))
			}
		case *sqlparser.ColName:
			if !n.Qualifier.IsEmpty() {
				return true
			}
			if slot, ok := c.lookup(n.Name.String()); ok {
				cur.Replace(sqlparser.NewArgument(c.p.bvNames[slot]))
			}
		}
		return true
	}
	out := sqlparser.Rewrite(node, pre, nil)
	if c.trg != nil {
		bound, err := c.trg.bindRowsNode(out, c.seen)
		if err != nil {
			if c.bindErr == nil {
				c.bindErr = err
			}
			return out
		}
		out = bound
	}
	return out
}

// readsVar reports whether x names a variable in scope.
func (c *spCompiler) readsVar(x sqlparser.Expr) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if cn, ok := n.(*sqlparser.ColName); ok && cn.Qualifier.IsEmpty() {
			if _, ok := c.lookup(cn.Name.String()); ok {
				found = true
			}
		}
		return !found, nil
	}, x)
	return found
}

// expr parses and binds an expression.
func (c *spCompiler) expr(text string) (sqlparser.Expr, error) {
	x, err := c.e.Parser.ParseExpr(text)
	if err != nil {
		return nil, parseErr(err)
	}
	return c.bind(x).(sqlparser.Expr), nil
}

// list compiles a statement list; declarations must come first, in
// MySQL's order (variables and conditions, cursors, handlers).
func (c *spCompiler) list(nodes []*parse.SPNode, block *spOp) ([]*spOp, error) {
	var out []*spOp
	phase := 0 // 0 vars/conds, 1 cursors, 2 handlers, 3 statements
	for _, n := range nodes {
		np := 3
		switch n.Kind {
		case parse.SPDeclareVar, parse.SPDeclareCond:
			np = 0
		case parse.SPDeclareCursor:
			np = 1
		case parse.SPDeclareHandler:
			np = 2
		}
		if np < 3 && block == nil {
			return nil, spSyntax(nil, "DECLARE")
		}
		if np < phase {
			switch {
			case phase == 3:
				return nil, spSyntax(nil, "DECLARE "+strings.Join(n.Names, ","))
			case np == 0:
				return nil, sqlerr.New(sqlerr.SPVarCondAfterCurs, "42000", "Variable or condition declaration after cursor or handler declaration")
			default:
				return nil, sqlerr.New(sqlerr.SPCursAfterHandler, "42000", "Cursor declaration after handler declaration")
			}
		}
		phase = np
		op, err := c.stmtIn(n, block)
		if err != nil {
			return nil, err
		}
		if op != nil {
			out = append(out, op)
		}
	}
	return out, nil
}

func (c *spCompiler) stmt(n *parse.SPNode) (*spOp, error) { return c.stmtIn(n, nil) }

// stmtIn compiles one statement of block's list (block nil: not directly
// in a block).
func (c *spCompiler) stmtIn(n *parse.SPNode, block *spOp) (*spOp, error) {
	op := &spOp{kind: n.Kind, text: n.Text}
	switch n.Kind {
	case parse.SPBlock:
		if err := c.pushLabel(n.Label, op); err != nil {
			return nil, err
		}
		c.push()
		body, err := c.list(n.Body, op)
		c.pop()
		c.popLabel(n.Label)
		if err != nil {
			return nil, err
		}
		op.body = body
	case parse.SPDeclareVar:
		col, err := c.e.spColumn(n.Type)
		if err != nil {
			return nil, err
		}
		op.col = col
		if n.Expr != "" {
			// The default is evaluated before the variables exist.
			x, err := c.expr(n.Expr)
			if err != nil {
				return nil, err
			}
			op.exprs = []sqlparser.Expr{x}
		}
		sc := c.scopes[len(c.scopes)-1]
		for _, name := range n.Names {
			if _, dup := sc.vars[strings.ToLower(name)]; dup {
				return nil, sqlerr.New(sqlerr.SPDupVar, "42000", "Duplicate variable: %s", name)
			}
			op.slots = append(op.slots, c.newSlot(name, col))
		}
	case parse.SPDeclareCond:
		sc := c.scopes[len(c.scopes)-1]
		l := strings.ToLower(n.Name)
		if _, dup := sc.conds[l]; dup {
			return nil, sqlerr.New(sqlerr.SPDupCond, "42000", "Duplicate condition: %s", n.Name)
		}
		cd := n.Conds[0]
		if cd.Kind == "SQLSTATE" && !validSQLState(cd.State) {
			return nil, sqlerr.New(sqlerr.BadSQLState, "42000", "Bad SQLSTATE: '%s'", cd.State)
		}
		sc.conds[l] = cd
		return nil, nil
	case parse.SPDeclareCursor:
		sc := c.scopes[len(c.scopes)-1]
		l := strings.ToLower(n.Name)
		if _, dup := sc.cursors[l]; dup {
			return nil, sqlerr.New(sqlerr.SPDupCurs, "42000", "Duplicate cursor: %s", n.Name)
		}
		stmt, err := c.e.Parser.Parse(n.Text)
		if err != nil {
			return nil, parseErr(err)
		}
		switch st := stmt.(type) {
		case *sqlparser.Select:
			if st.Into != nil {
				return nil, sqlerr.New(sqlerr.SPCursorSelect, "42000", "Cursor SELECT must not have INTO")
			}
		case *sqlparser.Union:
		default:
			return nil, sqlerr.New(sqlerr.SPCursorMismatch, "42000", "Cursor statement must be a SELECT")
		}
		op.stmt = c.bind(stmt).(sqlparser.Statement)
		op.cursor = len(c.p.cursors)
		c.p.cursors = append(c.p.cursors, op)
		sc.cursors[l] = op.cursor
		block.cursors = append(block.cursors, op.cursor)
		return nil, nil
	case parse.SPDeclareHandler:
		h := &spHandler{exit: n.Handler == "EXIT", block: block}
		if n.Handler == "UNDO" {
			return nil, sqlerr.Unsupported("UNDO handlers")
		}
		for _, cd := range n.Conds {
			if cd.Kind == "NAME" {
				named, ok := c.lookupCond(cd.Name)
				if !ok {
					return nil, sqlerr.New(sqlerr.SPCondMismatch, "42000", "Undefined CONDITION: %s", cd.Name)
				}
				cd = named
			}
			if cd.Kind == "SQLSTATE" && (!validSQLState(cd.State) || strings.HasPrefix(cd.State, "00")) {
				return nil, sqlerr.New(sqlerr.BadSQLState, "42000", "Bad SQLSTATE: '%s'", cd.State)
			}
			for _, other := range block.handlers {
				for _, oc := range other.conds {
					if oc == cd {
						return nil, sqlerr.New(sqlerr.SPDupHandler, "42000", "Duplicate handler declared in the same block")
					}
				}
			}
			h.conds = append(h.conds, cd)
		}
		c.inHandler++
		body, err := c.stmt(n.Body[0])
		c.inHandler--
		if err != nil {
			return nil, err
		}
		h.body = body
		block.handlers = append(block.handlers, h)
		return nil, nil
	case parse.SPSet:
		return op, c.set(op, n.Text)
	case parse.SPIf, parse.SPCase:
		var operand sqlparser.Expr
		if n.Kind == parse.SPCase && n.Expr != "" {
			x, err := c.expr(n.Expr)
			if err != nil {
				return nil, err
			}
			operand = x
		}
		for _, br := range n.Branches {
			x, err := c.expr(br.Cond)
			if err != nil {
				return nil, err
			}
			if operand != nil {
				x = &sqlparser.ComparisonExpr{Operator: sqlparser.EqualOp, Left: operand, Right: x}
			}
			body, err := c.list(br.Body, nil)
			if err != nil {
				return nil, err
			}
			op.exprs = append(op.exprs, x)
			op.branches = append(op.branches, body)
		}
		if n.HasElse {
			body, err := c.list(n.Else, nil)
			if err != nil {
				return nil, err
			}
			op.els, op.hasElse = body, true
		}
	case parse.SPLoop, parse.SPWhile, parse.SPRepeat:
		if n.Expr != "" {
			x, err := c.expr(n.Expr)
			if err != nil {
				return nil, err
			}
			op.exprs = []sqlparser.Expr{x}
		}
		if err := c.pushLabel(n.Label, op); err != nil {
			return nil, err
		}
		body, err := c.list(n.Body, nil)
		c.popLabel(n.Label)
		if err != nil {
			return nil, err
		}
		op.body = body
	case parse.SPLeave, parse.SPIterate:
		word := "LEAVE"
		if n.Kind == parse.SPIterate {
			word = "ITERATE"
		}
		for i := len(c.labels) - 1; i >= 0; i-- {
			if strings.EqualFold(c.labels[i].text, n.Name) {
				op.target = c.labels[i]
				break
			}
		}
		if op.target == nil || n.Kind == parse.SPIterate && op.target.kind == parse.SPBlock {
			return nil, sqlerr.New(sqlerr.SPLilabelMismatch, "42000", "%s with no matching label: %s", word, n.Name)
		}
	case parse.SPReturn:
		if !c.p.isFunc {
			return nil, sqlerr.New(sqlerr.SPBadReturn, "42000", "RETURN is only allowed in a FUNCTION")
		}
		x, err := c.expr(n.Expr)
		if err != nil {
			return nil, err
		}
		op.exprs = []sqlparser.Expr{x}
	case parse.SPOpen, parse.SPClose:
		cur, err := c.lookupCursor(n.Name)
		if err != nil {
			return nil, err
		}
		op.cursor = cur
	case parse.SPFetch:
		cur, err := c.lookupCursor(n.Name)
		if err != nil {
			return nil, err
		}
		op.cursor = cur
		for _, name := range n.Names {
			slot, ok := c.lookup(name)
			if !ok {
				return nil, sqlerr.New(sqlerr.UndeclaredVar, "42000", "Undeclared variable: %s", name)
			}
			op.targets = append(op.targets, spTarget{slot: slot})
		}
	case parse.SPSignal, parse.SPResignal:
		return op, c.signal(op, n)
	case parse.SPCall:
		return op, c.call(op, n.Text)
	case parse.SPGetDiag:
		return op, c.getDiag(op, n.Text)
	default:
		return op, c.plain(op, n.Text)
	}
	return op, nil
}

func (c *spCompiler) pushLabel(label string, op *spOp) error {
	if label == "" {
		return nil
	}
	for _, l := range c.labels {
		if strings.EqualFold(l.text, label) {
			return sqlerr.New(sqlerr.SPLabelRedefine, "42000", "Redefining label %s", label)
		}
	}
	op.text = label
	c.labels = append(c.labels, op)
	return nil
}

func (c *spCompiler) popLabel(label string) {
	if label != "" {
		c.labels = c.labels[:len(c.labels)-1]
	}
}

// validSQLState reports whether s is five digits or upper-case letters.
func validSQLState(s string) bool {
	if len(s) != 5 {
		return false
	}
	for i := 0; i < 5; i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// plain compiles an ordinary SQL statement.
func (c *spCompiler) plain(op *spOp, text string) error {
	if r, ok := parse.ParseRoutine(text); ok {
		switch {
		case r.Verb == "CREATE":
			return sqlerr.New(sqlerr.SPNoRecursiveCreate, "2F003", "Can't create a %s from within another stored routine", r.Kind)
		case r.Kind == "PROCEDURE" || r.Kind == "FUNCTION":
			return sqlerr.New(sqlerr.SPNoDropSP, sqlerror.SSUnknownSQLState, "Can't drop or alter a %s from within another stored routine", r.Kind)
		}
	}
	if w := notInRoutine(text); w != "" {
		return sqlerr.New(sqlerr.SPBadStatement, "0A000", "%s is not allowed in stored procedures", w)
	}
	if specialText(text) {
		// A statement Vitess's parser does not know (accounts, CHECK
		// TABLE, DROP PROCEDURE, ...): run from its text, as at top level.
		if c.p.isFunc || c.trg != nil {
			return sqlerr.Unsupported("%s in a stored function or trigger", firstWords(text, 2))
		}
		op.special, op.resultSet, op.maybeRows = text, true, true
		return nil
	}
	stmt, err := c.e.Parser.Parse(text)
	if err != nil {
		fixed, ok := parse.Repair(c.e.Parser, text)
		if !ok {
			return parseErr(err)
		}
		if stmt, err = c.e.Parser.Parse(fixed); err != nil {
			return parseErr(err)
		}
	}
	stmt = parse.FunctionCalls(stmt, text)
	if sel, ok := stmt.(*sqlparser.Select); ok && sel.Into != nil && sel.Into.Type == sqlparser.IntoVariables {
		for _, v := range sel.Into.VarList {
			t, err := c.target(v)
			if err != nil {
				return err
			}
			op.into = append(op.into, t)
		}
		sel.Into = nil
	}
	switch st := stmt.(type) {
	case *sqlparser.Select:
		op.resultSet = st.Into == nil && op.into == nil
	case *sqlparser.Union:
		op.resultSet = !unionInto(st)
	case *sqlparser.Show, *sqlparser.ExplainStmt, *sqlparser.ExplainTab, *sqlparser.Analyze:
		op.resultSet = true
	case *sqlparser.ExecuteStmt:
		// Dynamic SQL may or may not return rows: a result set when it
		// does (routine_exec.go).
		op.resultSet, op.maybeRows = true, true
	}
	if c.p.isFunc || c.trg != nil {
		if op.resultSet {
			what := "function"
			if c.trg != nil {
				what = "trigger"
			}
			return sqlerr.New(sqlerr.SPNoRetSet, "0A000", "Not allowed to return a result set from a %s", what)
		}
		switch stmt.(type) {
		case *sqlparser.Select, *sqlparser.Union, *sqlparser.Insert, *sqlparser.Update, *sqlparser.Delete, *sqlparser.Set:
		case *sqlparser.Begin, *sqlparser.Commit, *sqlparser.Rollback, sqlparser.DDLStatement, sqlparser.DBDDLStatement, *sqlparser.LockTables, *sqlparser.UnlockTables:
			return sqlerr.New(sqlerr.CommitNotAllowedSF, sqlerror.SSUnknownSQLState, "Explicit or implicit commit is not allowed in stored function or trigger.")
		case *sqlparser.PrepareStmt, *sqlparser.ExecuteStmt, *sqlparser.DeallocateStmt:
			return sqlerr.New(sqlerr.DynamicSQLInSF, sqlerror.SSUnknownSQLState, "Dynamic SQL is not allowed in stored function or trigger")
		default:
			return sqlerr.Unsupported("%s in a stored function", firstWords(text, 2))
		}
	}
	if op.resultSet && !op.maybeRows {
		c.p.results = true
	}
	op.stmt = c.bind(stmt).(sqlparser.Statement)
	return nil
}

// target resolves an INTO or SET target: a declared variable or a user
// variable.
func (c *spCompiler) target(v *sqlparser.Variable) (spTarget, error) {
	switch v.Scope {
	case sqlparser.VariableScope:
		return spTarget{slot: -1, user: strings.ToLower(v.Name.String())}, nil
	case sqlparser.NoScope:
		if slot, ok := c.lookup(v.Name.String()); ok {
			return spTarget{slot: slot}, nil
		}
	}
	return spTarget{}, sqlerr.New(sqlerr.UndeclaredVar, "42000", "Undeclared variable: %s", v.Name.String())
}

// set compiles SET: items on declared variables and user variables are
// evaluated by the interpreter; system variables keep their statement.
func (c *spCompiler) set(op *spOp, text string) error {
	if c.trg != nil {
		rest, err := c.setRowTargets(op, text)
		if err != nil || rest == "" {
			return err
		}
		text = rest
	}
	stmt, err := c.e.Parser.Parse(text)
	if err != nil {
		return parseErr(err)
	}
	st, ok := stmt.(*sqlparser.Set)
	if !ok {
		// SET TRANSACTION, SET PASSWORD, ...: an ordinary statement.
		op.kind = parse.SPSQL
		return c.plain(op, text)
	}
	for _, se := range st.Exprs {
		if se.Var.Scope == sqlparser.NoScope {
			if slot, ok := c.lookup(se.Var.Name.String()); ok {
				x := c.bind(se.Expr).(sqlparser.Expr)
				op.targets = append(op.targets, spTarget{slot: slot})
				op.exprs = append(op.exprs, x)
				continue
			}
		}
		if se.Var.Scope == sqlparser.VariableScope {
			op.targets = append(op.targets, spTarget{slot: -1, user: strings.ToLower(se.Var.Name.String())})
			op.exprs = append(op.exprs, c.bind(se.Expr).(sqlparser.Expr))
			continue
		}
		// A system variable: evaluated by SET itself unless it reads a
		// declared variable.
		se.Expr = c.bind(se.Expr).(sqlparser.Expr)
		op.setSys = append(op.setSys, se)
	}
	return nil
}

// signal compiles SIGNAL and RESIGNAL.
func (c *spCompiler) signal(op *spOp, n *parse.SPNode) error {
	if len(n.Conds) > 0 {
		cd := n.Conds[0]
		if cd.Kind == "NAME" {
			named, ok := c.lookupCond(cd.Name)
			if !ok {
				return sqlerr.New(sqlerr.SPCondMismatch, "42000", "Undefined CONDITION: %s", cd.Name)
			}
			cd = named
		}
		if cd.Kind == "ERRNO" && n.Kind == parse.SPSignal {
			return sqlerr.New(1646, "HY000", "SIGNAL/RESIGNAL can only use a CONDITION defined with SQLSTATE")
		}
		if cd.Kind == "SQLSTATE" && (!validSQLState(cd.State) || strings.HasPrefix(cd.State, "00")) {
			return sqlerr.New(sqlerr.BadSQLState, "42000", "Bad SQLSTATE: '%s'", cd.State)
		}
		op.cond = &cd
	}
	for _, it := range n.Items {
		switch it.Name {
		case "MESSAGE_TEXT", "MYSQL_ERRNO", "CLASS_ORIGIN", "SUBCLASS_ORIGIN", "CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA",
			"CONSTRAINT_NAME", "CATALOG_NAME", "SCHEMA_NAME", "TABLE_NAME", "COLUMN_NAME", "CURSOR_NAME":
		default:
			return spSyntax(nil, it.Name)
		}
		x, err := c.expr(it.Expr)
		if err != nil {
			return err
		}
		op.items = append(op.items, it.Name)
		op.exprs = append(op.exprs, x)
	}
	return nil
}

// call compiles CALL [db.]name[(args)]: OUT and INOUT arguments are
// resolved when the called procedure is known (run time).
func (c *spCompiler) call(op *spOp, text string) error {
	db, name, args, err := parse.ParseCall(text)
	if err != nil {
		return spSyntax(nil, text)
	}
	op.callDB, op.callName = db, name
	for _, a := range args {
		x, err := c.e.Parser.ParseExpr(a)
		if err != nil {
			return parseErr(err)
		}
		// A bare variable name may be an OUT target.
		t := spTarget{slot: -2}
		switch v := x.(type) {
		case *sqlparser.ColName:
			if v.Qualifier.IsEmpty() {
				if slot, ok := c.lookup(v.Name.String()); ok {
					t = spTarget{slot: slot}
				}
			}
		case *sqlparser.Variable:
			if v.Scope == sqlparser.VariableScope {
				t = spTarget{slot: -1, user: strings.ToLower(v.Name.String())}
			}
		}
		op.targets = append(op.targets, t)
		op.exprs = append(op.exprs, c.bind(x).(sqlparser.Expr))
	}
	return nil
}

// spDiag is a compiled GET DIAGNOSTICS: statement information (cond nil)
// or CONDITION cond's, items assigned to targets.
type spDiag struct {
	cond    sqlparser.Expr
	targets []spTarget
	items   []string
}

// getDiag compiles GET [CURRENT] DIAGNOSTICS.
func (c *spCompiler) getDiag(op *spOp, text string) error {
	g, err := parse.ParseGetDiagnostics(text)
	if err != nil {
		return spSyntax(nil, text)
	}
	if g.Stacked {
		return sqlerr.Unsupported("GET STACKED DIAGNOSTICS")
	}
	d := &spDiag{items: g.Items}
	if g.Condition != "" {
		if d.cond, err = c.expr(g.Condition); err != nil {
			return err
		}
	}
	for _, t := range g.Targets {
		if strings.HasPrefix(t, "@") {
			d.targets = append(d.targets, spTarget{slot: -1, user: strings.ToLower(t[1:])})
			continue
		}
		slot, ok := c.lookup(t)
		if !ok {
			return sqlerr.New(sqlerr.UndeclaredVar, "42000", "Undeclared variable: %s", t)
		}
		d.targets = append(d.targets, spTarget{slot: slot})
	}
	op.diag = d
	return nil
}

// specialText reports whether a body statement is one strata recognises
// from its text before Vitess's parser (Session.specialStatement): account
// statements, CHECKSUM and ANALYZE TABLE, DROP of a trigger or event.
func specialText(text string) bool {
	head := strings.ToUpper(firstWords(text, 2))
	for _, p := range []string{"CREATE USER", "DROP USER", "ALTER USER", "RENAME USER", "GRANT ", "REVOKE ",
		"SET PASSWORD", "CHECKSUM TABLE", "ANALYZE TABLE", "SHOW GRANTS"} {
		if strings.HasPrefix(head+" ", p) {
			return true
		}
	}
	if r, ok := parse.ParseRoutine(text); ok && r.Verb != "CREATE" {
		return true
	}
	return false
}

// notInRoutine returns the word MySQL's 1314 names for a statement a
// stored program may not hold (LOCK and UNLOCK TABLES, CHECK TABLE, LOAD
// DATA, ALTER VIEW), "" for others.
func notInRoutine(text string) string {
	head := strings.ToUpper(firstWords(text, 2))
	for _, w := range []string{"LOCK TABLE", "UNLOCK TABLE", "CHECK TABLE", "LOAD DATA", "LOAD XML", "ALTER VIEW"} {
		if strings.HasPrefix(head, w) {
			return strings.Fields(w)[0]
		}
	}
	return ""
}

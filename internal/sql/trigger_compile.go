package sql

import (
	"regexp"
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Compilation of trigger bodies. A body is one statement or BEGIN ... END
// around plain statements: INSERT, REPLACE, UPDATE, DELETE, SET of NEW
// columns and user variables, SIGNAL. Each statement is parsed once per
// catalog version (trigger_exec.go keeps the result), with NEW.col and
// OLD.col rewritten to bind variables the firing row fills. A body with
// stored-program control flow (DECLARE, IF, CASE, loops, labels, cursors,
// handlers) is compiled and run by the routine interpreter instead
// (routine_trigger.go).

// Statement kinds of a trigger body.
const (
	trgDML     = iota // INSERT, REPLACE, UPDATE, DELETE
	trgSet            // SET NEW.col = ..., @var = ...
	trgSignal         // SIGNAL SQLSTATE ...
	trgHandler        // DECLARE CONTINUE HANDLER FOR ... BEGIN END
)

// trgProgram is one trigger, compiled. Immutable once built: executions
// clone the statements they plan.
type trgProgram struct {
	def   *catalog.Trigger
	table *catalog.Table
	stmts []*trgStmt
	// newCols and oldCols are the columns the body reads as NEW.col and
	// OLD.col (bound per row).
	newCols, oldCols []int
	// sqlMode is the trigger's sql_mode (of its CREATE TRIGGER), the
	// flags its statements run under.
	sqlMode sqlMode
	// err is the error of a trigger that no longer compiles (its table
	// changed): firing it answers the error.
	err error
	// sp is a body with control flow, run by the routine interpreter
	// (stmts is then empty).
	sp *spProgram
}

// trgStmt is one statement of a trigger body.
type trgStmt struct {
	kind int
	// stmt is a trgDML statement.
	stmt sqlparser.Statement
	// sel computes a trgSet statement's values, one per target; a target
	// is a column of NEW (col >= 0) or a user variable (col < 0, name).
	sel     *sqlparser.Select
	targets []trgTarget
	signal  parse.Signal
	// handler is a trgHandler's conditions: the errors the statements
	// after it ignore.
	handler []trgCondition
}

// trgCondition is one condition of a handler: a MySQL error number, or a
// SQLSTATE.
type trgCondition struct {
	errno int
	state string
}

// matches reports whether err is the condition.
func (c trgCondition) matches(err error) bool {
	se, ok := err.(*sqlerror.SQLError)
	if !ok {
		return false
	}
	if c.state != "" {
		return se.SQLState() == c.state
	}
	return int(se.Number()) == c.errno
}

var reContinueHandler = regexp.MustCompile(`(?is)^DECLARE\s+CONTINUE\s+HANDLER\s+FOR\s+(.+?)\s+BEGIN\s+END$`)
var reCondition = regexp.MustCompile(`(?is)^\s*(?:(\d+)|SQLSTATE\s+(?:VALUE\s+)?'([0-9A-Z]{5})')\s*$`)

// parseContinueHandler reads DECLARE CONTINUE HANDLER FOR cond, ... BEGIN
// END, the handler pt-online-schema-change declares (errors to ignore);
// conditions are error numbers and SQLSTATE values.
func parseContinueHandler(text string) ([]trgCondition, bool) {
	m := reContinueHandler.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return nil, false
	}
	var out []trgCondition
	for _, c := range strings.Split(m[1], ",") {
		cm := reCondition.FindStringSubmatch(c)
		if cm == nil {
			return nil, false
		}
		if cm[1] != "" {
			n, err := strconv.Atoi(cm[1])
			if err != nil {
				return nil, false
			}
			out = append(out, trgCondition{errno: n})
		} else {
			out = append(out, trgCondition{state: strings.ToUpper(cm[2])})
		}
	}
	return out, true
}

type trgTarget struct {
	col  int
	name string
}

// trgArg names the bind variable of NEW.col (or OLD.col) ci.
func trgArg(isNew bool, ci int) string {
	if isNew {
		return "trg_new_" + strconv.Itoa(ci)
	}
	return "trg_old_" + strconv.Itoa(ci)
}

// compileTrigger compiles tr, a trigger of t. CREATE TRIGGER compiles the
// new trigger to answer its errors before it is stored.
func (e *Engine) compileTrigger(t *catalog.Table, tr *catalog.Trigger) (*trgProgram, error) {
	texts, err := parse.SplitBody(tr.Body)
	if err != nil {
		if _, perr := parse.ParseBody(tr.Body); perr == nil {
			return e.compileTriggerSP(t, tr)
		}
		return nil, sqlerr.Syntax("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '" + firstWords(tr.Body, 3) + "' at line 1")
	}
	p := &trgProgram{def: tr, table: t, sqlMode: parseSQLMode(tr.SQLMode)}
	seen := map[string]bool{}
	for _, text := range texts {
		st, err := e.compileTrgStmt(p, text, seen)
		if err != nil && sqlerr.From(err).Num == sqlerror.ERNotSupportedYet {
			// Stored-program control flow: the routine interpreter runs
			// the body (routine_trigger.go).
			return e.compileTriggerSP(t, tr)
		}
		if err != nil {
			return nil, err
		}
		p.stmts = append(p.stmts, st)
	}
	return p, nil
}

func (e *Engine) compileTrgStmt(p *trgProgram, text string, seen map[string]bool) (*trgStmt, error) {
	switch w := parse.FirstWord(text); w {
	case "DECLARE":
		if h, ok := parseContinueHandler(text); ok {
			return &trgStmt{kind: trgHandler, handler: h}, nil
		}
		return nil, sqlerr.Unsupported("DECLARE in a trigger body (stored-program control flow; only DECLARE CONTINUE HANDLER FOR <errors> BEGIN END)")
	case "IF", "CASE", "WHILE", "LOOP", "REPEAT", "LEAVE", "ITERATE", "OPEN", "FETCH", "CLOSE", "RETURN", "BEGIN", "RESIGNAL", "GET", "CALL":
		return nil, sqlerr.Unsupported("%s in a trigger body (stored-program control flow)", w)
	case "SIGNAL":
		sig, _, err := parse.ParseSignal(text)
		if err != nil {
			return nil, sqlerr.Unsupported("%v", err)
		}
		return &trgStmt{kind: trgSignal, signal: sig}, nil
	case "SET":
		return e.compileTrgSet(p, text, seen)
	default:
		if strings.HasSuffix(w, ":") {
			return nil, sqlerr.Unsupported("labels in a trigger body (stored-program control flow)")
		}
	}
	stmt, err := e.Parser.Parse(text)
	if err != nil {
		fixed, ok := parse.Repair(e.Parser, text)
		if !ok {
			return nil, parseErr(err)
		}
		if stmt, err = e.Parser.Parse(fixed); err != nil {
			return nil, parseErr(err)
		}
	}
	switch st := stmt.(type) {
	case *sqlparser.Insert, *sqlparser.Update, *sqlparser.Delete:
	case *sqlparser.Select:
		if st.Into == nil {
			return nil, sqlerr.New(sqlerr.SPNoRetSet, sqlerror.SSUnknownSQLState, "Not allowed to return a result set from a trigger")
		}
		return nil, sqlerr.Unsupported("SELECT ... INTO in a trigger body")
	case *sqlparser.Union:
		return nil, sqlerr.New(sqlerr.SPNoRetSet, sqlerror.SSUnknownSQLState, "Not allowed to return a result set from a trigger")
	default:
		return nil, sqlerr.Unsupported("%s in a trigger body", firstWords(text, 2))
	}
	stmt, err = p.bindRows(stmt, seen)
	if err != nil {
		return nil, err
	}
	return &trgStmt{kind: trgDML, stmt: stmt}, nil
}

// compileTrgSet compiles SET target = expr [, target = expr ...].
func (e *Engine) compileTrgSet(p *trgProgram, text string, seen map[string]bool) (*trgStmt, error) {
	body := strings.TrimSpace(text)[len("SET"):]
	st := &trgStmt{kind: trgSet, sel: &sqlparser.Select{}}
	parts, _ := parse.SplitTopLevel(body, ',')
	for _, a := range parts {
		lhs, rhs, ok := splitAssign(a)
		if !ok {
			return nil, sqlerr.Syntax("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '" + strings.TrimSpace(a) + "' at line 1")
		}
		var tg trgTarget
		switch low := strings.ToLower(lhs); {
		case strings.HasPrefix(low, "@") && !strings.HasPrefix(low, "@@"):
			tg = trgTarget{col: -1, name: strings.ToLower(unquoteVar(lhs[1:]))}
		case strings.HasPrefix(low, "new."):
			if p.def.Event == "DELETE" {
				return nil, sqlerr.New(sqlerr.TrgNoSuchRowInTrg, sqlerror.SSUnknownSQLState, "There is no NEW row in on DELETE trigger")
			}
			if p.def.Timing == "AFTER" {
				return nil, sqlerr.New(sqlerr.TrgCantChangeRow, sqlerror.SSUnknownSQLState, "Updating of NEW row is not allowed in after trigger")
			}
			name := unquoteVar(strings.TrimSpace(lhs[4:]))
			ci := p.table.ColumnIndex(name)
			if ci < 0 {
				return nil, sqlerr.New(sqlerror.ERBadFieldError, sqlerror.SSBadFieldError, "Unknown column '%s' in 'NEW'", name)
			}
			if p.table.Columns[ci].Generated != "" {
				return nil, sqlerr.Unsupported("SET NEW of a generated column")
			}
			tg = trgTarget{col: ci}
		case strings.HasPrefix(low, "old."):
			return nil, sqlerr.New(sqlerr.TrgCantChangeRow, sqlerror.SSUnknownSQLState, "Updating of OLD row is not allowed in trigger")
		default:
			return nil, sqlerr.Unsupported("SET of a system variable in a trigger body")
		}
		x, err := e.Parser.ParseExpr(rhs)
		if err != nil {
			return nil, parseErr(err)
		}
		st.targets = append(st.targets, tg)
		st.sel.SelectExprs = &sqlparser.SelectExprs{Exprs: append(selectExprList(st.sel), &sqlparser.AliasedExpr{Expr: x})}
	}
	bound, err := p.bindRows(st.sel, seen)
	if err != nil {
		return nil, err
	}
	st.sel = bound.(*sqlparser.Select)
	return st, nil
}

func selectExprList(sel *sqlparser.Select) []sqlparser.SelectExpr {
	if sel.SelectExprs == nil {
		return nil
	}
	return sel.SelectExprs.Exprs
}

// bindRows rewrites NEW.col and OLD.col in node to bind variables,
// answering MySQL's errors for a row the event does not have and for an
// unknown column.
func (p *trgProgram) bindRows(node sqlparser.SQLNode, seen map[string]bool) (sqlparser.Statement, error) {
	out, err := p.bindRowsNode(node, seen)
	if err != nil {
		return nil, err
	}
	st, ok := out.(sqlparser.Statement)
	if !ok {
		return nil, sqlerr.Unsupported("trigger statement %T", out)
	}
	return st, nil
}

// bindRowsNode is bindRows for any node (an expression of a compound
// body, routine_trigger.go).
func (p *trgProgram) bindRowsNode(node sqlparser.SQLNode, seen map[string]bool) (sqlparser.SQLNode, error) {
	var rerr error
	out := sqlparser.Rewrite(node, nil, func(cur *sqlparser.Cursor) bool {
		cn, ok := cur.Node().(*sqlparser.ColName)
		if !ok || !cn.Qualifier.Qualifier.IsEmpty() {
			return true
		}
		q := cn.Qualifier.Name.String()
		isNew := strings.EqualFold(q, "NEW")
		if !isNew && !strings.EqualFold(q, "OLD") {
			return true
		}
		if isNew && p.def.Event == "DELETE" {
			rerr = sqlerr.New(sqlerr.TrgNoSuchRowInTrg, sqlerror.SSUnknownSQLState, "There is no NEW row in on DELETE trigger")
			return false
		}
		if !isNew && p.def.Event == "INSERT" {
			rerr = sqlerr.New(sqlerr.TrgNoSuchRowInTrg, sqlerror.SSUnknownSQLState, "There is no OLD row in on INSERT trigger")
			return false
		}
		ci := p.table.ColumnIndex(cn.Name.String())
		if ci < 0 {
			rerr = sqlerr.New(sqlerror.ERBadFieldError, sqlerror.SSBadFieldError, "Unknown column '%s' in '%s'", cn.Name.String(), strings.ToUpper(q))
			return false
		}
		name := trgArg(isNew, ci)
		if !seen[name] {
			seen[name] = true
			if isNew {
				p.newCols = append(p.newCols, ci)
			} else {
				p.oldCols = append(p.oldCols, ci)
			}
		}
		cur.Replace(sqlparser.NewArgument(name))
		return true
	})
	if rerr != nil {
		return nil, rerr
	}
	return out, nil
}

// splitAssign splits "target = expr" (or :=) at its first assignment sign.
func splitAssign(a string) (lhs, rhs string, ok bool) {
	var q byte
	for i := 0; i < len(a); i++ {
		c := a[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '`' || c == '\'' || c == '"':
			q = c
		case c == ':' && i+1 < len(a) && a[i+1] == '=':
			return strings.TrimSpace(a[:i]), a[i+2:], true
		case c == '=':
			if i > 0 && strings.IndexByte("<>!", a[i-1]) >= 0 {
				continue
			}
			return strings.TrimSpace(a[:i]), a[i+1:], true
		}
	}
	return "", "", false
}

// unquoteVar removes the quotes of a quoted name (`x`, 'x' or "x").
func unquoteVar(s string) string {
	if len(s) >= 2 && (s[0] == '`' || s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		q := string(s[0])
		return strings.ReplaceAll(s[1:len(s)-1], q+q, q)
	}
	return s
}

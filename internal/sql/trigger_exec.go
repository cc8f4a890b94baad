package sql

import (
	"strings"
	"sync"
	"sync/atomic"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Firing triggers (MySQL 8.0 semantics).
//
// The write sites of INSERT, REPLACE, INSERT ... ON DUPLICATE KEY UPDATE,
// UPDATE and DELETE (single and multi-table) fire a table's BEFORE
// triggers on a row just before it is checked (CHECK constraints,
// generated columns) and written — a BEFORE INSERT or UPDATE trigger may
// change NEW — and its AFTER triggers just after the write. UPDATE fires
// both for every matched row, changed or not, as MySQL does. REPLACE fires
// BEFORE INSERT, then the DELETE triggers of each row it replaces, then
// AFTER INSERT; ON DUPLICATE KEY UPDATE fires BEFORE INSERT, then the
// UPDATE triggers of the existing row. Foreign-key cascades fire none (as
// InnoDB). The trigger's statements run in the statement's transaction,
// so an error in one fails the triggering statement, which changes
// nothing. A trigger may not change a table whose triggers are running
// (1442).

// trgCache holds the compiled triggers of the latest catalog version:
// read with an atomic load on every statement that writes rows, rebuilt
// under mu after a DDL.
type trgCache struct {
	mu  sync.Mutex
	reg atomic.Pointer[trgRegistry]
}

// trgRegistry is the compiled triggers of one catalog version, by table.
type trgRegistry struct {
	version uint64
	byTable map[*catalog.Table]*tableTriggers
}

// tableTriggers is one table's triggers by timing and event (trgSlot).
type tableTriggers struct {
	progs [6][]*trgProgram
}

// Timings and events of trgSlot.
const (
	trgBefore = 0
	trgAfter  = 3
	trgInsert = 0
	trgUpdate = 1
	trgDelete = 2
)

// trgSlot is the index into tableTriggers.progs of a timing and an event.
func trgSlot(timing, event string) int {
	n := trgInsert
	switch event {
	case "UPDATE":
		n = trgUpdate
	case "DELETE":
		n = trgDelete
	}
	if timing == "AFTER" {
		n += trgAfter
	}
	return n
}

// triggers returns the registry of the current catalog version.
func (e *Engine) triggers() *trgRegistry {
	v := e.Cat.Version()
	if r := e.trgs.reg.Load(); r != nil && r.version == v {
		return r
	}
	e.trgs.mu.Lock()
	defer e.trgs.mu.Unlock()
	if r := e.trgs.reg.Load(); r != nil && r.version == v {
		return r
	}
	r := &trgRegistry{version: v}
	for _, db := range e.Cat.Databases() {
		for _, t := range e.Cat.Tables(db) {
			if len(t.Triggers) == 0 {
				continue
			}
			tt := &tableTriggers{}
			for i := range t.Triggers {
				tr := &t.Triggers[i]
				p, err := e.compileTrigger(t, tr)
				if err != nil {
					// The table changed under the trigger (a dropped
					// column): firing it answers the error.
					p = &trgProgram{def: tr, table: t, err: err}
				}
				slot := trgSlot(tr.Timing, tr.Event)
				tt.progs[slot] = append(tt.progs[slot], p)
			}
			if r.byTable == nil {
				r.byTable = map[*catalog.Table]*tableTriggers{}
			}
			r.byTable[t] = tt
		}
	}
	e.trgs.reg.Store(r)
	return r
}

// trgFor returns t's triggers, nil when it has none. Without triggers in
// the catalog it costs an atomic load.
func (s *Session) trgFor(t *catalog.Table) *tableTriggers {
	r := s.eng.triggers()
	if r.byTable == nil {
		return nil
	}
	return r.byTable[t]
}

// fire runs tt's triggers of one slot on a row: old is the row before
// (nil for INSERT), row the row after (nil for DELETE), which BEFORE
// triggers may change.
func (s *Session) fire(ex *execCtx, tt *tableTriggers, slot int, old, row Row) error {
	if tt == nil || len(tt.progs[slot]) == 0 {
		return nil
	}
	progs := tt.progs[slot]
	s.trgActive = append(s.trgActive, progs[0].table)
	defer func() { s.trgActive = s.trgActive[:len(s.trgActive)-1] }()
	for _, p := range progs {
		if err := s.runTrigger(ex, p, old, row); err != nil {
			return err
		}
	}
	return nil
}

// runTrigger runs one trigger's statements on a row.
func (s *Session) runTrigger(ex *execCtx, p *trgProgram, old, row Row) error {
	if p.err != nil {
		return p.err
	}
	s.tl.sub++
	defer func() { s.tl.sub-- }()
	bv := make(map[string]*querypb.BindVariable, len(p.newCols)+len(p.oldCols))
	for _, ci := range p.newCols {
		v := row[ci]
		if v.IsNull() && ci == p.table.AutoIncCol && p.def.Event == "INSERT" && p.def.Timing == "BEFORE" {
			v = sqltypes.NewInt64(0) // MySQL: not generated yet
		}
		bv[trgArg(true, ci)] = sqltypes.ValueBindVariable(v)
	}
	for _, ci := range p.oldCols {
		bv[trgArg(false, ci)] = sqltypes.ValueBindVariable(old[ci])
	}
	// The body runs in the trigger's schema under the sql_mode flags it
	// was created with; LAST_INSERT_ID() is the statement's again
	// afterwards.
	savedDB, savedID, savedMode := s.DB, s.lastInsertID, s.sqlMode
	s.DB, s.sqlMode = p.table.DB, p.sqlMode
	defer func() { s.DB, s.lastInsertID, s.sqlMode = savedDB, savedID, savedMode }()
	definer, err := s.definerSubject(p)
	if err != nil {
		return err
	}
	if p.sp != nil {
		return s.runTriggerSP(ex, p, row, bv, definer)
	}
	var handlers []trgCondition
	for _, st := range p.stmts {
		var err error
		switch st.kind {
		case trgHandler:
			handlers = append(handlers, st.handler...)
		case trgSignal:
			err = s.signal(st.signal)
		case trgSet:
			err = s.runTrgSet(ex, p, st, row, bv, definer)
		default:
			err = s.runTrgDML(ex, st, bv, definer)
		}
		if err != nil && !handled(handlers, err) {
			return err
		}
	}
	return nil
}

// handled reports whether a CONTINUE handler takes err: the trigger goes
// on with its next statement.
func handled(hs []trgCondition, err error) bool {
	if len(hs) == 0 {
		return false
	}
	err = sqlerr.From(err)
	for _, h := range hs {
		if h.matches(err) {
			return true
		}
	}
	return false
}

// definerSubject is the account a trigger's statements run as: nil (every
// privilege) for root, else its definer's grants, which must include
// TRIGGER on the table (MySQL checks both when a trigger fires). A
// definer that no longer exists is 1449.
func (s *Session) definerSubject(p *trgProgram) (*privilege.Subject, error) {
	d := p.def.Definer
	i := strings.LastIndexByte(d, '@')
	if i < 0 {
		return nil, nil
	}
	user, host := d[:i], d[i+1:]
	if user == "root" || user == "" {
		return nil, nil
	}
	u := s.eng.Cat.User(user, host)
	if u == nil {
		return nil, sqlerr.New(sqlerr.NoSuchUser, sqlerror.SSUnknownSQLState, "The user specified as a definer ('%s'@'%s') does not exist", user, host)
	}
	sub := &privilege.Subject{User: user, Host: host, AccountHost: host, Password: u.HasPassword(), Grants: privilege.FromUser(u)}
	if err := sub.Check(privilege.OnTable(privilege.Trigger, p.table.DB, p.table.Name)); err != nil {
		return nil, err
	}
	return sub, nil
}

// authorizeAs checks a trigger statement's privileges for the definer
// (nil: root).
func (s *Session) authorizeAs(sub *privilege.Subject, stmt sqlparser.Statement) error {
	if sub == nil {
		return nil
	}
	needs, err := s.statementNeeds(stmt, "")
	if err != nil {
		return err
	}
	return checkNeeds(sub, needs)
}

// runTrgSet evaluates a SET statement's values and assigns them.
func (s *Session) runTrgSet(ex *execCtx, p *trgProgram, st *trgStmt, row Row, bv map[string]*querypb.BindVariable, definer *privilege.Subject) error {
	sel := sqlparser.Clone(st.sel)
	if err := s.authorizeAs(definer, sel); err != nil {
		return err
	}
	qp, err := s.planQuery(ex.Context(), sel, nil)
	if err != nil {
		return err
	}
	ex2 := s.newExecCtx(ex.Context(), ex.tx, s.bindSessionVars(qp.bindVars(), copyBV(bv)))
	res, err := qp.run(ex2)
	if err != nil {
		return err
	}
	if len(res.Rows) != 1 {
		return sqlerr.New(sqlerror.ERSubqueryNo1Row, "21000", "Subquery returns more than 1 row")
	}
	for i, tg := range st.targets {
		v := res.Rows[0][i]
		if tg.col < 0 {
			s.userVars[tg.name] = cloneValue(v)
			continue
		}
		c := &p.table.Columns[tg.col]
		if v.IsNull() {
			if !c.Nullable && tg.col != p.table.AutoIncCol {
				return sqlerr.New(sqlerror.ERBadNullError, sqlerror.SSConstraintViolation, "Column '%s' cannot be null", c.Name)
			}
		} else {
			cv, w, err := coltype.ConvertIn(c, v, s.strict(), 1, s.zoneOf(c))
			if err != nil {
				return err
			}
			if w != nil {
				s.warn(w.Level, w.Code, w.Message)
			}
			v = cv
		}
		row[tg.col] = cloneValue(v)
		if name := trgArg(true, tg.col); bv[name] != nil {
			bv[name] = sqltypes.ValueBindVariable(row[tg.col])
		}
	}
	return nil
}

// copyBV copies a bind-variable map (the statements a trigger runs add
// the session's values to theirs).
func copyBV(bv map[string]*querypb.BindVariable) map[string]*querypb.BindVariable {
	out := make(map[string]*querypb.BindVariable, len(bv)+4)
	for k, v := range bv {
		out[k] = v
	}
	return out
}

// refuseTriggeringTable answers 1442 when stmt (a trigger's or stored
// function's INSERT, UPDATE or DELETE) writes a table whose triggers are
// running for the statement that invoked it.
func (s *Session) refuseTriggeringTable(stmt sqlparser.Statement) error {
	for _, tn := range trgTargets(stmt) {
		db := tn.Qualifier.String()
		if db == "" {
			db = s.DB
		}
		for _, t := range s.trgActive {
			if strings.EqualFold(t.DB, db) && strings.EqualFold(t.Name, tn.Name.String()) {
				return sqlerr.New(sqlerr.CantUpdateUsedTable, sqlerror.SSUnknownSQLState, "Can't update table '%s' in stored function/trigger because it is already used by statement which invoked this stored function/trigger", t.Name)
			}
		}
	}
	return nil
}

// runTrgDML runs an INSERT, REPLACE, UPDATE or DELETE of a trigger body.
func (s *Session) runTrgDML(ex *execCtx, st *trgStmt, bv map[string]*querypb.BindVariable, definer *privilege.Subject) error {
	stmt := sqlparser.Clone(st.stmt)
	if err := s.authorizeAs(definer, stmt); err != nil {
		return err
	}
	if err := s.refuseTriggeringTable(stmt); err != nil {
		return err
	}
	ex2 := s.newExecCtx(ex.Context(), ex.tx, copyBV(bv))
	var err error
	switch x := stmt.(type) {
	case *sqlparser.Insert:
		_, err = s.execInsert(ex2, x)
	case *sqlparser.Update:
		_, err = s.execUpdate(ex2, x)
	case *sqlparser.Delete:
		_, err = s.execDelete(ex2, x)
	}
	return err
}

// trgTargets names the tables a DML statement writes (for multi-table
// statements, every table it names).
func trgTargets(stmt sqlparser.Statement) []sqlparser.TableName {
	var exprs []sqlparser.TableExpr
	switch x := stmt.(type) {
	case *sqlparser.Insert:
		if tn, err := x.Table.TableName(); err == nil {
			return []sqlparser.TableName{tn}
		}
		return nil
	case *sqlparser.Update:
		exprs = x.TableExprs
	case *sqlparser.Delete:
		exprs = x.TableExprs
	}
	var out []sqlparser.TableName
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch a := n.(type) {
		case *sqlparser.AliasedTableExpr:
			if tn, ok := a.Expr.(sqlparser.TableName); ok {
				out = append(out, tn)
			}
			return false, nil
		case *sqlparser.Subquery:
			return false, nil
		}
		return true, nil
	}, sqlparser.TableExprs(exprs))
	return out
}

// updateNulls applies UPDATE's NOT NULL rule to the assigned columns of a
// row the BEFORE UPDATE triggers left: 1048 in strict mode, else a
// warning and the type's implicit default.
func (s *Session) updateNulls(t *catalog.Table, row Row, cols []int, ignore bool) error {
	for _, ci := range cols {
		c := &t.Columns[ci]
		if !row[ci].IsNull() || c.Nullable {
			continue
		}
		if s.strict() && !ignore {
			return sqlerr.New(sqlerror.ERBadNullError, sqlerror.SSConstraintViolation, "Column '%s' cannot be null", c.Name)
		}
		s.warn("Warning", uint16(sqlerror.ERBadNullError), "Column '"+c.Name+"' cannot be null")
		row[ci] = coltype.ImplicitDefault(c)
	}
	return nil
}

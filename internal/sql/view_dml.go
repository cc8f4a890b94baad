package sql

import (
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// INSERT, UPDATE and DELETE through a view. A view is updatable when its
// query is one SELECT without DISTINCT, GROUP BY, HAVING, LIMIT, aggregates,
// window functions or subqueries in its select list, reading tables only,
// and its algorithm is not TEMPTABLE (MySQL's rule). strata writes through
// updatable views that read one table (or one such view): the statement is
// rewritten onto the base table — the view's columns replaced by the
// expressions they select, the view's WHERE added to the statement's —
// and run as written on that table. A view over a join answers 1235.
//
// WITH CHECK OPTION: the rows the statement writes must satisfy the view's
// WHERE (LOCAL) or the WHEREs of the view and every view under it
// (CASCADED; the default), else 1369 "CHECK OPTION failed". The conditions
// are compiled with the base table's CHECK constraints (check_enforce.go)
// while the rewritten statement runs (Session.viewChecks).

// viewCheckPrefix marks a view's condition among CHECK constraint names.
const viewCheckPrefix = "\x00view:"

// viewCheck is the CHECK OPTION conditions a DML statement through a view
// enforces on its base table's rows.
type viewCheck struct {
	db, table string
	// names are "db.view" per condition, the view whose check fails.
	names []string
	exprs []sqlparser.Expr
}

// applies reports whether the conditions are on t's rows.
func (vc *viewCheck) applies(t *catalog.Table) bool {
	return vc != nil && len(vc.exprs) > 0 && vc.db == t.DB && vc.table == t.Name
}

// viewCheckFailed is 1369 for "db.view".
func viewCheckFailed(name string) error {
	return sqlerr.New(sqlerr.ViewCheckFailed, sqlerror.SSUnknownSQLState, "CHECK OPTION failed '%s'", name)
}

// viewMergeable reports whether a view's query is updatable in MySQL's
// sense (see the top of this file), joins allowed.
func viewMergeable(sel sqlparser.TableStatement) bool {
	p, ok := sel.(*sqlparser.Select)
	if !ok || p.Distinct || p.GroupBy != nil || p.Having != nil || p.Limit != nil || len(p.Windows) > 0 || p.With != nil || p.SelectExprs == nil {
		return false
	}
	if len(p.From) == 0 {
		return false
	}
	tables := 0
	okFrom := true
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *sqlparser.DerivedTable, *sqlparser.JSONTableExpr:
			okFrom = false
		case sqlparser.TableName:
			if x.Name.String() == "dual" && x.Qualifier.IsEmpty() {
				okFrom = false
			}
			tables++
		case *sqlparser.Subquery:
			return false, nil
		}
		return okFrom, nil
	}, sqlparser.TableExprs(p.From))
	if !okFrom || tables == 0 {
		return false
	}
	for _, e := range p.SelectExprs.Exprs {
		ae, ok := e.(*sqlparser.AliasedExpr)
		if !ok {
			return false
		}
		bad := false
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
			switch n.(type) {
			case *sqlparser.Subquery, *sqlparser.OverClause:
				bad = true
			case sqlparser.AggrFunc:
				bad = true
			}
			return !bad, nil
		}, ae.Expr)
		if bad {
			return false
		}
	}
	return true
}

// viewUpdatable reports whether INSERT, UPDATE and DELETE may write through
// a view with this query in MySQL (information_schema.VIEWS.IS_UPDATABLE;
// CHECK OPTION needs it).
func viewUpdatable(v *catalog.View, sel sqlparser.TableStatement) bool {
	return v.Algorithm != "TEMPTABLE" && viewMergeable(sel)
}

// viewTarget is a view resolved down to the base table a DML statement
// writes.
type viewTarget struct {
	base *catalog.Table
	// exprs maps a view column (lower case) to the expression it selects,
	// over the base table (columns qualified with its name).
	exprs map[string]sqlparser.Expr
	// where is the conjunction of the WHEREs of the view and the views
	// under it (nil: none).
	where sqlparser.Expr
	// checks are the CHECK OPTION conditions, checkNames their views.
	checks     []sqlparser.Expr
	checkNames []string
}

// errViewNotUpdatable: the view cannot be written through (the caller
// answers 1288 or 1471 naming the view the statement named).
type errViewNotUpdatable struct{}

func (errViewNotUpdatable) Error() string { return "view not updatable" }

// errViewJoin: the view is updatable in MySQL but reads a join.
type errViewJoin struct{}

func (errViewJoin) Error() string { return "view over a join" }

// resolveViewTarget resolves v for writing through it. cascade: a view
// above has WITH CASCADED CHECK OPTION, so v's WHERE is checked too.
func (s *Session) resolveViewTarget(v *catalog.View, cascade bool, depth int) (*viewTarget, error) {
	if depth > maxViewDepth {
		return nil, sqlerr.New(sqlerr.ViewRecursive, sqlerror.SSUnknownSQLState, "`%s`.`%s` contains view recursion", v.DB, v.Name)
	}
	sel, err := s.parseViewQuery(v)
	if err != nil {
		return nil, err
	}
	if !viewUpdatable(v, sel) {
		return nil, errViewNotUpdatable{}
	}
	p := sel.(*sqlparser.Select)
	a, ok := p.From[0].(*sqlparser.AliasedTableExpr)
	if len(p.From) != 1 || !ok {
		return nil, errViewJoin{}
	}
	tn := a.Expr.(sqlparser.TableName)
	alias := tn.Name.String()
	if a.As.NotEmpty() {
		alias = a.As.String()
	}
	db := tn.Qualifier.String()
	var lower *viewTarget
	if t := s.eng.Cat.Table(db, tn.Name.String()); t != nil {
		if s.tempTable(db, t.Name) != nil {
			return nil, sqlerr.Unsupported("writing through a view whose table a TEMPORARY table shadows")
		}
		lower = &viewTarget{base: t, exprs: map[string]sqlparser.Expr{}}
		for _, c := range t.Columns {
			lower.exprs[strings.ToLower(c.Name)] = &sqlparser.ColName{Name: sqlparser.NewIdentifierCI(c.Name), Qualifier: sqlparser.TableName{Name: sqlparser.NewIdentifierCS(t.Name)}}
		}
	} else if under := s.eng.Cat.View(db, tn.Name.String()); under != nil {
		if lower, err = s.resolveViewTarget(under, cascade || v.CheckOption == "CASCADED", depth+1); err != nil {
			return nil, err
		}
	} else {
		return nil, viewErrInvalid(v.DB, v.Name)
	}
	out := &viewTarget{base: lower.base, exprs: map[string]sqlparser.Expr{}, where: lower.where,
		checks: lower.checks, checkNames: lower.checkNames}
	if len(p.SelectExprs.Exprs) != len(v.Columns) {
		return nil, viewErrInvalid(v.DB, v.Name)
	}
	for i, e := range p.SelectExprs.Exprs {
		x, err := substViewCols(e.(*sqlparser.AliasedExpr).Expr, alias, lower.exprs, "field list")
		if err != nil {
			return nil, viewErrInvalid(v.DB, v.Name)
		}
		out.exprs[strings.ToLower(v.Columns[i])] = x
	}
	if p.Where != nil {
		w, err := substViewCols(p.Where.Expr, alias, lower.exprs, "where clause")
		if err != nil {
			return nil, viewErrInvalid(v.DB, v.Name)
		}
		out.where = andExpr(out.where, w)
		if v.CheckOption != "" || cascade {
			out.checks = append(out.checks, w)
			out.checkNames = append(out.checkNames, v.DB+"."+v.Name)
		}
	}
	return out, nil
}

func andExpr(a, b sqlparser.Expr) sqlparser.Expr {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	return &sqlparser.AndExpr{Left: a, Right: b}
}

// substViewCols replaces, in a copy of e, the column references to a
// view's columns (unqualified or qualified with alias) by the expressions
// m gives them; subqueries are left as they are. A column the view lacks
// is 1054 in clause where.
func substViewCols(e sqlparser.Expr, alias string, m map[string]sqlparser.Expr, where string) (sqlparser.Expr, error) {
	var err error
	out := sqlparser.Rewrite(sqlparser.Clone(e), func(cur *sqlparser.Cursor) bool {
		switch x := cur.Node().(type) {
		case *sqlparser.Subquery:
			return false
		case *sqlparser.ColName:
			if !x.Qualifier.IsEmpty() && (x.Qualifier.Name.String() != alias || !x.Qualifier.Qualifier.IsEmpty()) {
				return false
			}
			r, ok := m[x.Name.Lowered()]
			if !ok {
				if err == nil {
					err = sqlerr.BadField(sqlparser.String(x), where)
				}
				return false
			}
			cur.Replace(sqlparser.Clone(r))
			return false
		}
		return true
	}, nil)
	if err != nil {
		return nil, err
	}
	return out.(sqlparser.Expr), nil
}

// dmlView returns the view a DML statement's table expression names, or
// nil.
func (s *Session) dmlView(te sqlparser.TableExpr) (*catalog.View, string) {
	a, ok := te.(*sqlparser.AliasedTableExpr)
	if !ok {
		return nil, ""
	}
	tn, ok := a.Expr.(sqlparser.TableName)
	if !ok {
		return nil, ""
	}
	v := s.lookupView(tn)
	if v == nil {
		return nil, ""
	}
	alias := tn.Name.String()
	if a.As.NotEmpty() {
		alias = a.As.String()
	}
	return v, alias
}

// viewsIn reports whether a multi-table statement's tables name a view.
func (s *Session) viewsIn(tes []sqlparser.TableExpr) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *sqlparser.Subquery, *sqlparser.DerivedTable:
			return false, nil
		case *sqlparser.AliasedTableExpr:
			if tn, ok := x.Expr.(sqlparser.TableName); ok && s.lookupView(tn) != nil {
				found = true
			}
		}
		return !found, nil
	}, sqlparser.TableExprs(tes))
	return found
}

// viewDMLError turns a resolution error into the error the statement
// answers.
func viewDMLError(err error, v *catalog.View, op string) error {
	switch err.(type) {
	case errViewNotUpdatable:
		if op == "INSERT" {
			return sqlerr.New(sqlerr.NonInsertableTable, sqlerror.SSUnknownSQLState, "The target table %s of the INSERT is not insertable-into", v.Name)
		}
		return sqlerr.New(sqlerror.ERNonUpdateableTable, sqlerror.SSUnknownSQLState, "The target table %s of the %s is not updatable", v.Name, op)
	case errViewJoin:
		return sqlerr.Unsupported("%s through a view over a join", op)
	}
	return err
}

// baseTableExpr is the rewritten statement's table: the base table under
// its own name.
func baseTableExpr(t *catalog.Table) *sqlparser.AliasedTableExpr {
	return &sqlparser.AliasedTableExpr{Expr: sqlparser.TableName{Qualifier: sqlparser.NewIdentifierCS(t.DB), Name: sqlparser.NewIdentifierCS(t.Name)}}
}

// runWithViewChecks runs a rewritten statement with the target's CHECK
// OPTION conditions enforced.
func (s *Session) runWithViewChecks(tgt *viewTarget, run func() (*sqltypes.Result, error)) (*sqltypes.Result, error) {
	if len(tgt.checks) == 0 {
		return run()
	}
	vc := &viewCheck{db: tgt.base.DB, table: tgt.base.Name, names: tgt.checkNames, exprs: tgt.checks}
	saved := s.viewChecks
	s.viewChecks = vc
	defer func() { s.viewChecks = saved }()
	return run()
}

// updateView runs an UPDATE whose single table is a view; ok is false when
// it is not one.
func (s *Session) updateView(ex *execCtx, st *sqlparser.Update) (res *sqltypes.Result, ok bool, err error) {
	if len(st.TableExprs) != 1 {
		if s.viewsIn(st.TableExprs) {
			return nil, true, sqlerr.Unsupported("multi-table UPDATE involving a view")
		}
		return nil, false, nil
	}
	v, alias := s.dmlView(st.TableExprs[0])
	if v == nil {
		if !isAliasedTable(st.TableExprs[0]) && s.viewsIn(st.TableExprs) {
			return nil, true, sqlerr.Unsupported("multi-table UPDATE involving a view")
		}
		return nil, false, nil
	}
	tgt, err := s.resolveViewTarget(v, false, 0)
	if err != nil {
		return nil, true, viewDMLError(err, v, "UPDATE")
	}
	out := sqlparser.Clone(st)
	out.TableExprs = []sqlparser.TableExpr{baseTableExpr(tgt.base)}
	for _, ue := range out.Exprs {
		if !ue.Name.Qualifier.IsEmpty() && ue.Name.Qualifier.Name.String() != alias {
			return nil, true, sqlerr.BadField(sqlparser.String(ue.Name), "field list")
		}
		x, found := tgt.exprs[ue.Name.Name.Lowered()]
		if !found {
			return nil, true, sqlerr.BadField(sqlparser.String(ue.Name), "field list")
		}
		col, plain := x.(*sqlparser.ColName)
		if !plain {
			return nil, true, sqlerr.New(sqlerr.NonUpdatableColumn, sqlerror.SSUnknownSQLState, "Column '%s' is not updatable", ue.Name.Name.String())
		}
		ue.Name = sqlparser.Clone(col)
		if _, isDef := ue.Expr.(*sqlparser.Default); !isDef {
			if ue.Expr, err = substViewCols(ue.Expr, alias, tgt.exprs, "field list"); err != nil {
				return nil, true, err
			}
		}
	}
	if err := s.rewriteViewWhere(&out.Where, &out.OrderBy, alias, tgt); err != nil {
		return nil, true, err
	}
	if err := s.checkViewDML(v, out); err != nil {
		return nil, true, err
	}
	res, err = s.runWithViewChecks(tgt, func() (*sqltypes.Result, error) { return s.execUpdate(ex, out) })
	return res, true, err
}

// rewriteViewWhere rewrites a DML statement's WHERE and ORDER BY onto the
// base table and adds the view's WHERE.
func (s *Session) rewriteViewWhere(where **sqlparser.Where, orderBy *sqlparser.OrderBy, alias string, tgt *viewTarget) error {
	var cond sqlparser.Expr
	if *where != nil && (*where).Expr != nil {
		w, err := substViewCols((*where).Expr, alias, tgt.exprs, "where clause")
		if err != nil {
			return err
		}
		cond = w
	}
	if tgt.where != nil {
		// The view's rows first: the statement's own condition is
		// evaluated only on them.
		cond = andExpr(sqlparser.Clone(tgt.where), cond)
	}
	if cond != nil {
		*where = &sqlparser.Where{Type: sqlparser.WhereClause, Expr: cond}
	}
	for _, o := range *orderBy {
		x, err := substViewCols(o.Expr, alias, tgt.exprs, "order clause")
		if err != nil {
			return err
		}
		o.Expr = x
	}
	return nil
}

// deleteView runs a DELETE whose single table is a view; ok is false when
// it is not one.
func (s *Session) deleteView(ex *execCtx, st *sqlparser.Delete) (res *sqltypes.Result, ok bool, err error) {
	if len(st.Targets) > 0 || len(st.TableExprs) != 1 || !isAliasedTable(st.TableExprs[0]) {
		if s.viewsIn(st.TableExprs) {
			return nil, true, sqlerr.Unsupported("multi-table DELETE involving a view")
		}
		return nil, false, nil
	}
	v, alias := s.dmlView(st.TableExprs[0])
	if v == nil {
		return nil, false, nil
	}
	tgt, err := s.resolveViewTarget(v, false, 0)
	if err != nil {
		return nil, true, viewDMLError(err, v, "DELETE")
	}
	out := sqlparser.Clone(st)
	out.TableExprs = []sqlparser.TableExpr{baseTableExpr(tgt.base)}
	if err := s.rewriteViewWhere(&out.Where, &out.OrderBy, alias, tgt); err != nil {
		return nil, true, err
	}
	if err := s.checkViewDML(v, out); err != nil {
		return nil, true, err
	}
	res, err = s.execDelete(ex, out)
	return res, true, err
}

// insertView runs an INSERT or REPLACE into a view; ok is false when the
// table is not one.
func (s *Session) insertView(ex *execCtx, st *sqlparser.Insert) (res *sqltypes.Result, ok bool, err error) {
	v, alias := s.dmlView(st.Table)
	if v == nil {
		return nil, false, nil
	}
	tgt, err := s.resolveViewTarget(v, false, 0)
	if err != nil {
		return nil, true, viewDMLError(err, v, "INSERT")
	}
	// Every column of an insertable view is a base column, each once.
	seen := map[string]bool{}
	for _, c := range v.Columns {
		col, plain := tgt.exprs[strings.ToLower(c)].(*sqlparser.ColName)
		if !plain || seen[col.Name.Lowered()] {
			return nil, true, viewDMLError(errViewNotUpdatable{}, v, "INSERT")
		}
		seen[col.Name.Lowered()] = true
	}
	if st.RowAlias != nil {
		return nil, true, sqlerr.Unsupported("INSERT ... AS row alias into a view")
	}
	out := sqlparser.Clone(st)
	out.Table = baseTableExpr(tgt.base)
	out.Partitions = nil
	names := st.Columns
	if len(names) == 0 {
		for _, c := range v.Columns {
			names = append(names, sqlparser.NewIdentifierCI(c))
		}
	}
	out.Columns = make(sqlparser.Columns, len(names))
	for i, c := range names {
		x, found := tgt.exprs[c.Lowered()]
		if !found {
			return nil, true, sqlerr.BadField(c.String(), "field list")
		}
		out.Columns[i] = x.(*sqlparser.ColName).Name
	}
	for _, ue := range out.OnDup {
		x, found := tgt.exprs[ue.Name.Name.Lowered()]
		if !found {
			return nil, true, sqlerr.BadField(sqlparser.String(ue.Name), "field list")
		}
		ue.Name = sqlparser.Clone(x.(*sqlparser.ColName))
		if ue.Expr, err = substViewCols(ue.Expr, alias, tgt.exprs, "field list"); err != nil {
			return nil, true, err
		}
	}
	if err := s.checkViewDML(v, out); err != nil {
		return nil, true, err
	}
	res, err = s.runWithViewChecks(tgt, func() (*sqltypes.Result, error) { return s.execInsert(ex, out) })
	return res, true, err
}

func isAliasedTable(te sqlparser.TableExpr) bool {
	_, ok := te.(*sqlparser.AliasedTableExpr)
	return ok
}

// checkViewDML checks that who a view's statement runs as may run its
// rewritten form on the base table: the session (SQL SECURITY INVOKER:
// MySQL's 1142 naming the table) or the definer (DEFINER: 1356; root
// holds every privilege; a missing definer is 1449).
func (s *Session) checkViewDML(v *catalog.View, out sqlparser.Statement) error {
	if v.Security == "INVOKER" {
		return s.authorize(out, "")
	}
	if v.DefinerUser == "root" || v.DefinerUser == "" {
		return nil
	}
	u := s.eng.Cat.User(v.DefinerUser, v.DefinerHost)
	if u == nil {
		return sqlerr.New(sqlerror.ERNoSuchUser, sqlerror.SSUnknownSQLState, "The user specified as a definer ('%s'@'%s') does not exist", v.DefinerUser, v.DefinerHost)
	}
	needs, err := s.statementNeeds(out, "")
	if err != nil {
		return err
	}
	if err := checkNeeds(definerSubject(u), needs); err != nil {
		return viewErrInvalid(v.DB, v.Name)
	}
	return nil
}

package sql

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/schemachange"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Views: CREATE [OR REPLACE] VIEW, ALTER VIEW and DROP VIEW, and the
// expansion of a view's name in a FROM clause into a derived table over
// its stored query.
//
// A view's query is stored as canonical text (catalog.View.Select): every
// table name qualified with its database, so the text means the same
// whatever database the reader has selected, identifiers quoted and select
// expressions named with AS, as MySQL stores and prints it. Its column
// names are stored beside it and name the derived table's columns, so a
// base table that gains columns later does not change the view.

// maxViewDepth bounds the nesting of views in views (MySQL has no fixed
// limit; a view can only name views that existed when it was created, so a
// cycle needs CREATE OR REPLACE, and is caught before this bound by the
// expansion stack).
const maxViewDepth = 64

// viewErrInvalid is 1356 for db.name.
func viewErrInvalid(db, name string) error {
	return sqlerr.New(sqlerr.ViewInvalid, sqlerror.SSUnknownSQLState,
		"View '%s.%s' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them", db, name)
}

// notView is 1347: the name is a base table.
func notView(db, name string) error {
	return sqlerr.New(sqlerr.WrongObject, sqlerror.SSUnknownSQLState, "'%s.%s' is not VIEW", db, name)
}

// viewDDL holds what CREATE VIEW and ALTER VIEW share.
type viewDDL struct {
	name        sqlparser.TableName
	algorithm   string
	definer     *sqlparser.Definer
	security    string
	columns     sqlparser.Columns
	sel         sqlparser.TableStatement
	checkOption string
	replace     bool
	alter       bool
}

func (s *Session) createView(ctx context.Context, st *sqlparser.CreateView) (*sqltypes.Result, error) {
	return s.defineView(ctx, viewDDL{name: st.ViewName, algorithm: st.Algorithm, definer: st.Definer,
		security: st.Security, columns: st.Columns, sel: st.Select, checkOption: st.CheckOption, replace: st.IsReplace})
}

func (s *Session) alterView(ctx context.Context, st *sqlparser.AlterView) (*sqltypes.Result, error) {
	return s.defineView(ctx, viewDDL{name: st.ViewName, algorithm: st.Algorithm, definer: st.Definer,
		security: st.Security, columns: st.Columns, sel: st.Select, checkOption: st.CheckOption, alter: true})
}

// defineView creates, replaces or alters a view.
func (s *Session) defineView(ctx context.Context, d viewDDL) (*sqltypes.Result, error) {
	db, name, err := s.newTableName(d.name)
	if err != nil {
		return nil, err
	}
	if err := checkViewQuery(d.sel); err != nil {
		return nil, err
	}
	if err := s.viewNameFree(db, name, d); err != nil {
		return nil, err
	}
	v := &catalog.View{DB: db, Name: name, Algorithm: "UNDEFINED", Security: "DEFINER",
		CheckOption: strings.ToUpper(d.checkOption), CreateTime: time.Now().Unix()}
	if a := strings.ToUpper(d.algorithm); a != "" {
		v.Algorithm = a
	}
	if sec := strings.ToUpper(d.security); sec != "" {
		v.Security = sec
	}
	if d.alter {
		// ALTER VIEW keeps nothing of the old definition but what it
		// does not name: MySQL resets the algorithm and security to their
		// defaults too, and keeps only the definer when none is given.
		if old := s.eng.Cat.View(db, name); old != nil && d.definer == nil {
			v.DefinerUser, v.DefinerHost = old.DefinerUser, old.DefinerHost
		}
	}
	if err := s.setDefiner(v, d.definer); err != nil {
		return nil, err
	}
	if v.DefinerUser != "root" && s.eng.Cat.User(v.DefinerUser, v.DefinerHost) == nil {
		s.warn("Note", uint16(sqlerror.ERNoSuchUser), fmt.Sprintf("The user specified as a definer ('%s'@'%s') does not exist", v.DefinerUser, v.DefinerHost))
	}
	cs, _ := s.sysVar("character_set_client")
	cc, _ := s.sysVar("collation_connection")
	v.CharsetClient, v.CollationConnection = cs.ToString(), cc.ToString()

	// Unqualified names in the query are in the current database (not
	// necessarily the view's), as MySQL resolves them.
	sel := sqlparser.Clone(d.sel)
	if s.DB != "" {
		qualifyTables(sel, s.DB)
	}
	if err := s.noTempTables(sel); err != nil {
		return nil, err
	}
	cols, selNames, err := s.planViewColumns(ctx, sel, d.columns)
	if err != nil {
		return nil, err
	}
	v.Columns, v.ExplicitColumns = cols, len(d.columns) > 0
	s.canonicalizeView(sel, selNames)
	v.Select = viewText(sel, "")
	if v.CheckOption != "" && !viewUpdatable(v, sel) {
		return nil, sqlerr.New(sqlerr.ViewNonUpdCheck, sqlerror.SSUnknownSQLState, "CHECK OPTION on non-updatable view '%s.%s'", db, name)
	}
	err = schemachange.Apply(s.eng.Cat, s.ddlHook(), func(dd *catalog.DDL) error {
		// Again under the DDL mutex: a table or view of the name may have
		// been created meanwhile.
		if err := s.viewNameFree(db, name, d); err != nil {
			return err
		}
		return dd.PutView(v)
	})
	if err != nil {
		return nil, err
	}
	return &sqltypes.Result{}, nil
}

// viewNameFree checks that db.name may be (re)defined as a view.
func (s *Session) viewNameFree(db, name string, d viewDDL) error {
	if s.eng.Cat.Table(db, name) != nil {
		if d.replace || d.alter {
			return notView(db, name)
		}
		return sqlerr.New(sqlerr.TableExists, sqlerr.StateTableExists, "Table '%s' already exists", name)
	}
	exists := s.eng.Cat.View(db, name) != nil
	switch {
	case d.alter && !exists:
		return sqlerr.NoTable(db, name)
	case !d.alter && !d.replace && exists:
		return sqlerr.New(sqlerr.TableExists, sqlerr.StateTableExists, "Table '%s' already exists", name)
	}
	return nil
}

// setDefiner fills the view's definer: the named account (only an
// administrator may name another account than its own), else the current
// account.
func (s *Session) setDefiner(v *catalog.View, def *sqlparser.Definer) error {
	user, host := s.User, s.accountHost()
	if u := s.account(); u != nil {
		user, host = u.Name, u.Host
	} else if s.isRoot() {
		user, host = "root", "localhost"
	}
	if def == nil {
		if v.DefinerUser == "" {
			v.DefinerUser, v.DefinerHost = user, host
		}
		return nil
	}
	du, dh := unquoteAccountPart(def.Name), unquoteAccountPart(strings.TrimPrefix(def.Address, "@"))
	if strings.EqualFold(du, "current_user") || strings.EqualFold(du, "current_user()") {
		du, dh = user, host
	}
	if def.Address == "" && dh == "" {
		dh = "%"
	}
	if (du != user || dh != host) && !s.isRoot() {
		return sqlerr.New(sqlerror.ERSpecifiedAccessDenied, sqlerror.SSClientError,
			"Access denied; you need (at least one of) the SUPER or SET_USER_ID privilege(s) for this operation")
	}
	v.DefinerUser, v.DefinerHost = du, dh
	return nil
}

// unquoteAccountPart strips the quotes of a user or host name as the
// parser keeps them ('root', `root`, "root").
func unquoteAccountPart(p string) string {
	p = strings.TrimSpace(p)
	if len(p) >= 2 {
		switch q := p[0]; q {
		case '\'', '"', '`':
			if p[len(p)-1] == q {
				return strings.ReplaceAll(p[1:len(p)-1], string([]byte{q, q}), string(q))
			}
		}
	}
	return p
}

// checkViewQuery refuses what a view's query may not hold: INTO (1350),
// user variables and parameters (1351).
func checkViewQuery(sel sqlparser.TableStatement) error {
	var err error
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *sqlparser.SelectInto:
			if x != nil {
				err = sqlerr.New(sqlerr.ViewSelectClause, sqlerror.SSUnknownSQLState, "View's SELECT contains a 'INTO' clause")
			}
		case *sqlparser.Variable:
			if x.Scope == sqlparser.VariableScope {
				err = sqlerr.New(sqlerr.ViewSelectVariable, sqlerror.SSUnknownSQLState, "View's SELECT contains a variable or parameter")
			}
		case *sqlparser.Argument:
			err = sqlerr.New(sqlerr.ViewSelectVariable, sqlerror.SSUnknownSQLState, "View's SELECT contains a variable or parameter")
		}
		return err == nil, nil
	}, sel)
	if err != nil {
		return err
	}
	if s, ok := sel.(*sqlparser.Select); ok && s.Into != nil {
		return sqlerr.New(sqlerr.ViewSelectClause, sqlerror.SSUnknownSQLState, "View's SELECT contains a 'INTO' clause")
	}
	if u, ok := sel.(*sqlparser.Union); ok && u.Into != nil {
		return sqlerr.New(sqlerr.ViewSelectClause, sqlerror.SSUnknownSQLState, "View's SELECT contains a 'INTO' clause")
	}
	return nil
}

// planViewColumns plans a view's query (every table it names must exist:
// 1146, every column resolve) and returns the view's column names (the
// column list, or the names of the select list) and the names of the
// select list.
func (s *Session) planViewColumns(ctx context.Context, sel sqlparser.TableStatement, list sqlparser.Columns) (cols, selNames []string, err error) {
	saved := s.ctes
	s.ctes = nil
	p, err := func() (queryPlan, error) {
		defer func() { s.ctes = saved }()
		return s.planQuery(ctx, sel, nil)
	}()
	if err != nil {
		return nil, nil, err
	}
	outs := p.outputs()
	if len(list) > 0 && len(list) != len(outs) {
		return nil, nil, sqlerr.New(sqlerror.ERViewWrongList, sqlerror.SSUnknownSQLState, "In definition of view, derived table or common table expression, SELECT list and column names list have different column counts")
	}
	cols = make([]string, len(outs))
	selNames = make([]string, len(outs))
	seen := map[string]bool{}
	for i, o := range outs {
		cols[i], selNames[i] = o.name, o.name
		if len(list) > 0 {
			cols[i] = list[i].String()
		}
		if seen[lowerName(cols[i])] {
			return nil, nil, sqlerr.New(sqlerror.ERDupFieldName, sqlerror.SSDupFieldName, "Duplicate column name '%s'", cols[i])
		}
		seen[lowerName(cols[i])] = true
	}
	return cols, selNames, nil
}

// dropViews runs DROP VIEW [IF EXISTS] v, ...
func (s *Session) dropViews(st *sqlparser.DropView) (*sqltypes.Result, error) {
	type viewName struct{ db, name string }
	var names []viewName
	var missing []string
	for _, tn := range st.FromTables {
		db, err := s.dbOrCurrent(tn.Qualifier)
		if err != nil {
			return nil, err
		}
		name := tn.Name.String()
		if s.eng.Cat.Table(db, name) != nil {
			return nil, notView(db, name)
		}
		if s.eng.Cat.View(db, name) == nil {
			missing = append(missing, db+"."+name)
			continue
		}
		names = append(names, viewName{db, name})
	}
	if len(missing) > 0 && !st.IfExists {
		return nil, sqlerr.New(sqlerror.ERBadTable, sqlerror.SSUnknownTable, "Unknown table '%s'", strings.Join(missing, ","))
	}
	for _, m := range missing {
		s.warn("Note", uint16(sqlerror.ERBadTable), fmt.Sprintf("Unknown table '%s'", m))
	}
	if len(names) == 0 {
		return &sqltypes.Result{}, nil
	}
	err := schemachange.Apply(s.eng.Cat, s.ddlHook(), func(d *catalog.DDL) error {
		for _, n := range names {
			if s.eng.Cat.View(n.db, n.name) == nil {
				continue // dropped meanwhile
			}
			if err := d.DropView(n.db, n.name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &sqltypes.Result{}, nil
}

// parseViewQuery parses a view's stored query text.
func (s *Session) parseViewQuery(v *catalog.View) (sqlparser.TableStatement, error) {
	stmt, err := s.eng.Parser.Parse(v.Select)
	if err != nil {
		fixed, ok := parse.Repair(s.eng.Parser, v.Select)
		if !ok {
			return nil, fmt.Errorf("view %s.%s: parse stored query: %w", v.DB, v.Name, err)
		}
		if stmt, err = s.eng.Parser.Parse(fixed); err != nil {
			return nil, fmt.Errorf("view %s.%s: parse stored query: %w", v.DB, v.Name, err)
		}
	}
	ts, ok := stmt.(sqlparser.TableStatement)
	if !ok {
		return nil, fmt.Errorf("view %s.%s: stored query is a %T", v.DB, v.Name, stmt)
	}
	return ts, nil
}

// lookupView returns the view a FROM clause's table name names, or nil.
func (s *Session) lookupView(tn sqlparser.TableName) *catalog.View {
	db := tn.Qualifier.String()
	if db == "" {
		db = s.DB
	}
	if db == "" || isSystemSchema(db) {
		return nil
	}
	if s.inView == 0 && s.tempTable(db, tn.Name.String()) != nil {
		return nil // a temporary table shadows the view
	}
	return s.eng.Cat.View(db, tn.Name.String())
}

// viewSource expands a view named in a FROM clause into a derived table
// over its query, with the view's column names.
func (s *Session) viewSource(ctx context.Context, v *catalog.View, alias string) (*fromItem, error) {
	if s.tl.locked && s.inView == 0 {
		if err := s.checkLocked(v.DB, v.Name, false); err != nil {
			return nil, err
		}
	}
	key := v.DB + "." + v.Name
	for _, k := range s.viewStack {
		if k == key {
			return nil, sqlerr.New(sqlerr.ViewRecursive, sqlerror.SSUnknownSQLState, "`%s`.`%s` contains view recursion", v.DB, v.Name)
		}
	}
	if len(s.viewStack) >= maxViewDepth {
		return nil, sqlerr.New(sqlerr.ViewRecursive, sqlerror.SSUnknownSQLState, "`%s`.`%s` contains view recursion", v.DB, v.Name)
	}
	sel, err := s.parseViewQuery(v)
	if err != nil {
		return nil, err
	}
	if err := s.checkViewAccess(v, sel); err != nil {
		return nil, err
	}
	cols := make(sqlparser.Columns, len(v.Columns))
	for i, c := range v.Columns {
		cols[i] = sqlparser.NewIdentifierCI(c)
	}
	// The view's query sees neither the CTEs nor the outer query of the
	// statement that names it.
	item, err := s.expandView(ctx, key, alias, sel, cols)
	if err != nil {
		return nil, viewError(v, err)
	}
	item.view = v
	return item, nil
}

// expandView plans a view's query as a derived table, with the view on
// the expansion stack and no CTE of the naming statement in scope
// (restored however planning ends).
func (s *Session) expandView(ctx context.Context, key, alias string, sel sqlparser.TableStatement, cols sqlparser.Columns) (*fromItem, error) {
	savedCTEs, depth := s.ctes, len(s.viewStack)
	s.ctes = nil
	s.viewStack = append(s.viewStack, key)
	s.inView++
	defer func() { s.ctes, s.viewStack = savedCTEs, s.viewStack[:depth]; s.inView-- }()
	return s.derivedSource(ctx, alias, sel, cols, nil)
}

// viewError turns the errors of a view's query that mean its tables or
// columns no longer resolve into 1356; others pass.
func viewError(v *catalog.View, err error) error {
	var se *sqlerror.SQLError
	if errors.As(err, &se) {
		switch se.Num {
		case sqlerror.ERNoSuchTable, sqlerror.ERBadFieldError, sqlerror.ERViewWrongList,
			sqlerror.ERSPDoesNotExist, sqlerror.ERNonUniq, sqlerror.ERTableAccessDenied,
			1143, sqlerror.ERBadDb:
			return viewErrInvalid(v.DB, v.Name)
		}
	}
	return err
}

// checkViewAccess checks who the view's query runs as may read what it
// reads: the definer (SQL SECURITY DEFINER) or the session (INVOKER).
// Failing that is 1356, a missing definer 1449.
func (s *Session) checkViewAccess(v *catalog.View, sel sqlparser.TableStatement) error {
	if v.Security == "INVOKER" {
		// The check depends on the session: the plan is not shared (nor
		// one root planned, which skips the check).
		s.planPrivate = true
		if s.subject() == nil {
			return nil
		}
		if err := s.authorize(sel, ""); err != nil {
			return viewErrInvalid(v.DB, v.Name)
		}
		return nil
	}
	if v.DefinerUser == "root" || v.DefinerUser == "" {
		return nil
	}
	u := s.eng.Cat.User(v.DefinerUser, v.DefinerHost)
	if u == nil {
		return sqlerr.New(sqlerror.ERNoSuchUser, sqlerror.SSUnknownSQLState, "The user specified as a definer ('%s'@'%s') does not exist", v.DefinerUser, v.DefinerHost)
	}
	needs, err := s.statementNeeds(sel, "")
	if err != nil {
		return err
	}
	sub := definerSubject(u)
	if err := checkNeeds(sub, needs); err != nil {
		return viewErrInvalid(v.DB, v.Name)
	}
	return nil
}

// definerSubject is the privilege subject of a view's definer account.
func definerSubject(u *catalog.User) *privilege.Subject {
	return &privilege.Subject{User: u.Name, Host: u.Host, AccountHost: u.Host, Password: u.HasPassword(), Grants: privilege.FromUser(u)}
}

// renameViews runs a RENAME TABLE whose pairs are all views, in order (a
// later pair may rename what an earlier one named), as one DDL change.
// Views keep their database (1450 otherwise, as MySQL); tables and views
// renamed together answer 1235.
func (s *Session) renameViews(st *sqlparser.RenameTable) (*sqltypes.Result, error) {
	type key struct{ db, name string }
	renamed := map[key]*catalog.View{} // nil: the name is free now
	view := func(k key) *catalog.View {
		if v, ok := renamed[k]; ok {
			return v
		}
		return s.eng.Cat.View(k.db, k.name)
	}
	var order []key
	for _, p := range st.TablePairs {
		fdb, err := s.dbOrCurrent(p.FromTable.Qualifier)
		if err != nil {
			return nil, err
		}
		tdb, err := s.dbOrCurrent(p.ToTable.Qualifier)
		if err != nil {
			return nil, err
		}
		from, to := key{fdb, p.FromTable.Name.String()}, key{tdb, p.ToTable.Name.String()}
		v := view(from)
		if v == nil {
			if s.eng.Cat.Table(from.db, from.name) != nil {
				return nil, sqlerr.Unsupported("RENAME TABLE of views together with tables")
			}
			return nil, sqlerr.NoTable(from.db, from.name)
		}
		if to.db != from.db {
			return nil, sqlerr.New(1450, sqlerror.SSUnknownSQLState, "Changing schema from '%s' to '%s' is not allowed.", from.db, to.db)
		}
		if view(to) != nil || s.eng.Cat.Table(to.db, to.name) != nil {
			return nil, sqlerr.New(sqlerr.TableExists, sqlerr.StateTableExists, "Table '%s' already exists", to.name)
		}
		if err := schemachange.CheckIdent(to.name, "table"); err != nil {
			return nil, err
		}
		nv := *v
		nv.Name = to.name
		renamed[from], renamed[to] = nil, &nv
		order = append(order, from, to)
	}
	err := schemachange.Apply(s.eng.Cat, s.ddlHook(), func(d *catalog.DDL) error {
		for _, k := range order {
			if renamed[k] == nil && s.eng.Cat.View(k.db, k.name) != nil {
				if err := d.DropView(k.db, k.name); err != nil {
					return err
				}
			}
		}
		for _, k := range order {
			if v := renamed[k]; v != nil {
				if err := d.PutView(v); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &sqltypes.Result{}, nil
}

// noTempTables refuses a view query that names a temporary table (1352).
func (s *Session) noTempTables(sel sqlparser.TableStatement) error {
	var err error
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if a, ok := n.(*sqlparser.AliasedTableExpr); ok {
			if tn, ok := a.Expr.(sqlparser.TableName); ok && !tn.Qualifier.IsEmpty() && s.tempTable(tn.Qualifier.String(), tn.Name.String()) != nil {
				err = sqlerr.New(sqlerr.ViewSelectTmpTable, sqlerror.SSUnknownSQLState, "View's SELECT refers to a temporary table '%s'", tn.Name.String())
			}
		}
		return err == nil, nil
	}, sel)
	return err
}

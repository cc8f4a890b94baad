package sql

import (
	"strings"

	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/privilege"
)

// Access checks. Every statement is classified into a privilege.Kind and
// turned into the Needs of its rule — one per object it touches — before it
// runs; a statement this file does not classify is KindUnknown, which only
// administrators pass (deny by default). The special statements Vitess's
// parser lacks (accounts, CHECK TABLE, CHECKSUM TABLE) check their kinds
// where they are parsed; KILL checks ownership when it has found its target.
// The rules themselves live in package privilege.

// subject returns who the session acts as, with its account's grants (nil
// for root, which holds every privilege). An account dropped while
// connected holds nothing.
func (s *Session) subject() *privilege.Subject {
	if s.routines.as != nil {
		// A SQL SECURITY DEFINER routine runs (routine_call.go).
		return s.routines.as.sub
	}
	if s.isRoot() {
		return nil
	}
	v := s.eng.Cat.Version()
	if s.subj != nil && s.subjVersion == v {
		return s.subj
	}
	sub := &privilege.Subject{User: s.User, Host: s.Host, AccountHost: s.Host}
	if u := s.account(); u != nil {
		sub.AccountHost, sub.Password, sub.Grants = u.Host, u.HasPassword(), privilege.FromUser(u)
	}
	s.subj, s.subjVersion = sub, v
	return sub
}

// authorize checks the session's privileges for a parsed statement. sql is
// the statement's text ("" when unknown): Vitess's AST does not tell CREATE
// INDEX from ALTER TABLE … ADD INDEX, nor DO, OPTIMIZE and REPAIR apart.
func (s *Session) authorize(stmt sqlparser.Statement, sql string) error {
	sub := s.subject()
	if sub == nil {
		return nil
	}
	needs, err := s.statementNeeds(stmt, sql)
	if err != nil {
		return err
	}
	return checkNeeds(sub, needs)
}

// authorizeNeeds checks needs built by a statement's own parser (none on
// the session's temporary tables, as needs.add).
func (s *Session) authorizeNeeds(needs ...privilege.Need) error {
	sub := s.subject()
	if sub == nil {
		return nil
	}
	for _, x := range needs {
		if x.Table != "" && s.tempTable(x.DB, x.Table) != nil {
			continue
		}
		if err := sub.Check(x); err != nil {
			return err
		}
	}
	return nil
}

func checkNeeds(sub *privilege.Subject, needs []privilege.Need) error {
	for _, n := range needs {
		if err := sub.Check(n); err != nil {
			return err
		}
	}
	return nil
}

// needs accumulates a statement's requirements.
type needs struct {
	s    *Session
	list []privilege.Need
	seen map[privilege.Need]bool
	// base: the names being added denote base tables even where the
	// session has a temporary table of that name (CREATE TABLE's target,
	// RENAME TABLE).
	base bool
}

func (n *needs) add(x privilege.Need) {
	if x.Table != "" && !n.base && n.s.tempTable(x.DB, x.Table) != nil {
		// A temporary table needs no privilege once created (MySQL).
		return
	}
	if isSystemSchema(x.DB) {
		// System schemas and their tables resolve in any letter case.
		x.DB, x.Table = strings.ToLower(x.DB), strings.ToLower(x.Table)
	}
	if n.seen == nil {
		n.seen = map[privilege.Need]bool{}
	}
	if !n.seen[x] {
		n.seen[x] = true
		n.list = append(n.list, x)
	}
}

// kind adds kind k's rule applied to db.table.
func (n *needs) kind(k privilege.Kind, db, table string) {
	n.add(privilege.RuleFor(k).Need(db, table))
}

// table adds kind k's rule applied to a table named in the statement. A
// name without database and no current database needs nothing here: the
// statement fails with 1046.
func (n *needs) table(k privilege.Kind, tn sqlparser.TableName) {
	if db, ok := n.s.nameDB(tn.Qualifier); ok {
		n.kind(k, db, tn.Name.String())
	}
}

// tablePrivs adds all of p on a named table (1142 naming what is missing).
func (n *needs) tablePrivs(p privilege.Priv, tn sqlparser.TableName) {
	if db, ok := n.s.nameDB(tn.Qualifier); ok {
		n.add(privilege.OnTable(p, db, tn.Name.String()))
	}
}

// database adds kind k's rule applied to a database.
func (n *needs) database(k privilege.Kind, db string) {
	if db != "" {
		n.kind(k, db, "")
	}
}

// reads adds SELECT on every base table node reads (see readWalker), then
// what locking reads (FOR UPDATE) need on their tables.
func (n *needs) reads(node sqlparser.SQLNode, skip ...*sqlparser.AliasedTableExpr) {
	w := &readWalker{n: n}
	for _, a := range skip {
		if w.skip == nil {
			w.skip = map[*sqlparser.AliasedTableExpr]bool{}
		}
		w.skip[a] = true
	}
	w.node(node)
	for _, l := range w.locks {
		n.add(l)
	}
	n.columns(node)
}

// tableCols adds kind k's rule on a named table, passed by privileges held
// on some of its columns (the statement's columns are checked one by one).
func (n *needs) tableCols(k privilege.Kind, tn sqlparser.TableName) {
	if db, ok := n.s.nameDB(tn.Qualifier); ok {
		x := privilege.RuleFor(k).Need(db, tn.Name.String())
		x.Columns = true
		n.add(x)
	}
}

// tablePrivsCols is tablePrivs passed by column privileges too.
func (n *needs) tablePrivsCols(p privilege.Priv, tn sqlparser.TableName) {
	if db, ok := n.s.nameDB(tn.Qualifier); ok {
		x := privilege.OnTable(p, db, tn.Name.String())
		x.Columns = true
		n.add(x)
	}
}

// tablesFirst orders table-level needs before column needs, as MySQL checks
// a statement's tables (1142) before resolving its columns (1143).
func tablesFirst(list []privilege.Need) []privilege.Need {
	out := make([]privilege.Need, 0, len(list))
	for _, x := range list {
		if x.Column == "" {
			out = append(out, x)
		}
	}
	for _, x := range list {
		if x.Column != "" {
			out = append(out, x)
		}
	}
	return out
}

// nameDB resolves a table name's database: its qualifier, else the current
// database; ok is false when there is none.
func (s *Session) nameDB(q sqlparser.IdentifierCS) (string, bool) {
	if db := q.String(); db != "" {
		return db, true
	}
	return s.DB, s.DB != ""
}

// statementNeeds classifies a parsed statement and lists what it needs.
func (s *Session) statementNeeds(stmt sqlparser.Statement, sql string) ([]privilege.Need, error) {
	n := &needs{s: s}
	switch st := stmt.(type) {
	case *sqlparser.Select:
		if st.Into != nil && st.Into.Type != sqlparser.IntoVariables {
			n.kind(privilege.KindSelectIntoFile, "", "")
		}
		n.reads(st)
	case *sqlparser.Union:
		if st.Into != nil && st.Into.Type != sqlparser.IntoVariables {
			n.kind(privilege.KindSelectIntoFile, "", "")
		}
		n.reads(st)
	case *sqlparser.ValuesStatement:
		n.reads(st)
	case *sqlparser.Insert:
		n.insert(st)
	case *sqlparser.CallProc:
		// EXECUTE on the routine is checked by CALL (routine_call.go);
		// the arguments read what they read.
		n.reads(st)
	case *sqlparser.Update:
		n.update(st)
	case *sqlparser.Delete:
		n.delete(st)
	case *sqlparser.Set:
		for _, e := range st.Exprs {
			switch e.Var.Scope {
			case sqlparser.GlobalScope, sqlparser.PersistSysScope:
				n.kind(privilege.KindSetGlobal, "", "")
			case sqlparser.PersistOnlySysScope:
				n.kind(privilege.KindSetPersistOnly, "", "")
			}
		}
		n.reads(st)
	case *sqlparser.Begin, *sqlparser.Commit, *sqlparser.Rollback, *sqlparser.Savepoint,
		*sqlparser.SRollback, *sqlparser.Release:
		n.kind(privilege.KindTransaction, "", "")
	case *sqlparser.Use:
		if db := st.DBName.String(); db != "" && !strings.EqualFold(db, "information_schema") {
			n.database(privilege.KindUse, db)
		}
	case *sqlparser.LockTables:
		for _, t := range st.Tables {
			if a, ok := t.Table.(*sqlparser.AliasedTableExpr); ok {
				if tn, ok := a.Expr.(sqlparser.TableName); ok {
					n.table(privilege.KindLockTables, tn)
					continue
				}
			}
			n.kind(privilege.KindUnknown, "", "")
		}
	case *sqlparser.UnlockTables:
		n.kind(privilege.KindUnlockTables, "", "")
	case *sqlparser.PrepareStmt, *sqlparser.ExecuteStmt, *sqlparser.DeallocateStmt:
		n.kind(privilege.KindPrepareSQL, "", "")
	case *sqlparser.Show:
		n.show(st)
	case *sqlparser.ExplainTab:
		n.systemAware(privilege.KindShowColumns, st.Table)
	case *sqlparser.ExplainStmt:
		inner, err := s.statementNeeds(st.Statement, "")
		if err != nil {
			return nil, err
		}
		for _, x := range inner {
			n.add(x)
		}
	case *sqlparser.OtherAdmin:
		if err := n.otherAdmin(sql); err != nil {
			return nil, err
		}
	case *sqlparser.Flush:
		n.kind(privilege.KindFlush, "", "")
	case *sqlparser.Analyze:
		n.table(privilege.KindAnalyzeTable, st.Table)
	case *sqlparser.Kill:
		// Ownership is checked against the target session (execKill).
	case *sqlparser.CreateDatabase:
		n.database(privilege.KindCreateDatabase, st.DBName.String())
	case *sqlparser.AlterDatabase:
		db := st.DBName.String()
		if db == "" {
			db = s.DB
		}
		n.database(privilege.KindAlterDatabase, db)
	case *sqlparser.DropDatabase:
		n.database(privilege.KindDropDatabase, st.DBName.String())
	case *sqlparser.CreateTable:
		n.createTable(st)
	case *sqlparser.AlterTable:
		n.alterTable(st, sql)
	case *sqlparser.DropTable:
		for _, tn := range st.FromTables {
			n.table(privilege.KindDropTable, tn)
		}
	case *sqlparser.TruncateTable:
		n.table(privilege.KindTruncateTable, st.Table)
	case *sqlparser.RenameTable:
		n.base = true
		for _, p := range st.TablePairs {
			n.table(privilege.KindRenameTable, p.FromTable)
			n.tablePrivs(privilege.Create|privilege.Insert, p.ToTable)
		}
	case *sqlparser.CreateView:
		if st.IsReplace {
			n.tablePrivs(privilege.CreateView|privilege.Drop, st.ViewName)
		} else {
			n.table(privilege.KindCreateView, st.ViewName)
		}
		n.reads(st.Select)
	case *sqlparser.AlterView:
		n.table(privilege.KindAlterView, st.ViewName)
		n.reads(st.Select)
	case *sqlparser.DropView:
		for _, tn := range st.FromTables {
			n.table(privilege.KindDropView, tn)
		}
	default:
		// CALL, LOAD DATA, comment-only and Vitess-only
		// statements: unclassified, so denied by default.
		n.kind(privilege.KindUnknown, "", "")
	}
	return tablesFirst(n.list), nil
}

// systemAware adds kind k's rule on a table, except for information_schema
// tables, which every account may describe.
func (n *needs) systemAware(k privilege.Kind, tn sqlparser.TableName) {
	db, ok := n.s.nameDB(tn.Qualifier)
	if !ok || strings.EqualFold(db, "information_schema") {
		return
	}
	x := privilege.RuleFor(k).Need(db, tn.Name.String())
	// A privilege on one of its columns is a privilege on the table.
	x.Columns = true
	n.add(x)
}

func (n *needs) show(st *sqlparser.Show) {
	switch sh := st.Internal.(type) {
	case *sqlparser.ShowBasic:
		db := sh.DbName.String()
		if db == "" {
			db = n.s.DB
		}
		switch sh.Command {
		case sqlparser.Database:
			n.kind(privilege.KindShowDatabases, "", "")
		case sqlparser.Table, sqlparser.TableStatus, sqlparser.Trigger, sqlparser.Events:
			k := privilege.KindShowTables
			switch sh.Command {
			case sqlparser.TableStatus:
				k = privilege.KindShowTableStatus
			case sqlparser.Trigger:
				k = privilege.KindShowTriggers
			case sqlparser.Events:
				k = privilege.KindShowEvents
			}
			if !strings.EqualFold(db, "information_schema") {
				n.database(k, db)
			}
		case sqlparser.Column, sqlparser.Index:
			tn := sh.Tbl
			if !sh.DbName.IsEmpty() {
				tn.Qualifier = sh.DbName
			}
			k := privilege.KindShowColumns
			if sh.Command == sqlparser.Index {
				k = privilege.KindShowIndex
			}
			n.systemAware(k, tn)
		case sqlparser.ProcessList:
			n.kind(privilege.KindShowProcesslist, "", "")
		case sqlparser.VariableGlobal, sqlparser.VariableSession, sqlparser.StatusGlobal,
			sqlparser.StatusSession, sqlparser.Warnings, sqlparser.Errors, sqlparser.Engines,
			sqlparser.Charset, sqlparser.Collation, sqlparser.Plugins, sqlparser.Privilege,
			sqlparser.Profiles, sqlparser.OpenTable, sqlparser.Procedure, sqlparser.Function:
			n.kind(privilege.KindShowPublic, "", "")
		default:
			n.kind(privilege.KindUnknown, "", "")
		}
		if sh.Filter != nil && sh.Filter.Filter != nil {
			n.reads(sh.Filter.Filter)
		}
	case *sqlparser.ShowCreate:
		switch sh.Command {
		case sqlparser.CreateTbl:
			if n.s.lookupView(sh.Op) != nil {
				// SHOW CREATE TABLE of a view is SHOW CREATE VIEW.
				n.table(privilege.KindShowCreateView, sh.Op)
				break
			}
			n.systemAware(privilege.KindShowCreateTable, sh.Op)
		case sqlparser.CreateV:
			n.table(privilege.KindShowCreateView, sh.Op)
		case sqlparser.CreateDb:
			if db := sh.Op.Name.String(); !strings.EqualFold(db, "information_schema") {
				n.database(privilege.KindShowCreateDatabase, db)
			}
		default:
			n.kind(privilege.KindUnknown, "", "")
		}
	case *sqlparser.ShowEngine:
		n.kind(privilege.KindShowEngine, "", "")
	case *sqlparser.ShowGrants:
		if sh.User != nil && sh.User.Name != nil {
			host := "%"
			if sh.User.Host != nil {
				host = *sh.User.Host
			}
			n.showGrantsFor(*sh.User.Name, host)
		}
	case *sqlparser.ShowReplicationStatus, *sqlparser.ShowReplicationSourceStatus, *sqlparser.ShowBinaryLogs:
		n.kind(privilege.KindShowReplicaStatus, "", "")
	case *sqlparser.ShowReplicas, *sqlparser.ShowBinlogEvents:
		n.kind(privilege.KindShowReplicas, "", "")
	default:
		n.kind(privilege.KindUnknown, "", "")
	}
}

// showGrantsFor adds what SHOW GRANTS FOR name@host needs: nothing for the
// session's own account, SELECT on the mysql schema for another.
func (n *needs) showGrantsFor(name, host string) {
	if name == "" || name == n.s.User && host == n.s.accountHost() {
		return
	}
	n.kind(privilege.KindShowGrants, "mysql", "")
}

func (n *needs) insert(st *sqlparser.Insert) {
	tn, ok := st.Table.Expr.(sqlparser.TableName)
	if !ok {
		n.kind(privilege.KindUnknown, "", "")
		return
	}
	k := privilege.KindInsert
	if st.Action == sqlparser.ReplaceAct {
		k = privilege.KindReplace
	}
	n.tableCols(k, tn)
	if len(st.OnDup) > 0 {
		n.tablePrivsCols(privilege.Update, tn)
	}
	if st.Rows != nil {
		n.reads(st.Rows)
	}
	for _, e := range st.OnDup {
		n.reads(e.Expr)
	}
	n.insertColumns(st, tn)
}

// baseTable is a table of an UPDATE or DELETE's FROM.
type baseTable struct {
	node  *sqlparser.AliasedTableExpr
	name  sqlparser.TableName
	alias string // the alias, or the table name
}

func (s *Session) baseTable(a *sqlparser.AliasedTableExpr, tn sqlparser.TableName) baseTable {
	alias := a.As.String()
	if alias == "" {
		alias = tn.Name.String()
	}
	return baseTable{node: a, name: tn, alias: alias}
}

// baseTables lists the base tables of a FROM clause (not those inside
// derived tables).
func (s *Session) baseTables(exprs []sqlparser.TableExpr, cte func(string) bool) []baseTable {
	var out []baseTable
	var walk func(te sqlparser.TableExpr)
	walk = func(te sqlparser.TableExpr) {
		switch x := te.(type) {
		case *sqlparser.AliasedTableExpr:
			if tn, ok := x.Expr.(sqlparser.TableName); ok && !(tn.Qualifier.IsEmpty() && cte(tn.Name.String())) {
				out = append(out, s.baseTable(x, tn))
			}
		case *sqlparser.JoinTableExpr:
			walk(x.LeftExpr)
			walk(x.RightExpr)
		case *sqlparser.ParenTableExpr:
			for _, e := range x.Exprs {
				walk(e)
			}
		}
	}
	for _, te := range exprs {
		walk(te)
	}
	return out
}

// withNames returns a lookup of the CTE names a statement's WITH defines.
func withNames(w *sqlparser.With) func(string) bool {
	return func(name string) bool {
		if w == nil {
			return false
		}
		for _, c := range w.CTEs {
			if c.ID.String() == name {
				return true
			}
		}
		return false
	}
}

// hasColumn reports whether a base table has a column (false when the
// table does not exist).
func (s *Session) hasColumn(t baseTable, col string) bool {
	db, ok := s.nameDB(t.name.Qualifier)
	if !ok {
		return false
	}
	def := s.tableDef(db, t.name.Name.String())
	if def == nil {
		return false
	}
	for i := range def.Columns {
		if strings.EqualFold(def.Columns[i].Name, col) {
			return true
		}
	}
	return false
}

// columnTables returns the tables a column reference may denote: the one
// its qualifier names, else those having the column (all of them when none
// or several do — the statement then fails, or the check errs on the safe
// side).
func (s *Session) columnTables(c *sqlparser.ColName, tables []baseTable) []baseTable {
	if !c.Qualifier.IsEmpty() {
		q := c.Qualifier.Name.String()
		for _, t := range tables {
			if t.alias == q && (c.Qualifier.Qualifier.IsEmpty() || c.Qualifier.Qualifier.String() == t.name.Qualifier.String()) {
				return []baseTable{t}
			}
		}
		return nil
	}
	if len(tables) == 1 {
		return tables
	}
	var out []baseTable
	for _, t := range tables {
		if s.hasColumn(t, c.Name.String()) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return tables
	}
	return out
}

func (n *needs) update(st *sqlparser.Update) {
	all := n.s.baseTables(st.TableExprs, withNames(st.With))
	isTarget := map[*sqlparser.AliasedTableExpr]bool{}
	for _, e := range st.Exprs {
		for _, t := range n.s.columnTables(e.Name, all) {
			isTarget[t.node] = true
		}
	}
	for _, t := range all {
		if isTarget[t.node] {
			n.tableCols(privilege.KindUpdate, t.name)
		}
	}
	var skip []*sqlparser.AliasedTableExpr
	for _, t := range all {
		skip = append(skip, t.node)
		if !isTarget[t.node] {
			n.tableCols(privilege.KindSelect, t.name)
		}
	}
	n.reads(st, skip...)
}

func (n *needs) delete(st *sqlparser.Delete) {
	all := n.s.baseTables(st.TableExprs, withNames(st.With))
	isTarget := map[*sqlparser.AliasedTableExpr]bool{}
	if len(st.Targets) == 0 {
		for _, t := range all {
			isTarget[t.node] = true
		}
	}
	for _, tn := range st.Targets {
		for _, t := range all {
			if t.alias == tn.Name.String() && (tn.Qualifier.IsEmpty() || tn.Qualifier.String() == t.name.Qualifier.String()) {
				isTarget[t.node] = true
			}
		}
	}
	var skip []*sqlparser.AliasedTableExpr
	for _, t := range all {
		if isTarget[t.node] {
			n.table(privilege.KindDelete, t.name)
		}
	}
	for _, t := range all {
		skip = append(skip, t.node)
		if !isTarget[t.node] {
			n.tableCols(privilege.KindSelect, t.name)
		}
	}
	n.reads(st, skip...)
}

func (n *needs) createTable(st *sqlparser.CreateTable) {
	if st.Temp {
		if db, ok := n.s.nameDB(st.Table.Qualifier); ok {
			n.database(privilege.KindCreateTemporaryTable, db)
		}
	} else {
		n.base = true
		n.table(privilege.KindCreateTable, st.Table)
		if st.Select != nil {
			n.tablePrivs(privilege.Insert, st.Table)
		}
		n.base = false
	}
	if st.OptLike != nil {
		n.table(privilege.KindSelect, st.OptLike.LikeTable)
	}
	if st.Select != nil {
		n.reads(st.Select)
	}
	if st.TableSpec != nil {
		for _, c := range st.TableSpec.Constraints {
			n.foreignKey(c)
		}
	}
}

// foreignKey adds REFERENCES on the parent table of a FOREIGN KEY.
func (n *needs) foreignKey(c *sqlparser.ConstraintDefinition) {
	if c == nil {
		return
	}
	if fk, ok := c.Details.(*sqlparser.ForeignKeyDefinition); ok && fk.ReferenceDefinition != nil {
		n.tablePrivs(privilege.References, fk.ReferenceDefinition.ReferencedTable)
	}
}

func (n *needs) alterTable(st *sqlparser.AlterTable, sql string) {
	switch leadingKeyword(sql) {
	case "CREATE":
		n.table(privilege.KindCreateIndex, st.Table)
		return
	case "DROP":
		n.table(privilege.KindDropIndex, st.Table)
		return
	}
	n.table(privilege.KindAlterTable, st.Table)
	for _, o := range st.AlterOptions {
		switch x := o.(type) {
		case *sqlparser.RenameTableName:
			n.tablePrivs(privilege.Drop, st.Table)
			to := x.Table
			if to.Qualifier.IsEmpty() {
				to.Qualifier = st.Table.Qualifier
			}
			n.tablePrivs(privilege.Create|privilege.Insert, to)
		case *sqlparser.AddConstraintDefinition:
			n.foreignKey(x.ConstraintDefinition)
		}
	}
}

// otherAdmin classifies the statements Vitess parses to an empty
// OtherAdmin: DO, OPTIMIZE TABLE, REPAIR TABLE.
func (n *needs) otherAdmin(sql string) error {
	switch leadingKeyword(sql) {
	case "DO":
		n.kind(privilege.KindDo, "", "")
		rest := strings.TrimSpace(sql)
		if i := indexFold(rest, "DO"); i >= 0 {
			if stmt, err := n.s.eng.Parser.Parse("SELECT " + rest[i+2:]); err == nil {
				n.reads(stmt)
			}
		}
		return nil
	case "OPTIMIZE", "REPAIR":
		k := privilege.KindOptimizeTable
		if leadingKeyword(sql) == "REPAIR" {
			k = privilege.KindRepairTable
		}
		targets, err := parseMaintenanceTables(sql)
		if err != nil {
			return err
		}
		for _, t := range targets {
			db := t.db
			if db == "" {
				db = n.s.DB
			}
			if db != "" {
				n.kind(k, db, t.name)
			}
		}
		return nil
	}
	n.kind(privilege.KindUnknown, "", "")
	return nil
}

// indexFold returns the index of the first case-insensitive occurrence of
// the ASCII word w in s after comments, or -1.
func indexFold(s, w string) int {
	i := skipComments(s, 0)
	if len(s)-i >= len(w) && strings.EqualFold(s[i:i+len(w)], w) {
		return i
	}
	return -1
}

// leadingKeyword returns the first word of a statement, upper-cased, after
// white space and comments ("" when none).
func leadingKeyword(sql string) string {
	i := skipComments(sql, 0)
	j := i
	for j < len(sql) && (sql[j] >= 'a' && sql[j] <= 'z' || sql[j] >= 'A' && sql[j] <= 'Z' || sql[j] == '_') {
		j++
	}
	return strings.ToUpper(sql[i:j])
}

// skipComments skips white space and /* */, -- and # comments from i.
func skipComments(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\f' || s[i] == '\v':
			i++
		case strings.HasPrefix(s[i:], "/*") && !strings.HasPrefix(s[i:], "/*!"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return len(s)
			}
			i += end + 4
		case strings.HasPrefix(s[i:], "-- ") || s[i] == '#':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				return len(s)
			}
			i += end + 1
		default:
			return i
		}
	}
	return i
}

// readWalker finds the base tables a statement reads: every table named in
// a FROM (joins, derived tables, subqueries, CTE bodies, UNION arms),
// except references to CTEs in scope — scoped as MySQL scopes them: a
// WITH's names are visible in its query and, for WITH RECURSIVE, in every
// definition, otherwise only in the definitions after their own.
type readWalker struct {
	n      *needs
	scopes [][]string
	skip   map[*sqlparser.AliasedTableExpr]bool
	// locks are the needs of FOR UPDATE query blocks, checked after the
	// reads as MySQL does.
	locks []privilege.Need
}

func (w *readWalker) node(n sqlparser.SQLNode) {
	if n == nil {
		return
	}
	switch x := n.(type) {
	case *sqlparser.Select:
		if x != nil {
			w.query(x.With, x)
			w.locking(x)
		}
		return
	case *sqlparser.Union:
		if x != nil {
			w.query(x.With, x)
		}
		return
	case *sqlparser.Update:
		if x != nil {
			w.query(x.With, x)
		}
		return
	case *sqlparser.Delete:
		if x != nil {
			w.query(x.With, x)
		}
		return
	}
	_ = sqlparser.Walk(w.visit, n)
}

func (w *readWalker) visit(n sqlparser.SQLNode) (bool, error) {
	switch x := n.(type) {
	case *sqlparser.Select, *sqlparser.Union:
		w.node(x)
		return false, nil
	case *sqlparser.AliasedTableExpr:
		w.aliased(x)
		return false, nil
	}
	return true, nil
}

// query walks a query expression with its WITH clause in scope.
func (w *readWalker) query(with *sqlparser.With, q sqlparser.SQLNode) {
	depth := len(w.scopes)
	if with != nil && len(with.CTEs) > 0 {
		w.scopes = append(w.scopes, nil)
		top := len(w.scopes) - 1
		if with.Recursive {
			for _, c := range with.CTEs {
				w.scopes[top] = append(w.scopes[top], c.ID.String())
			}
		}
		for _, c := range with.CTEs {
			w.node(c.Subquery)
			if !with.Recursive {
				w.scopes[top] = append(w.scopes[top], c.ID.String())
			}
		}
	}
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if n == q {
			return true, nil
		}
		if wn, ok := n.(*sqlparser.With); ok && wn == with {
			return false, nil
		}
		return w.visit(n)
	}, q)
	w.scopes = w.scopes[:depth]
}

// locking records what a FOR UPDATE query block needs on the base tables
// of its FROM.
func (w *readWalker) locking(sel *sqlparser.Select) {
	switch sel.Lock {
	case sqlparser.ForUpdateLock, sqlparser.ForUpdateLockNoWait, sqlparser.ForUpdateLockSkipLocked:
	default:
		return
	}
	for _, t := range w.n.s.baseTables(sel.From, w.inCTE) {
		if w.skip[t.node] {
			continue
		}
		if db, ok := w.n.s.nameDB(t.name.Qualifier); ok && !worldReadable(db, t.name.Name.String()) {
			w.locks = append(w.locks, privilege.RuleFor(privilege.KindSelectForUpdate).Need(db, t.name.Name.String()))
		}
	}
}

func (w *readWalker) inCTE(name string) bool {
	for _, sc := range w.scopes {
		for _, n := range sc {
			if n == name {
				return true
			}
		}
	}
	return false
}

func (w *readWalker) aliased(a *sqlparser.AliasedTableExpr) {
	if w.skip[a] {
		return
	}
	switch e := a.Expr.(type) {
	case sqlparser.TableName:
		name := e.Name.String()
		if e.Qualifier.IsEmpty() && (w.inCTE(name) || strings.EqualFold(name, "dual")) {
			return
		}
		db, ok := w.n.s.nameDB(e.Qualifier)
		if !ok || worldReadable(db, name) {
			return
		}
		// The column walker (needs.columns) checks the columns read.
		x := privilege.RuleFor(privilege.KindSelect).Need(db, name)
		x.Columns = true
		w.n.add(x)
	case *sqlparser.DerivedTable:
		w.node(e.Select)
	default:
		_ = sqlparser.Walk(w.visit, a.Expr)
	}
}

// worldReadable reports whether every account may read a system table:
// information_schema (its rows are filtered per account) and the
// performance_schema variable and status tables, as in MySQL.
func worldReadable(db, table string) bool {
	switch strings.ToLower(db) {
	case "information_schema":
		return true
	case "performance_schema":
		switch strings.ToLower(table) {
		case "session_variables", "global_variables", "session_status", "global_status":
			return true
		}
	}
	return false
}

// checkKill checks KILL of target's thread id: the session's own user's
// threads are always allowed; another user's need CONNECTION_ADMIN or
// SUPER, and SYSTEM_USER too when the target's account holds it.
func (s *Session) checkKill(target *Session, id uint64) error {
	sub := s.subject()
	if sub == nil {
		return nil
	}
	tid := target.shownIdentity()
	return sub.CheckKill(id, tid.user, s.eng.systemUser(tid))
}

// systemUser reports whether the account id holds SYSTEM_USER (root
// does). It reads only the catalog and the identity a session publishes,
// so any session may ask about another.
func (e *Engine) systemUser(id identity) bool {
	if id.user == "root" || id.user == "" {
		return true
	}
	u := e.Cat.MatchUser(id.user, id.host, id.host == "localhost")
	return u != nil && privilege.FromUser(u).Global.Has(privilege.SystemUser)
}

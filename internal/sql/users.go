package sql

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
)

// Account management (CREATE/DROP/ALTER USER, GRANT, REVOKE, SET PASSWORD,
// SHOW GRANTS) and privilege checks. Vitess's parser lacks these
// statements, so they have their own small parser here. root is built in
// and holds every privilege.

// privNames are the privileges strata knows; the first block is enforced.
var privNames = map[string]bool{
	"SELECT": true, "INSERT": true, "UPDATE": true, "DELETE": true,
	"CREATE": true, "DROP": true, "ALTER": true, "INDEX": true,
	"REFERENCES": true, "CREATE VIEW": true, "SHOW VIEW": true, "TRIGGER": true,
	"EVENT": true, "LOCK TABLES": true, "EXECUTE": true, "CREATE ROUTINE": true,
	"ALTER ROUTINE": true, "CREATE TEMPORARY TABLES": true, "PROCESS": true,
	"RELOAD": true, "SHUTDOWN": true, "SUPER": true, "SHOW DATABASES": true,
	"REPLICATION CLIENT": true, "REPLICATION SLAVE": true, "CREATE USER": true,
	"FILE": true, "USAGE": true, "ALL": true,
}

var (
	reAccount    = `'([^']*)'(?:@'([^']*)')?|` + "`([^`]*)`(?:@`([^`]*)`)?" + `|([A-Za-z0-9_$]+)(?:@([A-Za-z0-9_.%$]+|'[^']*'))?`
	reCreateUser = regexp.MustCompile(`(?is)^\s*CREATE\s+USER\s+(IF\s+NOT\s+EXISTS\s+)?(.*?)\s*;?\s*$`)
	reDropUser   = regexp.MustCompile(`(?is)^\s*DROP\s+USER\s+(IF\s+EXISTS\s+)?(.*?)\s*;?\s*$`)
	reAlterUser  = regexp.MustCompile(`(?is)^\s*ALTER\s+USER\s+(IF\s+EXISTS\s+)?(.*?)\s*;?\s*$`)
	reGrant      = regexp.MustCompile(`(?is)^\s*GRANT\s+(.+?)\s+ON\s+(?:TABLE\s+)?(\S+)\s+TO\s+(.+?)\s*;?\s*$`)
	reRevoke     = regexp.MustCompile(`(?is)^\s*REVOKE\s+(.+?)\s+ON\s+(?:TABLE\s+)?(\S+)\s+FROM\s+(.+?)\s*;?\s*$`)
	reSetPass    = regexp.MustCompile(`(?is)^\s*SET\s+PASSWORD\s*(?:FOR\s+(.+?))?\s*=\s*(?:PASSWORD\s*\(\s*)?'((?:[^'\\]|\\.|'')*)'\s*\)?\s*;?\s*$`)
	reShowGrants = regexp.MustCompile(`(?is)^\s*SHOW\s+GRANTS(?:\s+FOR\s+(.+?))?\s*;?\s*$`)
	reIdentified = regexp.MustCompile(`(?is)^\s*IDENTIFIED\s+(?:WITH\s+'?([A-Za-z0-9_]+)'?\s+)?BY\s+'((?:[^'\\]|\\.|'')*)'`)
	reIdentWith  = regexp.MustCompile(`(?is)^\s*IDENTIFIED\s+WITH\s+'?([A-Za-z0-9_]+)'?`)
	reAccountOne = regexp.MustCompile(`^\s*(?:` + reAccount + `)\s*`)
)

// userStatement handles account statements; handled is false for others.
func (s *Session) userStatement(ctx context.Context, sql string) (*sqltypes.Result, bool, error) {
	head := strings.ToUpper(strings.TrimSpace(firstWords(sql, 3)))
	switch {
	case strings.HasPrefix(head, "CREATE USER"):
		m := reCreateUser.FindStringSubmatch(sql)
		if m == nil {
			return nil, true, syntaxErr("You have an error in your SQL syntax near 'CREATE USER'")
		}
		return s.createUsers(m[2], m[1] != "")
	case strings.HasPrefix(head, "DROP USER"):
		m := reDropUser.FindStringSubmatch(sql)
		if m == nil {
			return nil, true, syntaxErr("You have an error in your SQL syntax near 'DROP USER'")
		}
		return s.dropUsers(m[2], m[1] != "")
	case strings.HasPrefix(head, "ALTER USER"):
		m := reAlterUser.FindStringSubmatch(sql)
		if m == nil {
			return nil, true, syntaxErr("You have an error in your SQL syntax near 'ALTER USER'")
		}
		return s.alterUsers(m[2], m[1] != "")
	case strings.HasPrefix(head, "GRANT"):
		m := reGrant.FindStringSubmatch(sql)
		if m == nil {
			return nil, true, syntaxErr("You have an error in your SQL syntax near 'GRANT'")
		}
		return s.grant(m[1], m[2], m[3], true)
	case strings.HasPrefix(head, "REVOKE"):
		m := reRevoke.FindStringSubmatch(sql)
		if m == nil {
			return nil, true, syntaxErr("You have an error in your SQL syntax near 'REVOKE'")
		}
		return s.grant(m[1], m[2], m[3], false)
	case strings.HasPrefix(head, "SET PASSWORD"):
		m := reSetPass.FindStringSubmatch(sql)
		if m == nil {
			return nil, true, syntaxErr("You have an error in your SQL syntax near 'SET PASSWORD'")
		}
		target := m[1]
		if target == "" {
			target = "'" + s.User + "'@'" + s.accountHost() + "'"
		}
		return s.alterUsers(target+" IDENTIFIED BY '"+m[2]+"'", false)
	case strings.HasPrefix(head, "SHOW GRANTS"):
		m := reShowGrants.FindStringSubmatch(sql)
		if m == nil {
			return nil, false, nil
		}
		return s.showGrants(m[1])
	}
	return nil, false, nil
}

// parseAccount reads one 'user'@'host' from the front of text.
func parseAccount(text string) (name, host, rest string, ok bool) {
	m := reAccountOne.FindStringSubmatchIndex(text)
	if m == nil {
		return "", "", text, false
	}
	sub := func(i int) string {
		if m[2*i] < 0 {
			return ""
		}
		return text[m[2*i]:m[2*i+1]]
	}
	switch {
	case m[2] >= 0:
		name, host = sub(1), sub(2)
	case m[6] >= 0:
		name, host = sub(3), sub(4)
	default:
		name, host = sub(5), strings.Trim(sub(6), "'")
	}
	if host == "" {
		host = "%"
	}
	if strings.EqualFold(name, "CURRENT_USER") {
		name = ""
	}
	return name, host, text[m[1]:], true
}

// accountSpecs splits "'a'@'h' IDENTIFIED BY 'x', 'b'" into accounts with
// optional passwords.
type accountSpec struct {
	name, host string
	password   *string
	plugin     string
}

func parseAccountList(text string) ([]accountSpec, error) {
	var out []accountSpec
	rest := text
	for {
		name, host, r, ok := parseAccount(rest)
		if !ok || name == "" {
			return nil, syntaxErr(fmt.Sprintf("You have an error in your SQL syntax near '%s'", firstWords(rest, 3)))
		}
		spec := accountSpec{name: name, host: host}
		if m := reIdentified.FindStringSubmatchIndex(r); m != nil && m[0] == 0 {
			pw := strings.ReplaceAll(r[m[4]:m[5]], "''", "'")
			pw = strings.ReplaceAll(pw, `\'`, `'`)
			spec.password = &pw
			if m[2] >= 0 {
				spec.plugin = strings.ToLower(r[m[2]:m[3]])
			}
			r = r[m[1]:]
		} else if m := reIdentWith.FindStringSubmatchIndex(r); m != nil && m[0] == 0 {
			spec.plugin = strings.ToLower(r[m[2]:m[3]])
			r = r[m[1]:]
		}
		out = append(out, spec)
		r = strings.TrimSpace(r)
		if strings.HasPrefix(r, ",") {
			rest = r[1:]
			continue
		}
		// Trailing options (REQUIRE, WITH, PASSWORD EXPIRE, ...) are accepted.
		return out, nil
	}
}

func (s *Session) requireSuper(what string) error {
	if s.isRoot() {
		return nil
	}
	u := s.account()
	if u != nil && (u.Allowed("CREATE USER", "", "") || u.GrantOption && u.Allowed("ALL", "", "")) {
		return nil
	}
	return sqlErr(sqlerror.ERSpecifiedAccessDenied, "42000", "Access denied; you need (at least one of) the %s privilege(s) for this operation", what)
}

func (s *Session) createUsers(text string, ifNotExists bool) (*sqltypes.Result, bool, error) {
	if err := s.requireSuper("CREATE USER"); err != nil {
		return nil, true, err
	}
	specs, err := parseAccountList(text)
	if err != nil {
		return nil, true, err
	}
	d := s.eng.Cat.BeginDDL()
	var failed []string
	for _, sp := range specs {
		if sp.name == "root" || s.eng.Cat.User(sp.name, sp.host) != nil {
			if ifNotExists {
				s.warn("Note", 3163, fmt.Sprintf("Authorization ID '%s'@'%s' already exists.", sp.name, sp.host))
				continue
			}
			failed = append(failed, fmt.Sprintf("'%s'@'%s'", sp.name, sp.host))
			continue
		}
		u := &catalog.User{Name: sp.name, Host: sp.host, Plugin: "mysql_native_password"}
		if sp.plugin != "" {
			u.Plugin = sp.plugin
		}
		if sp.password != nil {
			u.SetPassword(*sp.password)
		}
		if err := d.PutUser(u); err != nil {
			d.Abort()
			return nil, true, err
		}
	}
	if len(failed) > 0 {
		d.Abort()
		return nil, true, sqlErr(erCannotUser, "HY000", "Operation CREATE USER failed for %s", strings.Join(failed, ","))
	}
	return &sqltypes.Result{}, true, d.Commit()
}

func (s *Session) dropUsers(text string, ifExists bool) (*sqltypes.Result, bool, error) {
	if err := s.requireSuper("CREATE USER"); err != nil {
		return nil, true, err
	}
	specs, err := parseAccountList(text)
	if err != nil {
		return nil, true, err
	}
	d := s.eng.Cat.BeginDDL()
	var failed []string
	for _, sp := range specs {
		if s.eng.Cat.User(sp.name, sp.host) == nil {
			if ifExists {
				s.warn("Note", 3162, fmt.Sprintf("Authorization ID '%s'@'%s' does not exist.", sp.name, sp.host))
				continue
			}
			failed = append(failed, fmt.Sprintf("'%s'@'%s'", sp.name, sp.host))
			continue
		}
		if err := d.DropUser(sp.name, sp.host); err != nil {
			d.Abort()
			return nil, true, err
		}
	}
	if len(failed) > 0 {
		d.Abort()
		return nil, true, sqlErr(erCannotUser, "HY000", "Operation DROP USER failed for %s", strings.Join(failed, ","))
	}
	return &sqltypes.Result{}, true, d.Commit()
}

func (s *Session) alterUsers(text string, ifExists bool) (*sqltypes.Result, bool, error) {
	specs, err := parseAccountList(text)
	if err != nil {
		return nil, true, err
	}
	// Users may change their own password.
	self := len(specs) == 1 && specs[0].name == s.User
	if !self {
		if err := s.requireSuper("CREATE USER"); err != nil {
			return nil, true, err
		}
	}
	d := s.eng.Cat.BeginDDL()
	for _, sp := range specs {
		old := s.eng.Cat.User(sp.name, sp.host)
		if old == nil && self {
			old = s.account()
		}
		if old == nil {
			if ifExists {
				continue
			}
			d.Abort()
			return nil, true, sqlErr(erCannotUser, "HY000", "Operation ALTER USER failed for '%s'@'%s'", sp.name, sp.host)
		}
		u := old.Clone()
		if sp.password != nil {
			u.SetPassword(*sp.password)
		}
		if sp.plugin != "" {
			u.Plugin = sp.plugin
		}
		if err := d.PutUser(u); err != nil {
			d.Abort()
			return nil, true, err
		}
	}
	return &sqltypes.Result{}, true, d.Commit()
}

// parsePrivs parses "SELECT, INSERT" / "ALL [PRIVILEGES]".
func parsePrivs(text string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(text, ",") {
		p = strings.ToUpper(strings.Join(strings.Fields(p), " "))
		if i := strings.IndexByte(p, '('); i >= 0 {
			p = strings.TrimSpace(p[:i]) // column lists are not supported: table level
		}
		if p == "ALL PRIVILEGES" {
			p = "ALL"
		}
		if !privNames[p] {
			return nil, syntaxErr(fmt.Sprintf("You have an error in your SQL syntax; unknown privilege '%s'", p))
		}
		out = append(out, p)
	}
	return out, nil
}

// grant implements GRANT (add=true) and REVOKE.
func (s *Session) grant(privText, on, to string, add bool) (*sqltypes.Result, bool, error) {
	if err := s.requireSuper("GRANT OPTION"); err != nil {
		return nil, true, err
	}
	privs, err := parsePrivs(privText)
	if err != nil {
		return nil, true, err
	}
	withGrant := false
	if i := strings.Index(strings.ToUpper(to), " WITH GRANT OPTION"); i >= 0 {
		to, withGrant = to[:i], true
	}
	on = strings.ReplaceAll(on, "`", "")
	db, tbl, ok := strings.Cut(on, ".")
	if !ok {
		db, tbl = s.DB, on
		if db == "" {
			return nil, true, noDBErr()
		}
	}
	specs, err := parseAccountList(to)
	if err != nil {
		return nil, true, err
	}
	d := s.eng.Cat.BeginDDL()
	for _, sp := range specs {
		old := s.eng.Cat.User(sp.name, sp.host)
		if old == nil {
			d.Abort()
			return nil, true, sqlErr(sqlerror.ERNonExistingGrant, "42000", "You are not allowed to create a user with GRANT")
		}
		u := old.Clone()
		var list *[]string
		switch {
		case db == "*" && tbl == "*":
			list = &u.Global
		case tbl == "*":
			l := u.DB[db]
			list = &l
		default:
			l := u.Table[db+"\x00"+tbl]
			list = &l
		}
		if add {
			for _, p := range expandAll(privs) {
				if p != "USAGE" && !hasString(*list, p) {
					*list = append(*list, p)
				}
			}
			if withGrant {
				u.GrantOption = true
			}
		} else {
			var keep []string
			revoked := expandAll(privs)
			for _, x := range *list {
				if !hasString(revoked, x) {
					keep = append(keep, x)
				}
			}
			*list = keep
		}
		if sp.password != nil {
			u.SetPassword(*sp.password)
		}
		// Apply the deferred map writes before persisting.
		switch {
		case db == "*" && tbl == "*":
		case tbl == "*":
			u.DB[db] = *list
		default:
			u.Table[db+"\x00"+tbl] = *list
		}
		if err := d.PutUser(u); err != nil {
			d.Abort()
			return nil, true, err
		}
	}
	return &sqltypes.Result{}, true, d.Commit()
}

func hasString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func (s *Session) showGrants(target string) (*sqltypes.Result, bool, error) {
	name, host := s.User, s.accountHost()
	if target != "" && !strings.EqualFold(strings.TrimSpace(target), "CURRENT_USER()") && !strings.EqualFold(strings.TrimSpace(target), "CURRENT_USER") {
		n, h, _, ok := parseAccount(target)
		if !ok {
			return nil, true, syntaxErr("You have an error in your SQL syntax near 'SHOW GRANTS'")
		}
		name, host = n, h
	}
	col := fmt.Sprintf("Grants for %s@%s", name, host)
	if name == "root" {
		return textResult([]string{col}, [][]string{{fmt.Sprintf("GRANT ALL PRIVILEGES ON *.* TO `%s`@`%s` WITH GRANT OPTION", name, host)}}), true, nil
	}
	u := s.eng.Cat.User(name, host)
	if u == nil {
		return nil, true, sqlErr(sqlerror.ERNonExistingGrant, "42000", "There is no such grant defined for user '%s' on host '%s'", name, host)
	}
	who := fmt.Sprintf("`%s`@`%s`", u.Name, u.Host)
	fmtPrivs := func(l []string) string {
		all := true
		for _, p := range allPrivs {
			if !hasString(l, p) {
				all = false
			}
		}
		if all || hasString(l, "ALL") {
			return "ALL PRIVILEGES"
		}
		return strings.Join(l, ", ")
	}
	global := "USAGE"
	if len(u.Global) > 0 {
		global = fmtPrivs(u.Global)
	}
	line := fmt.Sprintf("GRANT %s ON *.* TO %s", global, who)
	if u.GrantOption {
		line += " WITH GRANT OPTION"
	}
	rows := [][]string{{line}}
	var dbs []string
	for db, l := range u.DB {
		if len(l) > 0 {
			dbs = append(dbs, db)
		}
	}
	sort.Strings(dbs)
	for _, db := range dbs {
		rows = append(rows, []string{fmt.Sprintf("GRANT %s ON `%s`.* TO %s", fmtPrivs(u.DB[db]), db, who)})
	}
	var tbls []string
	for k, l := range u.Table {
		if len(l) > 0 {
			tbls = append(tbls, k)
		}
	}
	sort.Strings(tbls)
	for _, k := range tbls {
		db, t, _ := strings.Cut(k, "\x00")
		rows = append(rows, []string{fmt.Sprintf("GRANT %s ON `%s`.`%s` TO %s", fmtPrivs(u.Table[k]), db, t, who)})
	}
	return textResult([]string{col}, rows), true, nil
}

// --- privilege checks ---

func (s *Session) isRoot() bool { return s.User == "root" || s.User == "" }

func (s *Session) accountHost() string {
	if u := s.account(); u != nil {
		return u.Host
	}
	return s.Host
}

// account returns the catalog entry the session authenticated as.
func (s *Session) account() *catalog.User {
	return s.eng.Cat.MatchUser(s.User, s.Host, s.Host == "localhost")
}

func (s *Session) tableDenied(priv, db, table string) error {
	return sqlErr(sqlerror.ERTableAccessDenied, "42000", "%s command denied to user '%s'@'%s' for table '%s'", priv, s.User, s.Host, table)
}

func (s *Session) dbDenied(db string) error {
	return sqlErr(erDBAccessDenied, "42000", "Access denied for user '%s'@'%s' to database '%s'", s.User, s.Host, db)
}

// checkAccess enforces privileges for a parsed statement.
func (s *Session) checkAccess(stmt sqlparser.Statement) error {
	if s.isRoot() {
		return nil
	}
	u := s.account()
	if u == nil {
		return s.dbDenied(s.DB)
	}
	need := func(priv string, tn sqlparser.TableName) error {
		db := tn.Qualifier.String()
		if db == "" {
			db = s.DB
		}
		name := tn.Name.String()
		if isSystemSchema(db) || db == "" || name == "dual" || s.lookupCTE(name) != nil {
			return nil
		}
		if !u.Allowed(priv, db, name) {
			return s.tableDenied(priv, db, name)
		}
		return nil
	}
	readAll := func(n sqlparser.SQLNode, skip map[string]bool) error {
		var err error
		_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
			if a, ok := node.(*sqlparser.AliasedTableExpr); ok {
				if tn, ok := a.Expr.(sqlparser.TableName); ok && !skip[tn.Name.String()] && err == nil {
					err = need("SELECT", tn)
				}
			}
			return err == nil, nil
		}, n)
		return err
	}
	firstTable := func(te sqlparser.TableExpr) (sqlparser.TableName, bool) {
		if a, ok := te.(*sqlparser.AliasedTableExpr); ok {
			if tn, ok := a.Expr.(sqlparser.TableName); ok {
				return tn, true
			}
		}
		return sqlparser.TableName{}, false
	}
	switch st := stmt.(type) {
	case *sqlparser.Select, *sqlparser.Union:
		return readAll(st, nil)
	case *sqlparser.Insert:
		tn, _ := st.Table.Expr.(sqlparser.TableName)
		if err := need("INSERT", tn); err != nil {
			return err
		}
		if st.Action == sqlparser.ReplaceAct {
			if err := need("DELETE", tn); err != nil {
				return err
			}
		}
		if len(st.OnDup) > 0 {
			if err := need("UPDATE", tn); err != nil {
				return err
			}
		}
		if sel, ok := st.Rows.(sqlparser.TableStatement); ok {
			return readAll(sel, nil)
		}
	case *sqlparser.Update:
		for _, te := range st.TableExprs {
			if tn, ok := firstTable(te); ok {
				if err := need("UPDATE", tn); err != nil {
					return err
				}
			}
		}
	case *sqlparser.Delete:
		for _, te := range st.TableExprs {
			if tn, ok := firstTable(te); ok {
				if err := need("DELETE", tn); err != nil {
					return err
				}
			}
		}
	case *sqlparser.CreateTable:
		return need("CREATE", st.Table)
	case *sqlparser.AlterTable:
		for _, o := range st.AlterOptions {
			switch o.(type) {
			case *sqlparser.AddIndexDefinition, *sqlparser.DropKey:
				if err := need("INDEX", st.Table); err == nil {
					continue
				}
			}
			if err := need("ALTER", st.Table); err != nil {
				return err
			}
		}
	case *sqlparser.DropTable:
		for _, tn := range st.FromTables {
			if err := need("DROP", tn); err != nil {
				return err
			}
		}
	case *sqlparser.TruncateTable:
		return need("DROP", st.Table)
	case *sqlparser.RenameTable:
		for _, p := range st.TablePairs {
			if err := need("ALTER", p.FromTable); err != nil {
				return err
			}
			if err := need("CREATE", p.ToTable); err != nil {
				return err
			}
		}
	case *sqlparser.CreateDatabase:
		if !u.Allowed("CREATE", st.DBName.String(), "") {
			return s.dbDenied(st.DBName.String())
		}
	case *sqlparser.DropDatabase:
		if !u.Allowed("DROP", st.DBName.String(), "") {
			return s.dbDenied(st.DBName.String())
		}
	case *sqlparser.Use:
		db := st.DBName.String()
		if db != "" && !isSystemSchema(db) && !u.AnyOn(db) {
			return s.dbDenied(db)
		}
	case *sqlparser.Set:
		for _, e := range st.Exprs {
			if e.Var.Scope == sqlparser.GlobalScope && !u.Allowed("SUPER", "", "") {
				return sqlErr(sqlerror.ERSpecifiedAccessDenied, "42000", "Access denied; you need (at least one of) the SUPER or SYSTEM_VARIABLES_ADMIN privilege(s) for this operation")
			}
		}
	}
	return nil
}

// allPrivs is what ALL [PRIVILEGES] grants at database and table level.
var allPrivs = []string{"SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "REFERENCES", "INDEX", "ALTER", "CREATE TEMPORARY TABLES", "LOCK TABLES", "EXECUTE", "CREATE VIEW", "SHOW VIEW", "CREATE ROUTINE", "ALTER ROUTINE", "EVENT", "TRIGGER"}

// expandAll replaces ALL by the individual privileges, so that a later
// REVOKE of one of them takes effect.
func expandAll(privs []string) []string {
	var out []string
	for _, p := range privs {
		if p == "ALL" {
			out = append(out, allPrivs...)
			continue
		}
		out = append(out, p)
	}
	return out
}

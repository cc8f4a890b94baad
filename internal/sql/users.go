package sql

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Account management (CREATE/DROP/ALTER USER, GRANT, REVOKE, SET PASSWORD,
// SHOW GRANTS). Vitess's parser lacks these statements, so they have their
// own small parser here; each checks its privilege rule (package privilege)
// before acting. root is built in and holds every privilege.

var (
	reAccount    = `'([^']*)'(?:@'([^']*)')?|` + "`([^`]*)`(?:@`([^`]*)`)?" + `|([A-Za-z0-9_$]+)(?:@([A-Za-z0-9_.%$]+|'[^']*'))?`
	reCreateUser = regexp.MustCompile(`(?is)^\s*CREATE\s+USER\s+(IF\s+NOT\s+EXISTS\s+)?(.*?)\s*;?\s*$`)
	reDropUser   = regexp.MustCompile(`(?is)^\s*DROP\s+USER\s+(IF\s+EXISTS\s+)?(.*?)\s*;?\s*$`)
	reAlterUser  = regexp.MustCompile(`(?is)^\s*ALTER\s+USER\s+(IF\s+EXISTS\s+)?(.*?)\s*;?\s*$`)
	// reRoutineGrant: GRANT/REVOKE … ON PROCEDURE|FUNCTION name (routine
	// privileges strata does not keep).
	reRoutineGrant = regexp.MustCompile(`(?is)^\s*(?:GRANT|REVOKE)\s+.+?\s+ON\s+(?:PROCEDURE|FUNCTION)\s+\S+\s+(?:TO|FROM)\s+`)
	reGrant        = regexp.MustCompile(`(?is)^\s*GRANT\s+(.+?)\s+ON\s+(?:TABLE\s+)?(\S+)\s+TO\s+(.+?)\s*;?\s*$`)
	reRevoke       = regexp.MustCompile(`(?is)^\s*REVOKE\s+(.+?)\s+ON\s+(?:TABLE\s+)?(\S+)\s+FROM\s+(.+?)\s*;?\s*$`)
	reSetPass      = regexp.MustCompile(`(?is)^\s*SET\s+PASSWORD\s*(?:FOR\s+(.+?))?\s*=\s*(?:PASSWORD\s*\(\s*)?'((?:[^'\\]|\\.|'')*)'\s*\)?\s*;?\s*$`)
	reShowGrants   = regexp.MustCompile(`(?is)^\s*SHOW\s+GRANTS(?:\s+FOR\s+(.+?))?\s*;?\s*$`)
	reIdentified   = regexp.MustCompile(`(?is)^\s*IDENTIFIED\s+(?:WITH\s+'?([A-Za-z0-9_]+)'?\s+)?BY\s+'((?:[^'\\]|\\.|'')*)'`)
	reIdentWith    = regexp.MustCompile(`(?is)^\s*IDENTIFIED\s+WITH\s+'?([A-Za-z0-9_]+)'?`)
	reAccountOne   = regexp.MustCompile(`^\s*(?:` + reAccount + `)\s*`)
)

// userStatement handles account statements; handled is false for others.
func (s *Session) userStatement(ctx context.Context, sql string) (*sqltypes.Result, bool, error) {
	head := strings.ToUpper(strings.TrimSpace(firstWords(sql, 3)))
	switch {
	case strings.HasPrefix(head, "CREATE USER"):
		s.countCom(comCreateUser)
		m := reCreateUser.FindStringSubmatch(sql)
		if m == nil {
			return nil, true, sqlerr.Syntax("You have an error in your SQL syntax near 'CREATE USER'")
		}
		return s.createUsers(m[2], m[1] != "")
	case strings.HasPrefix(head, "DROP USER"):
		s.countCom(comDropUser)
		m := reDropUser.FindStringSubmatch(sql)
		if m == nil {
			return nil, true, sqlerr.Syntax("You have an error in your SQL syntax near 'DROP USER'")
		}
		return s.dropUsers(m[2], m[1] != "")
	case strings.HasPrefix(head, "ALTER USER"):
		s.countCom(comAlterUser)
		m := reAlterUser.FindStringSubmatch(sql)
		if m == nil {
			return nil, true, sqlerr.Syntax("You have an error in your SQL syntax near 'ALTER USER'")
		}
		return s.alterUsers(m[2], m[1] != "", privilege.KindAlterUser)
	case strings.HasPrefix(head, "GRANT"):
		s.countCom(comGrant)
		m := reGrant.FindStringSubmatch(sql)
		if m == nil {
			if reRoutineGrant.MatchString(sql) {
				return nil, true, sqlerr.Unsupported("privileges on a single stored routine (GRANT … ON PROCEDURE/FUNCTION); grant EXECUTE, ALTER ROUTINE on the database")
			}
			return nil, true, sqlerr.Syntax("You have an error in your SQL syntax near 'GRANT'")
		}
		return s.grant(m[1], m[2], m[3], true)
	case strings.HasPrefix(head, "REVOKE"):
		s.countCom(comRevoke)
		m := reRevoke.FindStringSubmatch(sql)
		if m == nil {
			if reRoutineGrant.MatchString(sql) {
				return nil, true, sqlerr.Unsupported("privileges on a single stored routine (REVOKE … ON PROCEDURE/FUNCTION)")
			}
			return nil, true, sqlerr.Syntax("You have an error in your SQL syntax near 'REVOKE'")
		}
		return s.grant(m[1], m[2], m[3], false)
	case strings.HasPrefix(head, "SET PASSWORD"):
		s.countCom(comSetPassword)
		m := reSetPass.FindStringSubmatch(sql)
		if m == nil {
			return nil, true, sqlerr.Syntax("You have an error in your SQL syntax near 'SET PASSWORD'")
		}
		target := m[1]
		if target == "" {
			target = "'" + s.User + "'@'" + s.accountHost() + "'"
		}
		return s.alterUsers(target+" IDENTIFIED BY '"+m[2]+"'", false, privilege.KindSetPassword)
	case strings.HasPrefix(head, "SHOW GRANTS"):
		s.countCom(comShowGrants)
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
			return nil, sqlerr.Syntax(fmt.Sprintf("You have an error in your SQL syntax near '%s'", firstWords(rest, 3)))
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

// authorizeKind checks a global-level account rule (CREATE/DROP/ALTER
// USER, SET PASSWORD); db names the database a 1044 refusal names.
func (s *Session) authorizeKind(k privilege.Kind, db string) error {
	return s.authorizeNeeds(privilege.RuleFor(k).Need(db, ""))
}

func (s *Session) createUsers(text string, ifNotExists bool) (*sqltypes.Result, bool, error) {
	if err := s.authorizeKind(privilege.KindCreateUser, ""); err != nil {
		return nil, true, err
	}
	specs, err := parseAccountList(text)
	if err != nil {
		return nil, true, err
	}
	d := s.eng.Cat.BeginDDL()
	defer d.Abort() // no-op after Commit; releases the DDL mutex on a panic
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
		return nil, true, sqlerr.New(sqlerr.CannotUser, sqlerror.SSUnknownSQLState, "Operation CREATE USER failed for %s", strings.Join(failed, ","))
	}
	return &sqltypes.Result{}, true, d.Commit()
}

func (s *Session) dropUsers(text string, ifExists bool) (*sqltypes.Result, bool, error) {
	if err := s.authorizeKind(privilege.KindDropUser, ""); err != nil {
		return nil, true, err
	}
	specs, err := parseAccountList(text)
	if err != nil {
		return nil, true, err
	}
	d := s.eng.Cat.BeginDDL()
	defer d.Abort() // no-op after Commit; releases the DDL mutex on a panic
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
		return nil, true, sqlerr.New(sqlerr.CannotUser, sqlerror.SSUnknownSQLState, "Operation DROP USER failed for %s", strings.Join(failed, ","))
	}
	return &sqltypes.Result{}, true, d.Commit()
}

// alterUsers implements ALTER USER and SET PASSWORD (kind says which, for
// the privilege rule).
func (s *Session) alterUsers(text string, ifExists bool, kind privilege.Kind) (*sqltypes.Result, bool, error) {
	specs, err := parseAccountList(text)
	if err != nil {
		return nil, true, err
	}
	// Users may change their own account's password: name and host must be
	// the session's account, not a namesake on another host.
	self := len(specs) == 1 && specs[0].name == s.User && specs[0].host == s.accountHost()
	if !self {
		if err := s.authorizeKind(kind, "mysql"); err != nil {
			return nil, true, err
		}
	}
	d := s.eng.Cat.BeginDDL()
	defer d.Abort() // no-op after Commit; releases the DDL mutex on a panic
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
			return nil, true, sqlerr.New(sqlerr.CannotUser, sqlerror.SSUnknownSQLState, "Operation ALTER USER failed for '%s'@'%s'", sp.name, sp.host)
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

// parsePrivs parses a GRANT/REVOKE privilege list: "SELECT, INSERT",
// "ALL [PRIVILEGES]", dynamic privileges ("CONNECTION_ADMIN"), and column
// lists ("SELECT (a, b), UPDATE (c)"), returned in cols. all reports ALL,
// whose meaning depends on the level.
func parsePrivs(text string) (p privilege.Priv, all bool, cols []colGrant, err error) {
	for _, item := range splitPrivItems(text) {
		if strings.IndexByte(item, '(') >= 0 {
			g, err := parseColumnItem(item)
			if err != nil {
				return 0, false, nil, err
			}
			cols = append(cols, g)
			continue
		}
		name := strings.ToUpper(strings.Join(strings.Fields(item), " "))
		if name == "ALL" || name == "ALL PRIVILEGES" {
			all = true
			continue
		}
		x, ok := privilege.Parse(name)
		if !ok {
			return 0, false, nil, sqlerr.Syntax(fmt.Sprintf("You have an error in your SQL syntax; unknown privilege '%s'", name))
		}
		p |= x
	}
	return p, all, cols, nil
}

// grantObject is the ON clause of GRANT/REVOKE.
type grantObject struct {
	level     privilege.Level
	db, table string
}

func (s *Session) parseGrantObject(on string) (grantObject, error) {
	on = strings.ReplaceAll(on, "`", "")
	db, tbl, ok := strings.Cut(on, ".")
	if !ok {
		db, tbl = s.DB, on
		if db == "" {
			return grantObject{}, sqlerr.NoDB()
		}
	}
	switch {
	case db == "*" && tbl == "*":
		return grantObject{level: privilege.Global}, nil
	case db == "*":
		return grantObject{}, sqlerr.Syntax("You have an error in your SQL syntax near '" + on + "'")
	case tbl == "*":
		return grantObject{level: privilege.Database, db: db}, nil
	}
	return grantObject{level: privilege.Table, db: db, table: tbl}, nil
}

// grantNeed is what the grantor must hold to GRANT or REVOKE p on o: GRANT
// OPTION and p, at o's level or above. MySQL refuses a global grant with
// 1045, a database grant with 1044 and a table grant with 1142.
func grantNeed(p privilege.Priv, o grantObject) privilege.Need {
	n := privilege.Need{Level: o.level, Privs: p | privilege.GrantOption, DB: o.db, Table: o.table}
	switch o.level {
	case privilege.Global:
		n.Deny = privilege.DenyAccess
	case privilege.Database:
		n.Deny = privilege.DenyDB
	default:
		n.Deny = privilege.DenyTable
	}
	return n
}

// checkGrantable refuses privileges that cannot be granted at o's level,
// with MySQL's errors.
func checkGrantable(p privilege.Priv, o grantObject) error {
	bad := privilege.Grantable(p, o.level)
	switch {
	case bad == 0:
		return nil
	case bad&privilege.Dynamic != 0:
		return sqlerr.New(sqlerr.IllegalPrivilegeLevel, sqlerror.SSUnknownSQLState, "Illegal privilege level specified for %s", (bad & privilege.Dynamic).Names()[0])
	case o.level == privilege.Database:
		return sqlerr.New(sqlerror.ERWrongUsage, sqlerror.SSUnknownSQLState, "Incorrect usage of DB GRANT and GLOBAL PRIVILEGES")
	}
	return sqlerr.New(sqlerror.ERIllegalGrantForTable, sqlerror.SSClientError, "Illegal GRANT/REVOKE command; please consult the manual to see which privileges can be used")
}

// grant implements GRANT (add=true) and REVOKE.
func (s *Session) grant(privText, on, to string, add bool) (*sqltypes.Result, bool, error) {
	p, all, cols, err := parsePrivs(privText)
	if err != nil {
		return nil, true, err
	}
	o, err := s.parseGrantObject(on)
	if err != nil {
		return nil, true, err
	}
	if err := s.resolveColumnGrants(cols, o); err != nil {
		return nil, true, err
	}
	if all {
		p |= privilege.All(o.level)
	}
	if add {
		if i := strings.Index(strings.ToUpper(to), " WITH GRANT OPTION"); i >= 0 {
			to, p = to[:i], p|privilege.GrantOption
		}
	}
	if err := checkGrantable(p, o); err != nil {
		return nil, true, err
	}
	if sub := s.subject(); sub != nil {
		need := grantNeed(p|columnPrivs(cols), o)
		if !sub.Allowed(need) {
			// A global grant whose static part the grantor holds but not
			// its dynamic privileges: MySQL answers 1227.
			if o.level == privilege.Global && sub.Grants.Global.Has(need.Privs&^privilege.Dynamic) {
				return nil, true, privilege.SpecificDenied("GRANT OPTION")
			}
			return nil, true, sub.Denied(need)
		}
	}
	specs, err := parseAccountList(to)
	if err != nil {
		return nil, true, err
	}
	d := s.eng.Cat.BeginDDL()
	defer d.Abort() // no-op after Commit; releases the DDL mutex on a panic
	for _, sp := range specs {
		if sp.password != nil {
			// MySQL 8.0 removed GRANT … IDENTIFIED BY; it would let a
			// grantor change another account's password.
			d.Abort()
			return nil, true, sqlerr.Syntax("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'IDENTIFIED BY' at line 1")
		}
		old := s.eng.Cat.User(sp.name, sp.host)
		if old == nil {
			d.Abort()
			if !add {
				return nil, true, sqlerr.New(sqlerror.ERNonExistingGrant, sqlerror.SSClientError, "There is no such grant defined for user '%s' on host '%s'", sp.name, sp.host)
			}
			return nil, true, sqlerr.New(sqlerr.CantCreateUserWithGrant, sqlerror.SSClientError, "You are not allowed to create a user with GRANT")
		}
		u := old.Clone()
		setGrants(u, o, p, add)
		if err := setColumnGrants(u, o, cols, p, add); err != nil {
			d.Abort()
			return nil, true, err
		}
		if err := d.PutUser(u); err != nil {
			d.Abort()
			return nil, true, err
		}
	}
	return &sqltypes.Result{}, true, d.Commit()
}

// setGrants adds (or removes) p at o's level of account u, storing the
// privilege names in MySQL's order. The legacy account-wide grant_option
// flag is rewritten as the global GRANT OPTION it means.
func setGrants(u *catalog.User, o grantObject, p privilege.Priv, add bool) {
	g := privilege.FromUser(u)
	u.GrantOption = false
	u.Global = g.Global.Names()
	apply := func(cur privilege.Priv) privilege.Priv {
		if add {
			return cur | p
		}
		return cur &^ p
	}
	put := func(m *map[string][]string, k string, cur privilege.Priv) {
		if *m == nil {
			*m = map[string][]string{}
		}
		if cur == 0 {
			delete(*m, k)
			return
		}
		(*m)[k] = cur.Names()
	}
	switch o.level {
	case privilege.Global:
		u.Global = apply(g.Global).Names()
	case privilege.Database:
		put(&u.DB, o.db, apply(g.DB[o.db]))
	default:
		k := privilege.TableKey(o.db, o.table)
		put(&u.Table, k, apply(g.Table[k]))
	}
}

func (s *Session) showGrants(target string) (*sqltypes.Result, bool, error) {
	name, host := s.User, s.accountHost()
	if target != "" && !strings.EqualFold(strings.TrimSpace(target), "CURRENT_USER()") && !strings.EqualFold(strings.TrimSpace(target), "CURRENT_USER") {
		n, h, _, ok := parseAccount(target)
		if !ok {
			return nil, true, sqlerr.Syntax("You have an error in your SQL syntax near 'SHOW GRANTS'")
		}
		name, host = n, h
	}
	if name == "" {
		name, host = s.User, s.accountHost()
	}
	ns := &needs{s: s}
	ns.showGrantsFor(name, host)
	if err := s.authorizeNeeds(ns.list...); err != nil {
		return nil, true, err
	}
	col := fmt.Sprintf("Grants for %s@%s", name, host)
	if name == "root" {
		return textResult([]string{col}, [][]string{{fmt.Sprintf("GRANT ALL PRIVILEGES ON *.* TO `%s`@`%s` WITH GRANT OPTION", name, host)}}), true, nil
	}
	u := s.eng.Cat.User(name, host)
	if u == nil {
		return nil, true, sqlerr.New(sqlerror.ERNonExistingGrant, sqlerror.SSClientError, "There is no such grant defined for user '%s' on host '%s'", name, host)
	}
	g := privilege.FromUser(u)
	who := fmt.Sprintf("`%s`@`%s`", u.Name, u.Host)
	line := func(p privilege.Priv, level privilege.Level, on string) string {
		list := "USAGE"
		switch held := p &^ privilege.GrantOption; {
		case held == privilege.All(level)&^privilege.Dynamic:
			list = "ALL PRIVILEGES"
		case held != 0:
			list = strings.Join(held.Names(), ", ")
		}
		l := fmt.Sprintf("GRANT %s ON %s TO %s", list, on, who)
		if p.Has(privilege.GrantOption) {
			l += " WITH GRANT OPTION"
		}
		return l
	}
	rows := [][]string{{line(g.Global&^privilege.Dynamic, privilege.Global, "*.*")}}
	if dyn := g.Global & privilege.Dynamic; dyn != 0 {
		l := fmt.Sprintf("GRANT %s ON *.* TO %s", strings.Join(dyn.Names(), ","), who)
		if g.Global.Has(privilege.GrantOption) {
			l += " WITH GRANT OPTION"
		}
		rows = append(rows, []string{l})
	}
	var dbs []string
	for db := range g.DB {
		dbs = append(dbs, db)
	}
	sort.Strings(dbs)
	for _, db := range dbs {
		rows = append(rows, []string{line(g.DB[db], privilege.Database, "`"+db+"`.*")})
	}
	rows = append(rows, tableGrantLines(u, g, who)...)
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

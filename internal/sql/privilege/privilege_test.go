package privilege

import (
	"testing"

	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/catalog"
)

// Every statement kind has its own rule: none falls back to KindUnknown's.
func TestEveryKindHasARule(t *testing.T) {
	seen := map[string]Kind{}
	for _, k := range Kinds() {
		r := &rules[k]
		if r.Name == "" || r.Doc == "" {
			t.Errorf("kind %d has no rule", k)
			continue
		}
		if o, dup := seen[r.Name]; dup {
			t.Errorf("kinds %d and %d share the name %q", o, k, r.Name)
		}
		seen[r.Name] = k
		switch r.Level {
		case None:
			if r.Privs != 0 {
				t.Errorf("%s: level none with privileges", r.Name)
			}
		case Global, Owner, Table:
			if r.Privs == 0 {
				t.Errorf("%s: no privileges at level %s", r.Name, r.Level)
			}
		}
		if r.Deny == DenySpecific && r.Names == "" {
			t.Errorf("%s: 1227 without a privilege text", r.Name)
		}
	}
	if RuleFor(numKinds+3) != &rules[KindUnknown] {
		t.Error("an out-of-range kind does not get the unknown rule")
	}
}

func TestDescribeUsesMySQLOrder(t *testing.T) {
	for _, c := range []struct {
		p    Priv
		want string
	}{
		{Select, "SELECT"},
		{Insert | Select, "SELECT, INSERT"},
		{LockTables | Select, "SELECT, LOCK TABLES"},
		{GrantOption | Select, "SELECT, GRANT"},
		{Alter | Drop, "DROP, ALTER"},
		{Create | Insert, "INSERT, CREATE"},
	} {
		if got := c.p.Describe(); got != c.want {
			t.Errorf("Describe(%b) = %q, want %q", c.p, got, c.want)
		}
	}
	if got := (Select | CreateView).Names(); len(got) != 2 || got[1] != "CREATE VIEW" {
		t.Errorf("Names = %q", got)
	}
	for i := range names {
		p := Priv(1) << i
		if q, ok := Parse(names[i]); !ok || q != p {
			t.Errorf("Parse(%q) = %b, %v", names[i], q, ok)
		}
	}
	if p := Priv(1) << len(names); p&GlobalLevel != 0 {
		t.Error("GlobalLevel holds a bit without a name")
	}
}

func TestLevels(t *testing.T) {
	if All(Table)&^TableLevel != 0 || All(Table).Has(GrantOption) {
		t.Error("ALL on a table")
	}
	if !All(Global).Has(Super|ConnectionAdmin|SystemUser) || All(Global).Has(GrantOption) {
		t.Error("ALL on *.*")
	}
	if Grantable(Super, Database) != Super || Grantable(Select|Index, Table) != 0 || Grantable(LockTables, Table) != LockTables {
		t.Error("Grantable")
	}
}

func TestFromUser(t *testing.T) {
	u := &catalog.User{Name: "u", Host: "%",
		Global: []string{"PROCESS"},
		DB:     map[string][]string{"app": {"ALL"}, "empty": nil},
		Table:  map[string][]string{TableKey("other", "t"): {"SELECT", "SUPER", "NO SUCH"}},
	}
	g := FromUser(u)
	if g.Global != Process {
		t.Errorf("global = %v", g.Global.Names())
	}
	if g.On("app", "x") != All(Database)|Process {
		t.Errorf("app = %v", g.On("app", "x").Names())
	}
	if g.On("other", "t") != Select|Process {
		t.Errorf("other.t = %v (a table grant cannot hold SUPER)", g.On("other", "t").Names())
	}
	if !g.AnyInDB("other") || g.AnyInDB("empty") || g.AnyInDB("nothing") {
		t.Error("AnyInDB")
	}
	if !g.SeesTable("other", "t") || g.SeesTable("other", "u") {
		t.Error("SeesTable")
	}
	// The legacy account-wide flag is a global GRANT OPTION.
	u.GrantOption = true
	if g := FromUser(u); g.Global != Process|GrantOption {
		t.Errorf("legacy grant option: global = %v", g.Global.Names())
	}
}

func errCode(err error) (sqlerror.ErrorCode, string, string) {
	se, ok := err.(*sqlerror.SQLError)
	if !ok {
		return 0, "", ""
	}
	return se.Num, se.State, se.Message
}

func TestCheckErrors(t *testing.T) {
	s := &Subject{User: "u", Host: "localhost", AccountHost: "%", Password: true,
		Grants: Grants{Table: map[string]Priv{TableKey("app", "t"): Select}}}
	for _, c := range []struct {
		n     Need
		code  sqlerror.ErrorCode
		state string
		msg   string
	}{
		{RuleFor(KindSelect).Need("app", "t"), 0, "", ""},
		{RuleFor(KindAnalyzeTable).Need("app", "t"), 1142, "42000", "INSERT command denied to user 'u'@'localhost' for table 't'"},
		{RuleFor(KindAnalyzeTable).Need("app", "u"), 1142, "42000", "SELECT, INSERT command denied to user 'u'@'localhost' for table 'u'"},
		{RuleFor(KindShowCreateTable).Need("app", "t"), 0, "", ""},
		{RuleFor(KindShowCreateTable).Need("app", "u"), 1142, "42000", "SHOW command denied to user 'u'@'localhost' for table 'u'"},
		{RuleFor(KindShowColumns).Need("app", "u"), 1142, "42000", "SELECT command denied to user 'u'@'localhost' for table 'u'"},
		{OnColumn("app", "u", "id"), 1143, "42000", "SELECT command denied to user 'u'@'localhost' for column 'id' in table 'u'"},
		{RuleFor(KindUse).Need("app", ""), 0, "", ""},
		{RuleFor(KindUse).Need("other", ""), 1044, "42000", "Access denied for user 'u'@'%' to database 'other'"},
		{RuleFor(KindShowCreateDatabase).Need("other", ""), 1044, "42000", "Access denied for user 'u'@'localhost' to database 'other'"},
		{RuleFor(KindCreateDatabase).Need("app", ""), 1044, "42000", "Access denied for user 'u'@'%' to database 'app'"},
		{RuleFor(KindSetGlobal).Need("", ""), 1227, "42000", "Access denied; you need (at least one of) the SUPER or SYSTEM_VARIABLES_ADMIN privilege(s) for this operation"},
		{RuleFor(KindSelectIntoFile).Need("", ""), 1045, "28000", "Access denied for user 'u'@'%' (using password: YES)"},
		{RuleFor(Kind(200)).Need("", ""), 1227, "42000", "Access denied; you need (at least one of) the SUPER privilege(s) for this operation"},
		{RuleFor(KindTransaction).Need("", ""), 0, "", ""},
	} {
		code, state, msg := errCode(s.Check(c.n))
		if code != c.code || state != c.state || msg != c.msg {
			t.Errorf("%+v: got %d %s %q, want %d %s %q", c.n, code, state, msg, c.code, c.state, c.msg)
		}
	}
}

func TestCheckKill(t *testing.T) {
	plain := &Subject{User: "u"}
	admin := &Subject{User: "a", Grants: Grants{Global: ConnectionAdmin}}
	system := &Subject{User: "s", Grants: Grants{Global: Super | SystemUser}}
	for _, c := range []struct {
		s      *Subject
		target string
		sys    bool
		ok     bool
	}{
		{plain, "u", false, true},
		{plain, "v", false, false},
		{plain, "root", true, false},
		{admin, "v", false, true},
		{admin, "root", true, false},
		{system, "root", true, true},
	} {
		err := c.s.CheckKill(7, c.target, c.sys)
		if (err == nil) != c.ok {
			t.Errorf("%s kills %s: %v", c.s.User, c.target, err)
		}
		if code, state, msg := errCode(err); err != nil && (code != 1095 || state != "HY000" || msg != "You are not owner of thread 7") {
			t.Errorf("kill error %d %s %q", code, state, msg)
		}
	}
}

package privilege

import (
	"testing"

	"github.com/strata-db/strata/internal/catalog"
)

func columnSubject() *Subject {
	u := &catalog.User{Name: "u", Host: "%",
		Table: map[string][]string{TableKey("app", "t"): {"DELETE"}},
		Column: map[string][]string{
			"app\x00t\x00Id":  {"SELECT", "INSERT"},
			"app\x00t\x00b":   {"UPDATE", "REFERENCES", "DELETE"}, // DELETE cannot be held by a column
			"app\x00u\x00x":   {"REFERENCES"},
			"other\x00v\x00y": {"SELECT"},
		},
	}
	return &Subject{User: "u", Host: "localhost", AccountHost: "%", Grants: FromUser(u)}
}

func TestColumnGrants(t *testing.T) {
	s := columnSubject()
	g := &s.Grants
	if got := g.OnColumn("app", "t", "ID"); got != Select|Insert|Delete {
		t.Errorf("OnColumn(app.t.ID) = %v (names compare without case; the table's DELETE counts)", got.Names())
	}
	if got := g.OnColumn("app", "t", "b"); got != Update|References|Delete {
		t.Errorf("OnColumn(app.t.b) = %v (a column holds no DELETE)", got.Names())
	}
	if got := g.ColumnPrivs("app", "t"); got != Select|Insert|Update|References {
		t.Errorf("ColumnPrivs(app.t) = %v", got.Names())
	}
	if g.ColumnPrivs("app", "none") != 0 {
		t.Error("ColumnPrivs of a table without column grants")
	}
	// A column grant makes the table and its database visible, and only
	// the granted columns.
	if !g.SeesTable("other", "v") || !g.AnyInDB("other") || g.SeesTable("other", "w") {
		t.Error("SeesTable / AnyInDB with column grants")
	}
	if !g.SeesColumn("other", "v", "Y") || g.SeesColumn("other", "v", "z") {
		t.Error("SeesColumn")
	}
	if got, ok := s.ColumnPrivText("app", "t", "id"); !ok || got != "select,insert" {
		t.Errorf("ColumnPrivText(app.t.id) = %q, %v", got, ok)
	}
	if _, ok := s.ColumnPrivText("app", "t", "zz"); ok {
		t.Error("ColumnPrivText(app.t.zz): the table's DELETE does not make a column visible")
	}
	if _, ok := s.ColumnPrivText("other", "v", "z"); ok {
		t.Error("a column without privileges is visible")
	}
	var root *Subject
	if got, ok := root.ColumnPrivText("app", "t", "id"); !ok || got != "select,insert,update,references" {
		t.Errorf("root: %q %v", got, ok)
	}
	if db, table, col := SplitColumnKey("a\x00b\x00C"); db != "a" || table != "b" || col != "C" {
		t.Errorf("SplitColumnKey = %q %q %q", db, table, col)
	}
	if p, ok := FromColumnList([]string{"SELECT", "DELETE"}); ok || p != Select {
		t.Errorf("FromColumnList = %v %v", p.Names(), ok)
	}
}

func TestColumnChecks(t *testing.T) {
	s := columnSubject()
	tableSelect := RuleFor(KindSelect).Need("app", "t")
	withCols := tableSelect
	withCols.Columns = true
	for _, c := range []struct {
		name string
		n    Need
		code uint16
		msg  string
	}{
		// Table-level needs: column grants pass them only when the
		// statement's columns are checked as well.
		{"table SELECT, columns not checked", tableSelect, 1142, "SELECT command denied to user 'u'@'localhost' for table 't'"},
		{"table SELECT, columns checked", withCols, 0, ""},
		{"table UPDATE through a column", Need{Level: Table, Privs: Update, DB: "app", Table: "t", Columns: true}, 0, ""},
		{"no column holds it", Need{Level: Table, Privs: Select, DB: "app", Table: "u", Columns: true}, 1142, "SELECT command denied to user 'u'@'localhost' for table 'u'"},
		{"REPLACE: INSERT on a column, DELETE on the table", Need{Level: Table, Privs: Insert | Delete, DB: "app", Table: "t", Columns: true}, 0, ""},
		{"SHOW COLUMNS with a column grant", func() Need { n := RuleFor(KindShowColumns).Need("app", "u"); n.Columns = true; return n }(), 0, ""},
		// Column needs.
		{"SELECT id", OnColumn("app", "t", "ID"), 0, ""},
		{"SELECT b", OnColumn("app", "t", "b"), 1143, "SELECT command denied to user 'u'@'localhost' for column 'b' in table 't'"},
		{"UPDATE b", OnColumns(Update, "app", "t", "b"), 0, ""},
		{"UPDATE id", OnColumns(Update, "app", "t", "id"), 1143, "UPDATE command denied to user 'u'@'localhost' for column 'id' in table 't'"},
		{"INSERT b", OnColumns(Insert, "app", "t", "b"), 1143, "INSERT command denied to user 'u'@'localhost' for column 'b' in table 't'"},
	} {
		code, state, msg := errCode(s.Check(c.n))
		if uint16(code) != c.code || msg != c.msg || c.code != 0 && state != "42000" {
			t.Errorf("%s: got %d %s %q, want %d %q", c.name, code, state, msg, c.code, c.msg)
		}
	}
	// A table-level grant covers every column.
	s.Grants.Table[TableKey("app", "t")] |= Select
	if err := s.Check(OnColumn("app", "t", "anything")); err != nil {
		t.Errorf("table SELECT: %v", err)
	}
}

package vtable

import (
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/txn"
)

// fakeSource is a Source over a real catalog whose session sees database
// "shown" and every table but "shown.secret" (and nothing of "hidden").
// Variable rand_seed1 is session-only, so GLOBAL_VARIABLES leaves it out.
type fakeSource struct {
	cat    *catalog.Catalog
	parser *sqlparser.Parser
}

func (f *fakeSource) Catalog() *catalog.Catalog { return f.cat }
func (f *fakeSource) Parser() *sqlparser.Parser { return f.parser }
func (f *fakeSource) CanSeeDB(db string) bool   { return db != "hidden" }
func (f *fakeSource) CanSeeTable(db, table string) bool {
	return db != "hidden" && !(db == "shown" && table == "secret")
}
func (f *fakeSource) Conn() Conn {
	return Conn{ID: 7, User: "u", Host: "localhost", DB: "shown"}
}
func (f *fakeSource) Threads() []Thread {
	return []Thread{
		{Conn: f.Conn(), Command: "Query", Time: 2, Info: "SELECT 1"},
		{Conn: Conn{ID: 9, User: "u", Host: "localhost"}, Command: "Sleep", Time: 30},
	}
}
func (f *fakeSource) Subject() *privilege.Subject {
	return &privilege.Subject{User: "u", AccountHost: "%", Grants: privilege.Grants{Global: privilege.Process,
		DB: map[string]privilege.Priv{"shown": privilege.Select}}}
}
func (f *fakeSource) AccountHost() string   { return "%" }
func (f *fakeSource) SysVarNames() []string { return []string{"autocommit", "rand_seed1"} }
func (f *fakeSource) SysVar(name string, global bool) sqltypes.Value {
	if global {
		return sqltypes.NewVarChar("1")
	}
	return sqltypes.NewVarChar("0")
}
func (f *fakeSource) StatusVars(bool) [][]string { return [][]string{{"Uptime", "5"}} }
func (f *fakeSource) TableRows(*catalog.Table) uint64 {
	return 3
}
func (f *fakeSource) View(*catalog.View) ViewInfo                     { return ViewInfo{} }
func (f *fakeSource) NextAutoIncrement(*catalog.Table) (uint64, bool) { return 42, true }
func (f *fakeSource) StartTime() time.Time                            { return time.Unix(0, 0) }
func (f *fakeSource) Storage() Storage                                { return nil }
func (f *fakeSource) Transactions() []Trx                             { return nil }
func (f *fakeSource) LockWaits() []LockWait                           { return nil }
func (f *fakeSource) TimeZone() *time.Location                        { return time.UTC }

// newFakeSource builds a catalog with databases shown (tables p, c, secret)
// and hidden (table h); c has a foreign key to p.
func newFakeSource(t *testing.T) *fakeSource {
	t.Helper()
	k, err := kv.Open(kv.Options{Dir: "/db", FS: vfs.NewMem()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = k.Close() })
	cat, err := catalog.Load(txn.New(k, txn.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	d := cat.BeginDDL()
	table := func(db, name string, fks ...string) *catalog.Table {
		return &catalog.Table{
			DB:   db,
			Name: name,
			Columns: []catalog.Column{
				{Name: "id", Type: sqltypes.Int64, TypeName: "bigint", AutoIncrement: true, Collation: collations.CollationBinaryID},
				{Name: "v", Type: sqltypes.VarChar, TypeName: "varchar", Length: 20, Nullable: true, Collation: 45},
			},
			Indexes: []*catalog.Index{
				{ID: d.NewIndexID(), Name: "PRIMARY", Primary: true, Unique: true, Columns: []catalog.IndexColumn{{Col: 0}}},
				{ID: d.NewIndexID(), Name: "kv", Columns: []catalog.IndexColumn{{Col: 1}}},
			},
			AutoIncCol:  0,
			Collation:   45,
			ForeignKeys: fks,
		}
	}
	for _, db := range []string{"shown", "hidden"} {
		if err := d.PutDatabase(&catalog.Database{Name: db, Charset: "utf8mb4", Collation: 45}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tb := range []*catalog.Table{
		table("shown", "p"), table("shown", "c", "FOREIGN KEY (v) REFERENCES p (id)"),
		table("shown", "secret"), table("hidden", "h"),
	} {
		if err := d.PutTable(tb); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	return &fakeSource{cat: cat, parser: sqlparser.NewTestParser()}
}

// read returns the rows of information_schema.name as tab-separated text
// (NULL for NULL), keeping only the columns listed.
func read(t *testing.T, src Source, db, name string, cols ...string) []string {
	t.Helper()
	st, err := Lookup(db, name)
	if err != nil {
		t.Fatal(err)
	}
	idx := make([]int, len(cols))
	for i, c := range cols {
		idx[i] = -1
		for j := range st.Def.Columns {
			if st.Def.Columns[j].Name == c {
				idx[i] = j
			}
		}
		if idx[i] < 0 {
			t.Fatalf("%s.%s has no column %s", db, name, c)
		}
	}
	rows, err := st.Rows(src)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		var f []string
		for _, j := range idx {
			if r[j].IsNull() {
				f = append(f, "NULL")
			} else {
				f = append(f, r[j].ToString())
			}
		}
		out = append(out, strings.Join(f, "\t"))
	}
	return out
}

func TestRowsHonourVisibility(t *testing.T) {
	src := newFakeSource(t)
	is := InformationSchema
	for _, tc := range []struct {
		table string
		cols  []string
		want  []string
	}{
		{"SCHEMATA", []string{"SCHEMA_NAME"}, []string{"information_schema", "shown"}},
		{"COLUMNS", []string{"TABLE_SCHEMA", "TABLE_NAME", "COLUMN_NAME", "COLUMN_KEY"}, []string{
			"shown\tc\tid\tPRI", "shown\tc\tv\tMUL", "shown\tp\tid\tPRI", "shown\tp\tv\tMUL",
		}},
		{"STATISTICS", []string{"TABLE_NAME", "INDEX_NAME", "COLUMN_NAME", "CARDINALITY"}, []string{
			"c\tPRIMARY\tid\tNULL", "c\tkv\tv\tNULL", "p\tPRIMARY\tid\tNULL", "p\tkv\tv\tNULL",
		}},
		{"KEY_COLUMN_USAGE", []string{"TABLE_NAME", "CONSTRAINT_NAME", "COLUMN_NAME", "REFERENCED_TABLE_NAME"}, []string{
			"c\tPRIMARY\tid\tNULL", "c\tc_ibfk_1\tv\tp", "p\tPRIMARY\tid\tNULL",
		}},
		{"REFERENTIAL_CONSTRAINTS", []string{"CONSTRAINT_NAME", "UNIQUE_CONSTRAINT_NAME", "UPDATE_RULE"}, []string{
			"c_ibfk_1\tPRIMARY\tNO ACTION",
		}},
		{"PROCESSLIST", []string{"ID", "USER", "DB", "COMMAND", "TIME", "STATE", "INFO"}, []string{"7\tu\tshown\tQuery\t2\texecuting\tSELECT 1", "9\tu\tNULL\tSleep\t30\t\tNULL"}},
		{"USER_PRIVILEGES", []string{"GRANTEE", "PRIVILEGE_TYPE", "IS_GRANTABLE"}, []string{"'u'@'%'\tPROCESS\tNO"}},
		{"GLOBAL_VARIABLES", []string{"VARIABLE_NAME", "VARIABLE_VALUE"}, []string{"AUTOCOMMIT\tON"}},
		{"SESSION_VARIABLES", []string{"VARIABLE_NAME", "VARIABLE_VALUE"}, []string{"AUTOCOMMIT\tOFF", "RAND_SEED1\t0"}},
	} {
		var got []string
		for _, r := range read(t, src, is, tc.table, tc.cols...) {
			// COLUMNS also lists information_schema's own columns.
			if !strings.HasPrefix(r, is+"\t") {
				got = append(got, r)
			}
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tc.table, got, tc.want)
		}
	}

	// TABLES lists the system views and the visible user tables, with the
	// Source's row counts and auto-increment values.
	got := read(t, src, is, "TABLES", "TABLE_SCHEMA", "TABLE_NAME", "TABLE_TYPE", "TABLE_ROWS", "AUTO_INCREMENT")
	var user []string
	views := 0
	for _, r := range got {
		if strings.HasPrefix(r, is+"\t") {
			views++
			if !strings.HasSuffix(r, "\tSYSTEM VIEW\tNULL\tNULL") {
				t.Errorf("system view row %q", r)
			}
			continue
		}
		user = append(user, r)
	}
	if views != len(Tables(is)) {
		t.Errorf("TABLES lists %d system views, want %d", views, len(Tables(is)))
	}
	if want := "shown\tc\tBASE TABLE\t3\t42|shown\tp\tBASE TABLE\t3\t42"; strings.Join(user, "|") != want {
		t.Errorf("TABLES user rows %q, want %q", user, want)
	}
}

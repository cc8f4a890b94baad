package vtable

import (
	"strings"
	"testing"
	"time"

	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
)

func TestSystemTableDefinitions(t *testing.T) {
	for schema, sc := range schemas {
		if len(sc.tables) != len(sc.byName) {
			t.Errorf("%s: %d tables but %d names (duplicate?)", schema, len(sc.tables), len(sc.byName))
		}
		for _, st := range sc.tables {
			seen := map[string]bool{}
			for _, c := range st.Def.Columns {
				if seen[c.Name] {
					t.Errorf("%s.%s: duplicate column %s", schema, st.Def.Name, c.Name)
				}
				seen[c.Name] = true
			}
			if st.Def.ColumnCount() == 0 || !st.Def.HiddenPK || st.Def.AutoIncCol != -1 {
				t.Errorf("%s.%s: bad definition", schema, st.Def.Name)
			}
		}
	}
	for _, name := range []string{"tables", "TABLES", "Key_Column_Usage"} {
		st, err := Lookup("INFORMATION_SCHEMA", name)
		if err != nil || st == nil || st.Def == nil || st.rows == nil {
			t.Fatalf("Lookup(%q): %v", name, err)
		}
		if !strings.EqualFold(st.Def.Name, name) || st.Def.DB != InformationSchema {
			t.Errorf("Lookup(%q) = %s.%s", name, st.Def.DB, st.Def.Name)
		}
	}
	tables := Tables("information_schema")
	for i := 1; i < len(tables); i++ {
		if tables[i-1].Name >= tables[i].Name {
			t.Errorf("Tables not sorted: %s before %s", tables[i-1].Name, tables[i].Name)
		}
	}
}

func TestSystemTableUnknown(t *testing.T) {
	for _, tc := range []struct {
		db, name string
		code     string
	}{
		{"information_schema", "nope", "1109"},
		{"performance_schema", "nope", "1146"},
		{"mysql", "nope", "1146"},
		{"sys", "tables", "1146"},
	} {
		_, err := Lookup(tc.db, tc.name)
		if err == nil || !strings.Contains(err.Error(), tc.code) {
			t.Errorf("%s.%s: got %v, want error %s", tc.db, tc.name, err, tc.code)
		}
	}
}

func TestColumnCollations(t *testing.T) {
	st, err := Lookup("information_schema", "key_column_usage")
	if err != nil {
		t.Fatal(err)
	}
	def := st.Def
	want := map[string]uint16{
		"TABLE_SCHEMA": 83, "TABLE_NAME": 83, "REFERENCED_TABLE_NAME": 83,
		"CONSTRAINT_NAME": 33, "COLUMN_NAME": 33, "ORDINAL_POSITION": 63,
	}
	for _, c := range def.Columns {
		if w, ok := want[c.Name]; ok && uint16(c.Collation) != w {
			t.Errorf("%s: collation %d, want %d", c.Name, c.Collation, w)
		}
	}
}

func TestRowsConvert(t *testing.T) {
	def := &catalog.Table{Name: "X", Columns: []catalog.Column{
		column("A s10"), column("B bu?"), column("C i"), column("D dt?"),
	}}
	r := NewRows(def)
	r.Add("x", uint64(7), -3, nil)
	row := r.Rows()[0]
	if row[0].Type() != sqltypes.VarChar || row[0].ToString() != "x" ||
		row[1].Type() != sqltypes.Uint64 || row[1].ToString() != "7" ||
		row[2].Type() != sqltypes.Int32 || row[2].ToString() != "-3" || !row[3].IsNull() {
		t.Fatalf("row = %v", row)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("add with the wrong number of values did not panic")
		}
	}()
	r.Add("x")
}

func TestForeignKeys(t *testing.T) {
	p := sqlparser.NewTestParser()
	stmt, err := p.Parse("create table c (a int, b int, constraint fk_a foreign key (a, b) references other.p (x, y) on delete cascade on update set null, foreign key (b) references p (id))")
	if err != nil {
		t.Fatal(err)
	}
	tbl := &catalog.Table{DB: "db", Name: "c"}
	for _, c := range stmt.(*sqlparser.CreateTable).TableSpec.Constraints {
		tbl.ForeignKeys = append(tbl.ForeignKeys, sqlparser.String(c))
	}
	fks := ForeignKeys(p, tbl)
	if len(fks) != 2 {
		t.Fatalf("got %d foreign keys from %q", len(fks), tbl.ForeignKeys)
	}
	a, b := fks[0], fks[1]
	if a.Name != "fk_a" || strings.Join(a.Cols, ",") != "a,b" || a.RefDB != "other" || a.RefTable != "p" ||
		strings.Join(a.RefCols, ",") != "x,y" || a.OnDelete != "CASCADE" || a.OnUpdate != "SET NULL" {
		t.Errorf("first: %+v", a)
	}
	if b.Name != "c_ibfk_1" || b.RefDB != "db" || b.RefTable != "p" || b.OnDelete != "NO ACTION" || b.OnUpdate != "NO ACTION" {
		t.Errorf("second: %+v", b)
	}
}

func TestColumnMetadata(t *testing.T) {
	vc := catalog.Column{Type: sqltypes.VarChar, TypeName: "varchar", Length: 20, Collation: 45}
	if c, o := charLengths(&vc); c != int64(20) || o != int64(80) {
		t.Errorf("varchar(20) utf8mb4: %v %v", c, o)
	}
	set := catalog.Column{Type: sqltypes.Set, TypeName: "set", Collation: 8, EnumValues: []string{"ab", "c"}}
	if c, o := charLengths(&set); c != int64(4) || o != int64(4) {
		t.Errorf("set('ab','c') latin1: %v %v", c, o)
	}
	dec := catalog.Column{Type: sqltypes.Decimal, Length: 10, Scale: 3}
	if p, s := numericPrecision(&dec); p != uint64(10) || s != uint64(3) {
		t.Errorf("decimal(10,3): %v %v", p, s)
	}
	fl := catalog.Column{Type: sqltypes.Float32, Scale: -1}
	if p, s := numericPrecision(&fl); p != uint64(12) || s != nil {
		t.Errorf("float: %v %v", p, s)
	}
	ts := catalog.Column{DefaultExpr: "CURRENT_TIMESTAMP", OnUpdateExpr: "CURRENT_TIMESTAMP", HasDefault: true}
	if got := columnExtra(&ts); got != "DEFAULT_GENERATED on update CURRENT_TIMESTAMP" {
		t.Errorf("extra = %q", got)
	}
	if got := columnDefault(&ts, time.UTC); got != "CURRENT_TIMESTAMP" {
		t.Errorf("default = %v", got)
	}
	nullDef := catalog.Column{HasDefault: true, DefaultNull: true, Default: sqltypes.NULL}
	if got := columnDefault(&nullDef, time.UTC); got != nil {
		t.Errorf("DEFAULT NULL = %v", got)
	}
}

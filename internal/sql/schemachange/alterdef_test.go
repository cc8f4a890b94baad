package schemachange

import (
	"errors"
	"testing"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
)

// fakeSession answers AlterSession without a SQL session.
type fakeSession struct{ resets int }

func (f *fakeSession) ColumnMode() coltype.Mode { return coltype.ModeDefault }
func (f *fakeSession) Literal(e sqlparser.Expr) (sqltypes.Value, bool) {
	if l, ok := e.(*sqlparser.Literal); ok {
		return sqltypes.NewVarChar(l.Val), true
	}
	return sqltypes.NULL, false
}
func (f *fakeSession) DropConstraint(*catalog.Table, string) (*sqlparser.DropKey, bool, error) {
	return nil, false, errors.New("no constraints here")
}
func (f *fakeSession) ResetAutoInc(string, string) { f.resets++ }

func mustBuild(t *testing.T, create string) *catalog.Table {
	t.Helper()
	stmt, err := sqlparser.NewTestParser().Parse(create)
	if err != nil {
		t.Fatal(err)
	}
	ct := stmt.(*sqlparser.CreateTable)
	def, err := BuildTable("d", ct.Table.Name.String(), ct.TableSpec, collations.ID(45), coltype.ModeDefault)
	if err != nil {
		t.Fatal(err)
	}
	return def
}

// alter applies an ALTER TABLE's clauses to old.
func alter(t *testing.T, old *catalog.Table, sql string) (*AlterDef, error) {
	t.Helper()
	stmt, err := sqlparser.NewTestParser().Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	a := NewAlterDef(old, &fakeSession{})
	for _, opt := range stmt.(*sqlparser.AlterTable).AlterOptions {
		if err := a.Apply(opt); err != nil {
			return a, err
		}
	}
	return a, a.Finish()
}

func TestAlterDef(t *testing.T) {
	old := mustBuild(t, "create table t (id int primary key, a int, b varchar(10), key b_idx (b))")
	t.Run("add index in place", func(t *testing.T) {
		a, err := alter(t, old, "alter table t add index (a), add unique u (a, b)")
		if err != nil {
			t.Fatal(err)
		}
		if a.Rebuild || len(a.NewIndexes) != 2 || a.NewIndexes[0].Name != "a" || !a.NewIndexes[1].Unique {
			t.Fatalf("rebuild %v, new indexes %+v", a.Rebuild, a.NewIndexes)
		}
		if len(old.Indexes) != 2 {
			t.Fatalf("the old definition changed: %+v", old.Indexes)
		}
	})
	t.Run("add then drop an index is nothing", func(t *testing.T) {
		a, err := alter(t, old, "alter table t add index x (a), drop index x")
		if err != nil || len(a.NewIndexes) != 0 || len(a.DropIndexes) != 0 {
			t.Fatalf("err %v, new %+v, drop %+v", err, a.NewIndexes, a.DropIndexes)
		}
	})
	t.Run("column moves rebuild and keep index columns", func(t *testing.T) {
		a, err := alter(t, old, "alter table t add column c int first, drop column a")
		if err != nil {
			t.Fatal(err)
		}
		if !a.Rebuild || len(a.NewIndexes) != 0 {
			t.Fatalf("rebuild %v, new %+v", a.Rebuild, a.NewIndexes)
		}
		if got, want := a.Mapping, []int{-1, 0, 2}; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
			t.Fatalf("mapping %v, want %v", got, want)
		}
		nt := a.Table
		if b := nt.IndexByName("b_idx"); b == nil || nt.Columns[b.Columns[0].Col].Name != "b" {
			t.Fatalf("b_idx lost its column: %+v", nt.Indexes)
		}
		if nt.Columns[nt.Primary().Columns[0].Col].Name != "id" {
			t.Fatalf("primary key lost its column: %+v", nt.Primary())
		}
	})
	for _, tc := range []struct {
		sql  string
		code sqlerror.ErrorCode
	}{
		{"alter table t add column a int", sqlerror.ERDupFieldName},
		{"alter table t drop column nosuch", sqlerror.ERCantDropFieldOrKey},
		{"alter table t drop index nosuch", sqlerror.ERCantDropFieldOrKey},
		{"alter table t add index b_idx (a)", sqlerror.ERDupKeyName},
		{"alter table t add primary key (a)", sqlerror.ERMultiplePriKey},
		{"alter table t add index (nosuch)", sqlerror.ERKeyColumnDoesNotExist},
		{"alter table t rename index nosuch to y", sqlerror.ERKeyDoesNotExist},
		{"alter table t add column z int auto_increment", sqlerror.ERWrongAutoKey},
	} {
		_, err := alter(t, old, tc.sql)
		var se *sqlerror.SQLError
		if !errors.As(err, &se) || se.Num != tc.code {
			t.Errorf("%s: err %v, want %d", tc.sql, err, tc.code)
		}
	}
}

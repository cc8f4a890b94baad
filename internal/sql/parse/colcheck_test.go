package parse

import (
	"reflect"
	"testing"

	"vitess.io/vitess/go/vt/sqlparser"
)

func TestMoveColumnChecks(t *testing.T) {
	p := sqlparser.NewTestParser()
	for _, c := range []struct {
		in, want string
		cols     []string
	}{
		// The first column: Vitess's grammar takes no CHECK there.
		{"CREATE TABLE t (n INT CHECK (n > 0))",
			"CREATE TABLE t (n INT  , CHECK (n > 0))", []string{"n"}},
		// Attributes after the clause, several clauses, names, enforcement.
		{"CREATE TABLE t6(a INTEGER CHECK (a > 0) UNIQUE CHECK (a IS NOT NULL) NULL CONSTRAINT c3 CHECK (a < 100) NOT ENFORCED)",
			"CREATE TABLE t6(a INTEGER   UNIQUE   NULL  , CHECK (a > 0), CHECK (a IS NOT NULL), CONSTRAINT `c3` CHECK (a < 100) NOT ENFORCED)",
			[]string{"a", "a", "a"}},
		// Table-level constraints keep their place in the sequence.
		{"CREATE TABLE t1(CHECK((f1 + f2) > 10), f1 int CHECK (f1 < 10) ENFORCED NOT NULL, f2 int, CONSTRAINT x CHECK (f2 > 0))",
			"CREATE TABLE t1(CHECK((f1 + f2) > 10), f1 int   NOT NULL, CHECK (f1 < 10), f2 int, CONSTRAINT x CHECK (f2 > 0))",
			[]string{"", "f1", ""}},
		{"CREATE TABLE t (`select` INT CONSTRAINT CHECK (`select` <> 1) /*!80016 NOT ENFORCED */, b INT)",
			"CREATE TABLE t (`select` INT  , CONSTRAINT CHECK (`select` <> 1) NOT ENFORCED, b INT)",
			[]string{"select"}},
		{"alter table t add column c int check (c > 0) first, add d int, modify e int check (e <> 0), change f g int check (g = 1)",
			"alter table t add column c int   first, ADD CHECK (c > 0), add d int, modify e int  , ADD CHECK (e <> 0), change f g int  , ADD CHECK (g = 1)",
			[]string{"c", "e", "g"}},
		{"ALTER TABLE db.t ADD CONSTRAINT k CHECK (a > 0), ADD COLUMN (a INT CHECK (a < 5), b INT CHECK (b < 5))",
			"ALTER TABLE db.t ADD CONSTRAINT k CHECK (a > 0), ADD COLUMN (a INT  , b INT  ), ADD CHECK (a < 5), ADD CHECK (b < 5)",
			[]string{"", "a", "b"}},
		// Comments between the words.
		{"CREATE TABLE t (a INT /* c */ CONSTRAINT /* n */ ck CHECK /* x */ (a > 0) -- line\n, b INT)",
			"CREATE TABLE t (a INT /* c */   -- line\n, CONSTRAINT `ck` CHECK (a > 0), b INT)", []string{"a"}},
		// Nothing to move.
		{"CREATE TABLE t (a INT, CHECK (a > 0))", "", nil},
		{"ALTER TABLE t DROP CHECK c, ALTER CHECK d NOT ENFORCED", "", nil},
		{"CREATE TABLE t (a INT DEFAULT 1, b VARCHAR(5) COMMENT 'check (x)')", "", nil},
		{"SELECT check_col FROM t", "", nil},
	} {
		got, cols, ok := MoveColumnChecks(p, c.in)
		if c.want == "" {
			if ok || got != c.in || cols != nil {
				t.Errorf("MoveColumnChecks(%q) = %q, %q, %v; want no change", c.in, got, cols, ok)
			}
			continue
		}
		if !ok || got != c.want || !reflect.DeepEqual(cols, c.cols) {
			t.Errorf("MoveColumnChecks(%q)\n got  %q %q %v\n want %q %q", c.in, got, cols, ok, c.want, c.cols)
			continue
		}
		stmt, err := p.ParseStrictDDL(got)
		if err != nil {
			t.Errorf("rewritten %q does not parse: %v", got, err)
			continue
		}
		if n := countChecks(stmt); n != len(cols) {
			t.Errorf("rewritten %q has %d CHECK constraints, cols has %d", got, n, len(cols))
		}
	}
}

func countChecks(stmt sqlparser.Statement) int {
	n := 0
	switch st := stmt.(type) {
	case *sqlparser.CreateTable:
		for _, c := range st.TableSpec.Constraints {
			if _, ok := c.Details.(*sqlparser.CheckConstraintDefinition); ok {
				n++
			}
		}
	case *sqlparser.AlterTable:
		for _, o := range st.AlterOptions {
			if a, ok := o.(*sqlparser.AddConstraintDefinition); ok {
				if _, ok := a.ConstraintDefinition.Details.(*sqlparser.CheckConstraintDefinition); ok {
					n++
				}
			}
		}
	}
	return n
}

// TestMoveColumnChecksTruncated: every prefix of statements with CHECK
// clauses is handled without panicking (the movers run on text that may not
// parse).
func TestMoveColumnChecksTruncated(t *testing.T) {
	p := sqlparser.NewTestParser()
	for _, sql := range []string{
		"CREATE TABLE t6(a INTEGER CHECK (a > 0) UNIQUE CONSTRAINT c CHECK (a IS NOT NULL) NOT ENFORCED, CHECK (a < 9))",
		"ALTER TABLE db.t ADD COLUMN (a INT CHECK (a < 5), b INT CONSTRAINT x CHECK (b < 5) ENFORCED), CHANGE c d INT CHECK (d > 0), MODIFY e INT CHECK (e <> 0) /*!80016 NOT ENFORCED */",
		"ALTER TABLE t ALTER CONSTRAINT c NOT ENFORCED, ALTER CONSTRAINT d ENFORCED",
	} {
		for i := 0; i <= len(sql); i++ {
			MoveColumnChecks(p, sql[:i])
			AlterConstraint(p, sql[:i])
		}
	}
}

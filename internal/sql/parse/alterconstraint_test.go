package parse

import (
	"reflect"
	"testing"

	"vitess.io/vitess/go/vt/sqlparser"
)

func TestAlterConstraint(t *testing.T) {
	p := sqlparser.NewTestParser()
	in := "ALTER TABLE t ALTER CONSTRAINT c1 NOT ENFORCED, ALTER constraint `c 2` ENFORCED, DROP CONSTRAINT c3"
	out, names, ok := AlterConstraint(p, in)
	want := "ALTER TABLE t ALTER CHECK      c1 NOT ENFORCED, ALTER CHECK      `c 2` ENFORCED, DROP CONSTRAINT c3"
	if !ok || out != want || !reflect.DeepEqual(names, []string{"c1", "c 2"}) {
		t.Fatalf("AlterConstraint = %q, %q, %v", out, names, ok)
	}
	if _, err := p.ParseStrictDDL(out); err != nil {
		t.Fatalf("rewritten %q: %v", out, err)
	}
	if _, _, ok := AlterConstraint(p, "ALTER TABLE t DROP CONSTRAINT c, ALTER CHECK d ENFORCED"); ok {
		t.Fatal("rewrote a statement without ALTER CONSTRAINT")
	}
}

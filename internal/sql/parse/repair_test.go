package parse

import (
	"testing"

	"vitess.io/vitess/go/vt/sqlparser"
)

func TestRepair(t *testing.T) {
	p := sqlparser.NewTestParser()
	for _, c := range []struct{ in, want string }{
		{"SELECT SUM(ALL x) FROM t", "SELECT SUM(  x) FROM t"},
		{"SELECT sum( all - 8 ), count(ALL *), MIN( ALL 1), max(all(2))", "SELECT sum(   - 8 ), count(  *), MIN(   1), max( (2))"},
		{"SELECT ALL COUNT( ALL 54 ) col2", "SELECT ALL COUNT(   54 ) col2"},
		{"SELECT x FROM t WHERE a = ALL (SELECT 1)", ""},
		{"SELECT 'sum(ALL x)'", ""},
		{"SELECT GROUP_CONCAT(ALL x)", ""},
		{"SET @a := 1, @b := 'x:=y'", "SET @a = 1, @b = 'x:=y'"},
		{"SELECT 1", ""},
	} {
		got, ok := Repair(p, c.in)
		if c.want == "" {
			if ok {
				t.Errorf("Repair(%q) = %q, want no repair", c.in, got)
			}
			continue
		}
		if !ok || got != c.want {
			t.Errorf("Repair(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
		if _, err := p.Parse(got); err != nil {
			t.Errorf("repaired %q does not parse: %v", got, err)
		}
	}
}

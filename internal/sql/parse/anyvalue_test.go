package parse

import (
	"testing"

	"vitess.io/vitess/go/vt/sqlparser"
)

func TestAnyValueCalls(t *testing.T) {
	p := sqlparser.NewTestParser()
	for _, c := range []struct {
		sql  string
		want string
	}{
		{"select Any_Value(a), count(*) from t group by b", "select any_value(a), count(*) from t group by b"},
		{"select a from t where b = 'any_value'", "select a from t where b = 'any_value'"},
		{"select max(a) from t", "select max(a) from t"},
	} {
		st, err := p.Parse(c.sql)
		if err != nil {
			t.Fatal(err)
		}
		if got := sqlparser.String(AnyValueCalls(st, c.sql)); got != c.want {
			t.Errorf("%q: got %q, want %q", c.sql, got, c.want)
		}
	}
	for _, c := range []struct {
		s  string
		ok bool
	}{{"ANY_VALUE", true}, {"xany_valuex", true}, {"any_valu", false}, {"aaany_value", true}, {"", false}, {"a", false}} {
		if mentionsAnyValue(c.s) != c.ok {
			t.Errorf("mentionsAnyValue(%q) != %v", c.s, c.ok)
		}
	}
}

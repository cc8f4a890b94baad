package parse

import (
	"testing"

	"vitess.io/vitess/go/vt/sqlparser"
)

func TestFunctionCalls(t *testing.T) {
	p := sqlparser.NewTestParser()
	for _, c := range []struct {
		sql  string
		want string
	}{
		{"select Any_Value(a), count(*) from t group by b", "select any_value(a), count(*) from t group by b"},
		{"select a from t where b = 'any_value'", "select a from t where b = 'any_value'"},
		{"select max(a) from t", "select max(a) from t"},
		{"select GET_FORMAT(date, 'usa'), get_format(Timestamp, 'iso'), get_format(t.date, 'x')", "select GET_FORMAT('DATE', 'usa'), get_format('TIMESTAMP', 'iso'), get_format(t.`date`, 'x') from dual"},
	} {
		st, err := p.Parse(c.sql)
		if err != nil {
			t.Fatal(err)
		}
		if got := sqlparser.String(FunctionCalls(st, c.sql)); got != c.want {
			t.Errorf("%q: got %q, want %q", c.sql, got, c.want)
		}
	}
	for _, c := range []struct {
		s  string
		ok bool
	}{{"ANY_VALUE", true}, {"xany_valuex", true}, {"any_valu", false}, {"aaany_value", true}, {"", false}, {"a", false}} {
		if mentions(c.s, "any_value") != c.ok {
			t.Errorf("mentions(%q) != %v", c.s, c.ok)
		}
	}
}

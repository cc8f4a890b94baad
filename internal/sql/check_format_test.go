package sql

import (
	"testing"

	"vitess.io/vitess/go/vt/sqlparser"
)

// TestCheckClause: CHECK expressions print as MySQL 8.0 prints them
// (expected texts from MySQL's check_constraints test results), and the
// printed text parses back to an expression that prints the same.
func TestCheckClause(t *testing.T) {
	p := sqlparser.NewTestParser()
	for _, c := range []struct{ in, want string }{
		{"f1 < 10", "(`f1` < 10)"},
		{"(f1 + f2) > 10", "((`f1` + `f2`) > 10)"},
		{"f1 + SQRT(f2) > 6174", "((`f1` + sqrt(`f2`)) > 6174)"},
		{"c1 = 'a'", "(`c1` = _utf8mb4'a')"},
		{"C1 > 10.1", "(`C1` > 10.1)"},
		{"f1 IN (10, 20, 30)", "(`f1` in (10,20,30))"},
		{"c10 NOT IN (1,2,3)", "(`c10` not in (1,2,3))"},
		{"f1 BETWEEN 10 AND 30", "(`f1` between 10 and 30)"},
		{"c12 NOT BETWEEN 10 AND 20", "(`c12` not between 10 and 20)"},
		{"f1 IS NOT NULL", "(`f1` is not null)"},
		{"f1 IS NULL", "(`f1` is null)"},
		{"(CASE WHEN c1 > 10 THEN c2 = 20 END) = 1", "((case when (`c1` > 10) then (`c2` = 20) end) = 1)"},
		{"c1 < B'1111100'", "(`c1` < 0x7c)"},
		{"id != 0", "(`id` <> 0)"},
		{"stu_code like 'j%'", "(`stu_code` like _utf8mb4'j%')"},
		{`lower(name) != "noname"`, "(lower(`name`) <> _utf8mb4'noname')"},
		{"REGEXP_LIKE(email,'@')", "regexp_like(`email`,_utf8mb4'@')"},
		{"country IN ('usa','uk')", "(`country` in (_utf8mb4'usa',_utf8mb4'uk'))"},
		{"c1 <=> NULL", "(`c1` <=> NULL)"},
		{"c8 = GREATEST(1,2,3)", "(`c8` = greatest(1,2,3))"},
		{"c15 = STRCMP('A','A')", "(`c15` = strcmp(_utf8mb4'A',_utf8mb4'A'))"},
		{"(c1 > 10) XOR (c2 < 20)", "((`c1` > 10) xor (`c2` < 20))"},
		{"c1 > 1 OR c1 IS NOT NULL", "((`c1` > 1) or (`c1` is not null))"},
		{"a > 0 AND b > 0 AND (c > 0 AND d > 0)", "((`a` > 0) and (`b` > 0) and (`c` > 0) and (`d` > 0))"},
		{"NOT (a <=> b)", "(not((`a` <=> `b`)))"},
		{"tel NOT LIKE '[a-z]'", "(not((`tel` like _utf8mb4'[a-z]')))"},
		{"`价` % 2 = 0", "((`价` % 2) = 0)"},
		{"YEAR(d) > '1950'", "(year(`d`) > _utf8mb4'1950')"},
		{"a > -1", "(`a` > -(1))"},
		{"s = 'it''s\\n'", "(`s` = _utf8mb4'it\\'s\\n')"},
		{"s = _latin1'x'", "(`s` = _latin1'x')"},
		{"t.a > 007", "(`a` > 7)"},
		{"a > .5", "(`a` > 0.5)"},
		{"a MOD 3 = 1", "((`a` % 3) = 1)"},
		{"j->'$.name' = 'x'", "(json_extract(`j`,_utf8mb4'$.name') = _utf8mb4'x')"},
		{"`select` = TRUE", "(`select` = true)"},
	} {
		e, err := p.ParseExpr(c.in)
		if err != nil {
			t.Errorf("parse %q: %v", c.in, err)
			continue
		}
		got := checkClause(e, "utf8mb4")
		if got != c.want {
			t.Errorf("checkClause(%q)\n got  %s\n want %s", c.in, got, c.want)
			continue
		}
		back, err := p.ParseExpr(got)
		if err != nil {
			t.Errorf("printed %q does not parse: %v", got, err)
			continue
		}
		if again := checkClause(back, "utf8mb4"); again != got {
			t.Errorf("printed %q reprints as %q", got, again)
		}
	}
}

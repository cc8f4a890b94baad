package parse

import (
	"testing"

	"vitess.io/vitess/go/vt/sqlparser"
)

func TestCTASKeysOnly(t *testing.T) {
	p := sqlparser.NewTestParser()
	for _, tc := range []struct{ in, out string }{
		{"CREATE TABLE t (UNIQUE KEY (k)) SELECT k FROM s", "CREATE TABLE t (`__strata_keys_only__` int, UNIQUE KEY (k)) SELECT k FROM s"},
		{"create table if not exists db.t (primary key (id), key (k)) ignore select id, k from s", "create table if not exists db.t (`__strata_keys_only__` int, primary key (id), key (k)) ignore select id, k from s"},
		{"CREATE TABLE t (a INT) SELECT 1", ""},
		{"CREATE TABLE t ENGINE=InnoDB DEFAULT CHARSET=latin1 SELECT 1 AS a", "CREATE TABLE t (`__strata_keys_only__` int) ENGINE=InnoDB DEFAULT CHARSET=latin1 SELECT 1 AS a"},
		{"CREATE TABLE t COMMENT 'x' AS SELECT 1 AS a", "CREATE TABLE t (`__strata_keys_only__` int) COMMENT 'x' AS SELECT 1 AS a"},
		{"CREATE TABLE t SELECT 1", ""},
		{"SELECT (KEY)", ""},
	} {
		got, ok := ctasKeysOnly(p, tc.in)
		if !ok {
			got = ""
		}
		if got != tc.out {
			t.Errorf("%s: got %q, want %q", tc.in, got, tc.out)
			continue
		}
		if ok {
			if _, err := p.ParseStrictDDL(got); err != nil {
				t.Errorf("%s: repaired text does not parse: %v", tc.in, err)
			}
		}
	}
}

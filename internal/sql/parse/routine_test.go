package parse

import "testing"

func TestParseRoutine(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want Routine
		ok   bool
	}{
		{"CREATE FUNCTION f() RETURNS INT RETURN 1", Routine{Verb: "CREATE", Kind: "FUNCTION", Name: "f"}, true},
		{"create definer=root@localhost function `my``f`(a int) returns int deterministic return a", Routine{Verb: "CREATE", Kind: "FUNCTION", Name: "my`f"}, true},
		{"CREATE DEFINER='root'@'%' PROCEDURE `db`.`p`() BEGIN SELECT 1; END", Routine{Verb: "CREATE", Kind: "PROCEDURE", Schema: "db", Name: "p"}, true},
		{"CREATE DEFINER = CURRENT_USER() EVENT IF NOT EXISTS e ON SCHEDULE EVERY 1 HOUR DO SELECT 1", Routine{Verb: "CREATE", Kind: "EVENT", Name: "e"}, true},
		{"/*!50003 CREATE*/ /*!50017 DEFINER=`root`@`localhost`*/ /*!50003 TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1 */", Routine{Verb: "CREATE", Kind: "TRIGGER", Name: "tr"}, true},
		{"-- note\nCREATE OR REPLACE AGGREGATE FUNCTION f RETURNS INTEGER SONAME 'x.so'", Routine{Verb: "CREATE", Kind: "FUNCTION", Name: "f"}, true},
		{"  DROP PROCEDURE IF EXISTS s.p", Routine{Verb: "DROP", Kind: "PROCEDURE", Schema: "s", Name: "p", IfExists: true}, true},
		{"DROP TRIGGER tr", Routine{Verb: "DROP", Kind: "TRIGGER", Name: "tr"}, true},
		{"ALTER EVENT e DISABLE", Routine{Verb: "ALTER", Kind: "EVENT", Name: "e"}, true},
		{"CREATE TABLE function (a INT)", Routine{}, false},
		{"CREATE TABLE t (event INT)", Routine{}, false},
		{"DROP TABLE trigger", Routine{}, false},
		{"SELECT 'CREATE FUNCTION f'", Routine{}, false},
		{"DELETE FROM t", Routine{}, false},
		{"CREATE VIEW v AS SELECT 1", Routine{}, false},
	} {
		got, ok := ParseRoutine(tc.sql)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseRoutine(%q) = %+v, %v; want %+v, %v", tc.sql, got, ok, tc.want, tc.ok)
		}
	}
}

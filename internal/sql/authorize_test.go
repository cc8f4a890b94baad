package sql

import (
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/sql/privilege"
)

// needString renders a Need compactly: "table d.t SELECT", "column d.t.id
// SELECT", "database d", "global SUPER".
func needString(n privilege.Need) string {
	privs := strings.Join(n.Privs.Names(), "+")
	if n.Privs == privilege.TableLevel {
		privs = "any"
	} else if n.Any {
		privs = "any(" + privs + ")"
	}
	switch n.Level {
	case privilege.None:
		return "none"
	case privilege.Global:
		return "global " + privs
	case privilege.Database:
		if privs == "" {
			return "database " + n.DB
		}
		return "database " + n.DB + " " + privs
	}
	if n.Column != "" {
		return "column " + n.DB + "." + n.Table + "." + n.Column + " " + privs
	}
	return "table " + n.DB + "." + n.Table + " " + privs
}

// TestStatementNeeds pins what statements need, especially name resolution
// that decides which tables are checked: CTE scoping, UPDATE/DELETE targets
// and the columns they read.
func TestStatementNeeds(t *testing.T) {
	_, s := newCheckEngine(t) // database d: t (id, a, b, c), h (v)
	for _, c := range []struct {
		sql  string
		want string // needs joined by "; "
	}{
		{"SELECT 1", ""},
		{"SELECT * FROM t", "table d.t SELECT; column d.t.id SELECT; column d.t.a SELECT; column d.t.b SELECT; column d.t.c SELECT"},
		{"SELECT * FROM d.t AS x JOIN h ON x.a = h.v", "table d.t SELECT; table d.h SELECT; column d.t.id SELECT; column d.t.a SELECT; column d.t.b SELECT; column d.t.c SELECT; column d.h.v SELECT"},
		{"SELECT (SELECT MAX(v) FROM h) FROM dual", "table d.h SELECT; column d.h.v SELECT"},
		{"SELECT * FROM (SELECT * FROM (SELECT v FROM other.h) a) b", "table other.h SELECT; column other.h.v SELECT"},
		{"SELECT a FROM t UNION SELECT v FROM h", "table d.t SELECT; table d.h SELECT; column d.t.a SELECT; column d.h.v SELECT"},
		{"SELECT a FROM t EXCEPT SELECT v FROM h", "table d.t SELECT; table d.h SELECT; column d.t.a SELECT; column d.h.v SELECT"},
		{"SELECT v FROM h INTERSECT SELECT b FROM other.t", "table d.h SELECT; table other.t SELECT; column d.h.v SELECT; column other.t.b SELECT"},
		// CTEs: references in scope need nothing; the body is read.
		{"WITH c AS (SELECT v FROM h) SELECT * FROM c", "table d.h SELECT; column d.h.v SELECT"},
		{"WITH c AS (SELECT 1) SELECT * FROM d.c", "table d.c SELECT; table d.c SELECT"},
		// A non-recursive CTE does not see itself or later CTEs.
		{"WITH t AS (SELECT * FROM t) SELECT * FROM t", "table d.t SELECT; column d.t.id SELECT; column d.t.a SELECT; column d.t.b SELECT; column d.t.c SELECT"},
		{"WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a, b", "table d.b SELECT; table d.b SELECT"},
		{"WITH a AS (SELECT 1), b AS (SELECT * FROM a) SELECT * FROM b", ""},
		{"WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r", ""},
		// A CTE's scope is its query: the outer t is the table.
		{"SELECT * FROM t WHERE a IN (WITH t AS (SELECT 1) SELECT * FROM t)", "table d.t SELECT; column d.t.id SELECT; column d.t.a SELECT; column d.t.b SELECT; column d.t.c SELECT"},
		{"SELECT a FROM t WHERE c = 5 FOR UPDATE", "table d.t SELECT; table d.t any(UPDATE+DELETE+LOCK TABLES); column d.t.a SELECT; column d.t.c SELECT"},
		{"SELECT a FROM t WHERE c = 5 FOR SHARE", "table d.t SELECT; column d.t.a SELECT; column d.t.c SELECT"},
		{"SELECT a FROM t INTO OUTFILE '/x'", "global FILE; table d.t SELECT; column d.t.a SELECT"},
		// Column references, resolved as MySQL resolves them.
		{"SELECT COUNT(*) FROM t", "table d.t SELECT"},
		{"SELECT x.a, d.t.b FROM t AS x, d.t WHERE x.id = 1", "table d.t SELECT; column d.t.a SELECT; column d.t.b SELECT; column d.t.id SELECT"},
		{"SELECT h.* FROM t JOIN h ON t.a = h.v", "table d.t SELECT; table d.h SELECT; column d.h.v SELECT; column d.t.a SELECT"},
		{"SELECT a AS v FROM t GROUP BY a HAVING v > 1 ORDER BY v", "table d.t SELECT; column d.t.a SELECT"},
		{"SELECT a AS z FROM t, h GROUP BY v", "table d.t SELECT; table d.h SELECT; column d.t.a SELECT; column d.h.v SELECT"},
		// GROUP BY: the block's columns first, then aliases, then outer blocks.
		{"SELECT a AS b FROM t GROUP BY b", "table d.t SELECT; column d.t.a SELECT; column d.t.b SELECT"},
		{"SELECT (SELECT a AS v FROM t GROUP BY v) FROM h", "table d.h SELECT; table d.t SELECT; column d.t.a SELECT"},
		{"SELECT (SELECT a FROM t GROUP BY v) FROM h", "table d.h SELECT; table d.t SELECT; column d.t.a SELECT; column d.h.v SELECT"},
		{"SELECT a FROM t JOIN h USING (v)", "table d.t SELECT; table d.h SELECT; column d.t.a SELECT; column d.h.v SELECT"},
		{"SELECT 1 FROM t NATURAL JOIN (SELECT 1 AS b, 2 AS z) AS q", "table d.t SELECT; column d.t.b SELECT"},
		// Correlated names resolve outward past the inner block.
		{"SELECT 1 FROM t WHERE EXISTS (SELECT 1 FROM h WHERE h.v = t.c)", "table d.t SELECT; table d.h SELECT; column d.h.v SELECT; column d.t.c SELECT"},
		{"SELECT 1 FROM t WHERE EXISTS (SELECT 1 FROM h WHERE v = c)", "table d.t SELECT; table d.h SELECT; column d.h.v SELECT; column d.t.c SELECT"},
		{"SELECT (SELECT z FROM (SELECT 1 AS z) q WHERE z = b) FROM t", "table d.t SELECT; column d.t.b SELECT"},
		// A derived table whose columns are unknown does not hide outer names.
		{"SELECT (SELECT 1 FROM (SELECT * FROM h) q WHERE c = 1) FROM t", "table d.t SELECT; table d.h SELECT; column d.h.v SELECT; column d.t.c SELECT"},
		// Derived tables and CTEs are checked by their bodies.
		{"SELECT q.z FROM (SELECT a AS z FROM t) AS q", "table d.t SELECT; column d.t.a SELECT"},
		{"WITH c (z) AS (SELECT b FROM t) SELECT z FROM c", "table d.t SELECT; column d.t.b SELECT"},
		{"SELECT * FROM t, LATERAL (SELECT t.a + 1 AS z) AS q", "table d.t SELECT; column d.t.a SELECT; column d.t.id SELECT; column d.t.b SELECT; column d.t.c SELECT"},
		{"SELECT COLUMN_NAME FROM information_schema.COLUMNS", ""},
		// Data changes.
		{"INSERT INTO t (id) VALUES (9)", "table d.t INSERT; column d.t.id INSERT"},
		{"INSERT INTO t (id, a) VALUES (9, id + 1)", "table d.t INSERT; column d.t.id INSERT; column d.t.a INSERT; column d.t.id SELECT"},
		{"REPLACE INTO t (id) SELECT 1 FROM h", "table d.t INSERT+DELETE; table d.h SELECT; column d.t.id INSERT"},
		{"INSERT INTO t (id, a) VALUES (9, 1) ON DUPLICATE KEY UPDATE a = VALUES(a)", "table d.t INSERT; table d.t UPDATE; column d.t.id INSERT; column d.t.a INSERT; column d.t.a UPDATE"},
		{"INSERT INTO t (id, a) VALUES (9, 1) AS n ON DUPLICATE KEY UPDATE a = n.a", "table d.t INSERT; table d.t UPDATE; column d.t.id INSERT; column d.t.a INSERT; column d.t.a UPDATE"},
		{"INSERT INTO t (id, a) VALUES (9, 1) ON DUPLICATE KEY UPDATE a = a + 1", "table d.t INSERT; table d.t UPDATE; column d.t.id INSERT; column d.t.a INSERT; column d.t.a UPDATE; column d.t.a SELECT"},
		{"UPDATE t SET a = 1", "table d.t UPDATE; column d.t.a UPDATE"},
		{"UPDATE t SET a = c WHERE id = 1", "table d.t UPDATE; column d.t.a UPDATE; column d.t.c SELECT; column d.t.id SELECT"},
		{"UPDATE t SET a = 1 ORDER BY b LIMIT 1", "table d.t UPDATE; column d.t.a UPDATE; column d.t.b SELECT"},
		{"UPDATE t JOIN h ON t.b = h.v SET a = 1", "table d.t UPDATE; table d.h SELECT; column d.t.a UPDATE; column d.t.b SELECT; column d.h.v SELECT"},
		{"UPDATE t AS x, h SET v = 'q' WHERE h.v = 'p'", "table d.h UPDATE; table d.t SELECT; column d.h.v UPDATE; column d.h.v SELECT"},
		{"UPDATE t SET a = (SELECT COUNT(*) FROM h)", "table d.t UPDATE; table d.h SELECT; column d.t.a UPDATE"},
		{"DELETE FROM t", "table d.t DELETE"},
		{"DELETE FROM t WHERE a > 1", "table d.t DELETE; column d.t.a SELECT"},
		{"DELETE x FROM t AS x JOIN h ON x.b = h.v", "table d.t DELETE; table d.h SELECT; column d.t.b SELECT; column d.h.v SELECT"},
		{"DELETE FROM t WHERE id IN (SELECT 1 FROM h)", "table d.t DELETE; table d.h SELECT; column d.t.id SELECT"},
		{"DO (SELECT COUNT(*) FROM h)", "none; table d.h SELECT"},
		{"SET @x = (SELECT MAX(v) FROM h)", "table d.h SELECT; column d.h.v SELECT"},
		{"SET GLOBAL wait_timeout = 10", "global any(SUPER+SYSTEM_VARIABLES_ADMIN)"},
		{"SET SESSION wait_timeout = 10", ""},
		// Statements Vitess's AST does not tell apart.
		{"CREATE INDEX k ON t (a)", "table d.t INDEX"},
		{"/* x */ DROP INDEX ka ON t", "table d.t INDEX"},
		{"ALTER TABLE t ADD INDEX k (a)", "table d.t ALTER"},
		{"ALTER TABLE t RENAME TO u", "table d.t ALTER; table d.t DROP; table d.u INSERT+CREATE"},
		{"RENAME TABLE t TO other.u", "table d.t DROP+ALTER; table other.u INSERT+CREATE"},
		{"CREATE TABLE u (a INT, FOREIGN KEY (a) REFERENCES t (id))", "table d.u CREATE; table d.t REFERENCES"},
		{"CREATE TABLE u LIKE h", "table d.u CREATE; table d.h SELECT"},
		{"OPTIMIZE LOCAL TABLE t, other.x", "table d.t SELECT+INSERT; table other.x SELECT+INSERT"},
		{"REPAIR TABLE t QUICK", "table d.t SELECT+INSERT"},
		{"EXPLAIN SELECT * FROM h", "table d.h SELECT; column d.h.v SELECT"},
		{"EXPLAIN DELETE FROM h", "table d.h DELETE"},
		// SHOW.
		{"SHOW CREATE TABLE t", "table d.t any"},
		{"SHOW COLUMNS FROM t FROM other", "table other.t any"},
		{"DESCRIBE information_schema.tables", ""},
		{"SHOW TABLES", "database d"},
		{"SHOW TABLES WHERE Tables_in_d IN (SELECT v FROM h)", "database d; table d.h SELECT; column d.h.v SELECT"},
		{"SHOW GRANTS FOR 'someone'@'localhost'", "database mysql SELECT"},
		{"USE information_schema", ""},
		{"SELECT * FROM MySQL.USER", "table mysql.user SELECT"},
		{"USE other", "database other"},
		// CALL checks EXECUTE on the routine itself (routine_call.go).
		{"CALL p()", ""},
		// Unclassified statements need SUPER.
		{"LOAD DATA INFILE 'x' INTO TABLE t", "global SUPER"},
	} {
		stmt, _, err := s.parse(c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		needs, err := s.statementNeeds(stmt, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		var got []string
		for _, n := range needs {
			if str := needString(n); str != "none" || len(needs) > 1 {
				got = append(got, str)
			}
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%s:\n got  %s\n want %s", c.sql, g, c.want)
		}
	}
}

func TestLeadingKeyword(t *testing.T) {
	for sql, want := range map[string]string{
		"create index k on t (a)":       "CREATE",
		"  /* c */ -- x\n# y\n  DROP x": "DROP",
		"/*!40101 SET x = 1 */":         "",
		"":                              "",
		"(SELECT 1)":                    "",
	} {
		if got := leadingKeyword(sql); got != want {
			t.Errorf("leadingKeyword(%q) = %q, want %q", sql, got, want)
		}
	}
}

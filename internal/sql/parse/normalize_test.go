package parse

import (
	"strings"
	"testing"
)

// normCase is one statement and what the normaliser makes of it: the key
// (NUL shown as |), and the kinds and values of the literals it replaced.
type normCase struct {
	sql  string
	key  string // "!" = not normalisable; "" = nothing replaced
	vals []string
}

func TestNormalize(t *testing.T) {
	cases := []normCase{
		{"SELECT c FROM sbtest1 WHERE id=17", "SELECT c FROM sbtest1 WHERE id=?", []string{"i:17"}},
		{"select c from t where id = 1 and k = 2", "select c from t where id = ? and k = ?", []string{"i:1", "i:2"}},
		{"SELECT c FROM t WHERE id BETWEEN 5 AND 104 ORDER BY c", "SELECT c FROM t WHERE id BETWEEN ? AND ? ORDER BY c", []string{"i:5", "i:104"}},
		{"SELECT c FROM t WHERE id NOT BETWEEN 5 AND 10", "SELECT c FROM t WHERE id NOT BETWEEN ? AND ?", []string{"i:5", "i:10"}},
		{"SELECT c FROM t WHERE id IN (1, 2,3)", "SELECT c FROM t WHERE id IN (?, ?,?)", []string{"i:1", "i:2", "i:3"}},
		{"SELECT c FROM t WHERE id NOT IN (1,'a')", "SELECT c FROM t WHERE id NOT IN (?,?)|is", []string{"i:1", "s:a"}},
		// Kinds: decimal, float, unsigned, too big for an integer.
		{"SELECT c FROM t WHERE a=1.50", "SELECT c FROM t WHERE a=?|d", []string{"d:1.50"}},
		{"SELECT c FROM t WHERE a=1e5", "SELECT c FROM t WHERE a=?|f", []string{"f:1e5"}},
		{"SELECT c FROM t WHERE a=1.5E-3", "SELECT c FROM t WHERE a=?|f", []string{"f:1.5E-3"}},
		{"SELECT c FROM t WHERE a=1e400", "", nil},
		{"SELECT c FROM t WHERE a=9223372036854775807", "SELECT c FROM t WHERE a=?", []string{"i:9223372036854775807"}},
		{"SELECT c FROM t WHERE a=9223372036854775808", "SELECT c FROM t WHERE a=?|u", []string{"u:9223372036854775808"}},
		{"SELECT c FROM t WHERE a=-9223372036854775808", "SELECT c FROM t WHERE a=?", []string{"i:-9223372036854775808"}},
		{"SELECT c FROM t WHERE a=-9223372036854775809", "SELECT c FROM t WHERE a=?|d", []string{"d:-9223372036854775809"}},
		{"SELECT c FROM t WHERE a=18446744073709551616", "SELECT c FROM t WHERE a=?|d", []string{"d:18446744073709551616"}},
		{"SELECT c FROM t WHERE a=007", "SELECT c FROM t WHERE a=?", []string{"i:007"}},
		// .5 and 5. stay as written.
		{"SELECT c FROM t WHERE a=.5", "", nil},
		{"SELECT c FROM t WHERE a=5.", "", nil},
		// Negative numbers: folded right after the operator only.
		{"SELECT c FROM t WHERE a=-1", "SELECT c FROM t WHERE a=?", []string{"i:-1"}},
		{"SELECT c FROM t WHERE a = -1.5", "SELECT c FROM t WHERE a = ?|d", []string{"d:-1.5"}},
		{"SELECT c FROM t WHERE a = - 1", "", nil},
		{"SELECT c FROM t WHERE a = b-1", "", nil},
		{"SELECT c FROM t WHERE a = b - -1", "", nil},
		{"SELECT c FROM t WHERE a-1 = 2", "", nil},
		{"SELECT c FROM t WHERE a = 1-2", "", nil},
		{"SELECT c FROM t WHERE a = 5 + 1", "", nil},
		// Strings.
		{"SELECT c FROM t WHERE s = 'abc'", "SELECT c FROM t WHERE s = ?|s", []string{"s:abc"}},
		{"SELECT c FROM t WHERE s = 'it''s' AND id = 2", "SELECT c FROM t WHERE s = ? AND id = ?|si", []string{"s:it's", "i:2"}},
		{"SELECT c FROM t WHERE s = ''", "SELECT c FROM t WHERE s = ?|s", []string{"s:"}},
		{"SELECT c FROM t WHERE s = 'a\\'b'", "", nil},
		{"SELECT c FROM t WHERE s = 'a\\\\' AND id = 3", "SELECT c FROM t WHERE s = 'a\\\\' AND id = ?", []string{"i:3"}},
		{`SELECT c FROM t WHERE s = "abc"`, "", nil},
		{"SELECT c FROM t WHERE s = _utf8mb4'a'", "", nil},
		{"SELECT c FROM t WHERE s = _utf8mb4 'a'", "", nil},
		{"SELECT c FROM t WHERE s = N'a'", "", nil},
		{"SELECT c FROM t WHERE s = 'a' 'b'", "", nil},
		{"SELECT c FROM t WHERE s = 'a' COLLATE utf8mb4_bin", "", nil},
		{"SELECT c FROM t WHERE d = DATE '2020-01-01'", "", nil},
		{"SELECT c FROM t WHERE s LIKE 'a%'", "", nil},
		// Hex and bit literals are never parameters.
		{"SELECT c FROM t WHERE a = 0x1F", "", nil},
		{"SELECT c FROM t WHERE a = x'1F'", "", nil},
		{"SELECT c FROM t WHERE a = X'1F' AND b = 1", "SELECT c FROM t WHERE a = X'1F' AND b = ?", []string{"i:1"}},
		{"SELECT c FROM t WHERE a = b'101'", "", nil},
		{"SELECT c FROM t WHERE a = 0b101", "", nil},
		// NULL, TRUE are not literals of ours.
		{"SELECT c FROM t WHERE a = NULL", "", nil},
		{"SELECT c FROM t WHERE a <=> TRUE", "", nil},
		// Identifiers with digits.
		{"SELECT c FROM t WHERE `col1` = 1", "SELECT c FROM t WHERE `col1` = ?", []string{"i:1"}},
		{"SELECT `1` FROM t WHERE `2` = 3", "SELECT `1` FROM t WHERE `2` = ?", []string{"i:3"}},
		{"SELECT c FROM t WHERE t.`a``1` = 3", "SELECT c FROM t WHERE t.`a``1` = ?", []string{"i:3"}},
		{"SELECT c FROM t WHERE 1a = 3", "SELECT c FROM t WHERE 1a = ?", []string{"i:3"}},
		{"SELECT c FROM t WHERE a = 1a", "", nil},
		{"SELECT c FROM t1 WHERE t1.a = 3", "SELECT c FROM t1 WHERE t1.a = ?", []string{"i:3"}},
		// Positions that are not a column compared with a constant.
		{"SELECT 1, 'a', a = 1 FROM t", "", nil},
		{"SELECT c FROM t WHERE 1 = a", "", nil},
		{"SELECT c FROM t WHERE f(a) = 1", "", nil},
		{"SELECT c FROM t WHERE f(a = 1)", "", nil},
		{"SELECT c FROM t WHERE a = 1 IS TRUE", "", nil},
		{"SELECT c FROM t WHERE @a = 1", "", nil},
		{"SELECT c FROM t WHERE a = 1 GROUP BY 1 HAVING b = 2 ORDER BY 1 LIMIT 5", "SELECT c FROM t WHERE a = ? GROUP BY 1 HAVING b = 2 ORDER BY 1 LIMIT 5", []string{"i:1"}},
		{"SELECT c FROM t WHERE a = 1 LIMIT 5, 10", "SELECT c FROM t WHERE a = ? LIMIT 5, 10", []string{"i:1"}},
		{"SELECT c FROM t WHERE a = 1 FOR UPDATE", "SELECT c FROM t WHERE a = ? FOR UPDATE", []string{"i:1"}},
		{"SELECT c FROM t WHERE (a = 1 OR b = 2) AND NOT c = 3", "SELECT c FROM t WHERE (a = ? OR b = ?) AND NOT c = ?", []string{"i:1", "i:2", "i:3"}},
		{"SELECT c FROM t WHERE a = 1 && b = 2 || c = 3 XOR d = 4", "SELECT c FROM t WHERE a = ? && b = ? || c = ? XOR d = ?", []string{"i:1", "i:2", "i:3", "i:4"}},
		{"SELECT c FROM t WHERE (a, b) = (1, 2)", "", nil},
		{"SELECT c FROM t WHERE (a, b) IN ((1, 2))", "", nil},
		{"SELECT c FROM t WHERE a IN (1, b)", "SELECT c FROM t WHERE a IN (?, b)", []string{"i:1"}},
		{"SELECT c FROM t WHERE a IN (1+1, 2)", "SELECT c FROM t WHERE a IN (1+1, ?)", []string{"i:2"}},
		{"SELECT c FROM t WHERE a IN (SELECT b FROM u WHERE b = 1)", "", nil},
		{"SELECT c FROM (SELECT c FROM t WHERE a = 1) d WHERE c = 2", "SELECT c FROM (SELECT c FROM t WHERE a = 1) d WHERE c = ?", []string{"i:2"}},
		{"SELECT c FROM t WHERE a = (SELECT 1)", "", nil},
		{"SELECT c FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = 1) AND b = 2", "SELECT c FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = 1) AND b = ?", []string{"i:2"}},
		{"SELECT c FROM t WHERE a = DATE_ADD(d, INTERVAL 1 DAY)", "", nil},
		{"SELECT c FROM t WHERE a = CAST(b AS CHAR(10))", "", nil},
		{"SELECT c FROM t WHERE a->'$.x' = 1", "", nil},
		{"SELECT c FROM t WHERE a->>'$.x' = 'y'", "", nil},
		{"SELECT c FROM t WHERE a BETWEEN b AND 5", "", nil},
		{"SELECT c FROM t WHERE a BETWEEN 1 AND 5 AND b = 'x'", "SELECT c FROM t WHERE a BETWEEN ? AND ? AND b = ?|iis", []string{"i:1", "i:5", "s:x"}},
		// Statements the normaliser does not handle.
		{"SELECT c FROM t WHERE a = 1 -- x", "!", nil},
		{"SELECT c FROM t WHERE a = 1 # x", "!", nil},
		{"SELECT c FROM t WHERE a = 1 /* x */", "!", nil},
		{"SELECT /*+ MAX_EXECUTION_TIME(1) */ c FROM t WHERE a = 1", "!", nil},
		{"SELECT c FROM t WHERE a = 1 /*!50000 AND b = 2 */", "!", nil},
		{"SELECT c FROM t WHERE a = 1; SELECT 2", "!", nil},
		{"SELECT c FROM t WHERE a = ?", "!", nil},
		{"SELECT c FROM t WHERE a = :v1", "!", nil},
		{"SELECT c FROM t WHERE a = 'unterminated", "!", nil},
		{"SELECT c FROM t WHERE (a = 1", "!", nil},
		{"SELECT c FROM t WHERE a = 1)", "!", nil},
		{"SELECT c FROM t WHERE a = 1 UNION SELECT c FROM u WHERE a = 2", "!", nil},
		{"UPDATE t SET a = 1 WHERE id = 2", "UPDATE t SET a = ? WHERE id = ?", []string{"i:1", "i:2"}},
		{"update t set a = 'x', b = b + 1 where id in (2, 3) order by id limit 1", "update t set a = ?, b = b + 1 where id in (?, ?) order by id limit 1|sii", []string{"s:x", "i:2", "i:3"}},
		{"UPDATE t SET a = 1 + 1, b = f(2), c = -3 ORDER BY id LIMIT 2", "UPDATE t SET a = 1 + 1, b = f(2), c = ? ORDER BY id LIMIT 2", []string{"i:-3"}},
		{"UPDATE t SET a = 1", "UPDATE t SET a = ?", []string{"i:1"}},
		{"UPDATE t SET a = 'x' 'y'", "", nil},
		{"UPDATE t SET a = @b = 1", "", nil},
		{"SELECT c FROM t WHERE s = 1 SET", "", nil},
		{"DELETE FROM t WHERE id = 2 AND s = 'x'", "DELETE FROM t WHERE id = ? AND s = ?|is", []string{"i:2", "s:x"}},
		{"DELETE FROM t", "", nil},
		{"REPLACE INTO t VALUES (1)", "!", nil},
		{"SET @a = 1", "!", nil},
		{"SHOW VARIABLES LIKE 'a'", "!", nil},
		{"INSERT INTO t VALUES (1)", "INSERT INTO t VALUES (?)", []string{"i:1"}},
		{"insert into t (a, b, c) values (1, 'x', -2.5), (2,'y''z',1e3)", "insert into t (a, b, c) values (?, ?, ?), (?,?,?)|isdisf", []string{"i:1", "s:x", "d:-2.5", "i:2", "s:y'z", "f:1e3"}},
		{"INSERT INTO t VALUE (1, NULL, DEFAULT, 1+1, f(2), 'a' 'b', _utf8mb4'c', 3)", "INSERT INTO t VALUE (?, NULL, DEFAULT, 1+1, f(2), 'a' 'b', _utf8mb4'c', ?)", []string{"i:1", "i:3"}},
		{"INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = 2", "INSERT INTO t VALUES (?) ON DUPLICATE KEY UPDATE a = 2", []string{"i:1"}},
		{"INSERT INTO t VALUES (1) AS new ON DUPLICATE KEY UPDATE a = new.a + 5", "INSERT INTO t VALUES (?) AS new ON DUPLICATE KEY UPDATE a = new.a + 5", []string{"i:1"}},
		{"INSERT INTO t VALUES ((1), (SELECT 2))", "", nil},
		{"INSERT INTO t SELECT a FROM u WHERE b = 1", "", nil},
		{"INSERT INTO t SET a = 1", "", nil},
		{"INSERT INTO t VALUES ROW(1, 2)", "", nil},
		{"(SELECT c FROM t WHERE a = 1)", "!", nil},
		{"WITH x AS (SELECT 1) SELECT * FROM x WHERE a = 1", "!", nil},
		{"", "!", nil},
		{"   ", "!", nil},
		// White space is kept as sent.
		{"  SELECT\tc\nFROM t WHERE id =\n5  ", "  SELECT\tc\nFROM t WHERE id =\n?  ", []string{"i:5"}},
		{"SELECT c FROM t WHERE a=1 AND b='\\n'", "SELECT c FROM t WHERE a=? AND b='\\n'", []string{"i:1"}},
	}
	var n Normalizer
	for _, c := range cases {
		ok := n.Normalize(c.sql)
		if !ok {
			if c.key != "!" {
				t.Errorf("%q: not normalisable, want %q", c.sql, c.key)
			}
			continue
		}
		if c.key == "!" {
			t.Errorf("%q: normalised to %q, want refusal", c.sql, n.Key)
			continue
		}
		key := strings.ReplaceAll(string(n.Key), "\x00", "|")
		if key != c.key {
			t.Errorf("%q: key %q, want %q", c.sql, key, c.key)
			continue
		}
		var got []string
		for i, l := range n.Lits {
			got = append(got, string(l.Kind)+":"+string(n.AppendValue(nil, i)))
		}
		if strings.Join(got, ",") != strings.Join(c.vals, ",") {
			t.Errorf("%q: values %q, want %q", c.sql, got, c.vals)
		}
		if c.key != "" {
			pt := string(n.ParamText())
			if strings.Contains(pt, "\x00") || strings.Count(pt, "?") != len(n.Lits) {
				t.Errorf("%q: param text %q", c.sql, pt)
			}
		}
	}
}

// TestNormalizeReplaces checks that putting the values back into the key
// gives the statement: nothing but the literals was replaced.
func TestNormalizeReplaces(t *testing.T) {
	for _, sql := range []string{
		"SELECT c FROM sbtest1 WHERE id BETWEEN 1 AND 100 AND k IN (1,2 , 3) OR c = 'x''y'",
		"select * from t where a=-5 and b <> 1.5e3 and c<=>'' and d >= 007",
	} {
		var n Normalizer
		if !n.Normalize(sql) || len(n.Lits) == 0 {
			t.Fatalf("%q not normalised", sql)
		}
		key := string(n.ParamText())
		var b strings.Builder
		k := 0
		for i := 0; i < len(key); i++ {
			if key[i] == '?' {
				l := n.Lits[k]
				b.WriteString(sql[l.Start:l.End])
				k++
				continue
			}
			b.WriteByte(key[i])
		}
		if b.String() != sql {
			t.Errorf("rebuilt %q, want %q", b.String(), sql)
		}
	}
}

func TestNormalizeAllocs(t *testing.T) {
	var n Normalizer
	const sql = "SELECT c FROM sbtest1 WHERE id BETWEEN 5 AND 104 AND c = 'abc' ORDER BY c"
	n.Normalize(sql)
	var buf []byte
	allocs := testing.AllocsPerRun(100, func() {
		n.Normalize(sql)
		buf = buf[:0]
		for i := range n.Lits {
			buf = n.AppendValue(buf, i)
		}
	})
	if allocs != 0 {
		t.Errorf("Normalize allocates %.0f times per statement", allocs)
	}
}

func BenchmarkNormalize(b *testing.B) {
	var n Normalizer
	const sql = "SELECT c FROM sbtest1 WHERE id BETWEEN 5 AND 104 ORDER BY c"
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		n.Normalize(sql)
	}
}

// FuzzNormalize checks the normaliser never panics and that its key and
// literals always describe the input.
func FuzzNormalize(f *testing.F) {
	f.Add("SELECT c FROM t WHERE a = 1 AND b IN ('x', -2.5) AND d BETWEEN 1e3 AND 4")
	f.Add("SELECT c FROM t WHERE s = 'it''s'")
	f.Add("UPDATE t SET a = 'x?', b = -1 WHERE c LIKE '?' AND d IN (1, 'y')")
	f.Fuzz(func(t *testing.T, sql string) {
		var n Normalizer
		if !n.Normalize(sql) || len(n.Lits) == 0 {
			return
		}
		// The key is the text with each literal replaced by '?'.
		key := string(n.ParamText())
		last, k := 0, 0
		for _, l := range n.Lits {
			if l.Start < last || l.End <= l.Start || l.End > len(sql) {
				t.Fatalf("%q: bad literal %+v", sql, l)
			}
			seg := sql[last:l.Start]
			if !strings.HasPrefix(key[k:], seg+"?") {
				t.Fatalf("%q: key %q does not match at %d", sql, key, l.Start)
			}
			k += len(seg) + 1
			last = l.End
		}
		if key[k:] != sql[last:] {
			t.Fatalf("%q: key %q has another tail", sql, key)
		}
	})
}

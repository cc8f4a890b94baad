package sql

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"vitess.io/vitess/go/sqltypes"
)

// newNormEngine returns an engine whose database d holds table n, with
// columns of every kind normCheck distinguishes.
func newNormEngine(t *testing.T) (*Engine, *Session) {
	t.Helper()
	eng, s := newTestEngine(t)
	createNormTable(t, s, "d")
	return eng, s
}

// createNormTable creates database db with table n and selects it.
func createNormTable(t *testing.T, s *Session, db string) {
	t.Helper()
	checkExec(t, s, "CREATE DATABASE "+db, "USE "+db,
		"CREATE TABLE n (id INT PRIMARY KEY, i INT, u BIGINT UNSIGNED, d DECIMAL(10,2), f DOUBLE, "+
			"c CHAR(5), v VARCHAR(20), tx TEXT, e ENUM('a','b','5'), dt DATE, y YEAR, "+
			"KEY ki (i), KEY kv (v), KEY kd (d), KEY ke (e), KEY kdt (dt))")
	rnd := rand.New(rand.NewSource(1))
	strs := []string{"'5'", "'5.0'", "' 5'", "'a'", "'A'", "'a '", "'b'", "'it''s'", "''", "NULL", "'10'", "'9'"}
	var rows []string
	for id := 1; id <= 40; id++ {
		num := func(s string) string {
			if rnd.Intn(8) == 0 {
				return "NULL"
			}
			return s
		}
		rows = append(rows, fmt.Sprintf("(%d, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", id,
			num(fmt.Sprint(rnd.Intn(21)-10)), num(fmt.Sprint(rnd.Intn(20))),
			num(fmt.Sprintf("%d.%02d", rnd.Intn(20)-10, rnd.Intn(100))), num(fmt.Sprintf("%g", rnd.Float64()*20-10)),
			strs[rnd.Intn(len(strs))], strs[rnd.Intn(len(strs))], strs[rnd.Intn(len(strs))],
			[]string{"'a'", "'b'", "'5'", "NULL"}[rnd.Intn(4)],
			num(fmt.Sprintf("'2020-01-%02d'", rnd.Intn(28)+1)), num(fmt.Sprint(1990+rnd.Intn(40)))))
	}
	checkExec(t, s, "INSERT INTO n VALUES "+strings.Join(rows, ","))
}

// describe renders a result with its column names and types.
func describe(res *sqltypes.Result, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	for _, f := range res.Fields {
		fmt.Fprintf(&b, "%s:%s:%d:%d:%d ", f.Name, f.Type, f.Charset, f.ColumnLength, f.Decimals)
	}
	b.WriteString("| ")
	b.WriteString(resText(res))
	fmt.Fprintf(&b, " | affected %d", res.RowsAffected)
	return b.String()
}

// normKeys returns the cached keys with parameters.
func normKeys(eng *Engine) []string {
	var out []string
	for i := range eng.plans.shards {
		sh := &eng.plans.shards[i]
		sh.mu.Lock()
		for k := range sh.entries {
			if strings.Contains(k.sql, "?") {
				out = append(out, strings.ReplaceAll(k.sql, "\x00", "|"))
			}
		}
		sh.mu.Unlock()
	}
	return out
}

// TestNormalizedTextSharesPlan: statements that differ in their constants
// share one cache entry and each gets its own answer, with the result
// columns named and typed as written.
func TestNormalizedTextSharesPlan(t *testing.T) {
	ctx := context.Background()
	eng, s := newTestEngine(t)
	checkExec(t, s, "CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, k INT, c VARCHAR(20), KEY kk (k))",
		"INSERT INTO t VALUES (1, 10, 'one'), (2, 20, 'two'), (3, 30, 'three'), (4, 10, '5'), (5, 20, '5.0')")
	eng.plans.clear()
	for id, want := range map[int]string{1: "one", 2: "two", 3: "three", 9: ""} {
		res, err := s.Query(ctx, fmt.Sprintf("SELECT c FROM t WHERE id=%d", id))
		if err != nil || resText(res) != want {
			t.Fatalf("id=%d: %v %v, want %q", id, res, err, want)
		}
	}
	if keys := normKeys(eng); len(keys) != 1 || keys[0] != "SELECT c FROM t WHERE id=?" {
		t.Fatalf("keys %q", keys)
	}
	if k, p := eng.plans.size(); k != 1 || p != 1 {
		t.Fatalf("cache holds %d keys, %d plans", k, p)
	}

	// Select-list expressions keep their names and types: the same as
	// without normalisation, run after the normalised plan was cached.
	for _, q := range []struct{ sql, names, rows string }{
		{"SELECT 1+1, 'x', c, k*2 FROM t WHERE id = 2", "1+1 x c k*2", "2,x,two,40"},
		{"SELECT 1+1, 'x', c, k*2 FROM t WHERE id = 3", "1+1 x c k*2", "2,x,three,60"},
		{"SELECT  2*3  AS six, c FROM t WHERE k = 10 ORDER BY id", "six c", "6,one;6,5"},
		{"SELECT  2*3  AS six, c FROM t WHERE k = 20 ORDER BY id", "six c", "6,two;6,5.0"},
	} {
		res, err := s.Query(ctx, q.sql)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range res.Fields {
			names = append(names, f.Name)
		}
		if strings.Join(names, " ") != q.names || resText(res) != q.rows {
			t.Errorf("%s: columns %q rows %q", q.sql, names, resText(res))
		}
		got := describe(res, err)
		eng.noNormalize.Store(true)
		want := describe(s.Query(ctx, q.sql))
		eng.noNormalize.Store(false)
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", q.sql, got, want)
		}
	}

	// A string and a number compare differently with a text column: the
	// string form is normalised (its own key), the number form is not.
	for _, q := range []struct{ sql, want string }{
		{"SELECT id FROM t WHERE c = '5' ORDER BY id", "4"},
		{"SELECT id FROM t WHERE c = '5.0' ORDER BY id", "5"},
		{"SELECT id FROM t WHERE c = 5 ORDER BY id", "4;5"},
		{"SELECT id FROM t WHERE c = 6 ORDER BY id", ""},
	} {
		res, err := s.Query(ctx, q.sql)
		if err != nil || resText(res) != q.want {
			t.Errorf("%s: %v %v, want %q", q.sql, res, err, q.want)
		}
	}
	keys := strings.Join(normKeys(eng), "\n")
	if !strings.Contains(keys, "SELECT id FROM t WHERE c = ? ORDER BY id|s") {
		t.Errorf("string comparison not normalised: %s", keys)
	}
	if strings.Contains(keys, "WHERE c = ? ORDER BY id\n") || strings.HasSuffix(keys, "WHERE c = ? ORDER BY id") {
		t.Errorf("number compared with a text column normalised: %s", keys)
	}

	// A prepared statement of the normalised text shares the entry.
	hits := eng.plans.hits.Load()
	n, fields, err := s.Prepare(ctx, "SELECT c FROM t WHERE id=?")
	if err != nil || n != 1 || len(fields) != 1 || eng.plans.hits.Load() != hits+1 {
		t.Fatalf("prepare: %d %v %v, hits %d -> %d", n, fields, err, hits, eng.plans.hits.Load())
	}
	res, err := s.ExecutePrepared(ctx, "SELECT c FROM t WHERE id=?", bvInts(3))
	if err != nil || resText(res) != "three" {
		t.Fatalf("execute: %v %v", res, err)
	}
	if k := normKeys(eng); len(k) != 4 {
		t.Errorf("keys %q", k)
	}
}

// TestNormalizedPrepareFirst: a text statement finding an entry Prepare
// put under its key checks it before binding constants to it.
func TestNormalizedPrepareFirst(t *testing.T) {
	ctx := context.Background()
	eng, s := newNormEngine(t)
	// e = 1 compares the ENUM's member number; as a parameter it would
	// compare the member text.
	if _, _, err := s.Prepare(ctx, "SELECT id FROM n WHERE e=? ORDER BY id"); err != nil {
		t.Fatal(err)
	}
	eng.noNormalize.Store(true)
	want := describe(s.Query(ctx, "SELECT id FROM n WHERE e=1 ORDER BY id"))
	eng.noNormalize.Store(false)
	for i := 0; i < 2; i++ {
		if got := describe(s.Query(ctx, "SELECT id FROM n WHERE e=1 ORDER BY id")); got != want || !strings.Contains(want, "|") {
			t.Fatalf("got %s, want %s", got, want)
		}
	}
	// One that passes the check is shared.
	const q = "SELECT id FROM n WHERE i=? ORDER BY id"
	if _, _, err := s.Prepare(ctx, q); err != nil {
		t.Fatal(err)
	}
	for _, v := range []int64{3, -2} {
		prepared, err := s.ExecutePrepared(ctx, q, bvInts(v))
		if err != nil {
			t.Fatal(err)
		}
		hits, normalized := eng.plans.hits.Load(), eng.normalized.Load()
		text := fmt.Sprintf("SELECT id FROM n WHERE i=%d ORDER BY id", v)
		if got := describe(s.Query(ctx, text)); got != describe(prepared, nil) || eng.plans.hits.Load() != hits+1 || eng.normalized.Load() != normalized+1 {
			t.Fatalf("%s: %s, want %s (from the prepared plan)", text, got, describe(prepared, nil))
		}
	}
}

// TestNormalizedDifferential runs random statements over table n with and
// without normalisation and compares results, column metadata, errors and
// warnings.
func TestNormalizedDifferential(t *testing.T) {
	ctx := context.Background()
	eng, s := newNormEngine(t)
	plain := eng.NewSession("root", "localhost")
	t.Cleanup(plain.Close)
	checkExec(t, plain, "USE d")
	// sr draws a statement's shape (columns, operators, kinds of
	// constants), rnd the constants' values: a shape drawn again with new
	// values must hit the plan of the first.
	rnd := rand.New(rand.NewSource(2))
	var sr *rand.Rand
	cols := []string{"id", "i", "u", "d", "f", "c", "v", "tx", "e", "dt", "y", "n.i", "`v`"}
	pick := func(xs ...string) string { return xs[rnd.Intn(len(xs))] }
	lit := func() string {
		switch sr.Intn(14) {
		case 0:
			return fmt.Sprint(rnd.Intn(3000) - 1000)
		case 1:
			return fmt.Sprintf("%d.%d", rnd.Intn(20)-10, rnd.Intn(100))
		case 2:
			return fmt.Sprintf("%de%d", rnd.Intn(20)-10, rnd.Intn(3))
		case 3:
			return pick("18446744073709551615", "9223372036854775808", "-9223372036854775808", "99999999999999999999999", "007", "-0")
		case 4, 5:
			return pick("'5'", "'5.0'", "' 5'", "'a'", "'A'", "'a '", "'b'", "'it''s'", "''", "'10'", "'9'", "'2020-01-05'", "'1995'", "'abc'", "'5x'")
		case 6:
			return pick("NULL", "TRUE", "0x35", "x'35'", "_utf8mb4'a'", "'a' COLLATE utf8mb4_bin", "-(3)", ".5", "DATE '2020-01-10'")
		}
		return fmt.Sprint(rnd.Intn(21) - 10)
	}
	pred := func() string {
		c := cols[sr.Intn(len(cols))]
		switch sr.Intn(6) {
		case 0:
			return fmt.Sprintf("%s BETWEEN %s AND %s", c, lit(), lit())
		case 1:
			return fmt.Sprintf("%s %sIN (%s, %s, %s)", c, []string{"", "NOT "}[sr.Intn(2)], lit(), lit(), lit())
		case 2:
			return fmt.Sprintf("NOT %s %s %s", c, []string{"=", "<>", "<"}[sr.Intn(3)], lit())
		}
		return fmt.Sprintf("%s %s %s", c, []string{"=", "<=>", "<>", "!=", "<", "<=", ">", ">="}[sr.Intn(8)], lit())
	}
	selects := []string{"id", "id, i, v", "id, 1+1, 'x'", "id, d*2, f", "id, e, dt, y"}
	var queries []string
	for shape := 0; shape < 80; shape++ {
		seed := rnd.Int63()
		for rep := 0; rep < 6; rep++ {
			sr = rand.New(rand.NewSource(seed))
			var w strings.Builder
			np := 1 + sr.Intn(3)
			for i := 0; i < np; i++ {
				if i > 0 {
					w.WriteString([]string{" AND ", " OR ", " XOR "}[sr.Intn(3)])
				}
				w.WriteString(pred())
			}
			queries = append(queries, "SELECT "+selects[sr.Intn(len(selects))]+" FROM n WHERE "+w.String()+" ORDER BY id")
		}
	}
	for _, q := range []string{
		"SELECT id FROM n WHERE id = 5", "SELECT id FROM n WHERE id = 5 LIMIT 1",
		"SELECT id FROM n AS x WHERE x.i = 3 ORDER BY id", "SELECT id FROM d.n WHERE d.n.i = 3 ORDER BY id",
		"SELECT id FROM n WHERE nosuch = 3", "SELECT id FROM nosuch WHERE id = 3",
		"SELECT COUNT(*), SUM(i) FROM n WHERE i BETWEEN -3 AND 3",
		"SELECT id FROM n WHERE v = 'a' FOR UPDATE",
		"SELECT id FROM n WHERE i = 1e400",
	} {
		queries = append(queries, q)
	}
	normalised := 0
	for _, q := range queries {
		eng.noNormalize.Store(true)
		want := describe(plain.Query(ctx, q))
		wantWarn := fmt.Sprint(plain.warnings)
		eng.noNormalize.Store(false)
		got := describe(s.Query(ctx, q))
		gotWarn := fmt.Sprint(s.warnings)
		if got != want || gotWarn != wantWarn {
			t.Errorf("%s\n got %s %s\nwant %s %s", q, got, gotWarn, want, wantWarn)
		}
		if s.norm.n.Normalize(q) && len(s.norm.n.Lits) > 0 && !eng.normRejects.has(planKey{sql: s.norm.key(), db: s.DB, settings: s.plan()}, eng.Cat.Version()) {
			normalised++
		}
	}
	if normalised < len(queries)/10 {
		t.Errorf("only %d of %d statements ran normalised", normalised, len(queries))
	}
	t.Logf("%d of %d statements normalised; %d keys", normalised, len(queries), len(normKeys(eng)))
}

// insertStmt draws an INSERT into table n: its shape (columns, kinds of
// constants, IGNORE, row count) from sr, its values from rnd, with values
// out of range or too long for their columns now and then.
func insertStmt(sr, rnd *rand.Rand) string {
	pick := func(xs ...string) string { return xs[rnd.Intn(len(xs))] }
	// Per column: constants whose kind fits it, and ones that do not.
	type colGen struct {
		name        string
		fit, misfit []string
	}
	gens := []colGen{
		{"i", []string{"-5", "3.7", "2147483648", "42", "-100"}, []string{"'7'", "'x'"}},
		{"u", []string{"0", "-1", "18446744073709551615", "1e3", "99"}, []string{"'3'"}},
		{"d", []string{"1.005", "-9.999", "12345678901", "-0.5", "2"}, []string{"'1.5'"}},
		{"f", []string{"2e3", "1.25", "-3", "1e308"}, []string{"'x'"}},
		{"c", []string{"'ab'", "'toolongvalue'", "'a '", "'it''s'"}, []string{"5"}},
		{"v", []string{"'x'", "''", "'5.0'", "'a long string value over twenty chars'"}, []string{"7"}},
		{"tx", []string{"'t'", "'text value'"}, []string{"-2"}},
		{"e", nil, []string{"'a'", "'b'", "2", "'zz'"}},
		{"dt", nil, []string{"'2021-03-04'", "20210304", "'bad'"}},
		{"y", []string{"1999", "70", "3000"}, []string{"'2005'"}},
	}
	var names []string
	var lists [][]string
	for _, g := range gens {
		if sr.Intn(2) == 0 || (g.fit == nil && sr.Intn(3) != 0) {
			continue
		}
		names = append(names, g.name)
		if g.fit == nil || sr.Intn(6) == 0 {
			lists = append(lists, g.misfit)
		} else {
			lists = append(lists, g.fit)
		}
	}
	ignore := []string{"", "IGNORE "}[sr.Intn(2)]
	nrows := 1 + sr.Intn(3)
	var rows []string
	for r := 0; r < nrows; r++ {
		vals := []string{fmt.Sprint(41 + rnd.Intn(60))}
		for _, l := range lists {
			vals = append(vals, pick(l...))
		}
		rows = append(rows, "("+strings.Join(vals, ", ")+")")
	}
	return "INSERT " + ignore + "INTO n (" + strings.Join(append([]string{"id"}, names...), ", ") + ") VALUES " + strings.Join(rows, ", ")
}

// TestNormalizedDMLDifferential runs random INSERTs, UPDATEs and DELETEs on two
// copies of table n, one without normalisation, and compares what each
// statement reports and the tables' contents.
func TestNormalizedDMLDifferential(t *testing.T) {
	ctx := context.Background()
	eng, s := newTestEngine(t)
	createNormTable(t, s, "d2")
	plain := eng.NewSession("root", "localhost")
	t.Cleanup(plain.Close)
	createNormTable(t, plain, "d1")
	rnd := rand.New(rand.NewSource(3))
	var sr *rand.Rand
	pick := func(xs ...string) string { return xs[rnd.Intn(len(xs))] }
	num := func() string {
		switch sr.Intn(4) {
		case 0:
			return fmt.Sprintf("%d.%d", rnd.Intn(20)-10, rnd.Intn(100))
		case 1:
			return pick("'5'", "'a'", "'x''y'", "NULL", "1e2", "-7")
		}
		return fmt.Sprint(rnd.Intn(21) - 10)
	}
	str := func() string {
		if sr.Intn(3) == 0 {
			return fmt.Sprint(rnd.Intn(10))
		}
		return pick("'5'", "'a'", "'b '", "'x''y'", "''", "'a long string value over the size'")
	}
	col := func() (string, func() string) {
		switch sr.Intn(6) {
		case 0:
			return "i", num
		case 1:
			return "d", num
		case 2:
			return "v", str
		case 3:
			return "c", str
		case 4:
			return "e", func() string { return pick("1", "2", "'a'", "'b'") }
		}
		return "u", func() string { return fmt.Sprint(rnd.Intn(30)) }
	}
	where := func() string {
		c, v := col()
		switch sr.Intn(3) {
		case 0:
			return fmt.Sprintf("%s BETWEEN %s AND %s", c, v(), v())
		case 1:
			return fmt.Sprintf("%s IN (%s, %s)", c, v(), v())
		}
		return fmt.Sprintf("%s %s %s", c, []string{"=", "<", ">=", "<>"}[sr.Intn(4)], v())
	}
	var stmts []string
	for shape := 0; shape < 100; shape++ {
		seed := rnd.Int63()
		for rep := 0; rep < 5; rep++ {
			sr = rand.New(rand.NewSource(seed))
			var q string
			switch sr.Intn(6) {
			case 4, 5:
				q = insertStmt(sr, rnd)
			case 0:
				q = "DELETE FROM n WHERE " + where() + " AND id > " + fmt.Sprint(20+sr.Intn(20))
			case 1:
				c, v := col()
				q = fmt.Sprintf("UPDATE n SET %s = %s, f = f + 1 WHERE %s", c, v(), where())
			default:
				c, v := col()
				c2, v2 := col()
				q = fmt.Sprintf("UPDATE IGNORE n SET %s = %s, %s = %s WHERE %s OR id = %d ORDER BY id LIMIT 3", c, v(), c2, v2(), where(), rnd.Intn(40)+1)
			}
			stmts = append(stmts, q)
		}
	}
	snapshot := func(sess *Session) string {
		return describe(sess.Query(ctx, "SELECT * FROM n ORDER BY id"))
	}
	normalised, inserts := 0, 0
	for i, q := range stmts {
		eng.noNormalize.Store(true)
		want := describe(plain.Query(ctx, q))
		wantWarn := fmt.Sprint(plain.warnings)
		eng.noNormalize.Store(false)
		got := describe(s.Query(ctx, q))
		gotWarn := fmt.Sprint(s.warnings)
		if got != want || gotWarn != wantWarn {
			t.Errorf("%s\n got %s %s\nwant %s %s", q, got, gotWarn, want, wantWarn)
		}
		if s.norm.n.Normalize(q) && len(s.norm.n.Lits) > 0 && !eng.normRejects.has(planKey{sql: s.norm.key(), db: s.DB, settings: s.plan()}, eng.Cat.Version()) {
			normalised++
			if strings.HasPrefix(q, "INSERT") {
				inserts++
			}
		}
		if i%20 == 19 {
			if a, b := snapshot(plain), snapshot(s); a != b {
				t.Fatalf("after %s tables differ:\n d2 %s\n d1 %s", q, b, a)
			}
		}
	}
	if normalised < len(stmts)/10 || inserts == 0 {
		t.Errorf("only %d of %d statements ran normalised (%d INSERTs)", normalised, len(stmts), inserts)
	}
	t.Logf("%d of %d statements normalised (%d INSERTs)", normalised, len(stmts), inserts)
}

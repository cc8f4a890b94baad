package sql

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/encoding"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/txn"
)

// newTestEngine opens an engine on an in-memory Pebble and returns it with
// a root session.
func newTestEngine(t *testing.T) (*Engine, *Session) {
	t.Helper()
	db, err := kv.Open(kv.Options{Dir: "/db", FS: vfs.NewMem()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	tdb := txn.New(db, txn.Options{})
	cat, err := catalog.Load(tdb)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := NewEngine(tdb, cat)
	if err != nil {
		t.Fatal(err)
	}
	sess := eng.NewSession("root", "localhost")
	t.Cleanup(sess.Close)
	return eng, sess
}

// newCheckEngine opens an engine on an in-memory Pebble and returns a
// session with database d selected.
func newCheckEngine(t *testing.T) (*Engine, *Session) {
	t.Helper()
	eng, sess := newTestEngine(t)
	checkExec(t, sess,
		"CREATE DATABASE d",
		"USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(20), c INT, KEY ka (a), UNIQUE KEY ub (b), KEY kca (c, a DESC))",
		"INSERT INTO t VALUES (1, 10, 'x', 5), (2, 20, 'y', 5), (3, NULL, NULL, NULL), (4, 40, 'z', 7), (5, 10, NULL, 5)",
		"CREATE TABLE h (v VARCHAR(10), KEY kv (v))",
		"INSERT INTO h VALUES ('p'), ('q'), ('p'), (NULL)",
	)
	return eng, sess
}

func checkExec(t *testing.T, s *Session, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := s.Query(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// checkRows runs CHECK TABLE and returns the result as "Table|Op|Msg_type|Msg_text" lines.
func checkRows(t *testing.T, s *Session, q string) []string {
	t.Helper()
	res, handled, err := s.execCheckTable(context.Background(), q)
	if !handled {
		t.Fatalf("%s: not handled", q)
	}
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if len(res.Fields) != 4 || res.Fields[0].Name != "Table" || res.Fields[3].Name != "Msg_text" {
		t.Fatalf("%s: bad columns %v", q, res.Fields)
	}
	var out []string
	for _, r := range res.Rows {
		parts := make([]string, len(r))
		for i, v := range r {
			parts[i] = v.ToString()
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out
}

// handlerReads runs q after FLUSH STATUS and returns its rows (each value
// followed by a space) and the session's Handler_read_* counters.
func handlerReads(t *testing.T, s *Session, q string) (rows string, reads map[string]int) {
	t.Helper()
	checkExec(t, s, "FLUSH STATUS")
	res, err := s.Query(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	for _, r := range res.Rows {
		for _, v := range r {
			rows += v.ToString() + " "
		}
	}
	st, err := s.Query(context.Background(), "SHOW SESSION STATUS LIKE 'Handler_read%'")
	if err != nil {
		t.Fatal(err)
	}
	reads = map[string]int{}
	for _, r := range st.Rows {
		reads[r[0].ToString()], _ = strconv.Atoi(r[1].ToString())
	}
	return rows, reads
}

func checkExpect(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestParseCheckTable(t *testing.T) {
	for _, tc := range []struct {
		sql     string
		handled bool
		wantErr bool
		targets string
	}{
		{"CHECK TABLE t", true, false, ".t"},
		{"check table t;", true, false, ".t"},
		{"  Check Tables d.t, `e`.`x``y` ,z  QUICK extended ;  ", true, false, "d.t e.x`y .z"},
		{"CHECK TABLE t FOR UPGRADE", true, false, ".t"},
		{"CHECK TABLE `a b`.`c.d` FAST MEDIUM CHANGED", true, false, "a b.c.d"},
		{"CHECK TABLE t FOR", true, true, ""},
		{"CHECK TABLE", true, true, ""},
		{"CHECK TABLE t,", true, true, ""},
		{"CHECK TABLE t garbage", true, true, ""},
		{"CHECK TABLE `t", true, true, ""},
		{"CHECKSUM TABLE t", false, false, ""},
		{"CHECK t", false, false, ""},
		{"SELECT 1", false, false, ""},
		{"", false, false, ""},
	} {
		targets, handled, err := parseCheckTable(tc.sql)
		if handled != tc.handled || (err != nil) != tc.wantErr {
			t.Errorf("%q: handled=%v err=%v, want handled=%v err=%v", tc.sql, handled, err, tc.handled, tc.wantErr)
			continue
		}
		if err != nil || !handled {
			continue
		}
		var parts []string
		for _, tg := range targets {
			parts = append(parts, tg.db+"."+tg.name)
		}
		if got := strings.Join(parts, " "); got != tc.targets {
			t.Errorf("%q: targets %q, want %q", tc.sql, got, tc.targets)
		}
	}
}

func TestCheckTableOK(t *testing.T) {
	_, s := newCheckEngine(t)
	checkExpect(t, checkRows(t, s, "CHECK TABLE t, d.h, `t` QUICK"),
		"d.t|check|status|OK",
		"d.h|check|status|OK",
		"d.t|check|status|OK",
	)
	// After updates, deletes and a rolled-back transaction the indexes still agree.
	checkExec(t, s,
		"UPDATE t SET a = a + 1, b = CONCAT(b, '2') WHERE id IN (1, 2)",
		"UPDATE t SET id = 9 WHERE id = 4",
		"DELETE FROM h WHERE v = 'q'",
		"BEGIN", "DELETE FROM t WHERE id = 1", "ROLLBACK",
	)
	checkExpect(t, checkRows(t, s, "check table t, h"), "d.t|check|status|OK", "d.h|check|status|OK")
}

func TestCheckTableCommitsOpenTransaction(t *testing.T) {
	_, s := newCheckEngine(t)
	checkExec(t, s, "BEGIN", "INSERT INTO t VALUES (6, 60, 'w', 1)")
	checkExpect(t, checkRows(t, s, "CHECK TABLE t"), "d.t|check|status|OK")
	if s.InTransaction() {
		t.Fatal("CHECK TABLE left the transaction open")
	}
	checkExec(t, s, "ROLLBACK")
	res, err := s.Query(context.Background(), "SELECT COUNT(*) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.Rows[0][0].ToInt64(); n != 6 {
		t.Fatalf("rows after implicit commit = %d, want 6", n)
	}
}

func TestCheckTableMissing(t *testing.T) {
	_, s := newCheckEngine(t)
	checkExpect(t, checkRows(t, s, "CHECK TABLE nope, t, other.x"),
		"d.nope|check|Error|Table 'd.nope' doesn't exist",
		"d.nope|check|status|Operation failed",
		"d.t|check|status|OK",
		"other.x|check|Error|Table 'other.x' doesn't exist",
		"other.x|check|status|Operation failed",
	)
	// No current database.
	s2 := s.eng.NewSession("root", "localhost")
	defer s2.Close()
	if _, handled, err := s2.execCheckTable(context.Background(), "CHECK TABLE t"); !handled || err == nil || !strings.Contains(err.Error(), "No database selected") {
		t.Fatalf("no database: handled=%v err=%v", handled, err)
	}
	if _, handled, err := s.execCheckTable(context.Background(), "CHECK TABLE t extra"); !handled || err == nil || !strings.Contains(err.Error(), "1064") {
		t.Fatalf("syntax error: handled=%v err=%v", handled, err)
	}
	if _, handled, _ := s.execCheckTable(context.Background(), "SELECT 1"); handled {
		t.Fatal("SELECT handled as CHECK TABLE")
	}
}

func TestCheckTableInterrupted(t *testing.T) {
	_, s := newCheckEngine(t)
	checkExec(t, s, "CREATE TABLE big (id INT PRIMARY KEY, v INT, KEY kv (v))")
	var b strings.Builder
	b.WriteString("INSERT INTO big VALUES ")
	for i := 0; i < 3000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(" + checkItoa(i) + "," + checkItoa(i%7) + ")")
	}
	checkExec(t, s, b.String())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := s.execCheckTable(ctx, "CHECK TABLE big"); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("cancelled check: %v", err)
	}
}

func checkItoa(i int) string { return sqltypes.NewInt64(int64(i)).ToString() }

// checkCorruptFixture returns the runtime table t and its Pebble handle.
func checkCorruptFixture(t *testing.T) (*Session, *table.Table, *pebble.DB) {
	t.Helper()
	eng, s := newCheckEngine(t)
	def := eng.Cat.Table("d", "t")
	return s, eng.Store.Open(def), eng.DB.KV().Pebble()
}

// checkIndexKeys returns the raw keys of index ix, in order.
func checkIndexKeys(t *testing.T, pdb *pebble.DB, ix *catalog.Index) [][]byte {
	t.Helper()
	lo := table.IndexPrefix(nil, ix)
	it, err := pdb.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: encoding.PrefixEnd(table.IndexPrefix(nil, ix))})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out [][]byte
	for ok := it.First(); ok; ok = it.Next() {
		out = append(out, append([]byte(nil), it.Key()...))
	}
	return out
}

func TestCheckTableMissingSecondaryEntry(t *testing.T) {
	s, tbl, pdb := checkCorruptFixture(t)
	ka := tbl.Def.IndexByName("ka")
	keys := checkIndexKeys(t, pdb, ka)
	if len(keys) != 5 {
		t.Fatalf("index ka has %d entries, want 5", len(keys))
	}
	if err := pdb.Delete(keys[2], pebble.Sync); err != nil {
		t.Fatal(err)
	}
	checkExpect(t, checkRows(t, s, "CHECK TABLE t"),
		"d.t|check|warning|Index 'ka' contains 4 entries, should be 5: 1 row(s) without their entry",
		"d.t|check|error|Corrupt",
	)
}

func TestCheckTableMissingPrimaryRow(t *testing.T) {
	s, tbl, pdb := checkCorruptFixture(t)
	pks := checkIndexKeys(t, pdb, tbl.Def.Primary())
	if err := pdb.Delete(pks[0], pebble.Sync); err != nil { // id 1: a=10, b='x', c=5
		t.Fatal(err)
	}
	checkExpect(t, checkRows(t, s, "CHECK TABLE t"),
		"d.t|check|warning|Index 'ka' contains 5 entries, should be 4: 1 entry(ies) pointing to no row",
		"d.t|check|warning|Index 'ub' contains 5 entries, should be 4: 1 entry(ies) pointing to no row",
		"d.t|check|warning|Index 'kca' contains 5 entries, should be 4: 1 entry(ies) pointing to no row",
		"d.t|check|error|Corrupt",
	)
}

func TestCheckTableStaleAndCorruptEntries(t *testing.T) {
	s, tbl, pdb := checkCorruptFixture(t)
	ka := tbl.Def.IndexByName("ka")
	pks := checkIndexKeys(t, pdb, tbl.Def.Primary())
	// A stale entry: row id 2 indexed under a = 99 (it has a = 20).
	stale, err := tbl.AppendKeyParts(table.IndexPrefix(nil, ka), ka, []sqltypes.Value{sqltypes.NewInt64(99)})
	if err != nil {
		t.Fatal(err)
	}
	stale = append(stale, pks[1][4:]...)
	// An undecodable entry: the index prefix followed by a truncated key.
	bad := append(table.IndexPrefix(nil, ka), 0xff)
	for _, k := range [][]byte{stale, bad} {
		if err := pdb.Set(k, nil, pebble.Sync); err != nil {
			t.Fatal(err)
		}
	}
	checkExpect(t, checkRows(t, s, "CHECK TABLE t"),
		"d.t|check|warning|Index 'ka' contains 7 entries, should be 5: 1 entry(ies) that cannot be decoded, 1 entry(ies) not matching their row",
		"d.t|check|error|Corrupt",
	)
}

func TestCheckTableCorruptRow(t *testing.T) {
	s, tbl, pdb := checkCorruptFixture(t)
	pks := checkIndexKeys(t, pdb, tbl.Def.Primary())
	if err := pdb.Set(pks[3], []byte{0xff, 0xff, 0xff}, pebble.Sync); err != nil {
		t.Fatal(err)
	}
	got := checkRows(t, s, "CHECK TABLE t")
	if len(got) < 2 || got[0] != "d.t|check|warning|Primary key: 1 row(s) cannot be decoded" || got[len(got)-1] != "d.t|check|error|Corrupt" {
		t.Fatalf("got %q", got)
	}
}

func TestCheckTableUniqueDuplicate(t *testing.T) {
	s, tbl, pdb := checkCorruptFixture(t)
	ub := tbl.Def.IndexByName("ub")
	pks := checkIndexKeys(t, pdb, tbl.Def.Primary())
	// Rewrite row id 2 (b = 'y') to b = 'x' behind the engine's back, moving
	// its ub entry along: both rows and entries agree, but 'x' is twice in
	// a unique index.
	tx := s.eng.DB.Begin(context.Background(), txn.RepeatableRead, 0)
	old, ok, err := tbl.Get(tx, pks[1], false, nil)
	tx.Rollback()
	if err != nil || !ok {
		t.Fatalf("get row 2: %v %v", ok, err)
	}
	row := append([]sqltypes.Value(nil), old...)
	row[2] = sqltypes.NewVarChar("x")
	oldKey, _, _, err := tbl.SecondaryKey(nil, ub, old, pks[1])
	if err != nil {
		t.Fatal(err)
	}
	newKey, _, _, err := tbl.SecondaryKey(nil, ub, row, pks[1])
	if err != nil {
		t.Fatal(err)
	}
	val, err := tbl.EncodeValue(nil, row)
	if err != nil {
		t.Fatal(err)
	}
	b := pdb.NewBatch()
	_ = b.Set(pks[1], val, nil)
	_ = b.Delete(oldKey, nil)
	_ = b.Set(newKey, nil, nil)
	if err := b.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
	checkExpect(t, checkRows(t, s, "CHECK TABLE t"),
		"d.t|check|warning|Index 'ub' contains 5 entries, should be 5: 1 duplicate key(s) in a unique index",
		"d.t|check|error|Corrupt",
	)
}

func TestCheckTableHiddenPK(t *testing.T) {
	eng, s := newCheckEngine(t)
	tbl := eng.Store.Open(eng.Cat.Table("d", "h"))
	pdb := eng.DB.KV().Pebble()
	pks := checkIndexKeys(t, pdb, tbl.Def.Primary())
	if len(pks) != 4 {
		t.Fatalf("h has %d rows, want 4", len(pks))
	}
	if err := pdb.Delete(pks[1], pebble.Sync); err != nil {
		t.Fatal(err)
	}
	checkExpect(t, checkRows(t, s, "CHECK TABLE h"),
		"d.h|check|warning|Index 'kv' contains 4 entries, should be 3: 1 entry(ies) pointing to no row",
		"d.h|check|error|Corrupt",
	)
}

// TestCheckTableNotHandledCheaply: execCheckTable is called before every
// statement, so declining a non-CHECK statement must not allocate.
func TestCheckTableNotHandledCheaply(t *testing.T) {
	s := &Session{}
	ctx := context.Background()
	for _, q := range []string{"SELECT 1", "  check    tablespace", "CHECKSUM TABLE t", "c"} {
		if n := testing.AllocsPerRun(100, func() {
			if _, handled, _ := s.execCheckTable(ctx, q); handled {
				t.Fatalf("%q handled", q)
			}
		}); n != 0 {
			t.Errorf("%q: %v allocations", q, n)
		}
	}
}

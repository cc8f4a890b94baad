package binlog

import (
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/kv"
)

var quietLogger = kv.NewSlogLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))

const testUUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562"

func openTest(t *testing.T, dir string, maxSize int64) (*kv.DB, *Log) {
	t.Helper()
	k, err := kv.Open(kv.Options{Dir: filepath.Join(dir, "db"), FS: vfs.Default, MemoryBudget: 64 << 20, Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	l, err := Open(k, Options{Dir: dir, ServerUUID: testUUID, MaxSize: maxSize, Version: "8.0.40-strata"})
	if err != nil {
		t.Fatal(err)
	}
	return k, l
}

func testDef() *catalog.Table {
	return &catalog.Table{DB: "d", Name: "t", Columns: []catalog.Column{
		{Name: "id", Type: sqltypes.Int32, TypeName: "int"},
		{Name: "v", Type: sqltypes.VarChar, TypeName: "varchar", Length: 20, Collation: 255, Nullable: true},
		{Name: "amount", Type: sqltypes.Decimal, TypeName: "decimal", Length: 10, Scale: 2, Nullable: true},
		{Name: "ts", Type: sqltypes.Datetime, TypeName: "datetime", Scale: 3, Nullable: true},
		{Name: "e", Type: sqltypes.Enum, TypeName: "enum", EnumValues: []string{"a", "b"}, Collation: 255, Nullable: true},
		{Name: "tm", Type: sqltypes.Time, TypeName: "time", Nullable: true},
		{Name: "u", Type: sqltypes.Uint64, TypeName: "bigint", Unsigned: true, Nullable: true},
	}, Indexes: []*catalog.Index{{ID: 300, Name: "PRIMARY", Primary: true, Columns: []catalog.IndexColumn{{Col: 0}}}}}
}

func row(vals ...string) []sqltypes.Value {
	def := testDef()
	r := make([]sqltypes.Value, len(vals))
	for i, v := range vals {
		if v == "NULL" {
			r[i] = sqltypes.NULL
		} else {
			r[i] = sqltypes.MakeTrusted(def.Columns[i].Type, []byte(v))
		}
	}
	return r
}

func commitRows(t *testing.T, k *kv.DB, l *Log, fn func(c *Changes)) {
	t.Helper()
	c := l.NewChanges()
	defer l.Release(c)
	fn(c)
	b := k.NewBatch()
	defer b.Close()
	tk, err := l.Commit(b, c, nil, func(b *kv.Batch) error { return b.Commit(true) })
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Publish(tk); err != nil {
		t.Fatal(err)
	}
}

func TestLogDecodesWithMysqlbinlog(t *testing.T) {
	dir := t.TempDir()
	k, l := openTest(t, dir, 0)
	def := testDef()
	commitRows(t, k, l, func(c *Changes) {
		must(t, c.Insert(def, row("1", "hello", "-12.34", "2024-01-02 03:04:05.678", "b", "-01:02:03", "18446744073709551615")))
		must(t, c.Insert(def, row("2", "NULL", "0.00", "NULL", "a", "838:59:59", "0")))
	})
	commitRows(t, k, l, func(c *Changes) {
		must(t, c.Update(def, row("1", "hello", "-12.34", "2024-01-02 03:04:05.678", "b", "-01:02:03", "5"), row("1", "world", "99999999.99", "2024-01-02 03:04:05.000", "a", "00:00:00", "6")))
		must(t, c.Delete(def, row("2", "NULL", "0.00", "NULL", "a", "838:59:59", "0")))
	})
	b := k.NewBatch()
	tk, err := l.Commit(b, nil, &Statement{DB: "d", Query: "CREATE TABLE x (a int)"}, func(b *kv.Batch) error { return b.Commit(true) })
	must(t, err)
	must(t, l.Publish(tk))
	b.Close()
	if got := l.GTIDExecuted(); got != testUUID+":1-3" {
		t.Fatalf("gtid_executed %q", got)
	}
	must(t, l.Close())
	must(t, k.Close())

	path := filepath.Join(dir, "binlog.000001")
	bin, err := exec.LookPath("mysqlbinlog")
	if err != nil {
		t.Skip("mysqlbinlog not installed")
	}
	out, err := exec.Command(bin, "-v", path).CombinedOutput()
	if err != nil {
		t.Fatalf("mysqlbinlog: %v\n%s", err, out)
	}
	for _, want := range []string{
		"### INSERT INTO `d`.`t`", "@2='hello'", "@3=-12.34", "@4='2024-01-02 03:04:05.678'", "@5=2", "@6='-01:02:03'",
		"### UPDATE `d`.`t`", "@2='world'", "@3=99999999.99",
		"### DELETE FROM `d`.`t`", "@6='838:59:59'",
		"CREATE TABLE x (a int)",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("mysqlbinlog output lacks %q:\n%s", want, out)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestDumpForDebug(t *testing.T) {
	if os.Getenv("BINLOG_DUMP") == "" {
		t.Skip()
	}
	dir := os.Getenv("BINLOG_DUMP")
	k, l := openTest(t, dir, 0)
	def := testDef()
	commitRows(t, k, l, func(c *Changes) {
		must(t, c.Insert(def, row("1", "hello", "-12.34", "2024-01-02 03:04:05.678", "b", "-01:02:03", "18446744073709551615")))
	})
	l.Close()
	k.Close()
}

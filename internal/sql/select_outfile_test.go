package sql

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
)

// outfileEngine returns a session whose secure_file_priv is a fresh
// directory, with the table the reference files were written from.
func outfileEngine(t *testing.T) (*Session, string) {
	t.Helper()
	eng, s := newTestEngine(t)
	dir := t.TempDir()
	eng.Globals.Set("secure_file_priv", sqltypes.NewVarChar(dir+"/"))
	checkExec(t, s,
		"CREATE DATABASE d", "USE d",
		"CREATE TABLE t (i INT, d DECIMAL(5,2), f DOUBLE, s VARCHAR(20), b VARBINARY(10), dt DATETIME, n INT)",
		`INSERT INTO t VALUES (1, 1.50, 2.5, 'a\tb\nc\\d"e,f', x'00410A', '2024-01-02 03:04:05', NULL), (-2, -0.25, 1e20, 'x,y', 'q', NULL, 3)`,
	)
	return s, dir
}

// TestOutfileFormats compares INTO OUTFILE / DUMPFILE output with the
// files MariaDB 10.11 wrote for the same statements
// (testdata/outfile; MySQL 8.0 writes the same bytes).
func TestOutfileFormats(t *testing.T) {
	s, dir := outfileEngine(t)
	ctx := context.Background()
	for _, c := range []struct{ file, sql string }{
		{"o1.txt", "SELECT * FROM t INTO OUTFILE '%s'"},
		{"o2.txt", `SELECT * FROM t INTO OUTFILE '%s' FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '"' LINES TERMINATED BY '\r\n'`},
		{"o3.txt", `SELECT * FROM t INTO OUTFILE '%s' FIELDS TERMINATED BY ',' ENCLOSED BY '"' ESCAPED BY '' LINES STARTING BY 'X:'`},
		{"o4.txt", "SELECT * FROM t INTO OUTFILE '%s' FIELDS TERMINATED BY 'n' ENCLOSED BY '0'"},
		{"o5.txt", "SELECT * FROM t INTO OUTFILE '%s' FIELDS TERMINATED BY '.'"},
		{"p1.txt", "SELECT 1.5, 'a.b', 10 INTO OUTFILE '%s' FIELDS TERMINATED BY '.'"},
		{"p2.txt", "SELECT 1.5, 'a.b', 10 INTO OUTFILE '%s' FIELDS TERMINATED BY ',' ENCLOSED BY '.'"},
		{"p3.txt", "SELECT 1.5, 'a.b', 10 INTO OUTFILE '%s' FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '1'"},
		{"d1.bin", "SELECT s, n FROM t WHERE i = 1 INTO DUMPFILE '%s'"},
	} {
		path := filepath.Join(dir, c.file)
		res, err := s.Query(ctx, strings.Replace(c.sql, "%s", path, 1))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("testdata", "outfile", c.file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", c.file, got, want)
		}
		if c.file != "d1.bin" && !strings.HasPrefix(c.file, "p") && res.RowsAffected != 2 {
			t.Errorf("%s: %d rows affected, want 2", c.file, res.RowsAffected)
		}
	}
}

// TestOutfileRefused: files outside secure_file_priv (also through a
// symbolic link or a relative name), existing files and disabled export
// are refused with MySQL's errors, and a failed statement leaves no file.
func TestOutfileRefused(t *testing.T) {
	s, dir := outfileEngine(t)
	ctx := context.Background()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	exists := filepath.Join(dir, "exists.txt")
	if err := os.WriteFile(exists, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sql  string
		code sqlerror.ErrorCode
	}{
		{"SELECT 1 INTO OUTFILE '" + filepath.Join(outside, "x.txt") + "'", 1290},
		{"SELECT 1 INTO OUTFILE '" + filepath.Join(dir, "link", "x.txt") + "'", 1290},
		{"SELECT 1 INTO OUTFILE '" + dir + "/../x.txt'", 1290},
		{"SELECT 1 INTO OUTFILE 'x.txt'", 1290},
		{"SELECT 1 INTO DUMPFILE '" + exists + "'", 1086},
		{"SELECT 1 INTO OUTFILE '" + filepath.Join(dir, "nodir", "x.txt") + "'", 1290},
		{"SELECT * FROM t INTO DUMPFILE '" + filepath.Join(dir, "two.bin") + "'", 1172},
		{"SELECT * FROM no_such INTO OUTFILE '" + filepath.Join(dir, "none.txt") + "'", 1146},
	} {
		_, err := s.Query(ctx, c.sql)
		if se, ok := err.(*sqlerror.SQLError); !ok || se.Num != c.code {
			t.Errorf("%s: %v, want %d", c.sql, err, c.code)
		}
	}
	if b, _ := os.ReadFile(exists); string(b) != "keep" {
		t.Errorf("existing file changed: %q", b)
	}
	for _, f := range []string{"two.bin", "none.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s left behind by a failed statement", f)
		}
	}
	s.eng.Globals.Set("secure_file_priv", sqltypes.NULL)
	if _, err := s.Query(ctx, "SELECT 1 INTO OUTFILE '"+filepath.Join(dir, "y.txt")+"'"); err == nil || err.(*sqlerror.SQLError).Num != 1290 {
		t.Errorf("secure_file_priv NULL: %v, want 1290", err)
	}
}

// TestOutfileStreamed: a result larger than a streamed batch is written
// whole, in order, and counted.
func TestOutfileStreamed(t *testing.T) {
	s, dir := outfileEngine(t)
	ctx := context.Background()
	checkExec(t, s, "CREATE TABLE big (id INT PRIMARY KEY, v VARCHAR(10))")
	var sb strings.Builder
	sb.WriteString("INSERT INTO big VALUES ")
	const n = 1000
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString("(" + strconv.Itoa(i) + ", 'v" + strconv.Itoa(i) + "')")
	}
	checkExec(t, s, sb.String())
	path := filepath.Join(dir, "big.txt")
	res, err := s.Query(ctx, "SELECT id, v FROM big INTO OUTFILE '"+path+"'")
	if err != nil {
		t.Fatal(err)
	}
	if res.RowsAffected != n {
		t.Fatalf("%d rows affected, want %d", res.RowsAffected, n)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != n || lines[0] != "0\tv0" || lines[n-1] != "999\tv999" {
		t.Fatalf("%d lines, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
	res, err = s.Query(ctx, "SELECT ROW_COUNT()")
	if err != nil || res.Rows[0][0].ToString() != "1000" {
		t.Fatalf("ROW_COUNT() = %v, %v", res, err)
	}
}

// TestOutfileOptions: NO_BACKSLASH_ESCAPES drops the default escape
// character (NULL is written as the word), a character set the file
// cannot be converted to answers 1235.
func TestOutfileOptions(t *testing.T) {
	s, dir := outfileEngine(t)
	ctx := context.Background()
	checkExec(t, s, "SET sql_mode = 'NO_BACKSLASH_ESCAPES'")
	path := filepath.Join(dir, "nobs.txt")
	if _, err := s.Query(ctx, "SELECT CONCAT('a', CHAR(92), 'b'), NULL INTO OUTFILE '"+path+"'"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "a\\b\tNULL\n" {
		t.Errorf("got %q", b)
	}
	_, err := s.Query(ctx, "SELECT 1 INTO OUTFILE '"+filepath.Join(dir, "l1.txt")+"' CHARACTER SET latin1")
	if se, ok := err.(*sqlerror.SQLError); !ok || se.Num != 1235 {
		t.Errorf("CHARACTER SET latin1: %v, want 1235", err)
	}
}

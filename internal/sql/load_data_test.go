package sql

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/loaddata"
)

// queryLines renders a query's rows as lines of |-joined values.
func queryLines(t *testing.T, s *Session, q string) string {
	t.Helper()
	res, err := s.Query(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var b strings.Builder
	for _, r := range res.Rows {
		for i, v := range r {
			if i > 0 {
				b.WriteByte('|')
			}
			if v.IsNull() {
				b.WriteString("NULL")
			} else {
				b.WriteString(v.ToString())
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestLoadDataOutfileFiles loads the files MariaDB 10.11 wrote with SELECT
// ... INTO OUTFILE (testdata/outfile, see TestOutfileFormats) back with the
// same options: the rows come back as they were.
func TestLoadDataOutfileFiles(t *testing.T) {
	s, dir := outfileEngine(t)
	want := queryLines(t, s, "SELECT * FROM t ORDER BY i")
	for _, c := range []struct{ file, opts string }{
		{"o1.txt", ""},
		{"o2.txt", `FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '"' LINES TERMINATED BY '\r\n'`},
		{"o3.txt", `FIELDS TERMINATED BY ',' ENCLOSED BY '"' ESCAPED BY '' LINES STARTING BY 'X:'`},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", "outfile", c.file))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "load-"+c.file)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		checkExec(t, s, "DROP TABLE IF EXISTS u", "CREATE TABLE u LIKE t")
		res, err := s.Query(context.Background(), fmt.Sprintf("LOAD DATA INFILE '%s' INTO TABLE u %s", path, c.opts))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if res.RowsAffected != 2 || res.Info != "Records: 2  Deleted: 0  Skipped: 0  Warnings: 0" {
			t.Errorf("%s: %d rows, info %q", c.file, res.RowsAffected, res.Info)
		}
		if got := queryLines(t, s, "SELECT * FROM u ORDER BY i"); got != want {
			t.Errorf("%s: rows\n%s\nwant\n%s", c.file, got, want)
		}
	}
}

// fakeLocal serves LOAD DATA LOCAL from memory and records what the
// statement asked for and whether it closed the transfer.
type fakeLocal struct {
	data   string
	fail   error // returned after data
	asked  string
	closed bool
}

func (f *fakeLocal) OpenLocalFile(name string) (io.ReadCloser, error) {
	f.asked = name
	var r io.Reader = strings.NewReader(f.data)
	if f.fail != nil {
		r = io.MultiReader(r, errReader{f.fail})
	}
	return readCloser{r, func() { f.closed = true }}, nil
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

type readCloser struct {
	io.Reader
	close func()
}

func (r readCloser) Close() error { r.close(); return nil }

func errCode(err error) int {
	var se *sqlerror.SQLError
	if errors.As(err, &se) {
		return int(se.Num)
	}
	return 0
}

// TestLoadDataLocalSession: LOCAL without a client that allows it is 3948;
// with one, the file the statement names is asked for, duplicates are
// warnings (LOCAL acts as IGNORE), a transfer that breaks fails the
// statement with nothing loaded, and the transfer is always closed.
func TestLoadDataLocalSession(t *testing.T) {
	_, s := newTestEngine(t)
	ctx := context.Background()
	checkExec(t, s, "CREATE DATABASE d", "USE d", "CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(10))")
	if _, err := s.Query(ctx, "LOAD DATA LOCAL INFILE 'x' INTO TABLE t"); errCode(err) != 3948 {
		t.Fatalf("no client files: %v", err)
	}
	f := &fakeLocal{data: "1\ta\n2\tb\n1\tdup\n"}
	s.SetLocalFiles(f, false)
	if _, err := s.Query(ctx, "LOAD DATA LOCAL INFILE 'x' INTO TABLE t"); errCode(err) != 3948 || f.asked != "" {
		t.Fatalf("client without CLIENT_LOCAL_FILES: %v (asked %q)", err, f.asked)
	}
	s.SetLocalFiles(f, true)
	res, err := s.Query(ctx, "LOAD DATA LOCAL INFILE '/home/u/f.txt' INTO TABLE t")
	if err != nil {
		t.Fatal(err)
	}
	if f.asked != "/home/u/f.txt" || !f.closed || res.RowsAffected != 2 || res.Info != "Records: 3  Deleted: 0  Skipped: 1  Warnings: 1" {
		t.Errorf("asked %q, closed %v, %d rows, info %q", f.asked, f.closed, res.RowsAffected, res.Info)
	}
	f2 := &fakeLocal{data: "7\tx\n8\ty\n", fail: errors.New("connection reset")}
	s.SetLocalFiles(f2, true)
	if _, err := s.Query(ctx, "LOAD DATA LOCAL INFILE 'y' INTO TABLE t"); errCode(err) != 1158 || !f2.closed {
		t.Errorf("broken transfer: %v, closed %v", err, f2.closed)
	}
	if got := queryLines(t, s, "SELECT COUNT(*) FROM t"); got != "2\n" {
		t.Errorf("after the broken transfer: %q rows", got)
	}
}

// TestLoadProgressState is PROCESSLIST's state of a load.
func TestLoadProgressState(t *testing.T) {
	rd := loaddata.NewReader(strings.NewReader("1\n2\n"), loaddata.DefaultFormat)
	if _, _, err := rd.Next(1); err != nil {
		t.Fatal(err)
	}
	if got := (&loadProgress{rd: rd, size: 8}).state(); got != "Loading data (50.0% of 8 bytes)" {
		t.Errorf("server file: %q", got)
	}
	if got := (&loadProgress{rd: rd}).state(); got != "Loading data (4 bytes read)" {
		t.Errorf("LOCAL: %q", got)
	}
}

// TestLoadDataServerFileErrors: a missing file, a directory, a file
// outside secure_file_priv.
func TestLoadDataServerFileErrors(t *testing.T) {
	s, dir := outfileEngine(t)
	ctx := context.Background()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sql  string
		code int
	}{
		{"LOAD DATA INFILE '" + dir + "/nope.txt' INTO TABLE t", 13},
		{"LOAD DATA INFILE '" + dir + "/sub' INTO TABLE t", 1085},
		{"LOAD DATA INFILE '/etc/hostname' INTO TABLE t", 1290},
		{"LOAD DATA INFILE 'x' INTO TABLE t FIELDS TERMINATED BY '' ENCLOSED BY ''", 1235},
	} {
		if _, err := s.Query(ctx, c.sql); errCode(err) != c.code {
			t.Errorf("%s: %v, want %d", c.sql, err, c.code)
		}
	}
	s.eng.Globals.Set("secure_file_priv", sqltypes.NULL)
	if _, err := s.Query(ctx, "LOAD DATA INFILE '"+dir+"/nope.txt' INTO TABLE t"); errCode(err) != 1290 {
		t.Errorf("secure_file_priv NULL: %v", err)
	}
}

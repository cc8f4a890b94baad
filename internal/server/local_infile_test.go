package server_test

import (
	gosql "database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/server"
)

// TestLoadDataLocal loads client files through go-sql-driver's LOCAL
// INFILE support: a registered file, any file with allowAllFiles, a reader
// handler streaming more than 256 packets whose bytes look like protocol
// commands (tabs: COM_STATISTICS) — the wrapper below Vitess must not take
// the one whose sequence number wraps to 0 for a command —, an error part
// way through a transfer (the rest is drained: the connection stays in
// step and usable), local_infile OFF (3948), and the PROCESSLIST state of
// a running load.
func TestLoadDataLocal(t *testing.T) {
	eng := newMemEngine(t)
	srv, err := server.New(eng, server.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	t.Cleanup(srv.Close)

	open := func(allowAll bool) *gosql.DB {
		cfg := mysql.NewConfig()
		cfg.User, cfg.Net, cfg.Addr = "root", "tcp", srv.Addr().String()
		cfg.AllowAllFiles = allowAll
		cfg.Timeout, cfg.ReadTimeout, cfg.WriteTimeout = 5*time.Second, 30*time.Second, 30*time.Second
		c, err := mysql.NewConnector(cfg)
		if err != nil {
			t.Fatal(err)
		}
		db := gosql.OpenDB(c)
		db.SetMaxOpenConns(1)
		t.Cleanup(func() { db.Close() })
		return db
	}
	db := open(false)
	mustExec := func(db *gosql.DB, q string) gosql.Result {
		t.Helper()
		res, err := db.Exec(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return res
	}
	count := func(db *gosql.DB, q string) int {
		t.Helper()
		var n int
		if err := db.QueryRow(q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	mustExec(db, "CREATE DATABASE ld")
	mustExec(db, "USE ld")
	mustExec(db, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(200))")

	// A registered file.
	path := filepath.Join(t.TempDir(), "rows.txt")
	if err := os.WriteFile(path, []byte("1\tone\n2\ttwo\n3\tthree\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mysql.RegisterLocalFile(path)
	defer mysql.DeregisterLocalFile(path)
	res := mustExec(db, fmt.Sprintf("LOAD DATA LOCAL INFILE '%s' INTO TABLE t", path))
	if n, _ := res.RowsAffected(); n != 3 {
		t.Errorf("registered file: %d rows affected, want 3", n)
	}
	// LOCAL without REPLACE: duplicates are warnings (as IGNORE).
	res = mustExec(db, fmt.Sprintf("LOAD DATA LOCAL INFILE '%s' INTO TABLE t", path))
	if n, _ := res.RowsAffected(); n != 0 {
		t.Errorf("duplicates: %d rows affected, want 0", n)
	}
	if n := count(db, "SELECT @@warning_count"); n != 3 {
		t.Errorf("duplicates: %d warnings, want 3", n)
	}

	// allowAllFiles: any path.
	all := open(true)
	mustExec(all, "USE ld")
	path2 := filepath.Join(t.TempDir(), "more.csv")
	if err := os.WriteFile(path2, []byte("id,v\r\n4,\"f,our\"\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mustExec(all, fmt.Sprintf("LOAD DATA LOCAL INFILE '%s' INTO TABLE t FIELDS TERMINATED BY ',' ENCLOSED BY '\"' LINES TERMINATED BY '\\r\\n' IGNORE 1 LINES", path2))
	var v string
	if err := db.QueryRow("SELECT v FROM t WHERE id = 4").Scan(&v); err != nil || v != "f,our" {
		t.Errorf("allowAllFiles: %q, %v", v, err)
	}

	// A stream of 40,000 rows of tabs (4 MB, > 256 packets of 16 KiB).
	const rows = 40000
	tabs := strings.Repeat("\t", 100)
	mysql.RegisterReaderHandler("tabs", func() io.Reader {
		pr, pw := io.Pipe()
		go func() {
			for i := 0; i < rows; i++ {
				if _, err := fmt.Fprintf(pw, "%d,%s\n", 1000+i, tabs); err != nil {
					return
				}
			}
			pw.Close()
		}()
		return pr
	})
	defer mysql.DeregisterReaderHandler("tabs")
	res = mustExec(db, "LOAD DATA LOCAL INFILE 'Reader::tabs' INTO TABLE t FIELDS TERMINATED BY ','")
	if n, _ := res.RowsAffected(); n != rows {
		t.Errorf("stream: %d rows affected, want %d", n, rows)
	}
	if n := count(db, "SELECT COUNT(*) FROM t WHERE v = REPEAT('\t', 100)"); n != rows {
		t.Errorf("stream: %d rows of tabs, want %d", n, rows)
	}

	// An error part way (REPLACE keeps strict-mode errors): nothing is
	// loaded, the rest of the transfer is drained, the connection stays.
	id := count(db, "SELECT CONNECTION_ID()")
	mysql.RegisterReaderHandler("bad", func() io.Reader {
		var b strings.Builder
		for i := 0; i < rows; i++ {
			if i == 10 {
				b.WriteString("x,bad\n")
				continue
			}
			fmt.Fprintf(&b, "%d,%s\n", 100000+i, tabs)
		}
		return strings.NewReader(b.String())
	})
	defer mysql.DeregisterReaderHandler("bad")
	_, err = db.Exec("LOAD DATA LOCAL INFILE 'Reader::bad' REPLACE INTO TABLE t FIELDS TERMINATED BY ','")
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1366 {
		t.Fatalf("bad value: %v, want 1366", err)
	}
	if n := count(db, "SELECT COUNT(*) FROM t WHERE id >= 100000"); n != 0 {
		t.Errorf("failed load left %d rows", n)
	}
	if n := count(db, "SELECT CONNECTION_ID()"); n != id {
		t.Errorf("connection changed after the failed load: %d, was %d", n, id)
	}

	// PROCESSLIST shows a running load.
	pr, pw := io.Pipe()
	mysql.RegisterReaderHandler("slow", func() io.Reader { return pr })
	defer mysql.DeregisterReaderHandler("slow")
	done := make(chan error, 1)
	go func() {
		_, err := db.Exec("LOAD DATA LOCAL INFILE 'Reader::slow' INTO TABLE t")
		done <- err
	}()
	if _, err := fmt.Fprintf(pw, "500000\tfirst\n"); err != nil {
		t.Fatal(err)
	}
	var state string
	for i := 0; i < 100; i++ {
		err := all.QueryRow("SELECT STATE FROM information_schema.PROCESSLIST WHERE INFO LIKE 'LOAD DATA%'").Scan(&state)
		if err == nil && strings.HasPrefix(state, "Loading data") {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.HasPrefix(state, "Loading data (") {
		t.Errorf("PROCESSLIST state of a load: %q", state)
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Fatalf("slow load: %v", err)
	}

	// local_infile OFF: 3948.
	mustExec(db, "SET GLOBAL local_infile = OFF")
	_, err = db.Exec(fmt.Sprintf("LOAD DATA LOCAL INFILE '%s' INTO TABLE t", path))
	if !errors.As(err, &me) || me.Number != 3948 {
		t.Errorf("local_infile OFF: %v, want 3948", err)
	}
	mustExec(db, "SET GLOBAL local_infile = ON")
	if n := count(db, "SELECT 1"); n != 1 {
		t.Errorf("after 3948: %d", n)
	}
}

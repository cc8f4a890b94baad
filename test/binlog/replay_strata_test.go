package binlog_test

import (
	"database/sql"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/testserver"
)

// TestMysqlbinlogIntoStrata pipes MariaDB's mysqlbinlog output of a strata
// binary log into fresh stratas through the mariadb client, as a
// point-in-time recovery does: the session SETs, the DDL and the BINLOG
// '…' statements carrying the row events all run without an error, and
// every table ends with the source's rows and CHECKSUM TABLE — the whole
// log, and the log up to a position (--stop-position) giving the state the
// source had there.
func TestMysqlbinlogIntoStrata(t *testing.T) {
	bin, err := exec.LookPath("mysqlbinlog")
	if err != nil {
		t.Skip("mysqlbinlog not installed (apt-get install mariadb-client)")
	}
	client, err := exec.LookPath("mariadb")
	if err != nil {
		if client, err = exec.LookPath("mysql"); err != nil {
			t.Skip("no mariadb/mysql client")
		}
	}
	src := testserver.Start(t, testserver.Options{Args: []string{"--log-bin"}})
	db := src.DB(t, "")
	tables := []string{"r.a", "r.b"}
	mustExec(t, db, "CREATE DATABASE r")
	mustExec(t, db, "CREATE TABLE r.a (id INT PRIMARY KEY, v VARCHAR(40), d DECIMAL(10,2), ts DATETIME(3), t TIMESTAMP NULL, KEY kv (v))")
	mustExec(t, db, "INSERT INTO r.a VALUES (1, 'héllo wörld', 1.25, '2024-01-02 03:04:05.678', '2024-05-06 07:08:09'), (2, NULL, NULL, NULL, NULL), (3, 'x', -7.5, '1999-12-31 23:59:59.999', NULL)")
	mustExec(t, db, "UPDATE r.a SET v = 'ünïcode' WHERE id = 2")
	mustExec(t, db, "CREATE TABLE r.b (k BIGINT UNSIGNED PRIMARY KEY, j JSON, s VARCHAR(10) NOT NULL DEFAULT 'z')")
	mustExec(t, db, "INSERT INTO r.b (k, j) VALUES (18446744073709551615, '{\"a\": [1, 2.5, \"x\"]}'), (1, NULL)")
	// The point a partial replay stops at, with the source's state there.
	var file string
	var pos int64
	var ignored1, ignored2, ignored3 sql.NullString
	if err := db.QueryRow("SHOW MASTER STATUS").Scan(&file, &pos, &ignored1, &ignored2, &ignored3); err != nil {
		t.Fatal(err)
	}
	mid := snapshot(t, db, tables)
	mustExec(t, db, "ALTER TABLE r.b ADD COLUMN n INT NULL")
	mustExec(t, db, "UPDATE r.b SET n = 5, s = 'yy' WHERE k = 1")
	mustExec(t, db, "UPDATE r.a SET d = d WHERE id = 3") // changes nothing: the row is still found
	mustExec(t, db, "DELETE FROM r.a WHERE id = 1")
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i := 10; i < 60; i++ {
		if _, err := tx.Exec("INSERT INTO r.a (id, v) VALUES (?, ?)", i, fmt.Sprintf("v%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	end := snapshot(t, db, tables)
	files := binlogFiles(t, src.DataDir)

	replay := func(name, opts string, want map[string]string) {
		dst := testserver.Start(t, testserver.Options{})
		script := bin + " " + opts + " " + strings.Join(files, " ") + " | " + client + " -h 127.0.0.1 -P " + strconv.Itoa(dst.Port) + " -u root 2>&1"
		out, err := exec.Command("sh", "-c", script).CombinedOutput()
		if err != nil || strings.Contains(string(out), "ERROR") {
			t.Fatalf("%s: replay: %v\n%s", name, err, out)
		}
		got := snapshot(t, dst.DB(t, ""), tables)
		for _, tbl := range tables {
			if got[tbl] != want[tbl] {
				t.Errorf("%s: %s:\nreplayed %s\nsource   %s", name, tbl, got[tbl], want[tbl])
			}
		}
	}
	replay("whole log", "", end)
	replay("to the position", "--stop-position="+strconv.FormatInt(pos, 10), mid)
}

// snapshot is each table's rows (in primary-key order) and CHECKSUM TABLE.
func snapshot(t *testing.T, db *sql.DB, tables []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, tbl := range tables {
		rows, err := db.Query("SELECT * FROM " + tbl + " ORDER BY 1")
		if err != nil {
			t.Fatalf("%s: %v", tbl, err)
		}
		cols, _ := rows.Columns()
		var b strings.Builder
		vals := make([]sql.RawBytes, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for _, v := range vals {
				if v == nil {
					b.WriteString("NULL|")
				} else {
					b.WriteString(string(v) + "|")
				}
			}
			b.WriteString("\n")
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		var name, sum string
		if err := db.QueryRow("CHECKSUM TABLE "+tbl).Scan(&name, &sum); err != nil {
			t.Fatal(err)
		}
		out[tbl] = strings.Join(cols, ",") + "\n" + b.String() + "checksum " + sum
	}
	return out
}

// TestBinlogStatementErrors: malformed BINLOG statements get MySQL's
// errors and change nothing: bad base64 1575, an event before any format
// description 1609, a table map of a table the server lacks its error.
func TestBinlogStatementErrors(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{})
	db := srv.DB(t, "")
	c, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// A format description event and a table map of r.a, as strata's log
	// and mysqlbinlog write them.
	const (
		fd       = "SHwGaw8BAAAAegAAAH4AAAAAAAQAOC4wLjQwLXN0cmF0YQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABIfAZrEwANAAgAAAAABAAEAAAAYgAEGggAAAAICAgCAAAACgoKKioAEjQACigAAegK4l0="
		tableMap = "5XsGaxMBAAAASgAAAAgDAAAAAAEAAAAAAAEAAXIAAWEABQMP9hIRBqAACgIDAB4BAQADAS0EDAJpZAF2AWQCdHMBdAgBACaorio="
	)
	for _, c2 := range []struct {
		stmt string
		want uint16
	}{
		{"BINLOG 'not base64!'", 1575},
		{"BINLOG '" + tableMap + "'", 1609},
		{"BINLOG '" + fd + "'", 0},
		{"BINLOG '" + tableMap + "'", 1146},
	} {
		_, err := c.ExecContext(t.Context(), c2.stmt)
		if got := errCode(err); got != c2.want {
			t.Errorf("%.40s…: %v, want error %d", c2.stmt, err, c2.want)
		}
	}
}

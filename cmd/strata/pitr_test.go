package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/backup"
	"github.com/strata-db/strata/internal/testserver"
)

// pitrPoint is what the source held right after one transaction.
type pitrPoint struct {
	gtid    string // the transaction's GTID
	file    string // SHOW MASTER STATUS after it
	pos     int64
	rows    int64
	sumT    string // CHECKSUM TABLE bk.t
	sumCtr  string // CHECKSUM TABLE bk.ctr
	rowsU   int64  // rows of bk.u (created midway; -1 before)
	created bool
}

// TestPointInTimeRecovery takes a backup of a server with the binary log on
// while four clients commit, then runs a sequence of transactions (inserts,
// updates, deletes, CREATE TABLE, ALTER TABLE) recording after each its
// GTID and the tables' row counts and checksums. strata restore
// --binlog-from --stop-gtid brings a restored copy to exactly the state
// after one of them (row counts and CHECKSUM TABLE equal to the recorded
// ones), also when the first replay stops early because a binlog file is
// cut short and a second run resumes it; --stop-datetime stops before the
// first transaction logged at or after a time; a GTID the backup already
// holds is refused.
func TestPointInTimeRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three servers")
	}
	srv := testserver.Start(t, testserver.Options{Args: []string{"--log-bin", "--max-binlog-size", "16384"}})
	db := srv.DB(t, "")
	mustExec(t, db, "CREATE DATABASE bk")
	mustExec(t, db, "CREATE TABLE bk.t (id INT AUTO_INCREMENT PRIMARY KEY, g INT, v VARCHAR(100))")
	mustExec(t, db, "CREATE TABLE bk.ctr (g INT PRIMARY KEY, n INT)")
	const writers = 4
	for g := 0; g < writers; g++ {
		mustExec(t, db, fmt.Sprintf("INSERT INTO bk.ctr VALUES (%d, 0)", g))
	}
	var committed atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := 0; g < writers; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if err := writeTxn(db, g); err != nil {
					t.Errorf("writer %d: %v", g, err)
					return
				}
				committed.Add(1)
			}
		}(g)
	}
	waitCommits := func(n int64) {
		for committed.Load() < n && !t.Failed() {
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitCommits(40)
	backups := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"backup", "--to", backups, "--port", fmt.Sprint(srv.Port)}, &out, &errb); code != 0 {
		t.Fatalf("strata backup: exit %d: %s", code, errb.String())
	}
	_, m, err := backup.Resolve(backups)
	if err != nil {
		t.Fatal(err)
	}
	if m.Binlog == nil || m.Binlog.File == "" || m.Binlog.Position < 4 || m.Binlog.GTIDExecuted == "" {
		t.Fatalf("backup manifest's binlog position: %+v", m.Binlog)
	}
	t.Logf("backup at %s:%d, %s", m.Binlog.File, m.Binlog.Position, m.Binlog.GTIDExecuted)
	waitCommits(committed.Load() + 80) // these are replayed from the binlog
	close(stop)
	wg.Wait()
	if t.Failed() {
		return
	}

	// The sequence, one transaction at a time on one connection.
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	exec := func(q string) {
		t.Helper()
		if _, err := conn.ExecContext(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var points []pitrPoint
	record := func() {
		t.Helper()
		var p pitrPoint
		var executed string
		var ignore sql.NullString
		if err := conn.QueryRowContext(t.Context(), "SHOW MASTER STATUS").Scan(&p.file, &p.pos, &ignore, &ignore, &executed); err != nil {
			t.Fatal(err)
		}
		p.gtid = lastGTID(t, executed)
		if err := conn.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM bk.t").Scan(&p.rows); err != nil {
			t.Fatal(err)
		}
		p.sumT, p.sumCtr = checksum(t, db, "bk.t"), checksum(t, db, "bk.ctr")
		p.rowsU = -1
		points = append(points, p)
	}
	uCreated := false
	for i := 0; i < 16; i++ {
		switch i % 4 {
		case 0:
			exec("BEGIN")
			exec(fmt.Sprintf("INSERT INTO bk.t (g, v) VALUES (%d, 'seq %d'), (%d, 'seq %d b')", 10+i, i, 10+i, i))
			exec("UPDATE bk.ctr SET n = n + 100 WHERE g = 0")
			exec("COMMIT")
		case 1:
			exec(fmt.Sprintf("UPDATE bk.t SET v = CONCAT(v, '+%d') WHERE id %% 7 = %d", i, i%7))
		case 2:
			exec(fmt.Sprintf("DELETE FROM bk.t WHERE id %% 11 = %d", i%11))
		case 3:
			switch i {
			case 3:
				exec("CREATE TABLE bk.u (k INT PRIMARY KEY, s VARCHAR(20))")
				uCreated = true
			case 7:
				exec("ALTER TABLE bk.t ADD COLUMN w INT NOT NULL DEFAULT 7")
			default:
				exec(fmt.Sprintf("INSERT INTO bk.u VALUES (%d, 'u%d')", i, i))
			}
		}
		record()
		p := &points[len(points)-1]
		p.created = uCreated
		if uCreated {
			if err := conn.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM bk.u").Scan(&p.rowsU); err != nil {
				t.Fatal(err)
			}
		}
		if i == 12 {
			// The next transactions are logged at or after boundary.
			time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second)))
		}
	}
	boundary := time.Now().Truncate(time.Second)

	check := func(datadir string, want pitrPoint, what string) {
		t.Helper()
		r := testserver.Start(t, testserver.Options{DataDir: datadir})
		rdb := r.DB(t, "")
		var rows int64
		if err := rdb.QueryRow("SELECT COUNT(*) FROM bk.t").Scan(&rows); err != nil {
			t.Fatal(err)
		}
		if rows != want.rows {
			t.Errorf("%s: bk.t has %d rows, want %d (the source's after %s)", what, rows, want.rows, want.gtid)
		}
		if got := checksum(t, rdb, "bk.t"); got != want.sumT {
			t.Errorf("%s: CHECKSUM TABLE bk.t = %s, want %s (the source's after %s)", what, got, want.sumT, want.gtid)
		}
		if got := checksum(t, rdb, "bk.ctr"); got != want.sumCtr {
			t.Errorf("%s: CHECKSUM TABLE bk.ctr = %s, want %s", what, got, want.sumCtr)
		}
		var rowsU int64 = -1
		err := rdb.QueryRow("SELECT COUNT(*) FROM bk.u").Scan(&rowsU)
		if want.created && (err != nil || rowsU != want.rowsU) {
			t.Errorf("%s: bk.u has %d rows (%v), want %d", what, rowsU, err, want.rowsU)
		}
		if !want.created && err == nil {
			t.Errorf("%s: bk.u exists; it was created after %s", what, want.gtid)
		}
		if err := r.Stop(); err != nil {
			t.Fatal(err)
		}
	}
	restore := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(append([]string{"restore", "--from", backups}, args...), &out, &errb)
		t.Logf("strata restore %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errb.String())
		return code, out.String(), errb.String()
	}

	// 1. To GTID points[10], the first run stopped short: the binlog copy
	// ends at points[5] (its file cut there, later files left out).
	target, short := points[10], points[5]
	cut := t.TempDir()
	copyBinlogs(t, srv.DataDir, cut, short.file, short.pos)
	dd := filepath.Join(t.TempDir(), "pitr-gtid")
	if code, _, errs := restore("--datadir", dd, "--binlog-from", cut, "--stop-gtid", target.gtid); code != 1 || !strings.Contains(errs, "end before the stop GTID") {
		t.Fatalf("replay of a binlog cut before the stop GTID: exit %d, %q; want 1 and the files end before it", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dd, pitrMarker)); err != nil {
		t.Fatalf("the unfinished replay's marker: %v", err)
	}
	code, outs, _ := restore("--datadir", dd, "--binlog-from", srv.DataDir, "--stop-gtid", target.gtid)
	if code != 0 || !strings.Contains(outs, "resuming") {
		t.Fatalf("resumed replay: exit %d, %q", code, outs)
	}
	if !strings.Contains(outs, "replayed 5 transactions") {
		t.Errorf("resumed replay: %q; want the 5 transactions after where the first run stopped", outs)
	}
	if _, err := os.Stat(filepath.Join(dd, pitrMarker)); !os.IsNotExist(err) {
		t.Errorf("the finished replay's marker is still there (%v)", err)
	}
	check(dd, target, "PITR to "+target.gtid)

	// 2. To a time: every transaction before boundary, none after.
	dd2 := filepath.Join(t.TempDir(), "pitr-time")
	if code, _, _ := restore("--datadir", dd2, "--binlog-from", srv.DataDir, "--stop-datetime", boundary.Format(time.RFC3339)); code != 0 {
		t.Fatalf("replay to %s: exit %d", boundary, code)
	}
	check(dd2, points[12], "PITR to "+boundary.Format(time.RFC3339))

	// 3. A GTID the backup holds: refused before anything is written.
	dd3 := filepath.Join(t.TempDir(), "pitr-old")
	uuid := target.gtid[:strings.IndexByte(target.gtid, ':')]
	if code, _, errs := restore("--datadir", dd3, "--binlog-from", srv.DataDir, "--stop-gtid", uuid+":1"); code != 1 || !strings.Contains(errs, "already in the backup") {
		t.Errorf("stop GTID inside the backup: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(dd3); !os.IsNotExist(err) {
		t.Errorf("refused restore left %s (%v)", dd3, err)
	}
}

// lastGTID returns the last GTID of a set uuid:1-N.
func lastGTID(t *testing.T, set string) string {
	t.Helper()
	m := regexp.MustCompile(`^([0-9a-f-]{36}):(?:\d+-)?(\d+)$`).FindStringSubmatch(strings.TrimSpace(set))
	if m == nil {
		t.Fatalf("gtid_executed %q: want one server's uuid:1-N", set)
	}
	return m[1] + ":" + m[2]
}

func checksum(t *testing.T, db *sql.DB, table string) string {
	t.Helper()
	var sum string
	if err := db.QueryRow("CHECKSUM TABLE "+table).Scan(new(string), &sum); err != nil {
		t.Fatal(err)
	}
	return sum
}

// copyBinlogs copies the binary log files of src into dst up to file,
// which is cut at pos.
func copyBinlogs(t *testing.T, src, dst, file string, pos int64) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(src, "binlog.[0-9]*"))
	if err != nil || len(names) == 0 {
		t.Fatalf("binlog files in %s: %v %v", src, names, err)
	}
	for _, p := range names {
		name := filepath.Base(p)
		if name > file {
			continue
		}
		in, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		outf, err := os.Create(filepath.Join(dst, name))
		if err != nil {
			t.Fatal(err)
		}
		var r io.Reader = in
		if name == file {
			r = io.LimitReader(in, pos)
		}
		if _, err := io.Copy(outf, r); err != nil {
			t.Fatal(err)
		}
		in.Close()
		outf.Close()
	}
}

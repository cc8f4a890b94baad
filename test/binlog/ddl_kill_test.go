package binlog_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/testserver"
)

// TestBinlogDDLKill9 kills the server with SIGKILL at random moments
// while two clients run streams of CREATE TABLE, ALTER TABLE … ADD
// COLUMN and DROP TABLE (and a third inserts rows), restarting it after
// each kill. The tables and columns in the catalog must then be exactly
// what replaying the binlog's QUERY events gives, every acknowledged DDL
// must be in the binlog, and @@gtid_executed must count the binlog's
// transactions: a DDL is in the binlog iff it committed.
func TestBinlogDDLKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("kill -9 cycles of a real server; skipped under -short")
	}
	if err := mysql.SetLogger(log.New(io.Discard, "", 0)); err != nil {
		t.Fatal(err)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	srv := testserver.Start(t, testserver.Options{Args: []string{"--log-bin", "--max-binlog-size=65536"}})
	admin := srv.DB(t, "")
	mustExec(t, admin, "CREATE DATABASE k")
	mustExec(t, admin, "CREATE TABLE k.d (id BIGINT PRIMARY KEY)")
	admin.Close()

	var mu sync.Mutex
	var acked []string // DDL statements acknowledged to the client
	deadline := time.Now().Add(25 * time.Second)
	cycles := 0
	for ; cycles < 12 && time.Now().Before(deadline); cycles++ {
		db := srv.DB(t, "")
		var wg sync.WaitGroup
		ctx, cancel := context.WithCancel(context.Background())
		run := func(q string) bool {
			cctx, c2 := context.WithTimeout(ctx, 10*time.Second)
			defer c2()
			_, err := db.ExecContext(cctx, q)
			return err == nil
		}
		for w := 0; w < 2; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				var prev string
				for i := 0; ctx.Err() == nil; i++ {
					name := fmt.Sprintf("t%d_%d_%d", cycles, w, i)
					stmts := []string{
						"CREATE TABLE k." + name + " (id INT PRIMARY KEY)",
						"ALTER TABLE k." + name + " ADD COLUMN c1 INT",
						"ALTER TABLE k." + name + " ADD INDEX i1 (c1)", // an online build
						"INSERT INTO k." + name + " (id, c1) VALUES (1, 1)",
						"ALTER TABLE k." + name + " ADD COLUMN c2 INT",
					}
					if prev != "" && i%2 == 0 {
						stmts = append(stmts, "DROP TABLE k."+prev)
					}
					for _, q := range stmts {
						if !run(q) {
							return
						}
						if !strings.HasPrefix(q, "INSERT") {
							mu.Lock()
							acked = append(acked, q)
							mu.Unlock()
						}
					}
					prev = name
				}
			}(w)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seq := 0; ctx.Err() == nil; seq++ {
				if !run(fmt.Sprintf("INSERT INTO k.d VALUES (%d)", cycles*10_000_000+seq)) {
					return
				}
			}
		}()
		time.Sleep(time.Duration(150+rng.IntN(700)) * time.Millisecond)
		srv.Kill()
		cancel()
		wg.Wait()
		db.Close()
		srv.Restart(t)
	}

	db := srv.DB(t, "")
	defer db.Close()
	queries, gnos := binlogQueries(t, db)
	// Replay the QUERY events' effect on the set of tables and columns.
	want := map[string][]string{}
	var (
		reUse    = regexp.MustCompile("^use `[^`]*`; ")
		reCreate = regexp.MustCompile(`^CREATE TABLE k\.(\w+) \((\w+) [^,]*\)$`)
		reAlter  = regexp.MustCompile(`^ALTER TABLE k\.(\w+) ADD COLUMN (\w+) INT$`)
		reIndex  = regexp.MustCompile(`^ALTER TABLE k\.(\w+) ADD INDEX (\w+) \(c1\)$`)
		reDrop   = regexp.MustCompile(`^DROP TABLE k\.(\w+)$`)
	)
	wantIdx := map[string][]string{}
	inLog := map[string]int{}
	for _, q := range queries {
		q = reUse.ReplaceAllString(q, "")
		inLog[q]++
		switch {
		case reCreate.MatchString(q):
			m := reCreate.FindStringSubmatch(q)
			if want[m[1]] != nil {
				t.Fatalf("binlog creates k.%s twice", m[1])
			}
			want[m[1]] = []string{m[2]}
		case reAlter.MatchString(q):
			m := reAlter.FindStringSubmatch(q)
			if want[m[1]] == nil {
				t.Fatalf("binlog alters k.%s, which it has not created: %q", m[1], q)
			}
			want[m[1]] = append(want[m[1]], m[2])
		case reIndex.MatchString(q):
			m := reIndex.FindStringSubmatch(q)
			if want[m[1]] == nil {
				t.Fatalf("binlog adds an index to k.%s, which it has not created: %q", m[1], q)
			}
			wantIdx[m[1]] = append(wantIdx[m[1]], m[2])
		case reDrop.MatchString(q):
			m := reDrop.FindStringSubmatch(q)
			if want[m[1]] == nil {
				t.Fatalf("binlog drops k.%s, which it has not created", m[1])
			}
			delete(want, m[1])
			delete(wantIdx, m[1])
		case q == "CREATE DATABASE k":
		default:
			t.Fatalf("unexpected QUERY event %q", q)
		}
	}
	got := map[string][]string{}
	rows, err := db.Query("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'k' ORDER BY table_name, ordinal_position")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var tbl, col string
		if err := rows.Scan(&tbl, &col); err != nil {
			t.Fatal(err)
		}
		got[tbl] = append(got[tbl], col)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	for tbl, cols := range got {
		if w, ok := want[tbl]; !ok {
			t.Errorf("table k.%s %v is in the catalog, not in the binlog", tbl, cols)
		} else if !slices.Equal(w, cols) {
			t.Errorf("table k.%s: catalog columns %v, binlog %v", tbl, cols, w)
		}
	}
	for tbl, cols := range want {
		if _, ok := got[tbl]; !ok {
			t.Errorf("table k.%s %v is in the binlog, not in the catalog", tbl, cols)
		}
	}
	gotIdx := map[string][]string{}
	rows, err = db.Query("SELECT table_name, index_name FROM information_schema.statistics WHERE table_schema = 'k' AND index_name <> 'PRIMARY' ORDER BY table_name, index_name")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var tbl, idx string
		if err := rows.Scan(&tbl, &idx); err != nil {
			t.Fatal(err)
		}
		gotIdx[tbl] = append(gotIdx[tbl], idx)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	for tbl := range want {
		if !slices.Equal(gotIdx[tbl], wantIdx[tbl]) {
			t.Errorf("table k.%s: catalog indexes %v, binlog %v", tbl, gotIdx[tbl], wantIdx[tbl])
		}
	}
	for stmt, n := range inLog {
		if n > 1 {
			t.Errorf("%q logged %d times", stmt, n)
		}
	}
	for _, q := range acked {
		if inLog[q] == 0 {
			t.Errorf("acknowledged %q is not in the binlog", q)
		}
	}
	for i, g := range gnos {
		if g != int64(i+1) {
			t.Fatalf("binlog GTID numbers %v… are not 1, 2, 3, …", gnos[:min(i+1, 20)])
		}
	}
	uuid := queryString(t, db, "SELECT @@server_uuid")
	if got, want := queryString(t, db, "SELECT @@gtid_executed"), fmt.Sprintf("%s:1-%d", uuid, len(gnos)); got != want {
		t.Fatalf("@@gtid_executed = %q, the binlog holds %d transactions (%s)", got, len(gnos), want)
	}
	if len(acked) == 0 {
		t.Fatal("no DDL was acknowledged")
	}
	t.Logf("%d kills, %d acknowledged DDL statements, %d tables, %d transactions in the binlog", cycles, len(acked), len(got), len(gnos))
}

// binlogQueries returns the Info of every QUERY event but BEGIN in the
// server's binary log files, in order, and the GTID numbers.
func binlogQueries(t *testing.T, db *sql.DB) (queries []string, gnos []int64) {
	t.Helper()
	var files []string
	rows, err := db.Query("SHOW BINARY LOGS")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name, size, enc string
		if err := rows.Scan(&name, &size, &enc); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	rows.Close()
	for _, f := range files {
		rows, err := db.Query("SHOW BINLOG EVENTS IN '" + f + "'")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var logName, typ, info string
			var pos, end int64
			var sid int64
			if err := rows.Scan(&logName, &pos, &typ, &sid, &end, &info); err != nil {
				t.Fatal(err)
			}
			switch typ {
			case "Query":
				if info != "BEGIN" {
					queries = append(queries, info)
				}
			case "Gtid":
				i := strings.LastIndexByte(info, ':')
				n, err := strconv.ParseInt(strings.TrimSuffix(info[i+1:], "'"), 10, 64)
				if err != nil {
					t.Fatalf("GTID event %q: %v", info, err)
				}
				gnos = append(gnos, n)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return queries, gnos
}

package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/backup"
	"github.com/strata-db/strata/internal/testserver"
)

// TestBackupRestoreUnderLoad takes two backups of a running server while
// four clients commit transactions, restores each into a new data
// directory and starts a server on it: every transaction committed before
// the backup began is there, none is there partly, the bulk-loaded table's
// checksum is unchanged, and the second backup copied fewer bytes than the
// first (it reused the table files they share).
func TestBackupRestoreUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three servers")
	}
	srv := testserver.Start(t, testserver.Options{})
	db := srv.DB(t, "")
	mustExec(t, db, "CREATE DATABASE bk")
	mustExec(t, db, "CREATE TABLE bk.big (id INT PRIMARY KEY, v VARCHAR(100))")
	mustExec(t, db, "CREATE TABLE bk.t (id INT AUTO_INCREMENT PRIMARY KEY, g INT, v VARCHAR(100))")
	mustExec(t, db, "CREATE TABLE bk.ctr (g INT PRIMARY KEY, n INT)")
	// A bulk load writes table files (ingested), which the second backup
	// can reuse.
	var rows bytes.Buffer
	for i := 0; i < 50000; i++ {
		fmt.Fprintf(&rows, "%d\t%s\n", i, strings.Repeat(string(rune('a'+i%26)), 60))
	}
	file := filepath.Join(srv.DataDir, "secure-files", "big.tsv")
	if err := os.WriteFile(file, rows.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "LOAD DATA INFILE '"+file+"' INTO TABLE bk.big")
	var bigSum string
	if err := db.QueryRow("CHECKSUM TABLE bk.big").Scan(new(string), &bigSum); err != nil {
		t.Fatal(err)
	}

	const writers = 4
	for g := 0; g < writers; g++ {
		mustExec(t, db, fmt.Sprintf("INSERT INTO bk.ctr VALUES (%d, 0)", g))
	}
	var committed [writers]atomic.Int64
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
				committed[g].Add(1)
			}
		}(g)
	}
	dir := t.TempDir()
	take := func() (before, after [writers]int64, m *backup.Manifest) {
		for g := range before {
			before[g] = committed[g].Load()
		}
		var out, errb bytes.Buffer
		if code := run([]string{"backup", "--to", dir, "--port", fmt.Sprint(srv.Port)}, &out, &errb); code != 0 {
			t.Fatalf("strata backup: exit %d: %s", code, errb.String())
		}
		for g := range after {
			after[g] = committed[g].Load() + 1 // one may have committed, not yet counted
		}
		path := strings.TrimSuffix(strings.Fields(out.String())[1], ":")
		m, err := backup.ReadManifest(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s", strings.TrimSpace(out.String()))
		return before, after, m
	}
	waitCommits := func(n int64) {
		for committed[0].Load() < n && !t.Failed() {
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitCommits(20) // the backups run while transactions commit
	b1, a1, m1 := take()
	waitCommits(b1[0] + 20)
	b2, a2, m2 := take()
	close(stop)
	wg.Wait()
	if m2.BytesCopied >= m1.BytesCopied || m2.BytesReused == 0 {
		t.Errorf("second backup copied %d bytes (first %d), reused %d: not incremental", m2.BytesCopied, m1.BytesCopied, m2.BytesReused)
	}

	backups, err := os.ReadDir(dir)
	if err != nil || len(backups) != 2 {
		t.Fatalf("backup directory holds %v (%v), want two backups", backups, err)
	}
	for i, want := range []struct{ before, after [writers]int64 }{{b1, a1}, {b2, a2}} {
		datadir := filepath.Join(t.TempDir(), "restored")
		var out, errb bytes.Buffer
		if code := run([]string{"restore", "--from", filepath.Join(dir, backups[i].Name()), "--datadir", datadir}, &out, &errb); code != 0 {
			t.Fatalf("strata restore: exit %d: %s", code, errb.String())
		}
		r := testserver.Start(t, testserver.Options{DataDir: datadir})
		rdb := r.DB(t, "")
		var sum string
		if err := rdb.QueryRow("CHECKSUM TABLE bk.big").Scan(new(string), &sum); err != nil || sum != bigSum {
			t.Errorf("backup %d: CHECKSUM TABLE bk.big = %s (%v), want %s", i+1, sum, err, bigSum)
		}
		for g := 0; g < writers; g++ {
			var n, rowsOfG int64
			if err := rdb.QueryRow("SELECT n FROM bk.ctr WHERE g = ?", g).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if err := rdb.QueryRow("SELECT COUNT(*) FROM bk.t WHERE g = ?", g).Scan(&rowsOfG); err != nil {
				t.Fatal(err)
			}
			if rowsOfG != 3*n {
				t.Errorf("backup %d, writer %d: %d rows for %d transactions: a transaction is there partly", i+1, g, rowsOfG, n)
			}
			if n < want.before[g] || n > want.after[g] {
				t.Errorf("backup %d, writer %d: %d transactions, want between %d (committed before the backup) and %d", i+1, g, n, want.before[g], want.after[g])
			}
		}
		if err := r.Stop(); err != nil {
			t.Fatal(err)
		}
	}
}

// writeTxn commits one transaction of writer g: three rows and its counter.
func writeTxn(db *sql.DB, g int) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if _, err := tx.Exec("INSERT INTO bk.t (g, v) VALUES (?, REPEAT('x', 80))", g); err != nil {
			_ = tx.Rollback()
			return err
		}
	}
	if _, err := tx.Exec("UPDATE bk.ctr SET n = n + 1 WHERE g = ?", g); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

func mustExec(t *testing.T, db *sql.DB, q string) {
	t.Helper()
	if _, err := db.Exec(q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

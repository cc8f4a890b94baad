package binlog

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-db/strata/internal/kv"
)

// commitUnpublished commits a transaction whose events never reach the
// file (a crash between the commit and the file write).
func commitUnpublished(t *testing.T, k *kv.DB, l *Log, id int) {
	t.Helper()
	c := l.NewChanges()
	must(t, c.Insert(testDef(), row(fmt.Sprint(id), "v", "1.00", "NULL", "a", "00:00:00", "0")))
	b := k.NewBatch()
	defer b.Close()
	if _, err := l.Commit(b, c, nil, func(b *kv.Batch) error { return b.Commit(true) }); err != nil {
		t.Fatal(err)
	}
}

// TestRecoverWritesMissingEvents: the files lack the last transactions
// and have a torn tail; Open rebuilds them from the store's records,
// across a rotation, and the GTID sequence goes on.
func TestRecoverWritesMissingEvents(t *testing.T) {
	dir := t.TempDir()
	k, l := openTest(t, dir, 700)
	def := testDef()
	for i := 1; i <= 3; i++ {
		commitRows(t, k, l, func(c *Changes) {
			must(t, c.Insert(def, row(fmt.Sprint(i), "v", "1.00", "NULL", "a", "00:00:00", "0")))
		})
	}
	for i := 4; i <= 6; i++ {
		commitUnpublished(t, k, l, i)
	}
	wantFile, wantPos, _ := l.Status()
	// Crash: the log is never closed; tear the last written event.
	l.closeFile()
	must(t, k.Close())
	files, err := filepath.Glob(filepath.Join(dir, "binlog.0*"))
	must(t, err)
	last := files[len(files)-1]
	fi, err := os.Stat(last)
	must(t, err)
	must(t, os.Truncate(last, fi.Size()-10))

	k, err = kv.Open(kv.Options{Dir: filepath.Join(dir, "db"), MemoryBudget: 64 << 20, Logger: quietLogger})
	must(t, err)
	l, err = Open(k, Options{Dir: dir, ServerUUID: testUUID, MaxSize: 700, Version: "8.0.40-strata"})
	must(t, err)
	if got := l.GTIDExecuted(); got != testUUID+":1-6" {
		t.Fatalf("gtid_executed after recovery %q", got)
	}
	file, pos, _ := l.Status()
	if file != wantFile || pos != wantPos {
		t.Fatalf("position after recovery %s:%d, want %s:%d", file, pos, wantFile, wantPos)
	}
	if len(l.Files()) < 2 {
		t.Fatalf("max_binlog_size 700: want a rotation, files %v", l.Files())
	}
	commitRows(t, k, l, func(c *Changes) {
		must(t, c.Insert(def, row("7", "v", "1.00", "NULL", "a", "00:00:00", "0")))
	})
	must(t, l.Close())
	// Reopened after a clean close (records trimmed): the files alone
	// give the GTID set and the position.
	l, err = Open(k, Options{Dir: dir, ServerUUID: testUUID, MaxSize: 700, Version: "8.0.40-strata"})
	must(t, err)
	if got := l.GTIDExecuted(); got != testUUID+":1-7" {
		t.Fatalf("gtid_executed after clean restart %q", got)
	}
	commitRows(t, k, l, func(c *Changes) {
		must(t, c.Insert(def, row("8", "v", "1.00", "NULL", "a", "00:00:00", "0")))
	})
	must(t, l.Close())
	must(t, k.Close())

	// Every file decodes; together they hold the 8 transactions in order,
	// and within a file the logical clock's sequence numbers go up across
	// the restarts.
	var gnos []uint64
	for _, f := range l.Files() {
		var last int64
		for _, raw := range readEvents(t, filepath.Join(dir, f.Name)) {
			if raw[4] == eventGTID {
				gnos = append(gnos, leUint64(raw[headerLen+17:]))
				seq := recordSeq(raw)
				if seq != last+1 {
					t.Fatalf("%s: sequence_number %d after %d", f.Name, seq, last)
				}
				last = seq
			}
		}
	}
	if fmt.Sprint(gnos) != "[1 2 3 4 5 6 7 8]" {
		t.Fatalf("GTIDs in the files %v", gnos)
	}
}

// TestRecoverWithoutFiles: a store whose binlog files are gone (a data
// directory restored from a backup) starts a new file after the last one
// and numbers GTIDs on.
func TestRecoverWithoutFiles(t *testing.T) {
	dir := t.TempDir()
	k, l := openTest(t, dir, 0)
	def := testDef()
	for i := 1; i <= 3; i++ {
		commitRows(t, k, l, func(c *Changes) {
			must(t, c.Insert(def, row(fmt.Sprint(i), "v", "1.00", "NULL", "a", "00:00:00", "0")))
		})
	}
	commitUnpublished(t, k, l, 4)
	l.closeFile()
	files, err := filepath.Glob(filepath.Join(dir, "binlog.*"))
	must(t, err)
	for _, f := range files {
		must(t, os.Remove(f))
	}
	l, err = Open(k, Options{Dir: dir, ServerUUID: testUUID, Version: "8.0.40-strata"})
	must(t, err)
	if got := l.Files(); len(got) != 1 || got[0].Name != "binlog.000002" {
		t.Fatalf("files %v, want a new binlog.000002", got)
	}
	if got := l.GTIDPurged(); got != testUUID+":1-4" {
		t.Fatalf("gtid_purged %q", got)
	}
	commitRows(t, k, l, func(c *Changes) {
		must(t, c.Insert(def, row("5", "v", "1.00", "NULL", "a", "00:00:00", "0")))
	})
	if got := l.GTIDExecuted(); got != testUUID+":1-5" {
		t.Fatalf("gtid_executed %q", got)
	}
	must(t, l.Close())
	must(t, k.Close())
}

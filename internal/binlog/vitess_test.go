package binlog

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vitess.io/vitess/go/mysql"
)

// readEvents splits a binlog file into its events.
func readEvents(t *testing.T, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b[:4]) != string(Magic) {
		t.Fatalf("%s: no binlog magic", path)
	}
	var evs [][]byte
	for p := 4; p < len(b); {
		size := int(binary.LittleEndian.Uint32(b[p+9:]))
		if end := int(binary.LittleEndian.Uint32(b[p+13:])); end != p+size {
			t.Fatalf("event at %d: end_log_pos %d, want %d", p, end, p+size)
		}
		evs = append(evs, b[p:p+size])
		p += size
	}
	return evs
}

// TestVitessDecodes decodes the log with Vitess's MySQL 5.6+ event parser
// (the one VReplication uses): checksums, GTIDs, the table map and the row
// values must come back as written.
func TestVitessDecodes(t *testing.T) {
	dir := t.TempDir()
	k, l := openTest(t, dir, 0)
	def := testDef()
	commitRows(t, k, l, func(c *Changes) {
		must(t, c.Insert(def, row("1", "héllo", "-12.34", "2024-01-02 03:04:05.678", "b", "-01:02:03", "18446744073709551615")))
	})
	commitRows(t, k, l, func(c *Changes) {
		must(t, c.Update(def, row("1", "héllo", "-12.34", "2024-01-02 03:04:05.678", "b", "-01:02:03", "18446744073709551615"),
			row("1", "x", "0.01", "NULL", "a", "00:00:01", "5")))
	})
	must(t, l.Close())
	must(t, k.Close())

	var (
		f        mysql.BinlogFormat
		tm       *mysql.TableMap
		gtids    []string
		inserted []string
		updated  []string
	)
	for i, raw := range readEvents(t, filepath.Join(dir, "binlog.000001")) {
		ev := mysql.NewMysql56BinlogEvent(raw)
		if !ev.IsValid() {
			t.Fatalf("event %d invalid", i)
		}
		if ev.IsFormatDescription() {
			var err error
			if f, err = ev.Format(); err != nil {
				t.Fatal(err)
			}
			if f.ChecksumAlgorithm != 1 {
				t.Fatalf("checksum algorithm %d", f.ChecksumAlgorithm)
			}
			continue
		}
		ev, _, err := ev.StripChecksum(f)
		if err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		switch {
		case ev.IsGTID():
			g, hasBegin, _, seq, err := ev.GTID(f)
			if err != nil {
				t.Fatal(err)
			}
			if hasBegin || seq <= 0 {
				t.Fatalf("GTID event: hasBegin %v seq %d", hasBegin, seq)
			}
			gtids = append(gtids, g.String())
		case ev.IsTableMap():
			if tm, err = ev.TableMap(f); err != nil {
				t.Fatal(err)
			}
			if tm.Database != "d" || tm.Name != "t" || len(tm.Types) != 7 {
				t.Fatalf("table map %+v", tm)
			}
			if len(tm.ColumnCollationIDs) != 1 || tm.ColumnCollationIDs[0] != 255 {
				t.Fatalf("column collations %v (the VARCHAR's)", tm.ColumnCollationIDs)
			}
		case ev.IsWriteRows(), ev.IsUpdateRows():
			rows, err := ev.Rows(f, tm)
			if err != nil {
				t.Fatal(err)
			}
			vals, err := rows.StringValuesForTests(tm, 0)
			if err != nil {
				t.Fatal(err)
			}
			if ev.IsWriteRows() {
				inserted = vals
			} else {
				updated = vals
				before, err := rows.StringIdentifiesForTests(tm, 0)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Join(before, "|") != strings.Join(inserted, "|") {
					t.Fatalf("update before image %v, insert %v", before, inserted)
				}
			}
		}
	}
	if strings.Join(gtids, ",") != testUUID+":1,"+testUUID+":2" {
		t.Fatalf("gtids %v", gtids)
	}
	// Vitess shows ENUM by index; SIGNEDNESS metadata makes the BIGINT unsigned.
	want := "1|héllo|-12.34|2024-01-02 03:04:05.678|2|-01:02:03|18446744073709551615"
	if got := strings.Join(inserted, "|"); got != want {
		t.Fatalf("inserted row decodes as %q, want %q", got, want)
	}
	// Vitess's decoder prints a DECIMAL with a zero integer part as ".01".
	want = "1|x|.01|NULL|1|00:00:01|5"
	if got := strings.Join(updated, "|"); got != want {
		t.Fatalf("updated row decodes as %q, want %q", got, want)
	}
}

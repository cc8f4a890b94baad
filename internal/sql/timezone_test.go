package sql

import (
	"context"
	"strings"
	"testing"
)

// tzRows runs q and returns its rows, values separated by spaces, rows by
// '|'.
func tzRows(t *testing.T, s *Session, q string) string {
	t.Helper()
	res, err := s.Query(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var rows []string
	for _, r := range res.Rows {
		vals := make([]string, len(r))
		for i, v := range r {
			vals[i] = v.ToString()
		}
		rows = append(rows, strings.Join(vals, " "))
	}
	return strings.Join(rows, "|")
}

// TestTimestampFallBackKeys: in America/New_York's repeated hour (1 Nov
// 2020, 01:00-02:00 twice) two stored instants read as the same local
// time. UPDATE and DELETE must replace the index entries of the stored
// instants (never of a local time converted back, which names the first
// instant only), and an UPDATE that does not assign the TIMESTAMP keeps its
// instant; CHECK TABLE finds every index consistent after each step.
func TestTimestampFallBackKeys(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s,
		"CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, ts TIMESTAMP NULL, u INT, KEY kts (ts), UNIQUE KEY uts (ts, id))",
		"SET time_zone = '+00:00'",
		"INSERT INTO t VALUES (1, '2020-11-01 05:30:00', 0), (2, '2020-11-01 06:30:00', 0)",
		"SET time_zone = 'America/New_York'",
	)
	consistent := func(step string) {
		t.Helper()
		for _, r := range checkRows(t, s, "CHECK TABLE t EXTENDED") {
			if !strings.HasSuffix(r, "|status|OK") {
				t.Fatalf("%s: %s", step, r)
			}
		}
	}
	if got := tzRows(t, s, "SELECT id, ts FROM t ORDER BY id"); got != "1 2020-11-01 01:30:00|2 2020-11-01 01:30:00" {
		t.Fatalf("read in New York: %s", got)
	}
	checkExec(t, s, "UPDATE t SET u = 1")
	consistent("update of u")
	checkExec(t, s, "SET time_zone = '+00:00'")
	if got := tzRows(t, s, "SELECT id, ts, u FROM t FORCE INDEX (kts) ORDER BY ts"); got != "1 2020-11-01 05:30:00 1|2 2020-11-01 06:30:00 1" {
		t.Fatalf("instants after the update: %s", got)
	}
	checkExec(t, s, "SET time_zone = 'America/New_York'", "UPDATE t SET ts = '2020-11-01 03:00:00' WHERE id = 2")
	consistent("update of ts")
	checkExec(t, s, "DELETE FROM t WHERE id = 1")
	consistent("delete")
	checkExec(t, s, "SET time_zone = '+00:00'")
	if got := tzRows(t, s, "SELECT id, ts FROM t FORCE INDEX (kts) WHERE ts > '2020-11-01 00:00:00'"); got != "2 2020-11-01 08:00:00" {
		t.Fatalf("after the delete: %s", got)
	}
}

// TestTimestampZonePlans: sessions in different zones share the plan cache
// but not its zone-dependent decisions: the same statement, with an index
// range on a TIMESTAMP, finds the rows of each session's local time.
func TestTimestampZonePlans(t *testing.T) {
	eng, a := newTestEngine(t)
	checkExec(t, a,
		"CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, ts TIMESTAMP NULL, KEY (ts))",
		"SET time_zone = '+00:00'",
		"INSERT INTO t VALUES (1, '2020-01-01 00:00:00'), (2, '2020-01-01 05:00:00')",
	)
	b := eng.NewSession("root", "localhost")
	t.Cleanup(b.Close)
	checkExec(t, b, "USE d", "SET time_zone = '+05:00'")
	const q = "SELECT id, ts FROM t WHERE ts = '2020-01-01 05:00:00'"
	for i := 0; i < 3; i++ {
		if got := tzRows(t, a, q); got != "2 2020-01-01 05:00:00" {
			t.Fatalf("UTC session: %s", got)
		}
		if got := tzRows(t, b, q); got != "1 2020-01-01 05:00:00" {
			t.Fatalf("+05:00 session: %s", got)
		}
	}
}

// TestSetTimeZone: a bad zone fails at SET with 1298 and leaves the zone
// as it was.
func TestSetTimeZone(t *testing.T) {
	_, s := newTestEngine(t)
	checkExec(t, s, "SET time_zone = 'Europe/Paris'")
	for _, bad := range []string{"'Nowhere/Bogus'", "'+14:01'", "'-14:00'", "NULL", "5"} {
		_, err := s.Query(context.Background(), "SET time_zone = "+bad)
		if err == nil {
			t.Fatalf("SET time_zone = %s succeeded", bad)
		}
	}
	if _, err := s.Query(context.Background(), "SET time_zone = 'Nowhere/Bogus'"); err == nil || !strings.Contains(err.Error(), "Unknown or incorrect time zone: 'Nowhere/Bogus'") || !strings.Contains(err.Error(), "1298") {
		t.Fatalf("error: %v", err)
	}
	if got := tzRows(t, s, "SELECT @@time_zone"); got != "Europe/Paris" || s.zone().Name() != "Europe/Paris" {
		t.Fatalf("zone after failed SETs: %s, %s", got, s.zone().Name())
	}
}

package binlog_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	vtmysql "vitess.io/vitess/go/mysql"
	"vitess.io/vitess/go/mysql/replication"
	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/testserver"
)

// dumpConn opens a replication connection to srv as a replica does.
func dumpConn(t *testing.T, srv *testserver.Server) *vtmysql.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := vtmysql.Connect(ctx, &vtmysql.ConnParams{Host: "127.0.0.1", Port: srv.Port, Uname: "root"})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"SET @master_binlog_checksum = @@global.binlog_checksum", "SET @master_heartbeat_period = 200000000"} {
		if _, err := c.ExecuteFetch(q, 1, false); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return c
}

// readUntil reads dump events until stop returns true (or EOF with
// non-blocking dumps), returning their types and the GTID numbers.
func readUntil(t *testing.T, c *vtmysql.Conn, stop func(gnos []int64) bool) (types []string, gnos []int64, err error) {
	t.Helper()
	var f vtmysql.BinlogFormat
	for !stop(gnos) {
		ev, err := c.ReadBinlogEvent()
		if err != nil {
			return types, gnos, err
		}
		if !ev.IsValid() {
			t.Fatalf("invalid event %x", ev.Bytes())
		}
		switch {
		case ev.IsRotate():
			types = append(types, "Rotate")
		case ev.IsFormatDescription():
			types = append(types, "FDE")
			if f, err = ev.Format(); err != nil {
				t.Fatal(err)
			}
		case ev.IsHeartbeat():
			types = append(types, "Heartbeat")
		default:
			stripped, _, err := ev.StripChecksum(f)
			if err != nil {
				t.Fatalf("checksum: %v", err)
			}
			if stripped.IsGTID() {
				g, _, _, _, err := stripped.GTID(f)
				if err != nil {
					t.Fatal(err)
				}
				n, _ := strconv.ParseInt(g.String()[strings.LastIndexByte(g.String(), ':')+1:], 10, 64)
				gnos = append(gnos, n)
				types = append(types, "Gtid")
			} else if stripped.IsXID() {
				types = append(types, "Xid")
			}
		}
	}
	return types, gnos, nil
}

func TestBinlogDump(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{Args: []string{"--log-bin"}})
	db := srv.DB(t, "")
	mustExec(t, db, "CREATE DATABASE dump")
	mustExec(t, db, "CREATE TABLE dump.t (id INT PRIMARY KEY)")
	mustExec(t, db, "INSERT INTO dump.t VALUES (1)")
	mustExec(t, db, "INSERT INTO dump.t VALUES (2)")
	uuid := queryString(t, db, "SELECT @@server_uuid")

	// File/position, non-blocking (mysqlbinlog --read-from-remote-server
	// without --stop-never): the log up to its end, then EOF.
	c := dumpConn(t, srv)
	if err := c.WriteComBinlogDump(42, "binlog.000001", 4, 1); err != nil {
		t.Fatal(err)
	}
	types, gnos, err := readUntil(t, c, func([]int64) bool { return false })
	// Vitess's reader reports the dump's closing EOF packet as 2013 "EOF".
	var se *sqlerror.SQLError
	if !errors.As(err, &se) || se.Num != 2013 || !strings.Contains(se.Message, "EOF") {
		t.Fatalf("non-blocking dump ended with %v", err)
	}
	if fmt.Sprint(gnos) != "[1 2 3 4]" || types[0] != "Rotate" || types[1] != "FDE" || strings.Count(strings.Join(types, " "), "Xid") != 2 {
		t.Fatalf("non-blocking dump: %v gtids %v", types, gnos)
	}
	c.Close()

	// GTID auto-positioning: the replica has 1-2; it gets 3, 4, then a
	// transaction committed while it waits, with heartbeats meanwhile.
	c = dumpConn(t, srv)
	defer c.Close()
	set, err := replication.ParseMysql56GTIDSet(uuid + ":1-2")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.WriteComBinlogDumpGTID(42, "", 4, 0, set.SIDBlock()); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(500 * time.Millisecond)
		_, _ = db.Exec("INSERT INTO dump.t VALUES (3)")
	}()
	types, gnos, err = readUntil(t, c, func(g []int64) bool { return len(g) == 3 })
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(gnos) != "[3 4 5]" {
		t.Fatalf("GTID dump from %s:1-2: gtids %v (%v)", uuid, gnos, types)
	}
	if !strings.Contains(strings.Join(types, " "), "Heartbeat") {
		t.Fatalf("no heartbeat while waiting 500 ms with a 200 ms period: %v", types)
	}

	// Errors: an unknown file, a replica ahead of the source.
	c2 := dumpConn(t, srv)
	defer c2.Close()
	if err := c2.WriteComBinlogDump(43, "binlog.999999", 4, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := c2.ReadBinlogEvent(); !errors.As(err, &se) || se.Num != 1236 {
		t.Fatalf("dump of an unknown file: %v, want 1236", err)
	}
}

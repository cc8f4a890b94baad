package replica

import (
	"context"
	"encoding/binary"
	"errors"
	"testing"

	"vitess.io/vitess/go/mysql"
	"vitess.io/vitess/go/mysql/binlog"
	"vitess.io/vitess/go/mysql/replication"

	"github.com/strata-db/strata/internal/sql"
	"github.com/strata-db/strata/internal/testengine"
)

// events builds MariaDB binary log events for table d.t (id INT PRIMARY
// KEY, s VARCHAR(20)) with Vitess's event builders.
type events struct {
	f  mysql.BinlogFormat
	s  *mysql.FakeBinlogStream
	tm *mysql.TableMap
}

func newEvents() *events {
	f := mysql.NewMariaDBBinlogFormat()
	return &events{f: f, s: mysql.NewFakeBinlogStream(), tm: &mysql.TableMap{
		Database: "d", Name: "t",
		Types:     []byte{binlog.TypeLong, binlog.TypeVarchar},
		CanBeNull: mysql.NewServerBitmap(2),
		Metadata:  []uint16{0, 80},
	}}
}

// at sets the position the next event ends at.
func (e *events) at(pos uint32) *events { e.s.LogPosition = pos; return e }

func (e *events) gtid(seq uint64) mysql.BinlogEvent {
	return mysql.NewMariaDBGTIDEvent(e.f, e.s, replication.MariadbGTID{Domain: 0, Server: 1, Sequence: seq}, true)
}

func (e *events) tableMap() mysql.BinlogEvent { return mysql.NewTableMapEvent(e.f, e.s, 7, e.tm) }

func image(id int32, s *string) (nulls mysql.Bitmap, data []byte) {
	nulls = mysql.NewServerBitmap(2)
	data = binary.LittleEndian.AppendUint32(nil, uint32(id))
	if s == nil {
		nulls.Set(1, true)
		return nulls, data
	}
	data = append(data, byte(len(*s)))
	return nulls, append(data, *s...)
}

func allCols() mysql.Bitmap {
	b := mysql.NewServerBitmap(2)
	b.Set(0, true)
	b.Set(1, true)
	return b
}

func (e *events) write(id int32, s string) mysql.BinlogEvent {
	n, d := image(id, &s)
	return mysql.NewWriteRowsEvent(e.f, e.s, 7, mysql.Rows{DataColumns: allCols(), Rows: []mysql.Row{{NullColumns: n, Data: d}}})
}

func (e *events) update(id int32, before, after string) mysql.BinlogEvent {
	bn, bd := image(id, &before)
	an, ad := image(id, &after)
	return mysql.NewUpdateRowsEvent(e.f, e.s, 7, mysql.Rows{IdentifyColumns: allCols(), DataColumns: allCols(),
		Rows: []mysql.Row{{NullIdentifyColumns: bn, Identify: bd, NullColumns: an, Data: ad}}})
}

func (e *events) delete(id int32, s string) mysql.BinlogEvent {
	n, d := image(id, &s)
	return mysql.NewDeleteRowsEvent(e.f, e.s, 7, mysql.Rows{IdentifyColumns: allCols(), Rows: []mysql.Row{{NullIdentifyColumns: n, Identify: d}}})
}

func (e *events) xid() mysql.BinlogEvent { return mysql.NewXIDEvent(e.f, e.s) }

func setup(t *testing.T) (*sql.Engine, *applier, *events) {
	t.Helper()
	eng := testengine.Open(t, testengine.Options{Quiet: true})
	s := eng.NewSession("root", "localhost")
	defer s.Close()
	for _, q := range []string{"CREATE DATABASE d", "CREATE TABLE d.t (id INT PRIMARY KEY, s VARCHAR(20))"} {
		if _, err := s.Query(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	a, err := newApplier(context.Background(), eng, Position{File: "bin.000001", Pos: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.close)
	e := newEvents()
	a.format = e.f
	return eng, a, e
}

func apply(t *testing.T, a *applier, evs ...mysql.BinlogEvent) error {
	t.Helper()
	for _, ev := range evs {
		if err := a.event(ev); err != nil {
			return err
		}
	}
	return nil
}

func rows(t *testing.T, eng *sql.Engine) string {
	t.Helper()
	s := eng.NewSession("root", "localhost")
	defer s.Close()
	res, err := s.Query(context.Background(), "SELECT id, COALESCE(s, 'NULL') FROM d.t ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	out := ""
	for _, r := range res.Rows {
		out += r[0].ToString() + ":" + r[1].ToString() + " "
	}
	return out
}

func TestApplyGroups(t *testing.T) {
	eng, a, e := setup(t)
	err := apply(t, a, e.at(100).gtid(1), e.tableMap(), e.write(1, "a"), e.write(2, "b"), e.at(200).xid(),
		e.at(300).gtid(2), e.tableMap(), e.update(1, "a", "A"), e.delete(2, "b"), e.at(400).xid())
	if err != nil {
		t.Fatal(err)
	}
	if got := rows(t, eng); got != "1:A " {
		t.Fatalf("rows = %q, want 1:A", got)
	}
	_, pos, ok, err := loadState(context.Background(), eng.DB)
	// No source was configured (only the position is written by groups).
	if err != nil || ok {
		t.Fatalf("loadState: ok=%v err=%v", ok, err)
	}
	_ = pos
	if a.pos.Pos != 400 || a.pos.GTID != "0-1-2" || a.pos.File != "bin.000001" {
		t.Fatalf("applied position = %+v", a.pos)
	}
}

// TestPositionInGroupTransaction: the position is committed with the
// group's rows, and a group that did not end commits neither.
func TestPositionInGroupTransaction(t *testing.T) {
	eng, a, e := setup(t)
	if err := saveState(context.Background(), eng.DB, &Source{Host: "h"}, &Position{File: "bin.000001", Pos: 4}, false); err != nil {
		t.Fatal(err)
	}
	if err := apply(t, a, e.at(100).gtid(1), e.tableMap(), e.write(1, "a"), e.at(200).xid()); err != nil {
		t.Fatal(err)
	}
	if err := apply(t, a, e.at(300).gtid(2), e.tableMap(), e.write(2, "b")); err != nil {
		t.Fatal(err)
	}
	a.abandon() // the connection ended mid-group
	_, pos, _, err := loadState(context.Background(), eng.DB)
	if err != nil {
		t.Fatal(err)
	}
	if pos.Pos != 200 || pos.GTID != "0-1-1" {
		t.Fatalf("stored position = %+v, want 200 and 0-1-1", pos)
	}
	if got := rows(t, eng); got != "1:a " {
		t.Fatalf("rows = %q: the incomplete group must leave nothing", got)
	}
}

func TestApplyErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		evs  func(e *events) []mysql.BinlogEvent
		code int
	}{
		{"missing row", func(e *events) []mysql.BinlogEvent {
			return []mysql.BinlogEvent{e.gtid(1), e.tableMap(), e.update(9, "x", "y")}
		}, errKeyNotFound},
		{"duplicate key", func(e *events) []mysql.BinlogEvent {
			return []mysql.BinlogEvent{e.gtid(1), e.tableMap(), e.write(1, "x"), e.write(1, "y")}
		}, 1062},
		{"type mismatch", func(e *events) []mysql.BinlogEvent {
			e.tm.Types[1] = binlog.TypeLongLong
			return []mysql.BinlogEvent{e.gtid(1), e.tableMap()}
		}, errConversion},
		{"unknown table", func(e *events) []mysql.BinlogEvent {
			e.tm.Name = "nope"
			return []mysql.BinlogEvent{e.gtid(1), e.tableMap()}
		}, errNoSuchTable},
		{"statement-based DML", func(e *events) []mysql.BinlogEvent {
			return []mysql.BinlogEvent{mysql.NewQueryEvent(e.f, e.s, mysql.Query{Database: "d", SQL: "INSERT INTO t VALUES (1, 'x')"})}
		}, errNotSupported},
		{"value too long", func(e *events) []mysql.BinlogEvent {
			return []mysql.BinlogEvent{e.gtid(1), e.tableMap(), e.write(1, "0123456789012345678901234")}
		}, 1406},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng, a, e := setup(t)
			err := apply(t, a, tc.evs(e)...)
			var se *SQLError
			if !errors.As(err, &se) || se.Code != tc.code {
				t.Fatalf("error = %v, want SQL thread error %d", err, tc.code)
			}
			a.abandon()
			if got := rows(t, eng); got != "" {
				t.Fatalf("rows after the error = %q, want none", got)
			}
		})
	}
}

func TestApplyDDL(t *testing.T) {
	eng, a, e := setup(t)
	err := apply(t, a, mysql.NewMariaDBGTIDEvent(e.f, e.s, replication.MariadbGTID{Server: 1, Sequence: 5}, false),
		e.at(500).query("d", "ALTER TABLE t ADD COLUMN z INT"))
	if err != nil {
		t.Fatal(err)
	}
	if tb := eng.Cat.Table("d", "t"); tb == nil || len(tb.Columns) != 3 {
		t.Fatalf("the ALTER was not applied: %+v", tb)
	}
	if a.pos.GTID != "0-1-5" || a.pos.Pos != 500 {
		t.Fatalf("position after DDL = %+v", a.pos)
	}
}

func (e *events) query(db, q string) mysql.BinlogEvent {
	return mysql.NewQueryEvent(e.f, e.s, mysql.Query{Database: db, SQL: q})
}

// TestApplyCreateSelect: MariaDB logs CREATE TABLE … SELECT as one group:
// the CREATE, then the rows, then the commit.
func TestApplyCreateSelect(t *testing.T) {
	eng, a, e := setup(t)
	e.tm.Name = "c"
	err := apply(t, a, e.gtid(3), e.query("d", "CREATE TABLE c (id INT PRIMARY KEY, s VARCHAR(20))"),
		e.tableMap(), e.write(1, "x"), e.at(900).xid())
	if err != nil {
		t.Fatal(err)
	}
	s := eng.NewSession("root", "localhost")
	defer s.Close()
	res, err := s.Query(context.Background(), "SELECT COUNT(*) FROM d.c")
	if err != nil || res.Rows[0][0].ToString() != "1" {
		t.Fatalf("d.c after CREATE … SELECT: %v %v", res, err)
	}
	// Other DDL inside a group that applied rows is refused.
	err = apply(t, a, e.gtid(4), e.tableMap(), e.write(2, "y"), e.query("d", "DROP TABLE c"))
	var se *SQLError
	if !errors.As(err, &se) || se.Code != errNotSupported {
		t.Fatalf("DDL after rows in a group: %v, want 1235", err)
	}
}

// TestApplyNoPrimaryKey: a table without a primary key finds the row of
// a before image by all its columns, NULL-safe, one row at a time.
func TestApplyNoPrimaryKey(t *testing.T) {
	eng, a, e := setup(t)
	s := eng.NewSession("root", "localhost")
	defer s.Close()
	if _, err := s.Query(context.Background(), "CREATE TABLE d.n (id INT, s VARCHAR(20))"); err != nil {
		t.Fatal(err)
	}
	e.tm.Name = "n"
	err := apply(t, a, e.gtid(1), e.tableMap(), e.write(1, "a"), e.write(1, "a"), e.write(2, "b"), e.xid(),
		e.gtid(2), e.tableMap(), e.update(1, "a", "z"), e.delete(2, "b"), e.xid())
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Query(context.Background(), "SELECT id, s FROM d.n ORDER BY s")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 2 || res.Rows[0][1].ToString() != "a" || res.Rows[1][1].ToString() != "z" {
		t.Fatalf("rows = %v, want (1,a) and (1,z)", res.Rows)
	}
	if err := apply(t, a, e.gtid(3), e.tableMap(), e.delete(7, "q")); err == nil {
		t.Fatal("deleting a missing row succeeded")
	}
}

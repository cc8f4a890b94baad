package binlog

import (
	"encoding/binary"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/catalog"
)

// Row change kinds, as their ROWS event types.
const (
	kindWrite  = eventWriteRows
	kindUpdate = eventUpdateRows
	kindDelete = eventDeleteRows
)

// maxRowsEvent is the size past which a table's run of row images starts
// a new ROWS event (MySQL's binlog_row_event_max_size, 8 KiB).
const maxRowsEvent = 8 << 10

// segment is a run of row images of one table and kind: one ROWS event.
type segment struct {
	ti         *tableInfo
	kind       byte
	start, end int // in Changes.images
}

// Changes collects the row images of one transaction. The zero value is
// not used: Log.NewChanges returns one. It is not safe for concurrent use.
type Changes struct {
	log    *Log
	images []byte
	segs   []segment
	out    []byte // the encoded record (Log.Commit)
}

// Len returns a mark for Truncate: the changes collected so far.
func (c *Changes) Len() int { return len(c.images) }

// Empty reports whether no row change was collected.
func (c *Changes) Empty() bool { return len(c.images) == 0 }

// Truncate drops the changes collected after mark (a statement or a
// savepoint rolled back).
func (c *Changes) Truncate(mark int) {
	if mark >= len(c.images) {
		return
	}
	c.images = c.images[:mark]
	for len(c.segs) > 0 {
		s := &c.segs[len(c.segs)-1]
		if s.start >= mark {
			c.segs = c.segs[:len(c.segs)-1]
			continue
		}
		if s.end > mark {
			s.end = mark
		}
		break
	}
}

// reset empties the collector for reuse.
func (c *Changes) reset() {
	c.images = c.images[:0]
	c.segs = c.segs[:0]
}

// Insert records a row written to def.
func (c *Changes) Insert(def *catalog.Table, row []sqltypes.Value) error {
	return c.add(def, kindWrite, nil, row)
}

// Update records a row of def changed from before to after.
func (c *Changes) Update(def *catalog.Table, before, after []sqltypes.Value) error {
	return c.add(def, kindUpdate, before, after)
}

// Delete records a row deleted from def.
func (c *Changes) Delete(def *catalog.Table, row []sqltypes.Value) error {
	return c.add(def, kindDelete, nil, row)
}

func (c *Changes) add(def *catalog.Table, kind byte, before, row []sqltypes.Value) error {
	ti, err := c.log.tableInfo(def)
	if err != nil {
		return err
	}
	start := len(c.images)
	if before != nil {
		if c.images, err = ti.appendRow(c.images, before); err != nil {
			c.images = c.images[:start]
			return err
		}
	}
	if c.images, err = ti.appendRow(c.images, row); err != nil {
		c.images = c.images[:start]
		return err
	}
	if n := len(c.segs); n > 0 {
		s := &c.segs[n-1]
		if s.ti == ti && s.kind == kind && s.end == start && s.end-s.start < maxRowsEvent {
			s.end = len(c.images)
			return nil
		}
	}
	c.segs = append(c.segs, segment{ti: ti, kind: kind, start: start, end: len(c.images)})
	return nil
}

// bodyLen returns the length of the events after the GTID event: the
// QUERY and, for row changes, the TABLE_MAP, ROWS and XID events.
func (c *Changes) bodyLen(stmt *Statement) int {
	if stmt != nil {
		e := encoder{}
		e.query(stmt.ThreadID, stmt.DB, stmt.Query, stmt.SQLMode, stmt.charsets(), true)
		return len(e.buf)
	}
	e := encoder{}
	e.query(0, "", "BEGIN", 0, nil, false)
	n := len(e.buf)
	for i := range c.segs {
		s := &c.segs[i]
		if c.mapBefore(i) {
			n += headerLen + len(s.ti.body) + checksumLen
		}
		n += headerLen + rowsPostHeader(s.ti) + (s.end - s.start) + checksumLen
		if s.kind == kindUpdate {
			n += (len(s.ti.cols) + 7) / 8
		}
	}
	return n + headerLen + 8 + checksumLen
}

// rowsPostHeader is the length of a ROWS event before its row images.
func rowsPostHeader(ti *tableInfo) int {
	n := len(ti.cols)
	return 6 + 2 + 2 + len(appendPackedInt(nil, uint64(n))) + (n+7)/8
}

// encodeRows appends the TABLE_MAP and ROWS events.
func (c *Changes) encodeRows(e *encoder) error {
	for i := range c.segs {
		s := &c.segs[i]
		if c.mapBefore(i) {
			st := e.begin(eventTableMap)
			e.buf = append(e.buf, s.ti.body...)
			e.end(st, 0)
		}
		st := e.begin(s.kind)
		var id [8]byte
		binary.LittleEndian.PutUint64(id[:], s.ti.id)
		e.buf = append(e.buf, id[:6]...)
		var flags uint16
		if c.stmtEnd(i) {
			flags = 1 // STMT_END_F
		}
		e.buf = binary.LittleEndian.AppendUint16(e.buf, flags)
		e.buf = binary.LittleEndian.AppendUint16(e.buf, 2) // extra data: none
		n := len(s.ti.cols)
		e.buf = appendPackedInt(e.buf, uint64(n))
		for j := 0; j < (n+7)/8; j++ {
			bits := byte(0xff)
			if rem := n - j*8; rem < 8 {
				bits = byte(1<<rem - 1)
			}
			e.buf = append(e.buf, bits)
		}
		if s.kind == kindUpdate {
			for j := 0; j < (n+7)/8; j++ {
				bits := byte(0xff)
				if rem := n - j*8; rem < 8 {
					bits = byte(1<<rem - 1)
				}
				e.buf = append(e.buf, bits)
			}
		}
		e.buf = append(e.buf, c.images[s.start:s.end]...)
		e.end(st, 0)
	}
	return nil
}

// Statements of the log: a run of segments of one table (split only by
// kind or size) is one statement — its TABLE_MAP, then its ROWS events,
// the last with STMT_END_F. A replica forgets its table maps at each
// statement end, and MariaDB's IO thread refuses anything but a ROWS event
// after a ROWS event without STMT_END_F, so a change of table ends the
// statement and the next one maps its table again.

// mapBefore reports whether segment i starts a statement: its TABLE_MAP
// goes before it.
func (c *Changes) mapBefore(i int) bool { return i == 0 || c.segs[i-1].ti != c.segs[i].ti }

// stmtEnd reports whether segment i ends a statement (STMT_END_F).
func (c *Changes) stmtEnd(i int) bool { return i == len(c.segs)-1 || c.segs[i+1].ti != c.segs[i].ti }

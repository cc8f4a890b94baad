package binlog

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// ErrBadOffset: a read started at a position that is not an event's.
var ErrBadOffset = errors.New("binlog: no event starts")

// Event is one event read back from a file.
type Event struct {
	Type     byte
	ServerID uint32
	Pos      uint64 // where it starts
	EndPos   uint64 // End_log_pos
	Flags    uint16
	Body     []byte // after the header, without the checksum
}

func leUint64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// scanFile calls fn for each event of the file at path from position from
// (4: the first event) until fn returns false or the file ends.
func (l *Log) scanFile(path string, from uint64, fn func(Event) bool) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("binlog read: %w", err)
	}
	defer f.Close()
	if from < 4 {
		from = 4
	}
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("binlog read: %w", err)
	}
	if _, err := f.Seek(int64(from), io.SeekStart); err != nil {
		return fmt.Errorf("binlog read: %w", err)
	}
	r := bufio.NewReaderSize(f, 64<<10)
	pos := from
	var hdr [headerLen]byte
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil
			}
			return fmt.Errorf("binlog read: %w", err)
		}
		size := binary.LittleEndian.Uint32(hdr[9:])
		if end := uint64(binary.LittleEndian.Uint32(hdr[13:])); size < headerLen+checksumLen || end != pos+uint64(size) {
			return fmt.Errorf("%w at %d", ErrBadOffset, pos)
		}
		if pos+uint64(size) > uint64(fi.Size()) {
			return nil // torn tail, or an event being written
		}
		body := make([]byte, size-headerLen)
		if _, err := io.ReadFull(r, body); err != nil {
			return nil // torn tail
		}
		ev := Event{
			Type:     hdr[4],
			ServerID: binary.LittleEndian.Uint32(hdr[5:]),
			Pos:      pos,
			EndPos:   uint64(binary.LittleEndian.Uint32(hdr[13:])),
			Flags:    binary.LittleEndian.Uint16(hdr[17:]),
			Body:     body[:len(body)-checksumLen],
		}
		pos += uint64(size)
		if !fn(ev) {
			return nil
		}
	}
}

// prevGTIDsEnd returns n when a PREVIOUS_GTIDS body holds uuid:1-n.
func prevGTIDsEnd(body []byte, uuid [16]byte) uint64 {
	if len(body) < 8 {
		return 0
	}
	n := leUint64(body)
	p := body[8:]
	var last uint64
	for i := uint64(0); i < n && len(p) >= 24; i++ {
		sid := p[:16]
		k := leUint64(p[16:])
		p = p[24:]
		for j := uint64(0); j < k && len(p) >= 16; j++ {
			if string(sid) == string(uuid[:]) {
				last = leUint64(p[8:]) - 1
			}
			p = p[16:]
		}
	}
	return last
}

// EventRow is one row of SHOW BINLOG EVENTS.
type EventRow struct {
	LogName   string
	Pos       uint64
	EventType string
	ServerID  uint32
	EndLogPos uint64
	Info      string
}

// ShowEvents lists the events of the named file (the first file when
// name is empty) from position from, skipping offset rows and returning at
// most limit (negative: all).
func (l *Log) ShowEvents(name string, from uint64, offset, limit int64) ([]EventRow, error) {
	if name == "" {
		l.files.Lock()
		name = l.fileName(l.files.nums[0])
		l.files.Unlock()
	}
	path, ok := l.FilePath(name)
	if !ok {
		return nil, ErrUnknownFile
	}
	var rows []EventRow
	var skipped int64
	err := l.scanFile(path, from, func(ev Event) bool {
		if skipped < offset {
			skipped++
			return true
		}
		if limit >= 0 && int64(len(rows)) >= limit {
			return false
		}
		rows = append(rows, EventRow{LogName: name, Pos: ev.Pos, EventType: eventTypeName(ev.Type), ServerID: ev.ServerID, EndLogPos: ev.EndPos, Info: l.eventInfo(ev)})
		return true
	})
	return rows, err
}

func eventTypeName(t byte) string {
	switch t {
	case eventQuery:
		return "Query"
	case eventRotate:
		return "Rotate"
	case eventFormatDesc:
		return "Format_desc"
	case eventXID:
		return "Xid"
	case eventTableMap:
		return "Table_map"
	case eventWriteRows:
		return "Write_rows"
	case eventUpdateRows:
		return "Update_rows"
	case eventDeleteRows:
		return "Delete_rows"
	case eventGTID:
		return "Gtid"
	case eventPrevGTIDs:
		return "Previous_gtids"
	}
	return fmt.Sprintf("Unknown(%d)", t)
}

// eventInfo is SHOW BINLOG EVENTS' Info column, as MySQL 8.0 writes it.
func (l *Log) eventInfo(ev Event) string {
	b := ev.Body
	switch ev.Type {
	case eventFormatDesc:
		if len(b) >= 52 {
			return fmt.Sprintf("Server ver: %s, Binlog ver: %d", strings.TrimRight(string(b[2:52]), "\x00"), binary.LittleEndian.Uint16(b))
		}
	case eventPrevGTIDs:
		return gtidSet(l.UUID(), 1, prevGTIDsEnd(b, l.uuid))
	case eventGTID:
		if len(b) >= 25 {
			var u [16]byte
			copy(u[:], b[1:17])
			return fmt.Sprintf("SET @@SESSION.GTID_NEXT= '%s:%d'", FormatUUID(u), leUint64(b[17:]))
		}
	case eventQuery:
		if len(b) >= 13 {
			dbLen := int(b[8])
			varsLen := int(binary.LittleEndian.Uint16(b[11:]))
			p := 13 + varsLen
			if len(b) >= p+dbLen+1 {
				db := string(b[p : p+dbLen])
				q := string(b[p+dbLen+1:])
				if db != "" && q != "BEGIN" {
					return fmt.Sprintf("use `%s`; %s", db, q)
				}
				return q
			}
		}
	case eventTableMap:
		if len(b) >= 9 {
			id := leUint64(append(append([]byte(nil), b[:6]...), 0, 0))
			p := 8
			dl := int(b[p])
			db := string(b[p+1 : p+1+dl])
			p += dl + 2
			tl := int(b[p])
			return fmt.Sprintf("table_id: %d (%s.%s)", id, db, string(b[p+1:p+1+tl]))
		}
	case eventWriteRows, eventUpdateRows, eventDeleteRows:
		if len(b) >= 8 {
			id := leUint64(append(append([]byte(nil), b[:6]...), 0, 0))
			s := fmt.Sprintf("table_id: %d", id)
			if binary.LittleEndian.Uint16(b[6:])&1 != 0 {
				s += " flags: STMT_END_F"
			}
			return s
		}
	case eventXID:
		if len(b) >= 8 {
			return fmt.Sprintf("COMMIT /* xid=%d */", leUint64(b))
		}
	case eventRotate:
		if len(b) >= 8 {
			return fmt.Sprintf("%s;pos=%d", string(b[8:]), leUint64(b))
		}
	}
	return ""
}

package binlog

import (
	"encoding/binary"
	"hash/crc32"
)

// Event type codes (MySQL 8.0 libbinlogevents, binlog_event.h).
const (
	eventQuery       = 2
	eventRotate      = 4
	eventFormatDesc  = 15
	eventXID         = 16
	eventTableMap    = 19
	eventWriteRows   = 30 // WRITE_ROWS_EVENT (v2)
	eventUpdateRows  = 31 // UPDATE_ROWS_EVENT (v2)
	eventDeleteRows  = 32 // DELETE_ROWS_EVENT (v2)
	eventGTID        = 33
	eventPrevGTIDs   = 35
	eventHeartbeat   = 27
	headerLen        = 19
	checksumLen      = 4
	binlogVersion    = 4
	checksumAlgCRC32 = 1
)

// Magic is the first four bytes of every binlog file.
var Magic = []byte{0xfe, 'b', 'i', 'n'}

// postHeaderLens are MySQL 8.0's post-header lengths of event types 1..41,
// as its FORMAT_DESCRIPTION_EVENT lists them.
var postHeaderLens = [41]byte{
	0, 13, 0, 8, 0, 0, 0, 0, 4, 0, 4, 0, 0, 0, 98, 0, 4, 26, 8, 0,
	0, 0, 8, 8, 8, 2, 0, 0, 0, 10, 10, 10, 42, 42, 0, 18, 52, 0, 10, 40,
	0,
}

// encoder appends events to buf, which starts at file position pos.
// Events are closed by end, which fills in the header's size and end
// position and appends the CRC32 checksum.
type encoder struct {
	buf      []byte
	pos      uint64 // file position of buf[0]
	serverID uint32
	ts       uint32
}

// begin starts an event of type typ and returns its offset in buf.
func (e *encoder) begin(typ byte) int {
	start := len(e.buf)
	var h [headerLen]byte
	binary.LittleEndian.PutUint32(h[0:], e.ts)
	h[4] = typ
	binary.LittleEndian.PutUint32(h[5:], e.serverID)
	e.buf = append(e.buf, h[:]...)
	return start
}

// end closes the event begun at start.
func (e *encoder) end(start int, flags uint16) {
	size := len(e.buf) - start + checksumLen
	endPos := e.pos + uint64(len(e.buf)+checksumLen)
	h := e.buf[start:]
	binary.LittleEndian.PutUint32(h[9:], uint32(size))
	binary.LittleEndian.PutUint32(h[13:], uint32(endPos))
	binary.LittleEndian.PutUint16(h[17:], flags)
	sum := crc32.ChecksumIEEE(e.buf[start:])
	e.buf = binary.LittleEndian.AppendUint32(e.buf, sum)
}

// endPos is the file position after the last closed event.
func (e *encoder) endPos() uint64 { return e.pos + uint64(len(e.buf)) }

// formatDescription appends the FORMAT_DESCRIPTION_EVENT.
func (e *encoder) formatDescription(version string) {
	s := e.begin(eventFormatDesc)
	e.buf = binary.LittleEndian.AppendUint16(e.buf, binlogVersion)
	var v [50]byte
	copy(v[:], version)
	e.buf = append(e.buf, v[:]...)
	e.buf = binary.LittleEndian.AppendUint32(e.buf, e.ts)
	e.buf = append(e.buf, headerLen)
	e.buf = append(e.buf, postHeaderLens[:]...)
	e.buf = append(e.buf, checksumAlgCRC32)
	e.end(s, 0)
}

// previousGTIDs appends PREVIOUS_GTIDS_LOG_EVENT for the set uuid:1-last
// (nothing when last is 0).
func (e *encoder) previousGTIDs(uuid [16]byte, last uint64) {
	s := e.begin(eventPrevGTIDs)
	if last == 0 {
		e.buf = binary.LittleEndian.AppendUint64(e.buf, 0)
	} else {
		e.buf = binary.LittleEndian.AppendUint64(e.buf, 1)
		e.buf = append(e.buf, uuid[:]...)
		e.buf = binary.LittleEndian.AppendUint64(e.buf, 1)
		e.buf = binary.LittleEndian.AppendUint64(e.buf, 1)
		e.buf = binary.LittleEndian.AppendUint64(e.buf, last+1)
	}
	e.end(s, 0)
}

// gtid appends a GTID_LOG_EVENT for uuid:gno. seq is the logical clock's
// sequence number within the file (last_committed is seq-1: transactions
// are applied one after another). txLen is the whole transaction's length
// in bytes, GTID event included; commitMicros the commit time.
func (e *encoder) gtid(uuid [16]byte, gno uint64, seq int64, commitMicros uint64, txLen uint64, ddl bool) {
	s := e.begin(eventGTID)
	var flags byte
	if ddl {
		flags = 1 // FLAG_MAY_HAVE_SBR: a statement
	}
	e.buf = append(e.buf, flags)
	e.buf = append(e.buf, uuid[:]...)
	e.buf = binary.LittleEndian.AppendUint64(e.buf, gno)
	e.buf = append(e.buf, 2) // LOGICAL_TIMESTAMP_TYPECODE
	e.buf = binary.LittleEndian.AppendUint64(e.buf, uint64(seq-1))
	e.buf = binary.LittleEndian.AppendUint64(e.buf, uint64(seq))
	// immediate_commit_timestamp, 7 bytes; the high bit clear says the
	// original commit timestamp is the same.
	var ts [8]byte
	binary.LittleEndian.PutUint64(ts[:], commitMicros&(1<<55-1))
	e.buf = append(e.buf, ts[:7]...)
	e.buf = appendPackedInt(e.buf, txLen)
	// immediate_server_version, high bit clear: original is the same.
	e.buf = binary.LittleEndian.AppendUint32(e.buf, serverVersionID)
	e.end(s, 0)
}

// gtidEventLen is the length of the GTID event gtid writes for txLen.
func gtidEventLen(txLen uint64) uint64 {
	return headerLen + 42 + 7 + uint64(len(appendPackedInt(nil, txLen))) + 4 + checksumLen
}

// serverVersionID is 8.0.40 as MySQL numbers versions.
const serverVersionID = 80040

// Query status variable codes (log_event.h).
const (
	qFlags2      = 0
	qSQLMode     = 1
	qCatalogNZ   = 6
	qCharset     = 4
	qUpdatedDBs  = 12
	qTableMapFor = 9
)

// query appends a QUERY_EVENT running text in database db. A DDL
// statement carries the session's sql_mode and character set ids
// (character_set_client, collation_connection, collation_server); BEGIN
// carries neither (the replica's own apply).
func (e *encoder) query(threadID uint32, db, text string, sqlMode uint64, charsets *[3]uint16, ddl bool) {
	s := e.begin(eventQuery)
	e.buf = binary.LittleEndian.AppendUint32(e.buf, threadID)
	e.buf = binary.LittleEndian.AppendUint32(e.buf, 0) // exec time
	e.buf = append(e.buf, byte(len(db)))
	e.buf = binary.LittleEndian.AppendUint16(e.buf, 0) // error code
	lenAt := len(e.buf)
	e.buf = append(e.buf, 0, 0)
	vars := len(e.buf)
	e.buf = append(e.buf, qFlags2)
	e.buf = binary.LittleEndian.AppendUint32(e.buf, 0)
	if ddl {
		e.buf = append(e.buf, qSQLMode)
		e.buf = binary.LittleEndian.AppendUint64(e.buf, sqlMode)
	}
	e.buf = append(e.buf, qCatalogNZ, 3, 's', 't', 'd')
	if charsets != nil {
		e.buf = append(e.buf, qCharset)
		for _, id := range charsets {
			e.buf = binary.LittleEndian.AppendUint16(e.buf, id)
		}
	}
	if ddl && db != "" {
		e.buf = append(e.buf, qUpdatedDBs, 1)
		e.buf = append(e.buf, db...)
		e.buf = append(e.buf, 0)
	}
	binary.LittleEndian.PutUint16(e.buf[lenAt:], uint16(len(e.buf)-vars))
	e.buf = append(e.buf, db...)
	e.buf = append(e.buf, 0)
	e.buf = append(e.buf, text...)
	e.end(s, 0)
}

// xid appends an XID_EVENT.
func (e *encoder) xid(id uint64) {
	s := e.begin(eventXID)
	e.buf = binary.LittleEndian.AppendUint64(e.buf, id)
	e.end(s, 0)
}

// rotate appends a ROTATE_EVENT naming the next file.
func (e *encoder) rotate(next string) {
	s := e.begin(eventRotate)
	e.buf = binary.LittleEndian.AppendUint64(e.buf, 4)
	e.buf = append(e.buf, next...)
	e.end(s, 0)
}

// appendPackedInt appends MySQL's length-encoded integer.
func appendPackedInt(b []byte, v uint64) []byte {
	switch {
	case v < 251:
		return append(b, byte(v))
	case v < 1<<16:
		return append(b, 0xfc, byte(v), byte(v>>8))
	case v < 1<<24:
		return append(b, 0xfd, byte(v), byte(v>>8), byte(v>>16))
	}
	b = append(b, 0xfe)
	return binary.LittleEndian.AppendUint64(b, v)
}

package binlog

import (
	"encoding/binary"
	"fmt"
)

// Records are the binlog's durable copy until the files are fsynced. They
// live in the store under the reserved index id RecordIndexID:
//
//	record-key = RecordIndexID(4) 'R' gno(8, big-endian)
//	record     = file-number(4) position(8) flags(1) event-bytes
//	state-key  = RecordIndexID(4) 'S'
//	state      = gno(8) file-number(4) position(8) seq(8)   (the last trimmed record;
//	             seq its GTID event's sequence_number; older states lack it)
//
// A record's bytes belong in binlog file file-number at position; flag
// recRotated says they end with a ROTATE event, so the next file starts
// (with its header) after them.

// RecordIndexID is the reserved index id of the binlog records (ids below
// catalog.FirstUserIndexID are never handed to tables).
const RecordIndexID uint32 = 2

const (
	recRotated = 1
	recHdrLen  = 13
)

func recordKey(gno uint64) []byte { return appendRecordKey(make([]byte, 0, 13), gno) }

func appendRecordKey(k []byte, gno uint64) []byte {
	k = binary.BigEndian.AppendUint32(k, RecordIndexID)
	k = append(k, 'R')
	return binary.BigEndian.AppendUint64(k, gno)
}

func stateKey() []byte {
	return append(binary.BigEndian.AppendUint32(nil, RecordIndexID), 'S')
}

// record is one decoded record.
type record struct {
	gno   uint64
	file  uint32
	pos   uint64
	flags byte
	data  []byte
}

func appendRecordHeader(b []byte, file uint32, pos uint64, flags byte) []byte {
	b = binary.BigEndian.AppendUint32(b, file)
	b = binary.BigEndian.AppendUint64(b, pos)
	return append(b, flags)
}

func decodeRecord(key, v []byte) (record, error) {
	if len(key) != 13 || len(v) < recHdrLen {
		return record{}, fmt.Errorf("binlog: bad record %x", key)
	}
	return record{
		gno:   binary.BigEndian.Uint64(key[5:]),
		file:  binary.BigEndian.Uint32(v),
		pos:   binary.BigEndian.Uint64(v[4:]),
		flags: v[12],
		data:  append([]byte(nil), v[recHdrLen:]...),
	}, nil
}

// state is the position of the last record deleted from the store.
type state struct {
	gno  uint64
	file uint32
	pos  uint64
	seq  int64 // -1: unknown
}

func (s state) encode() []byte {
	b := binary.BigEndian.AppendUint64(nil, s.gno)
	b = binary.BigEndian.AppendUint32(b, s.file)
	b = binary.BigEndian.AppendUint64(b, s.pos)
	return binary.BigEndian.AppendUint64(b, uint64(s.seq))
}

func decodeState(v []byte) (state, error) {
	if len(v) != 20 && len(v) != 28 {
		return state{}, fmt.Errorf("binlog: bad state record")
	}
	st := state{gno: binary.BigEndian.Uint64(v), file: binary.BigEndian.Uint32(v[8:]), pos: binary.BigEndian.Uint64(v[12:]), seq: -1}
	if len(v) == 28 {
		st.seq = int64(binary.BigEndian.Uint64(v[20:]))
	}
	return st, nil
}

// gtidSeqOffset is where a record's first event, its GTID event, holds
// sequence_number: header, flags(1) sid(16) gno(8) lt_type(1)
// last_committed(8).
const gtidSeqOffset = headerLen + 1 + 16 + 8 + 1 + 8

// recordSeq returns the sequence_number of a record's GTID event.
func recordSeq(data []byte) int64 {
	if len(data) < gtidSeqOffset+8 || data[4] != eventGTID {
		return 0
	}
	return int64(binary.LittleEndian.Uint64(data[gtidSeqOffset:]))
}

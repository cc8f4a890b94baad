package binlog

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"time"
)

// LOG_EVENT_ARTIFICIAL_F marks events a dump makes up (the first ROTATE,
// heartbeats).
const flagArtificial = 0x20

// ErrFirstFile: a dump asked for a file that is not in the index.
var ErrFirstFile = errors.New("Could not find first log file name in binary log index file")

// DumpOptions configure Dump.
type DumpOptions struct {
	// NonBlock ends the dump at the end of the log (BINLOG_DUMP_NON_BLOCK,
	// mysqlbinlog without --stop-never) instead of waiting for more.
	NonBlock bool
	// Heartbeat is the replica's @master_heartbeat_period: the idle time
	// after which a HEARTBEAT event is sent. Zero: 30 s (MySQL's default is
	// half the replica's timeout).
	Heartbeat time.Duration
}

// notifyLocked wakes dumps waiting for new events.
func (l *Log) notifyLocked() {
	close(l.files.changed)
	l.files.changed = make(chan struct{})
}

// published returns the current file, the end of its written events and
// the channel closed at the next change.
func (l *Log) published() (uint32, uint64, chan struct{}) {
	l.files.Lock()
	defer l.files.Unlock()
	return l.files.num, l.files.end, l.files.changed
}

// nextFile returns the file listed after n, or false.
func (l *Log) nextFile(n uint32) (uint32, bool) {
	l.files.Lock()
	defer l.files.Unlock()
	for i, m := range l.files.nums {
		if m == n && i+1 < len(l.files.nums) {
			return l.files.nums[i+1], true
		}
	}
	return 0, false
}

// Dump sends the events of the log from file name (the first file when
// empty) at position pos to send, one event per call (with its checksum),
// as a primary serves COM_BINLOG_DUMP: a made-up ROTATE naming the start,
// the file's FORMAT_DESCRIPTION when starting past it, then the events,
// across rotations, waiting for new ones (with heartbeats) until ctx ends,
// or returning at the end of the log with opts.NonBlock.
func (l *Log) Dump(ctx context.Context, name string, pos uint64, opts DumpOptions, send func(ev []byte) error) error {
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = 30 * time.Second
	}
	l.files.Lock()
	if name == "" && len(l.files.nums) > 0 {
		name = l.fileName(l.files.nums[0])
	}
	l.files.Unlock()
	if _, ok := l.FilePath(name); !ok {
		return ErrFirstFile
	}
	num, _ := l.fileNumber(name)
	if pos < 4 {
		pos = 4
	}
	if err := send(l.artificialRotate(name, pos)); err != nil {
		return err
	}
	if pos > 4 {
		fde, err := l.readEvent(num, 4)
		if err != nil {
			return err
		}
		if err := send(withLogPos(fde, 0)); err != nil {
			return err
		}
	}
	for {
		cur, end, changed := l.published()
		limit := uint64(1<<63 - 1)
		if num == cur {
			limit = end
		}
		n, rotated, err := l.sendRange(num, pos, limit, send)
		if err != nil {
			return err
		}
		pos += n
		if rotated {
			// The next file is created right after the ROTATE is
			// written: wait for it if need be.
			for {
				_, _, changed := l.published()
				if next, ok := l.nextFile(num); ok {
					num, pos = next, 4
					break
				}
				if err := l.wait(ctx, changed, opts, num, pos, send); err != nil {
					return err
				}
			}
			continue
		}
		if n > 0 {
			continue
		}
		if opts.NonBlock {
			return nil
		}
		if err := l.wait(ctx, changed, opts, num, pos, send); err != nil {
			return err
		}
	}
}

// wait blocks until the log changes, sending heartbeats while idle.
func (l *Log) wait(ctx context.Context, changed chan struct{}, opts DumpOptions, num uint32, pos uint64, send func([]byte) error) error {
	t := time.NewTimer(opts.Heartbeat)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
			return nil
		case <-t.C:
			if err := send(l.heartbeat(l.fileName(num), pos)); err != nil {
				return err
			}
			t.Reset(opts.Heartbeat)
		}
	}
}

// sendRange sends the complete events of file num in [pos, limit). It
// reports the bytes sent and whether the last one was a ROTATE.
func (l *Log) sendRange(num uint32, pos, limit uint64, send func([]byte) error) (uint64, bool, error) {
	f, err := os.Open(l.filePath(num))
	if err != nil {
		return 0, false, fmt.Errorf("binlog dump: %w", err)
	}
	defer f.Close()
	var sent uint64
	var hdr [headerLen]byte
	for pos+sent+headerLen <= limit {
		if _, err := f.ReadAt(hdr[:], int64(pos+sent)); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return sent, false, fmt.Errorf("binlog dump: %w", err)
		}
		size := uint64(binary.LittleEndian.Uint32(hdr[9:]))
		if size < headerLen || pos+sent+size > limit {
			break
		}
		ev := make([]byte, size)
		if _, err := f.ReadAt(ev, int64(pos+sent)); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return sent, false, fmt.Errorf("binlog dump: %w", err)
		}
		if err := send(ev); err != nil {
			return sent, false, err
		}
		sent += size
		if ev[4] == eventRotate {
			return sent, true, nil
		}
	}
	return sent, false, nil
}

// readEvent reads the event at pos of file num.
func (l *Log) readEvent(num uint32, pos uint64) ([]byte, error) {
	f, err := os.Open(l.filePath(num))
	if err != nil {
		return nil, fmt.Errorf("binlog dump: %w", err)
	}
	defer f.Close()
	var hdr [headerLen]byte
	if _, err := f.ReadAt(hdr[:], int64(pos)); err != nil {
		return nil, fmt.Errorf("binlog dump: %w", err)
	}
	ev := make([]byte, binary.LittleEndian.Uint32(hdr[9:]))
	if _, err := f.ReadAt(ev, int64(pos)); err != nil {
		return nil, fmt.Errorf("binlog dump: %w", err)
	}
	return ev, nil
}

// withLogPos returns ev with its end position replaced (and its checksum
// recomputed).
func withLogPos(ev []byte, pos uint32) []byte {
	binary.LittleEndian.PutUint32(ev[13:], pos)
	binary.LittleEndian.PutUint32(ev[len(ev)-checksumLen:], crc32.ChecksumIEEE(ev[:len(ev)-checksumLen]))
	return ev
}

// artificialRotate is the ROTATE a dump starts with: timestamp 0, end
// position 0, LOG_EVENT_ARTIFICIAL_F.
func (l *Log) artificialRotate(name string, pos uint64) []byte {
	e := encoder{serverID: l.ServerID()}
	s := e.begin(eventRotate)
	e.buf = binary.LittleEndian.AppendUint64(e.buf, pos)
	e.buf = append(e.buf, name...)
	e.end(s, flagArtificial)
	return withLogPos(e.buf, 0)
}

// heartbeat is a HEARTBEAT_LOG_EVENT naming the file, at its position.
func (l *Log) heartbeat(name string, pos uint64) []byte {
	e := encoder{serverID: l.ServerID()}
	s := e.begin(eventHeartbeat)
	e.buf = append(e.buf, name...)
	e.end(s, flagArtificial)
	return withLogPos(e.buf, uint32(pos))
}

// Errors of StartAfter.
var (
	ErrReplicaAhead = errors.New("the replica has more GTIDs than the source has")
	ErrPurged       = errors.New("the source has purged binary logs containing GTIDs that the replica requires")
)

// UUIDBytes returns the server UUID.
func (l *Log) UUIDBytes() [16]byte { return l.uuid }

// StartAfter returns where a dump for a replica that executed this
// server's transactions 1..k starts: the GTID event of k+1 (or the end of
// the log when k is all of them).
func (l *Log) StartAfter(k uint64) (string, uint64, error) {
	l.mu.Lock()
	executed := l.mu.gno
	l.mu.Unlock()
	if k > executed {
		return "", 0, ErrReplicaAhead
	}
	if k == executed {
		cur, end, _ := l.published()
		return l.fileName(cur), end, nil
	}
	l.files.Lock()
	nums := append([]uint32(nil), l.files.nums...)
	l.files.Unlock()
	start := -1
	for i, n := range nums {
		var prev uint64
		_ = l.scanFile(l.filePath(n), 4, func(ev Event) bool {
			if ev.Type == eventPrevGTIDs {
				prev = prevGTIDsEnd(ev.Body, l.uuid)
				return false
			}
			return true
		})
		if prev <= k {
			start = i
		}
	}
	if start < 0 {
		return "", 0, ErrPurged
	}
	for _, n := range nums[start:] {
		var found uint64
		err := l.scanFile(l.filePath(n), 4, func(ev Event) bool {
			if ev.Type == eventGTID && len(ev.Body) >= 25 && leUint64(ev.Body[17:]) == k+1 {
				found = ev.Pos
				return false
			}
			return true
		})
		if err != nil {
			return "", 0, err
		}
		if found > 0 {
			return l.fileName(n), found, nil
		}
	}
	return "", 0, fmt.Errorf("binlog: GTID %d not found in the files", k+1)
}

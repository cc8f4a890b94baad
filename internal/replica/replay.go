package replica

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"vitess.io/vitess/go/mysql"
	"vitess.io/vitess/go/mysql/replication"

	"github.com/strata-db/strata/internal/sql"
	"github.com/strata-db/strata/internal/txn"
)

// Replaying binary log files (point-in-time recovery, strata restore
// --binlog-from): the applier of a replica, fed from files instead of a
// source's dump stream. Each transaction is committed with its position
// under a key of its own (replayKey: a restored replica's position stays
// as it was), so a replay interrupted by a crash resumes after the last
// transaction it committed (ReplayPosition).

// ReplayStop says where a replay ends; the zero value replays everything.
type ReplayStop struct {
	// GTID ends the replay after the transaction with this GTID
	// (inclusive); the replay fails when the files end before it.
	GTID replication.GTID
	// Datetime ends it before the first transaction whose GTID event is
	// timestamped at or after it (mysqlbinlog's --stop-datetime).
	Datetime time.Time
}

// ReplayResult is what a replay did.
type ReplayResult struct {
	// Transactions counts the transactions applied (DDL included).
	Transactions int
	// Pos is the position after the last one, with the GTID set applied.
	Pos Position
	// Reached: the stop GTID or datetime was reached (false: the files
	// ended first).
	Reached bool
}

// ErrStopNotReached: the binary log files end before the stop GTID.
var ErrStopNotReached = errors.New("replica: the binary log files end before the stop GTID")

// replayKey holds a replay's position (kind 'R' of the replication state).
var replayKey = stateKey('R')

// ReplayPosition returns the position an interrupted replay stored; ok is
// false when there is none.
func ReplayPosition(ctx context.Context, db *txn.DB) (pos Position, ok bool, err error) {
	tx := db.Begin(ctx, txn.RepeatableRead, 0)
	defer tx.Rollback()
	v, found, err := tx.Get(replayKey)
	if err != nil || !found {
		return pos, false, err
	}
	if err := json.Unmarshal(v, &pos); err != nil {
		return pos, false, fmt.Errorf("replica: decoding the applied position: %w", err)
	}
	return pos, true, nil
}

// ClearReplayPosition deletes a finished replay's position.
func ClearReplayPosition(ctx context.Context, db *txn.DB) error {
	tx := db.Begin(ctx, txn.RepeatableRead, 0)
	if err := tx.Delete(replayKey); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// ReplayFiles applies the transactions of the binary log files in dir
// (NAME.NNNNNN, in number order) from the start of file at pos, through an
// applier session of eng, until stop or the end of the last file. start
// is where to begin; its GTID set is the set already applied.
func ReplayFiles(ctx context.Context, eng *sql.Engine, dir string, start Position, stop ReplayStop) (ReplayResult, error) {
	var res ReplayResult
	base, num, ok := splitLogName(start.File)
	if !ok {
		return res, fmt.Errorf("replica: %q is not a binary log file name (NAME.NNNNNN)", start.File)
	}
	if stop.GTID != nil && start.GTID != "" {
		if set, err := replication.ParsePosition(start.Flavor, start.GTID); err == nil && set.GTIDSet.ContainsGTID(stop.GTID) {
			return res, fmt.Errorf("replica: GTID %s is already applied (%s)", stop.GTID, start.GTID)
		}
	}
	a, err := newApplier(ctx, eng, start)
	if err != nil {
		return res, err
	}
	a.posKey = replayKey
	defer a.close()
	pos := max(start.Pos, 4)
	stopAfter := false
	for {
		name := fmt.Sprintf("%s.%06d", base, num)
		path := filepath.Join(dir, name)
		if _, err := os.Stat(path); err != nil {
			if num == mustNum(start.File) {
				return res, fmt.Errorf("replica: %w", err)
			}
			break // no later file
		}
		a.file = name
		done, err := replayFile(path, pos, a, func(ev mysql.BinlogEvent) (bool, error) {
			if ev.IsGTID() {
				if !stop.Datetime.IsZero() && !time.Unix(int64(ev.Timestamp()), 0).Before(stop.Datetime) {
					res.Reached = true
					return true, nil
				}
				g, _, _, _, err := ev.GTID(a.format)
				if err == nil && stop.GTID != nil && g == stop.GTID {
					stopAfter = true
				}
			}
			inGroup := a.inGroup || a.pending != nil
			if err := a.event(ev); err != nil {
				return false, err
			}
			a.passed(ev)
			if inGroup && !a.inGroup && a.pending == nil {
				res.Transactions++
			}
			if stopAfter && !a.inGroup && a.pending == nil {
				res.Reached = true
				return true, nil
			}
			return false, nil
		})
		if err != nil {
			a.abandon()
			res.Pos = a.pos
			return res, err
		}
		if done {
			break
		}
		num++
		pos = 4
	}
	a.abandon() // a transaction the files end in the middle of
	res.Pos = a.pos
	if stop.GTID != nil && !res.Reached {
		return res, fmt.Errorf("%w %s (replayed up to %s:%d)", ErrStopNotReached, stop.GTID, res.Pos.File, res.Pos.Pos)
	}
	return res, nil
}

// replayFile reads the events of one file from pos (its format description
// first) and hands each, checksum stripped, to fn until fn says done.
func replayFile(path string, pos uint64, a *applier, fn func(mysql.BinlogEvent) (bool, error)) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, fmt.Errorf("replica: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	var magic [4]byte
	if _, err := io.ReadFull(r, magic[:]); err != nil || string(magic[:]) != "\xfebin" {
		return false, fmt.Errorf("replica: %s is not a binary log file", path)
	}
	at := uint64(4)
	read := func() (mysql.BinlogEvent, error) {
		var hdr [19]byte
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return nil, err
		}
		size := binary.LittleEndian.Uint32(hdr[9:])
		if size < 19 || size > 1<<30 {
			return nil, fmt.Errorf("replica: %s: bad event length %d at %d", path, size, at)
		}
		buf := make([]byte, size)
		copy(buf, hdr[:])
		if _, err := io.ReadFull(r, buf[19:]); err != nil {
			return nil, err
		}
		at += uint64(size)
		return mysql.NewMysql56BinlogEvent(buf), nil
	}
	fde, err := read()
	if err != nil || !fde.IsFormatDescription() {
		return false, fmt.Errorf("replica: %s does not start with a format description event", path)
	}
	if a.format, err = fde.Format(); err != nil {
		return false, fmt.Errorf("replica: %s: format description: %w", path, err)
	}
	if pos > at {
		if _, err := r.Discard(int(pos - at)); err != nil {
			return false, fmt.Errorf("replica: %s is shorter than position %d", path, pos)
		}
		at = pos
	}
	for {
		ev, err := read()
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return false, nil // the end, or a torn tail
		}
		if err != nil {
			return false, err
		}
		if ev.IsFormatDescription() {
			continue
		}
		if a.format.ChecksumAlgorithm == mysql.BinlogChecksumAlgCRC32 && !checksumOK(ev.Bytes()) {
			return false, fmt.Errorf("replica: %s: checksum mismatch in the event ending at %d", path, at)
		}
		if ev, _, err = ev.StripChecksum(a.format); err != nil {
			return false, fmt.Errorf("replica: %s: %w", path, err)
		}
		if done, err := fn(ev); err != nil || done {
			return done, err
		}
	}
}

// splitLogName splits NAME.NNNNNN.
func splitLogName(file string) (base string, num int, ok bool) {
	i := strings.LastIndexByte(file, '.')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(file[i+1:])
	if err != nil || n < 0 {
		return "", 0, false
	}
	return file[:i], n, true
}

func mustNum(file string) int {
	_, n, _ := splitLogName(file)
	return n
}

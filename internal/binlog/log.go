package binlog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/kv"
)

// Sentinel errors.
var (
	// ErrUnknownFile: PURGE BINARY LOGS TO or SHOW BINLOG EVENTS IN names a
	// file that is not in the index.
	ErrUnknownFile = errors.New("binlog: file not found in index")
	// ErrBroken: an earlier binlog write failed; commits are refused
	// (MySQL's binlog_error_action=ABORT_SERVER, minus the abort).
	ErrBroken = errors.New("binlog: an earlier write failed, commits are refused")
)

// Options configure a Log. Zero values take the documented defaults.
type Options struct {
	// Dir holds the files and the index. Required.
	Dir string
	// Basename of the files and the index; default "binlog" (MySQL 8.0's).
	Basename string
	// ServerUUID is the GTID source id (LoadServerUUID). Required.
	ServerUUID string
	// ServerID is @@server_id, written in every event header; default 1.
	ServerID uint32
	// MaxSize is max_binlog_size: a file that reaches it is rotated after
	// the transaction that crossed it. Default 1 GiB, as MySQL.
	MaxSize int64
	// ExpireSeconds is binlog_expire_logs_seconds: files older than this
	// are purged at rotation and start; 0 never. Default 30 days, as MySQL.
	ExpireSeconds int64
	// Version is the server version in FORMAT_DESCRIPTION events.
	Version string
}

// trimBytes is how many record bytes the writer lets accumulate in the
// store before it fsyncs the file and deletes the records.
const trimBytes = 16 << 20

// Log is the binary log. Its methods are safe for concurrent use.
type Log struct {
	opts     Options
	kv       *kv.DB
	uuid     [16]byte
	serverID atomic.Uint32
	maxSize  atomic.Int64
	expire   atomic.Int64

	// mu serialises commits: it fixes each transaction's GTID number and
	// file position and applies its batch, so binlog order is commit order.
	mu struct {
		sync.Mutex
		gno  uint64 // last assigned
		file uint32 // file of the next record
		pos  uint64 // its position
		seq  int64  // logical clock within the file
	}
	// broken is set once a commit or file write failed: commits are refused.
	broken atomic.Pointer[error]

	// files guards the open file, the written position and the index.
	files struct {
		sync.Mutex
		cond      *sync.Cond
		f         *os.File
		num       uint32
		nums      []uint32
		written   uint64 // last gno written to the files
		lastSeq   int64  // its sequence_number (kept in the state)
		pending   map[uint64]*pendingRec
		untrimmed int
		broken    error
		// end is the position after the last event written to the
		// current file; changed is closed (and replaced) whenever end or
		// the current file moves (dump.go waits on it).
		end     uint64
		changed chan struct{}
	}

	tables struct {
		sync.Mutex
		m    map[*catalog.Table]*tableInfo
		next uint64
	}

	pool sync.Pool // *Changes
}

// pendingRec is a durable record waiting for its turn to be written.
type pendingRec struct {
	file  uint32
	pos   uint64
	flags byte
	data  []byte
	prev  uint64 // gno before it (for a rotated-to file's header)
}

// Open opens the binlog in opts.Dir over the store: it writes into the
// files every record they lack (after a crash), creates the first file
// when there is none, and purges expired files.
func Open(store *kv.DB, opts Options) (*Log, error) {
	if opts.Basename == "" {
		opts.Basename = "binlog"
	}
	if opts.ServerID == 0 {
		opts.ServerID = 1
	}
	if opts.MaxSize <= 0 {
		opts.MaxSize = 1 << 30
	}
	if opts.ExpireSeconds < 0 {
		opts.ExpireSeconds = 0
	}
	u, err := ParseUUID(opts.ServerUUID)
	if err != nil {
		return nil, err
	}
	l := &Log{opts: opts, kv: store, uuid: u}
	l.serverID.Store(opts.ServerID)
	l.maxSize.Store(opts.MaxSize)
	l.expire.Store(opts.ExpireSeconds)
	l.files.cond = sync.NewCond(&l.files.Mutex)
	l.files.pending = map[uint64]*pendingRec{}
	l.files.changed = make(chan struct{})
	l.tables.m = map[*catalog.Table]*tableInfo{}
	if err := os.MkdirAll(opts.Dir, 0o750); err != nil {
		return nil, fmt.Errorf("binlog: %w", err)
	}
	if err := l.recover(); err != nil {
		l.closeFile()
		return nil, err
	}
	if e := l.expire.Load(); e > 0 {
		if err := l.PurgeBefore(time.Now().Unix() - e); err != nil {
			l.closeFile()
			return nil, err
		}
	}
	return l, nil
}

// recover replays the store's records into the files and positions the
// log after the last one.
func (l *Log) recover() error {
	nums, err := l.readIndex()
	if err != nil {
		return err
	}
	l.files.nums = nums
	var st state
	if v, found, err := l.kv.Get(stateKey()); err != nil {
		return fmt.Errorf("binlog state: %w", err)
	} else if found {
		if st, err = decodeState(v); err != nil {
			return err
		}
	}
	recs, err := l.readRecords()
	if err != nil {
		return err
	}
	gno := st.gno
	file, pos := st.file, st.pos
	// seq is the logical clock's last sequence_number in the current file:
	// it goes on across restarts (a file's numbers never repeat).
	seq := int64(-1)
	if len(nums) == 0 && (len(recs) > 0 || st.gno > 0) {
		// The store logged transactions, but no binlog file is here: a
		// data directory restored from a backup (the files are not part
		// of it). Its records cannot complete files that are gone: drop
		// them and start a new file after the last one, numbering GTIDs
		// on (never reusing one); earlier ones read as purged.
		for _, r := range recs {
			gno, file = max(gno, r.gno), max(file, r.file)
		}
		if err := l.dropRecords(); err != nil {
			return err
		}
		recs = nil
		file, pos, seq = file+1, 0, 0
	}
	if len(recs) == 0 && len(nums) > 0 {
		// Everything is in the files: continue the last one.
		last := nums[len(nums)-1]
		fi, err := os.Stat(l.filePath(last))
		if err != nil {
			return fmt.Errorf("binlog: %w", err)
		}
		if last == st.file {
			seq = st.seq
		} else if st.file != 0 {
			seq = 0 // rotated after the last trim: a fresh file
		}
		file, pos = last, uint64(fi.Size())
		if gno == 0 || seq < 0 {
			g, sq, err := l.lastGTID(file)
			if err != nil {
				return err
			}
			if gno == 0 {
				gno = g
			}
			seq = sq
		}
	}
	for _, r := range recs {
		if err := l.replay(r); err != nil {
			return err
		}
		gno = r.gno
		file, pos = r.file, r.pos+uint64(len(r.data))
		seq = recordSeq(r.data)
		if r.flags&recRotated != 0 {
			file, pos = file+1, l.headerLen(gno)
			seq = 0
		}
	}
	if seq < 0 {
		seq = 0
	}
	if file == 0 {
		file = 1
	}
	l.files.Lock()
	defer l.files.Unlock()
	pos, err = l.openForAppendLocked(file, pos, gno)
	if err != nil {
		return err
	}
	l.files.written = gno
	l.files.end = pos
	l.mu.gno, l.mu.file, l.mu.pos, l.mu.seq = gno, file, pos, seq
	l.files.lastSeq = seq
	if len(recs) > 0 {
		return l.trimLocked()
	}
	return nil
}

// dropRecords deletes every record and the state (durably).
func (l *Log) dropRecords() error {
	b := l.kv.NewBatch()
	defer b.Close()
	if err := b.DeleteRange(recordKey(0), append(recordKey(0)[:5:5], 'S'+1)); err != nil {
		return err
	}
	if err := b.Commit(true); err != nil {
		return fmt.Errorf("binlog: drop records: %w", err)
	}
	return nil
}

// openForAppendLocked opens file n for appending at pos, creating it
// (with its header) when missing and cutting a longer tail. It returns the
// position of the next event.
func (l *Log) openForAppendLocked(n uint32, pos, prev uint64) (uint64, error) {
	fi, err := os.Stat(l.filePath(n))
	if hl := l.headerLen(prev); os.IsNotExist(err) || (err == nil && fi.Size() < int64(hl) && pos <= hl) {
		return hl, l.createFileLocked(n, prev, uint32(time.Now().Unix()))
	}
	if err != nil {
		return 0, fmt.Errorf("binlog: %w", err)
	}
	f, err := os.OpenFile(l.filePath(n), os.O_RDWR, 0)
	if err != nil {
		return 0, fmt.Errorf("binlog: %w", err)
	}
	if uint64(fi.Size()) < pos {
		f.Close()
		return 0, fmt.Errorf("binlog: %s is %d bytes, its records end at %d", l.fileName(n), fi.Size(), pos)
	}
	if uint64(fi.Size()) > pos {
		if err := f.Truncate(int64(pos)); err != nil {
			f.Close()
			return 0, fmt.Errorf("binlog truncate: %w", err)
		}
	}
	if _, err := f.Seek(int64(pos), io.SeekStart); err != nil {
		f.Close()
		return 0, fmt.Errorf("binlog: %w", err)
	}
	if l.files.f != nil {
		l.files.f.Close()
	}
	l.files.f, l.files.num = f, n
	listed := false
	for _, m := range l.files.nums {
		listed = listed || m == n
	}
	if !listed {
		l.files.nums = append(l.files.nums, n)
		return pos, l.writeIndexLocked()
	}
	return pos, nil
}

// readRecords returns the records in the store, in order.
func (l *Log) readRecords() ([]record, error) {
	it, err := l.kv.NewIter(kv.IterOptions{Lower: recordKey(0), Upper: append(recordKey(0)[:5:5], 'S')})
	if err != nil {
		return nil, fmt.Errorf("binlog records: %w", err)
	}
	defer it.Close()
	var recs []record
	for ok := it.First(); ok; ok = it.Next() {
		v, _ := it.Value()
		r, err := decodeRecord(it.Key(), v)
		if err != nil {
			return nil, err
		}
		recs = append(recs, r)
	}
	if err := it.Error(); err != nil {
		return nil, fmt.Errorf("binlog records: %w", err)
	}
	return recs, nil
}

// replay makes sure record r's bytes are in its file.
func (l *Log) replay(r record) error {
	l.files.Lock()
	defer l.files.Unlock()
	if err := l.openForAppendIfNeededLocked(r); err != nil {
		return err
	}
	fi, err := l.files.f.Stat()
	if err != nil {
		return fmt.Errorf("binlog: %w", err)
	}
	end := r.pos + uint64(len(r.data))
	if uint64(fi.Size()) >= end {
		have := make([]byte, len(r.data))
		if _, err := l.files.f.ReadAt(have, int64(r.pos)); err != nil {
			return fmt.Errorf("binlog: %w", err)
		}
		if bytes.Equal(have, r.data) {
			return nil
		}
	}
	if err := l.files.f.Truncate(int64(r.pos)); err != nil {
		return fmt.Errorf("binlog truncate: %w", err)
	}
	if _, err := l.files.f.WriteAt(r.data, int64(r.pos)); err != nil {
		return fmt.Errorf("binlog write: %w", err)
	}
	if r.flags&recRotated != 0 {
		if err := l.files.f.Sync(); err != nil {
			return fmt.Errorf("binlog sync: %w", err)
		}
	}
	return nil
}

// openForAppendIfNeededLocked opens r's file, creating it when r starts
// right after a header (the file the previous record rotated to).
func (l *Log) openForAppendIfNeededLocked(r record) error {
	if l.files.f != nil && l.files.num == r.file {
		return nil
	}
	prev := r.gno - 1
	if _, err := os.Stat(l.filePath(r.file)); os.IsNotExist(err) {
		if r.pos != l.headerLen(prev) {
			return fmt.Errorf("binlog: %s is missing", l.fileName(r.file))
		}
		return l.createFileLocked(r.file, prev, uint32(time.Now().Unix()))
	}
	f, err := os.OpenFile(l.filePath(r.file), os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("binlog: %w", err)
	}
	if l.files.f != nil {
		l.files.f.Close()
	}
	l.files.f, l.files.num = f, r.file
	for _, m := range l.files.nums {
		if m == r.file {
			return nil
		}
	}
	// Created before a crash that came before its index entry.
	l.files.nums = append(l.files.nums, r.file)
	return l.writeIndexLocked()
}

// lastGTID reads the GTID number of the last transaction logged up to the
// end of file n (its PREVIOUS_GTIDS plus the GTID events in it) and the
// last sequence_number in the file.
func (l *Log) lastGTID(n uint32) (uint64, int64, error) {
	var last uint64
	var seq int64
	err := l.scanFile(l.filePath(n), 4, func(ev Event) bool {
		switch ev.Type {
		case eventPrevGTIDs:
			last = prevGTIDsEnd(ev.Body, l.uuid)
		case eventGTID:
			if len(ev.Body) >= gtidSeqOffset-headerLen+8 {
				last = leUint64(ev.Body[17:])
				seq = int64(leUint64(ev.Body[gtidSeqOffset-headerLen:]))
			}
		}
		return true
	})
	return last, seq, err
}

// ServerID returns @@server_id as the log writes it.
func (l *Log) ServerID() uint32 { return l.serverID.Load() }

// SetServerID changes @@server_id for later events.
func (l *Log) SetServerID(id uint32) { l.serverID.Store(id) }

// SetMaxSize changes max_binlog_size.
func (l *Log) SetMaxSize(n int64) { l.maxSize.Store(n) }

// SetExpireSeconds changes binlog_expire_logs_seconds.
func (l *Log) SetExpireSeconds(n int64) { l.expire.Store(n) }

// UUID returns the server UUID.
func (l *Log) UUID() string { return FormatUUID(l.uuid) }

// Basename returns the files' base name.
func (l *Log) Basename() string { return l.opts.Basename }

// Dir returns the directory of the files.
func (l *Log) Dir() string { return l.opts.Dir }

// Status is SHOW BINARY LOG STATUS: the current file, the position after
// the last transaction, and @@gtid_executed.
func (l *Log) Status() (file string, pos uint64, executed string) {
	l.mu.Lock()
	f, p, g := l.mu.file, l.mu.pos, l.mu.gno
	l.mu.Unlock()
	return l.fileName(f), p, gtidSet(l.UUID(), 1, g)
}

// GTIDExecuted returns @@gtid_executed.
func (l *Log) GTIDExecuted() string {
	l.mu.Lock()
	g := l.mu.gno
	l.mu.Unlock()
	return gtidSet(l.UUID(), 1, g)
}

// GTIDPurged returns @@gtid_purged: the transactions before the oldest
// file.
func (l *Log) GTIDPurged() string {
	l.files.Lock()
	first := l.files.nums[0]
	l.files.Unlock()
	var prev uint64
	_ = l.scanFile(l.filePath(first), 4, func(ev Event) bool {
		if ev.Type == eventPrevGTIDs {
			prev = prevGTIDsEnd(ev.Body, l.uuid)
			return false
		}
		return true
	})
	return gtidSet(l.UUID(), 1, prev)
}

// gtidSet formats uuid:from-to ("" when empty).
func gtidSet(uuid string, from, to uint64) string {
	switch {
	case to < from:
		return ""
	case to == from:
		return fmt.Sprintf("%s:%d", uuid, from)
	}
	return fmt.Sprintf("%s:%d-%d", uuid, from, to)
}

// Close writes what is pending, fsyncs the file and trims the records.
func (l *Log) Close() error {
	l.files.Lock()
	defer l.files.Unlock()
	var err error
	if l.files.f != nil && l.files.broken == nil {
		err = l.trimLocked()
	}
	l.closeFileLocked()
	return err
}

func (l *Log) closeFile() {
	l.files.Lock()
	defer l.files.Unlock()
	l.closeFileLocked()
}

func (l *Log) closeFileLocked() {
	if l.files.f != nil {
		l.files.f.Close()
		l.files.f = nil
	}
}

// Hold runs f while no transaction can enter the log (under the
// commit-order lock, which each logged commit holds while its batch is
// applied) and returns the log's position and GTID set at that moment:
// every logged transaction before the position is in the store f sees,
// none after it. Backups make their checkpoint in f (backup.Options's
// BinlogPosition). Commits that log nothing are not held up.
func (l *Log) Hold(f func() error) (file string, pos uint64, executed string, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := f(); err != nil {
		return "", 0, "", err
	}
	return l.fileName(l.mu.file), l.mu.pos, gtidSet(l.UUID(), 1, l.mu.gno), nil
}

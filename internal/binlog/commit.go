package binlog

import (
	"fmt"
	"time"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/kv"
)

// NewChanges returns an empty collector for one transaction.
func (l *Log) NewChanges() *Changes {
	if c, ok := l.pool.Get().(*Changes); ok {
		return c
	}
	return &Changes{log: l}
}

// Release gives a finished transaction's collector back for reuse.
func (l *Log) Release(c *Changes) {
	if c == nil || cap(c.images) > 1<<20 {
		return
	}
	c.reset()
	c.out = c.out[:0]
	l.pool.Put(c)
}

// tableInfo returns def's binlog description, built on first use.
func (l *Log) tableInfo(def *catalog.Table) (*tableInfo, error) {
	l.tables.Lock()
	defer l.tables.Unlock()
	if ti := l.tables.m[def]; ti != nil {
		return ti, nil
	}
	l.tables.next++
	ti, err := newTableInfo(def, l.tables.next)
	if err != nil {
		return nil, err
	}
	if len(l.tables.m) > 4096 {
		clear(l.tables.m) // definitions replaced by DDL; ids stay unique
	}
	l.tables.m[def] = ti
	return ti, nil
}

// Statement is a DDL statement to log as its own transaction.
type Statement struct {
	DB       string
	Query    string
	ThreadID uint32
	// SQLMode is the session's sql_mode as MySQL's bits (SQLModeBits).
	SQLMode uint64
	// Charsets are the collation ids of character_set_client,
	// collation_connection and collation_server; zero: 255
	// (utf8mb4_0900_ai_ci) for each.
	Charsets [3]uint16
}

func (s *Statement) charsets() *[3]uint16 {
	cs := s.Charsets
	for i := range cs {
		if cs[i] == 0 {
			cs[i] = 255
		}
	}
	return &cs
}

// Commit adds the transaction's binlog record to b and applies b with
// apply, both under the commit-order lock. c holds row changes (nil or
// empty for a statement); stmt a DDL statement (nil for row changes).
// After apply returned, and the caller's WAL fsync, the caller must call
// Publish with the returned ticket (0: nothing was logged).
func (l *Log) Commit(b *kv.Batch, c *Changes, stmt *Statement, apply func(*kv.Batch) error) (uint64, error) {
	if stmt == nil && (c == nil || c.Empty()) {
		return 0, apply(b)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.isBroken() {
		return 0, ErrBroken
	}
	gno := l.mu.gno + 1
	now := time.Now()
	if c == nil {
		c = l.NewChanges()
		defer l.Release(c)
	}
	c.out = appendRecordHeader(c.out[:0], l.mu.file, l.mu.pos, 0)
	e := encoder{buf: c.out[recHdrLen:], pos: l.mu.pos, serverID: l.ServerID(), ts: uint32(now.Unix())}
	l.mu.seq++
	// The GTID event's size depends on the transaction's length, which
	// includes it: encode the rest first at its final position.
	bodyLen := c.bodyLen(stmt)
	g := gtidEventLen(uint64(bodyLen))
	for {
		g2 := gtidEventLen(uint64(bodyLen) + g)
		if g2 == g {
			break
		}
		g = g2
	}
	txLen := uint64(bodyLen) + g
	e.gtid(l.uuid, gno, l.mu.seq, uint64(now.UnixMicro()), txLen, stmt != nil)
	if stmt != nil {
		e.query(stmt.ThreadID, stmt.DB, stmt.Query, stmt.SQLMode, stmt.charsets(), true)
	} else {
		e.query(0, "", "BEGIN", 0, nil, false)
		if err := c.encodeRows(&e); err != nil {
			l.mu.seq--
			return 0, err
		}
		e.xid(gno)
	}
	var flags byte
	next := l.mu.pos + uint64(len(e.buf))
	if int64(next) >= l.maxSize.Load() {
		e.rotate(l.fileName(l.mu.file + 1))
		flags = recRotated
	}
	c.out = append(c.out[:recHdrLen], e.buf...)
	c.out[recHdrLen-1] = flags
	var kb [13]byte
	if err := b.Set(appendRecordKey(kb[:0], gno), c.out); err != nil {
		return 0, fmt.Errorf("binlog record: %w", err)
	}
	if err := apply(b); err != nil {
		// Whether the batch is in the store is unknown: stop logging
		// rather than reuse its GTID or position.
		l.setBroken(err)
		return 0, err
	}
	rec := &pendingRec{file: l.mu.file, pos: l.mu.pos, flags: flags, data: append([]byte(nil), e.buf...), prev: gno - 1}
	l.mu.gno = gno
	if flags&recRotated != 0 {
		l.mu.file++
		l.mu.pos = l.headerLen(gno)
		l.mu.seq = 0
	} else {
		l.mu.pos = next
	}
	l.files.Lock()
	l.files.pending[gno] = rec
	l.files.Unlock()
	return gno, nil
}

// Publish writes the records up to ticket into the files once they are
// durable (the caller's WAL fsync returned), in order, and returns when
// ticket's is written. A failed file write is not a failed commit (the
// record is durable in the store, and the next start writes it): it is
// reported, and later commits are refused.
func (l *Log) Publish(ticket uint64) error {
	if ticket == 0 {
		return nil
	}
	l.files.Lock()
	defer l.files.Unlock()
	l.files.pending[ticket].flags |= 0x80 // durable
	for l.files.written < ticket && l.files.broken == nil && !l.isBroken() {
		next := l.files.pending[l.files.written+1]
		if next == nil || next.flags&0x80 == 0 {
			l.files.cond.Wait()
			continue
		}
		if err := l.writeLocked(l.files.written+1, next); err != nil {
			l.files.broken = err
			l.broken.Store(&err)
			break
		}
		delete(l.files.pending, l.files.written+1)
		l.files.written++
		l.files.cond.Broadcast()
	}
	if l.files.broken == nil && l.isBroken() && l.files.written < ticket {
		return ErrBroken
	}
	return l.files.broken
}

func (l *Log) isBroken() bool { return l.broken.Load() != nil }

// setBroken stops the log after a failed commit (called under mu).
func (l *Log) setBroken(err error) {
	l.broken.Store(&err)
	l.files.Lock()
	l.files.cond.Broadcast()
	l.files.Unlock()
}

// writeLocked appends one record's bytes to its file.
func (l *Log) writeLocked(gno uint64, r *pendingRec) error {
	if l.files.num != r.file {
		return fmt.Errorf("binlog: record %d belongs in file %d, not %d", gno, r.file, l.files.num)
	}
	if _, err := l.files.f.WriteAt(r.data, int64(r.pos)); err != nil {
		return fmt.Errorf("binlog write: %w", err)
	}
	l.files.untrimmed += len(r.data)
	l.files.end = r.pos + uint64(len(r.data))
	l.files.lastSeq = recordSeq(r.data)
	defer l.notifyLocked()
	if r.flags&recRotated != 0 {
		if err := l.trimThrough(gno); err != nil {
			return err
		}
		if err := l.createFileLocked(r.file+1, gno, uint32(time.Now().Unix())); err != nil {
			return err
		}
		if e := l.expire.Load(); e > 0 {
			if err := l.purgeLocked(expiredBefore(time.Now().Unix() - e)); err != nil {
				return err
			}
		}
		return nil
	}
	if l.files.untrimmed >= trimBytes {
		return l.trimThrough(gno)
	}
	return nil
}

// trimLocked fsyncs the file and deletes the records written to it.
func (l *Log) trimLocked() error { return l.trimThrough(l.files.written) }

// trimThrough fsyncs the current file and deletes the records up to gno
// from the store, keeping the position after gno in the state key.
func (l *Log) trimThrough(gno uint64) error {
	if err := l.files.f.Sync(); err != nil {
		return fmt.Errorf("binlog sync: %w", err)
	}
	fi, err := l.files.f.Stat()
	if err != nil {
		return fmt.Errorf("binlog: %w", err)
	}
	b := l.kv.NewBatch()
	defer b.Close()
	if err := b.DeleteRange(recordKey(0), recordKey(gno+1)); err != nil {
		return err
	}
	st := state{gno: gno, file: l.files.num, pos: uint64(fi.Size()), seq: l.files.lastSeq}
	if err := b.Set(stateKey(), st.encode()); err != nil {
		return err
	}
	if err := b.Commit(false); err != nil {
		return fmt.Errorf("binlog trim: %w", err)
	}
	l.files.untrimmed = 0
	return nil
}

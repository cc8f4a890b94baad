package sql

import (
	"bufio"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/sysvar"
)

// The slow query log: MySQL's slow_query_log, slow_query_log_file and
// long_query_time (SET GLOBAL, or the server's --slow-query-log flags). A
// statement that ran longer than the session's long_query_time is written
// to the file in MySQL's format, so mysqldumpslow and pt-query-digest read
// it:
//
//	# Time: 2026-11-25T01:45:00.123456Z
//	# User@Host: root[root] @ localhost []  Id:     8
//	# Query_time: 2.000219  Lock_time: 0.000000 Rows_sent: 1  Rows_examined: 0
//	use shop;
//	SET timestamp=1795571100;
//	SELECT SLEEP(2);
//
// Rows_examined counts the statement's table and index reads (its
// Handler_read_* counters); Lock_time is always 0: strata does not measure
// lock waits per statement. A statement pays for the log only while it is
// on: the check (slowLog.on, at a statement's start and end) is three
// atomic loads — the globals' version, the version the settings were read
// at, the switch —, no lock and no allocation; the file is written under
// a mutex.

// slowLog is the engine's slow query log.
type slowLog struct {
	// loaded is the sysvar.Globals version the settings were read at,
	// plus one (0: never read).
	loaded  atomic.Uint64
	enabled atomic.Bool

	mu struct {
		sync.Mutex
		path   string
		f      *os.File
		w      *bufio.Writer
		lastDB string
	}
}

// on reports whether the log is on, first re-reading the settings when a
// global variable changed since they were read.
func (l *slowLog) on(g *sysvar.Globals) bool {
	if v := g.Version() + 1; l.loaded.Load() != v {
		l.reload(g, v)
	}
	return l.enabled.Load()
}

// reload reads slow_query_log and slow_query_log_file and opens or closes
// the file to match.
func (l *slowLog) reload(g *sysvar.Globals, version uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.loaded.Load() == version {
		return
	}
	v, _ := g.Get("slow_query_log")
	on, _ := v.ToInt64()
	pv, _ := g.Get("slow_query_log_file")
	path := pv.ToString()
	if on == 0 || path != l.mu.path {
		l.closeLocked()
	}
	if on != 0 && l.mu.f == nil && path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o640)
		if err != nil {
			slog.Error("cannot open the slow query log; it stays off", "slow_query_log_file", path, "err", err)
		} else {
			l.mu.path, l.mu.f, l.mu.w = path, f, bufio.NewWriter(f)
			fmt.Fprintf(l.mu.w, "strata, Version: %s. started with:\nTcp port: 0  Unix socket: \nTime                 Id Command    Argument\n", ServerVersion)
			_ = l.mu.w.Flush()
		}
	}
	l.enabled.Store(l.mu.f != nil)
	l.loaded.Store(version)
}

// closeLocked closes the file; l.mu is held.
func (l *slowLog) closeLocked() {
	if l.mu.f == nil {
		return
	}
	_ = l.mu.w.Flush()
	_ = l.mu.f.Close()
	l.mu.f, l.mu.w, l.mu.path, l.mu.lastDB = nil, nil, "", ""
}

// close closes the log (Engine.Close).
func (l *slowLog) close() {
	l.mu.Lock()
	l.closeLocked()
	l.enabled.Store(false)
	l.loaded.Store(0)
	l.mu.Unlock()
}

// slowStart notes what the slow log needs of a statement at its start
// (the rows read so far); nothing while the log is off.
func (s *Session) slowStart() {
	if s.eng.slow.on(s.eng.Globals) {
		s.slowExamined = s.handler.load().total()
	}
}

// slowEnd logs the statement sql, which returned res, when it ran longer
// than long_query_time; nothing while the log is off.
func (s *Session) slowEnd(sql string, res *sqltypes.Result) {
	if !s.eng.slow.on(s.eng.Globals) {
		return
	}
	now := time.Now()
	took := now.Sub(s.current.start)
	lqt, _ := s.sysVar("long_query_time")
	limit, _ := strconv.ParseFloat(lqt.ToString(), 64)
	if took.Seconds() <= limit {
		return
	}
	sent := s.out.rows
	if res != nil {
		sent += uint64(len(res.Rows))
	}
	examined := s.handler.load().total() - s.slowExamined
	s.eng.slow.write(s, now, took, sent, examined, sql)
}

// write appends one entry.
func (l *slowLog) write(s *Session, now time.Time, took time.Duration, sent, examined uint64, sql string) {
	id := s.shownIdentity()
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.mu.w
	if w == nil {
		return
	}
	fmt.Fprintf(w, "# Time: %s\n", now.UTC().Format("2006-01-02T15:04:05.000000Z"))
	fmt.Fprintf(w, "# User@Host: %s[%s] @ %s []  Id: %5d\n", id.user, id.user, id.host, s.ConnID)
	fmt.Fprintf(w, "# Query_time: %.6f  Lock_time: 0.000000 Rows_sent: %d  Rows_examined: %d\n", took.Seconds(), sent, examined)
	if s.DB != "" && s.DB != l.mu.lastDB {
		fmt.Fprintf(w, "use %s;\n", s.DB)
		l.mu.lastDB = s.DB
	}
	fmt.Fprintf(w, "SET timestamp=%d;\n", s.current.start.Unix())
	sql = strings.TrimSpace(sql)
	w.WriteString(sql)
	if !strings.HasSuffix(sql, ";") {
		w.WriteByte(';')
	}
	w.WriteByte('\n')
	if err := w.Flush(); err != nil {
		slog.Error("cannot write the slow query log", "slow_query_log_file", l.mu.path, "err", err)
	}
}

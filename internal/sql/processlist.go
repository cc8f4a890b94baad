package sql

import (
	"sort"
	"sync/atomic"
	"time"

	"github.com/strata-db/strata/internal/sql/vtable"
)

// What PROCESSLIST shows of the other sessions. A session publishes the
// statement it runs (its text and start) when the statement begins and
// clears it when it ends, and its current database when it changes, in
// atomics: SHOW PROCESSLIST and information_schema.PROCESSLIST run on
// other sessions' goroutines and read only those, never the session's own
// fields.

// runningStmt is a statement as PROCESSLIST shows it: its text (fixed)
// and the UnixNano time its latest execution started.
type runningStmt struct {
	text  string
	start atomic.Int64
}

// publishStatement marks sql as the session's running statement. A text
// run again (a prepared statement) reuses its record: no allocation.
func (s *Session) publishStatement(sql string) {
	r := s.lastStmt
	if r == nil || r.text != sql {
		r = &runningStmt{text: sql}
		s.lastStmt = r
	}
	r.start.Store(time.Now().UnixNano())
	s.current.Store(r)
}

// setDB changes the current database (USE, DROP DATABASE of it).
func (s *Session) setDB(db string) {
	s.DB = db
	s.shownDB.Store(&db)
}

// thread describes the session for PROCESSLIST at time now.
func (s *Session) thread(now time.Time) vtable.Thread {
	t := vtable.Thread{Conn: vtable.Conn{ID: s.ConnID, User: s.User, Host: s.Host}, Command: "Sleep"}
	if db := s.shownDB.Load(); db != nil {
		t.DB = *db
	}
	if r := s.current.Load(); r != nil {
		t.Command, t.Info = "Query", r.text
		t.Time = int64(now.Sub(time.Unix(0, r.start.Load())) / time.Second)
	} else {
		t.Time = int64(now.Sub(time.Unix(0, s.lastActive.Load())) / time.Second)
	}
	if t.Time < 0 {
		t.Time = 0
	}
	return t
}

// threads lists the sessions s may see, by id.
func (s *Session) threads() []vtable.Thread {
	now := time.Now()
	var out []vtable.Thread
	for _, o := range s.eng.Sessions() {
		if s.canSeeThread(o) {
			out = append(out, o.thread(now))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

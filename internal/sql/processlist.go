package sql

import (
	"sort"
	"sync"
	"time"

	"github.com/strata-db/strata/internal/sql/vtable"
)

// What PROCESSLIST shows of the other sessions. A session publishes the
// statement it runs (its text and start) when the statement begins and
// clears it when it ends (under a mutex of its own), and its current
// database when it changes (an atomic): SHOW PROCESSLIST and
// information_schema.PROCESSLIST run on other sessions' goroutines and
// read only those, never the session's own fields.

// runningStmt is what PROCESSLIST shows of a session's statement: its
// text and when it started, guarded by mu (a string is stored, never
// copied: no allocation per statement).
type runningStmt struct {
	mu      sync.Mutex
	running bool
	text    string
	start   time.Time
}

// publishStatement marks sql as the session's running statement.
func (s *Session) publishStatement(sql string) {
	now := time.Now()
	s.current.mu.Lock()
	s.current.running, s.current.text, s.current.start = true, sql, now
	s.current.mu.Unlock()
}

// unpublishStatement marks the session idle.
func (s *Session) unpublishStatement() {
	s.current.mu.Lock()
	s.current.running, s.current.text = false, ""
	s.current.mu.Unlock()
}

// setDB changes the current database (USE, DROP DATABASE of it).
func (s *Session) setDB(db string) {
	s.DB = db
	s.shownDB.Store(&db)
}

// thread describes the session for PROCESSLIST at time now.
func (s *Session) thread(now time.Time) vtable.Thread {
	id := s.shownIdentity()
	t := vtable.Thread{Conn: vtable.Conn{ID: s.ConnID, User: id.user, Host: id.host}, Command: "Sleep"}
	if db := s.shownDB.Load(); db != nil {
		t.DB = *db
	}
	s.current.mu.Lock()
	running, text, start := s.current.running, s.current.text, s.current.start
	s.current.mu.Unlock()
	if running {
		t.Command, t.Info = "Query", text
		if p := s.load.progress.Load(); p != nil {
			t.State = p.state()
		} else if st := s.stage.Load(); st != nil {
			t.State = *st
		}
		t.Time = int64(now.Sub(start) / time.Second)
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

// setStage sets the PROCESSLIST state of the running statement (an online
// index build's stages); the statement's end clears it.
func (s *Session) setStage(state string) { s.stage.Store(&state) }

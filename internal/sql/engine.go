package sql

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"vitess.io/vitess/go/vt/sqlparser"
	"vitess.io/vitess/go/vt/vtenv"

	"github.com/strata-db/strata/internal/backup"
	"github.com/strata-db/strata/internal/binlog"
	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/sysvar"
	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/txn"
)

// ServerVersion is the version strata reports (MySQL 8.0 compatible).
const ServerVersion = sysvar.ServerVersion

// Engine is the SQL engine shared by all sessions.
type Engine struct {
	Cat    *catalog.Catalog
	Store  *table.Store
	DB     *txn.DB
	Env    *vtenv.Environment
	Parser *sqlparser.Parser

	// Globals holds global system variables.
	Globals *sysvar.Globals

	// Binlog is the binary log, nil when off (binlog.go).
	Binlog *binlog.Log

	// StartTime is when the engine started (Uptime).
	StartTime time.Time

	nextConnID atomic.Uint32
	// sqlPrepared counts the SQL-level prepared statements of all
	// sessions (max_prepared_stmt_count; prepare_sql.go).
	sqlPrepared atomic.Int64

	sessMu   sync.Mutex
	sessions map[uint32]*Session

	// settings interns the planSettings sessions compile under
	// (internSettings).
	settingsMu sync.Mutex
	settings   map[planSettings]*planSettings
	// plans is the plan cache all sessions share (plancache.go).
	plans planCache
	// fks is the foreign keys of the current catalog version (fk.go).
	fks fkCache
	// trgs is the compiled triggers of the current catalog version
	// (trigger_exec.go).
	trgs trgCache
	// sp is the compiled stored routines (routine_compile.go).
	sp spCache
	// normRejects remembers normalised keys whose statements may not bind
	// their constants as parameters; noNormalize turns normalisation off
	// (tests compare with it).
	normRejects normRejects
	noNormalize atomic.Bool
	// normalized counts the statements run through a literal-normalised
	// key (Strata_plan_cache_normalized).
	normalized atomic.Uint64
	// bulkLoads and bulkLoadRows count the loads that took the bulk path
	// and the rows they ingested (Strata_bulk_loads, _rows).
	bulkLoads, bulkLoadRows atomic.Uint64
	// com counts the server's statements (Com_xxx, Questions).
	com comCounts
	// connected is the number of open connections (Threads_connected),
	// connections the number opened since the start (Connections) and
	// maxConnected the most open at once (Max_used_connections).
	connected, connections, maxConnected atomic.Int64
	// handlerDone holds the Handler_read_* counts of closed sessions and
	// of FLUSH STATUS (open sessions keep their own).
	handlerDone handlerStatus
	// sortsDone holds Sort_merge_passes of closed and flushed sessions.
	sortsDone sortStatus

	// TmpDir holds temporary files: the runs of sorts that outgrow
	// sort_buffer_size (empty: os.TempDir(); see UseTmpDir).
	TmpDir string
	// BulkLoadMemory bounds the sort of a bulk load (load_bulk.go) and of
	// an online index build; 0 means loadBulkMemory.
	BulkLoadMemory int

	// BackupOptions configure CLONE LOCAL DATA DIRECTORY (clone.go): the
	// version recorded in a backup's manifest and the binary log's hook
	// (backup.Options.BinlogPosition).
	BackupOptions backup.Options
	// slow is the slow query log (slowlog.go).
	slow slowLog

	// Replica answers the replication statements (internal/replica; nil:
	// they answer 1235).
	Replica ReplicaControl
	// BinlogStatements applies BINLOG statements' events (internal/replica;
	// nil: they answer 1235).
	BinlogStatements BinlogStatementApplier

	// autoAnalyze is the background statistics refresh (nil until
	// StartBackground).
	autoAnalyze *table.AutoAnalyzer
}

// StartBackground starts the engine's background work: the automatic
// statistics refresh (innodb_stats_auto_recalc). Close stops it.
func (e *Engine) StartBackground() {
	if e.autoAnalyze == nil {
		e.autoAnalyze = e.startAutoAnalyze()
	}
}

// Close stops the background work; call it before closing the store.
func (e *Engine) Close() {
	e.slow.close()
	if e.autoAnalyze != nil {
		e.autoAnalyze.Stop()
		e.autoAnalyze = nil
	}
}

// Connected adjusts the count of open connections: +1 when a session
// opens, -1 when it closes.
func (e *Engine) Connected(delta int64) {
	n := e.connected.Add(delta)
	if delta <= 0 {
		return
	}
	e.connections.Add(delta)
	for {
		m := e.maxConnected.Load()
		if n <= m || e.maxConnected.CompareAndSwap(m, n) {
			return
		}
	}
}

// running is the number of sessions executing a statement
// (Threads_running).
func (e *Engine) running() int {
	n := 0
	for _, s := range e.Sessions() {
		if s.busy.Load() {
			n++
		}
	}
	return n
}

// NewEngine builds an engine over an open store and catalog.
func NewEngine(db *txn.DB, cat *catalog.Catalog) (*Engine, error) {
	env, err := vtenv.New(vtenv.Options{MySQLServerVersion: ServerVersion})
	if err != nil {
		return nil, fmt.Errorf("vitess environment: %w", err)
	}
	e := &Engine{
		Cat:       cat,
		Store:     table.NewStore(db),
		DB:        db,
		Env:       env,
		Parser:    env.Parser(),
		StartTime: time.Now(),
	}
	e.Globals = sysvar.NewGlobals()
	return e, nil
}

// register makes a session visible to KILL and SHOW PROCESSLIST. A
// provisional registration (NewSession's own id, replaced by the protocol
// layer's through SetConnID) never displaces another session: the two id
// spaces overlap, and displacing would hide a live connection from KILL.
func (e *Engine) register(s *Session, provisional bool) {
	e.sessMu.Lock()
	if e.sessions == nil {
		e.sessions = map[uint32]*Session{}
	}
	if old := e.sessions[s.ConnID]; !provisional || old == nil {
		e.sessions[s.ConnID] = s
	}
	e.sessMu.Unlock()
}

func (e *Engine) unregister(s *Session) {
	e.sessMu.Lock()
	if e.sessions[s.ConnID] == s {
		delete(e.sessions, s.ConnID)
	}
	e.sessMu.Unlock()
}

// session returns the session with the given connection id.
func (e *Engine) session(id uint32) *Session {
	e.sessMu.Lock()
	defer e.sessMu.Unlock()
	return e.sessions[id]
}

// Sessions returns the open sessions (for SHOW PROCESSLIST).
func (e *Engine) Sessions() []*Session {
	e.sessMu.Lock()
	defer e.sessMu.Unlock()
	out := make([]*Session, 0, len(e.sessions))
	for _, s := range e.sessions {
		out = append(out, s)
	}
	return out
}

// statementContext derives the context of one statement: cancellable by
// KILL QUERY, and bounded by max_execution_time for SELECT.
func (s *Session) statementContext(parent context.Context, sql string) (context.Context, context.CancelFunc) {
	isSelect := looksLikeSelect(sql)
	s.busy.Store(true)
	s.publishStatement(sql)
	ctx, cancel := context.WithCancel(parent)
	if isSelect {
		if v, ok := s.sysVar("max_execution_time"); ok {
			if ms, err := v.ToInt64(); err == nil && ms > 0 {
				var c2 context.CancelFunc
				ctx, c2 = context.WithTimeout(ctx, time.Duration(ms)*time.Millisecond)
				inner := cancel
				cancel = func() { c2(); inner() }
			}
		}
	}
	s.killMu.Lock()
	s.cancel = cancel
	s.killMu.Unlock()
	return ctx, cancel
}

func (s *Session) endStatementContext(cancel context.CancelFunc) {
	s.lastActive.Store(time.Now().UnixNano())
	s.unpublishStatement()
	s.busy.Store(false)
	s.killMu.Lock()
	s.cancel = nil
	s.killMu.Unlock()
	cancel()
}

// Kill cancels the session's running statement; with connection set it
// also closes the connection.
func (s *Session) Kill(connection bool) {
	s.killMu.Lock()
	if s.cancel != nil {
		s.cancel()
	}
	onKill := s.OnKill
	s.killMu.Unlock()
	if connection {
		s.killed.Store(true)
		if onKill != nil {
			onKill()
		}
	}
}

// MaxConnections returns the max_connections global (0 = unlimited).
func (e *Engine) MaxConnections() int64 {
	v, _ := e.Globals.Get("max_connections")
	n, _ := v.ToInt64()
	return n
}

// MaxAllowedPacket returns the max_allowed_packet global.
func (e *Engine) MaxAllowedPacket() int64 {
	v, _ := e.Globals.Get("max_allowed_packet")
	n, _ := v.ToInt64()
	return n
}

// ConnectedCount returns the number of open connections.
func (e *Engine) ConnectedCount() int64 { return e.connected.Load() }

// ReapIdle closes connections idle for longer than their wait_timeout.
// The server calls it periodically.
func (e *Engine) ReapIdle(now time.Time) int {
	n := 0
	for _, s := range e.Sessions() {
		if s.busy.Load() {
			continue
		}
		v, ok := s.sysVar("wait_timeout")
		if !ok {
			continue
		}
		secs, err := v.ToInt64()
		if err != nil || secs <= 0 {
			continue
		}
		if now.Sub(time.Unix(0, s.lastActive.Load())) > time.Duration(secs)*time.Second {
			s.Kill(true)
			n++
		}
	}
	return n
}

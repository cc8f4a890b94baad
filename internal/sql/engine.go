package sql

import (
	"fmt"
	"sync/atomic"
	"time"

	"vitess.io/vitess/go/vt/sqlparser"
	"vitess.io/vitess/go/vt/vtenv"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/table"
	"github.com/strata-db/strata/internal/txn"
)

// ServerVersion is the version strata reports (MySQL 8.0 compatible).
const ServerVersion = "8.0.40-strata"

// Engine is the SQL engine shared by all sessions.
type Engine struct {
	Cat    *catalog.Catalog
	Store  *table.Store
	DB     *txn.DB
	Env    *vtenv.Environment
	Parser *sqlparser.Parser

	// Globals holds global system variables.
	Globals *SysVars

	// StartTime is when the engine started (Uptime).
	StartTime time.Time

	nextConnID atomic.Uint32
	// Stats counters.
	Questions atomic.Uint64
	connected atomic.Int64
}

// Connected adjusts the count of open connections.
func (e *Engine) Connected(delta int64) { e.connected.Add(delta) }

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
	e.Globals = newGlobalVars()
	return e, nil
}

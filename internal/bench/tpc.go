package bench

import (
	"database/sql"
	"fmt"
	"time"

	"github.com/strata-db/strata/internal/bench/query"
)

// This file holds what the tpch and tpcc workloads share: an engine with
// a loaded benchmark database.

// tpcEngine is an engine started for the tpch or tpcc workload with a
// connection pool on its benchmark database.
type tpcEngine struct {
	s  *Server
	db *sql.DB
	li int // index of its Load in r.res.Loads, -1 before the load
}

// startTPC starts engine, creates database with schema, runs load
// (measured as the engine's Load), analyzes tables and waits for the
// server to settle. The progress step that is running when it is called
// ends with the load. It returns the engine whenever the server started
// — the caller stops it with stopTPC, also when err is set.
func (r *runner) startTPC(engine, database string, schema, tables []string, conns int, load func(*sql.DB) error) (*tpcEngine, error) {
	defer r.prog.end()
	cfg := r.engineConfig(r.o.CacheBytes)
	cfg.Database = database
	s, _, err := r.startEngine(engine, cfg)
	if err != nil {
		return nil, err
	}
	e := &tpcEngine{s: s, li: -1}
	if e.db, err = sql.Open("mysql", s.LongDSN(database)); err != nil {
		return e, err
	}
	e.db.SetMaxOpenConns(conns)
	e.db.SetMaxIdleConns(conns)
	l := r.measureLoad(s, func() error {
		if err := s.Exec(r.ctx, "CREATE DATABASE "+database); err != nil {
			return err
		}
		if err := query.ExecAll(r.ctx, e.db, schema); err != nil {
			return err
		}
		return load(e.db)
	})
	if l.Error == "" {
		l.SettleSeconds, l.Error = r.analyze(s, e.db, tables)
	}
	e.li = len(r.res.Loads)
	r.res.Loads = append(r.res.Loads, l)
	if l.Error != "" {
		return e, fmt.Errorf("load: %s", l.Error)
	}
	return e, nil
}

// analyze runs ANALYZE TABLE on tables and waits for s to become idle,
// returning the seconds both took (and an error message).
func (r *runner) analyze(s *Server, db *sql.DB, tables []string) (float64, string) {
	start := time.Now()
	for _, t := range tables {
		rows, err := db.QueryContext(r.ctx, "ANALYZE TABLE "+t)
		if err != nil {
			return time.Since(start).Seconds(), fmt.Sprintf("ANALYZE TABLE %s: %v", t, err)
		}
		rows.Close()
	}
	r.settle(s)
	return time.Since(start).Seconds(), ""
}

// stopTPC records e's on-disk size after the run, closes its pool and
// stops it; a failure to stop becomes *errp unless that is already set.
func (r *runner) stopTPC(e *tpcEngine, errp *error) {
	if e.li >= 0 {
		r.res.Loads[e.li].DataDirBytesAfter, _ = DiskUsage(e.s.DataDir, nil)
		r.res.Loads[e.li].TableBytesAfter, _ = DiskUsage(e.s.DataDir, e.s.tableFiles)
	}
	if e.db != nil {
		e.db.Close()
	}
	if err := r.stopServer(e.s); err != nil && *errp == nil {
		*errp = err
	}
}

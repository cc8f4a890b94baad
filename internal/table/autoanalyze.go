package table

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/strata-db/strata/internal/catalog"
)

// Automatic statistics refresh (InnoDB's innodb_stats_auto_recalc).
//
// A background goroutine wakes every Interval and re-analyzes, one table at
// a time, every table that
//
//   - has no statistics yet (never analyzed, e.g. created before this
//     process or by an older version), or
//   - had more than ChangeFraction (10 %) of its analyzed row count
//     inserted, updated or deleted since (the table layer's in-memory
//     modification counter; at least one changed row),
//
// unless it was analyzed by this process less than MinInterval ago. One
// round stops after RoundTime; what is left waits for the next round. The
// analysis reads a snapshot, so it never blocks writers; only its final
// dictionary write waits for a running DDL statement. It reads less than an
// explicit ANALYZE TABLE (AutoAnalyzeMaxRows entries per index,
// AutoAnalyzeSampleRows histogram rows), as InnoDB's automatic recalculation
// samples fewer pages than its persistent statistics: under a write-heavy
// load (TPC-C) the growing tables are due every few seconds, and full
// reads took a tenth of the server's CPU.

// AutoAnalyzeConfig configures the background refresh. Zero fields take
// the defaults.
type AutoAnalyzeConfig struct {
	// Interval between rounds (default 2 s).
	Interval time.Duration
	// MinInterval is the least time between two analyses of one table
	// (default 10 s, InnoDB's MIN_RECALC_INTERVAL).
	MinInterval time.Duration
	// ChangeFraction of the row count that must change (default 0.1).
	ChangeFraction float64
	// RoundTime bounds one round (default 10 s).
	RoundTime time.Duration
	// Enabled is asked at each round (nil: always): the engine maps it to
	// innodb_stats_auto_recalc.
	Enabled func() bool
	// Analyze bounds each analysis (zero MaxRows and SampleRows: the
	// AutoAnalyze defaults below).
	Analyze AnalyzeOptions
	// Logger for failed analyses (nil: slog.Default()).
	Logger *slog.Logger
}

// Bounds of an automatic analysis.
const (
	AutoAnalyzeMaxRows    = 20_000
	AutoAnalyzeSampleRows = 4_000
)

// AutoAnalyzer is the running background refresh.
type AutoAnalyzer struct {
	s      *Store
	cat    *catalog.Catalog
	cfg    AutoAnalyzeConfig
	cancel context.CancelFunc
	done   chan struct{}
	// kick requests a round now (tests).
	kick chan chan struct{}

	mu   sync.Mutex
	runs int64 // tables analyzed, for tests
}

// StartAutoAnalyze starts the background refresh of the statistics of the
// tables of cat. Stop it before closing the store.
func (s *Store) StartAutoAnalyze(cat *catalog.Catalog, cfg AutoAnalyzeConfig) *AutoAnalyzer {
	if cfg.Interval <= 0 {
		cfg.Interval = 2 * time.Second
	}
	if cfg.MinInterval <= 0 {
		cfg.MinInterval = 10 * time.Second
	}
	if cfg.ChangeFraction <= 0 {
		cfg.ChangeFraction = 0.1
	}
	if cfg.RoundTime <= 0 {
		cfg.RoundTime = 10 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Analyze.MaxRows <= 0 {
		cfg.Analyze.MaxRows = AutoAnalyzeMaxRows
	}
	if cfg.Analyze.SampleRows <= 0 {
		cfg.Analyze.SampleRows = AutoAnalyzeSampleRows
	}
	ctx, cancel := context.WithCancel(context.Background())
	a := &AutoAnalyzer{s: s, cat: cat, cfg: cfg, cancel: cancel, done: make(chan struct{}), kick: make(chan chan struct{})}
	go a.loop(ctx)
	return a
}

// Stop ends the refresh, interrupting a running analysis, and waits for it.
func (a *AutoAnalyzer) Stop() {
	a.cancel()
	<-a.done
}

// RunOnce runs one round now and waits for it (tests).
func (a *AutoAnalyzer) RunOnce() {
	ch := make(chan struct{})
	select {
	case a.kick <- ch:
		<-ch
	case <-a.done:
	}
}

// Analyzed returns how many analyses the refresh has run.
func (a *AutoAnalyzer) Analyzed() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.runs
}

func (a *AutoAnalyzer) loop(ctx context.Context) {
	defer close(a.done)
	t := time.NewTicker(a.cfg.Interval)
	defer t.Stop()
	for {
		var ack chan struct{}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case ack = <-a.kick:
		}
		if a.cfg.Enabled == nil || a.cfg.Enabled() {
			a.round(ctx)
		}
		if ack != nil {
			close(ack)
		}
	}
}

// due reports whether def needs analyzing now.
func (a *AutoAnalyzer) due(def *catalog.Table, now time.Time) bool {
	m := a.s.counter(def)
	if last := m.analyzedAt.Load(); last != 0 && now.Sub(time.Unix(0, last)) < a.cfg.MinInterval {
		return false
	}
	st := a.cat.Stats(def)
	if st == nil {
		return true
	}
	changed := m.sinceAnalyze()
	return changed > 0 && float64(changed) > a.cfg.ChangeFraction*float64(st.RowCount())
}

// round analyzes the tables that are due, until RoundTime has passed.
func (a *AutoAnalyzer) round(ctx context.Context) {
	start := time.Now()
	for _, db := range a.cat.Databases() {
		for _, def := range a.cat.Tables(db) {
			if ctx.Err() != nil || time.Since(start) > a.cfg.RoundTime {
				return
			}
			if !a.due(def, time.Now()) {
				continue
			}
			_, err := a.s.Analyze(ctx, a.cat, def, a.cfg.Analyze)
			switch {
			case err == nil:
				a.mu.Lock()
				a.runs++
				a.mu.Unlock()
			case errors.Is(err, catalog.ErrStatsStale), ctx.Err() != nil:
			default:
				// Do not retry at every round.
				a.s.counter(def).analyzedAt.Store(time.Now().UnixNano())
				a.cfg.Logger.Warn("automatic ANALYZE TABLE failed", "table", def.DB+"."+def.Name, "err", err)
			}
		}
	}
}

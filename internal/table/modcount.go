package table

import (
	"sync/atomic"

	"github.com/strata-db/strata/internal/catalog"
)

// modCounter counts the rows a table's writers changed, for the automatic
// statistics refresh (InnoDB's stat_modified_counter) and for the live row
// estimate (InnoDB's n_rows). It is kept in memory only, one per table (by
// primary index id, so it survives definition changes that keep the data),
// and bumped by Insert, Update and Delete with one or two atomic adds: no
// allocation or lock on the write path. Counts are approximate: a rolled
// back change is still counted, and a restart starts again from zero.
type modCounter struct {
	// changed counts inserted, updated and deleted rows; net counts
	// inserted minus deleted rows.
	changed atomic.Int64
	net     atomic.Int64
	// baseChanged and baseNet are changed and net when the published
	// statistics were computed.
	baseChanged atomic.Int64
	baseNet     atomic.Int64
	// analyzedAt is when the table was last analyzed by this process (Unix
	// nanoseconds; 0 = not yet).
	analyzedAt atomic.Int64
}

func (m *modCounter) inserted()         { m.changed.Add(1); m.net.Add(1) }
func (m *modCounter) insertedN(n int64) { m.changed.Add(n); m.net.Add(n) }
func (m *modCounter) updated()          { m.changed.Add(1) }
func (m *modCounter) deleted()          { m.changed.Add(1); m.net.Add(-1) }

// sinceAnalyze returns the rows changed since the published statistics were
// computed.
func (m *modCounter) sinceAnalyze() int64 { return m.changed.Load() - m.baseChanged.Load() }

// counter returns the modification counter of a table, created on first
// use. The caller holds s.mu.
func (s *Store) counterLocked(def *catalog.Table) *modCounter {
	pid := def.Primary().ID
	m := s.mu.mods[pid]
	if m == nil {
		m = &modCounter{}
		s.mu.mods[pid] = m
	}
	return m
}

func (s *Store) counter(def *catalog.Table) *modCounter {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counterLocked(def)
}

// ModifiedSinceAnalyze returns how many rows of the table were inserted,
// updated or deleted (approximately) since its statistics were computed, or
// since the process started when they were computed before.
func (s *Store) ModifiedSinceAnalyze(def *catalog.Table) int64 {
	return s.counter(def).sinceAnalyze()
}

// EstimatedRows returns the table's row count as information_schema.TABLES
// shows it: the analyzed count (0 without statistics) plus the rows inserted
// minus those deleted since, never negative.
func (s *Store) EstimatedRows(def *catalog.Table, st *catalog.TableStats) int64 {
	m := s.counter(def)
	n := m.net.Load() - m.baseNet.Load()
	if st != nil {
		n += st.RowCount()
	}
	if n < 0 {
		n = 0
	}
	return n
}

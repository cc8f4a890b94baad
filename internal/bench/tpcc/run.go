package tpcc

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"sync"
	"time"
)

// Run drives db with terminals TPC-C terminals for d, without keying or
// think times: terminal i has home warehouse 1 + i mod W and draws its
// inputs from a generator seeded with seed and i. Transactions use
// server-side prepared statements for the fixed-shape statements.
// Run returns the terminals' added-up counts and the wall time of the run.
func Run(ctx context.Context, db *sql.DB, s Scale, terminals int, d time.Duration, seed uint64) (*Stats, time.Duration, error) {
	if err := s.Validate(); err != nil {
		return nil, 0, err
	}
	st, err := prepareAll(ctx, db)
	if err != nil {
		return nil, 0, err
	}
	defer st.close()
	c := constantsFor(seed)
	terms := make([]*terminal, terminals)
	start := time.Now()
	deadline := start.Add(d)
	var wg sync.WaitGroup
	for i := range terms {
		terms[i] = &terminal{db: db, st: st, s: s, c: c, r: rand.New(rand.NewPCG(seed, uint64(i)+7)), w: 1 + i%s.Warehouses}
		wg.Add(1)
		go func(tm *terminal) {
			defer wg.Done()
			tm.run(ctx, deadline)
		}(terms[i])
	}
	wg.Wait()
	elapsed := time.Since(start)
	total := &Stats{}
	for _, tm := range terms {
		total.Add(&tm.stats)
	}
	return total, elapsed, ctx.Err()
}

// NewOrdersPerMinute is tpmC: new-order transactions completed per minute
// (those rolled back on the invalid item count, as in clause 5.4.2).
func (s *Stats) NewOrdersPerMinute(elapsed time.Duration) float64 {
	return float64(s.Committed[txNewOrder]+s.RolledBack) / elapsed.Minutes()
}

// Total is the number of completed transactions of every kind.
func (s *Stats) Total() int {
	n := s.RolledBack
	for _, c := range s.Committed {
		n += c
	}
	return n
}

// constantsFor derives NURand's run-time constants from a seed, so the
// loader and the terminals of one seed agree.
func constantsFor(seed uint64) constants { return newConstants(rand.New(rand.NewPCG(seed, 0xc0))) }

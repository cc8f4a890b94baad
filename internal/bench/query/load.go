package query

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
)

// Loader executes statements (the INSERTs of a data load) over several
// connections. The first error stops it: later statements are dropped and
// Wait returns that error.
type Loader struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	stmts  chan string
	wg     sync.WaitGroup
}

// NewLoader starts workers goroutines executing statements on db.
func NewLoader(ctx context.Context, db *sql.DB, workers int) *Loader {
	l := &Loader{stmts: make(chan string, 2*max(workers, 1))}
	l.ctx, l.cancel = context.WithCancelCause(ctx)
	for range max(workers, 1) {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			for q := range l.stmts {
				if l.ctx.Err() != nil {
					continue
				}
				if _, err := db.ExecContext(l.ctx, q); err != nil {
					l.cancel(fmt.Errorf("load: %.100s…: %w", q, err))
				}
			}
		}()
	}
	return l
}

// Exec queues q; it returns false once the loader has stopped.
func (l *Loader) Exec(q string) bool {
	select {
	case l.stmts <- q:
		return true
	case <-l.ctx.Done():
		return false
	}
}

// Err is the error that stopped the loader, or nil while it runs.
func (l *Loader) Err() error { return context.Cause(l.ctx) }

// Wait waits for the queued statements and returns the first error (or
// the context's).
func (l *Loader) Wait() error {
	close(l.stmts)
	l.wg.Wait()
	err := context.Cause(l.ctx)
	l.cancel(nil)
	return err
}

// Batch accumulates VALUES tuples for one table and queues them as
// multi-row INSERTs of up to Rows tuples.
type Batch struct {
	l      *Loader
	prefix string
	max    int
	rows   []string
}

// Batch returns a batch whose INSERTs start with prefix ("INSERT INTO t
// VALUES ") and hold up to rows tuples.
func (l *Loader) Batch(prefix string, rows int) *Batch {
	return &Batch{l: l, prefix: prefix, max: rows}
}

// Add adds a tuple ("(1,'a')"); it returns false once the loader stopped.
func (b *Batch) Add(tuple string) bool {
	b.rows = append(b.rows, tuple)
	if len(b.rows) >= b.max {
		return b.Flush()
	}
	return true
}

// Flush queues the tuples added since the last flush.
func (b *Batch) Flush() bool {
	if len(b.rows) == 0 {
		return b.l.ctx.Err() == nil
	}
	ok := b.l.Exec(b.prefix + strings.Join(b.rows, ","))
	b.rows = b.rows[:0]
	return ok
}

// ExecAll executes stmts (a schema's DDL) in order on db.
func ExecAll(ctx context.Context, db *sql.DB, stmts []string) error {
	for _, q := range stmts {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%.60s…: %w", q, err)
		}
	}
	return nil
}

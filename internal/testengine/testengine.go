// Package testengine opens a SQL engine over an in-memory Pebble store for
// tests and benchmarks outside internal/sql (its own internal tests cannot
// import a package that imports it). Pebble logs warnings only, so its
// informational lines do not interleave with test or benchmark output.
package testengine

import (
	"io"
	"log/slog"
	"os"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql"
	"github.com/strata-db/strata/internal/txn"
)

// Options tune the engine.
type Options struct {
	// MemoryBudget is the store's cache budget (0: kv's default).
	MemoryBudget int64
	// Quiet drops Pebble's warnings too.
	Quiet bool
}

// Open opens an engine on a fresh in-memory store, closed at the end of
// tb (after everything registered later, such as a server over it).
func Open(tb testing.TB, o Options) *sql.Engine {
	tb.Helper()
	var out io.Writer = os.Stderr
	if o.Quiet {
		out = io.Discard
	}
	logger := kv.NewSlogLogger(slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelWarn})))
	db, err := kv.Open(kv.Options{Dir: "/db", FS: vfs.NewMem(), MemoryBudget: o.MemoryBudget, Logger: logger})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	tdb := txn.New(db, txn.Options{})
	cat, err := catalog.Load(tdb)
	if err != nil {
		tb.Fatal(err)
	}
	eng, err := sql.NewEngine(tdb, cat)
	if err != nil {
		tb.Fatal(err)
	}
	return eng
}

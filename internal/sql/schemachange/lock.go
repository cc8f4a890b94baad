package schemachange

import (
	"context"
	"slices"
	"time"

	"github.com/strata-db/strata/internal/catalog"
)

// TableName names a table by database and name.
type TableName struct{ DB, Name string }

// LockTables takes the exclusive metadata lock of each table in order (a
// table named twice once: a second request would wait for the first),
// waiting at most timeout for each (MySQL's lock_wait_timeout: 1205 when
// it passes). It returns the function that releases them all; the caller
// defers it at once, so an error or a panic later in the statement never
// leaves a table locked. On error the locks taken so far are released
// before LockTables returns.
func LockTables(ctx context.Context, cat *catalog.Catalog, timeout time.Duration, tables ...TableName) (release func(), err error) {
	held := make([]TableName, 0, len(tables))
	release = func() {
		for i := len(held) - 1; i >= 0; i-- {
			cat.UnlockExclusive(held[i].DB, held[i].Name)
		}
		held = held[:0]
	}
	for i, t := range tables {
		if slices.Contains(tables[:i], t) {
			continue
		}
		if err := lockIdle(ctx, cat, timeout, t); err != nil {
			release()
			return func() {}, err
		}
		held = append(held, t)
	}
	return release, nil
}

// Apply runs fn inside one data-dictionary change and commits it when fn
// returns nil, through commit when it is not nil: the hook of the change
// that makes a statement take effect (Env.Commit), which puts the
// statement's binary log event — and on a replica the applied position —
// in the change's batch. The change holds the catalog's DDL mutex; Apply
// releases it on every path — error, panic, commit — through a deferred
// Abort (which does nothing after a commit), and an aborted change deletes
// whatever a back-fill committed ahead of it.
func Apply(cat *catalog.Catalog, commit catalog.CommitHook, fn func(d *catalog.DDL) error) error {
	d := cat.BeginDDL()
	defer d.Abort()
	d.SetCommitHook(commit)
	if err := fn(d); err != nil {
		return err
	}
	return d.Commit()
}

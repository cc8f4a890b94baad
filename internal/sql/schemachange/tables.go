package schemachange

import (
	"context"
	"errors"
	"slices"

	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Whole-table changes: DROP TABLE, TRUNCATE, RENAME TABLE. Each takes the
// exclusive metadata locks of its tables first, then reads the definitions
// again: a change that ran while this one waited may have replaced them,
// and acting on the old one would put it back (TRUNCATE) or leave the new
// indexes' data behind (DROP).

// DropTables drops the named tables in one change, with extra adding more
// to it (DROP DATABASE's entry). A table gone while the locks were awaited
// is 1051.
func (e *Env) DropTables(ctx context.Context, names []TableName, extra func(*catalog.DDL) error) error {
	return e.dropTables(ctx, names, nil, extra)
}

// dropTables is DropTables with pre, which runs first under the DDL mutex
// and can refuse the change.
func (e *Env) dropTables(ctx context.Context, names []TableName, pre func() error, extra func(*catalog.DDL) error) error {
	release, err := LockTables(ctx, e.Cat, e.MDLTimeout, names...)
	if err != nil {
		return err
	}
	defer release()
	var dropped []*catalog.Table
	err = Apply(e.Cat, e.Commit, func(d *catalog.DDL) error {
		if pre != nil {
			if err := pre(); err != nil {
				return err
			}
		}
		for _, n := range names {
			t := e.Cat.Table(n.DB, n.Name)
			if t == nil {
				return sqlerr.New(sqlerror.ERBadTable, sqlerror.SSUnknownTable, "Unknown table '%s.%s'", n.DB, n.Name)
			}
			if err := d.DropTable(t); err != nil {
				return err
			}
			dropped = append(dropped, t)
		}
		if extra != nil {
			return extra(d)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, t := range dropped {
		e.Store.Forget(t, true)
	}
	return nil
}

// DropDatabase drops database name and its tables in one change and
// returns how many tables it dropped. A table created or dropped in it
// while the tables' locks were awaited makes it start again (up to three
// times, then 1213: try again): dropping a table it holds no lock on, or
// leaving one behind in a dropped database, would be wrong.
func (e *Env) DropDatabase(ctx context.Context, name string) (int, error) {
	for attempt := 0; attempt < 3; attempt++ {
		names := tableNamesOf(e.Cat.Tables(name))
		same := func() error {
			if !slices.Equal(names, tableNamesOf(e.Cat.Tables(name))) {
				return errTablesChanged
			}
			return nil
		}
		err := e.dropTables(ctx, names, same, func(d *catalog.DDL) error { return d.DropDatabase(name) })
		if errors.Is(err, errTablesChanged) {
			continue
		}
		return len(names), err
	}
	return 0, sqlerr.New(sqlerror.ERLockDeadlock, sqlerror.SSLockDeadlock, "Deadlock found when trying to get lock; try restarting transaction")
}

var errTablesChanged = errors.New("tables changed while waiting for their locks")

func tableNamesOf(tables []*catalog.Table) []TableName {
	out := make([]TableName, len(tables))
	for i, t := range tables {
		out[i] = TableName{DB: t.DB, Name: t.Name}
	}
	return out
}

// Truncate empties a table: range tombstones over its indexes and the same
// definition under new index ids (the old ids' tombstones can never hide
// new rows).
func (e *Env) Truncate(ctx context.Context, name TableName) error {
	release, err := LockTables(ctx, e.Cat, e.MDLTimeout, name)
	if err != nil {
		return err
	}
	defer release()
	t := e.Cat.Table(name.DB, name.Name)
	if t == nil {
		return sqlerr.NoTable(name.DB, name.Name)
	}
	err = Apply(e.Cat, e.Commit, func(d *catalog.DDL) error {
		nt := t.Clone()
		for _, ix := range t.Indexes {
			if err := d.DropIndexData(ix.ID); err != nil {
				return err
			}
		}
		for _, ix := range nt.Indexes {
			ix.ID = d.NewIndexID()
		}
		return d.PutTable(nt)
	})
	if err != nil {
		return err
	}
	e.Store.Forget(t, true)
	return nil
}

// RenamePair is one "from TO to" of RENAME TABLE. A To.DB of "" means the
// statement named no database and none is selected (1046 when the pair is
// reached).
type RenamePair struct{ From, To TableName }

// RenameTables renames tables in one change, pairs in order (RENAME a TO
// b, b TO c moves a to c), keeping CHECK constraint names unique per
// database once every pair has moved.
func (e *Env) RenameTables(ctx context.Context, pairs []RenamePair) error {
	// Metadata locks first, so a wait does not hold up other DDL.
	var names []TableName
	for _, p := range pairs {
		if t := e.Cat.Table(p.From.DB, p.From.Name); t != nil {
			names = append(names, TableName{DB: t.DB, Name: t.Name})
		}
	}
	release, err := LockTables(ctx, e.Cat, e.MDLTimeout, names...)
	if err != nil {
		return err
	}
	defer release()
	return Apply(e.Cat, e.Commit, func(d *catalog.DDL) error { return e.renameIn(d, pairs) })
}

func (e *Env) renameIn(d *catalog.DDL, pairs []RenamePair) error {
	// Track the effect of earlier pairs.
	cur := map[string]*catalog.Table{}
	gone := map[string]bool{}
	get := func(db, name string) *catalog.Table {
		k := db + "." + name
		if t, ok := cur[k]; ok {
			return t
		}
		if gone[k] {
			return nil
		}
		return e.Cat.Table(db, name)
	}
	for _, p := range pairs {
		if p.To.DB == "" {
			return sqlerr.NoDB()
		}
		from := get(p.From.DB, p.From.Name)
		if from == nil {
			return sqlerr.NoTable(p.From.DB, p.From.Name)
		}
		if get(p.To.DB, p.To.Name) != nil || e.Cat.View(p.To.DB, p.To.Name) != nil {
			return sqlerr.New(sqlerr.TableExists, sqlerr.StateTableExists, "Table '%s' already exists", p.To.Name)
		}
		if e.Cat.Database(p.To.DB) == nil {
			return sqlerr.New(sqlerror.ERBadDb, sqlerror.SSClientError, "Unknown database '%s'", p.To.DB)
		}
		if len(from.Triggers) > 0 && from.DB != p.To.DB {
			// MySQL: a table's triggers stay in its schema.
			return sqlerr.New(sqlerr.TrgInWrongSchema, sqlerror.SSUnknownSQLState, "Trigger in wrong schema")
		}
		nt := from.Clone()
		nt.DB, nt.Name = p.To.DB, p.To.Name
		catalog.RenameGeneratedChecks(nt.Checks, from.Name, nt.Name)
		if err := CheckGeneratedNameLengths(nt.Checks); err != nil {
			return err
		}
		if err := d.RemoveTableEntry(from.DB, from.Name); err != nil {
			return err
		}
		if err := d.PutTable(nt); err != nil {
			return err
		}
		gone[from.DB+"."+from.Name] = true
		delete(cur, from.DB+"."+from.Name)
		cur[nt.DB+"."+nt.Name] = nt
	}
	for _, nt := range cur {
		for _, other := range e.Cat.Tables(nt.DB) {
			k := other.DB + "." + other.Name
			if _, moved := cur[k]; moved || gone[k] {
				continue
			}
			if err := CheckNameClash(nt, other); err != nil {
				return err
			}
		}
		for _, other := range cur {
			if other != nt && other.DB == nt.DB {
				if err := CheckNameClash(nt, other); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

package sql

import (
	"context"
	"fmt"
	"time"

	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/vtable"
	"github.com/strata-db/strata/internal/txn"
)

// System schemas (information_schema, performance_schema, mysql, sys) are
// virtual: package vtable defines their tables and computes their rows
// from a vtable.Source, which sysSource implements over a session and one
// statement execution. SHOW ENGINES, PLUGINS and STATUS read the same rows
// (showFrom).

// systemTable returns the definition and row source of a table in a system
// schema.
func (s *Session) systemTable(db, name string) (*catalog.Table, func(ex *execCtx) ([]Row, error), error) {
	st, err := vtable.Lookup(db, name)
	if err != nil {
		return nil, nil, err
	}
	// The rows are computed once per statement execution: an inner table
	// of a join is reopened for every outer row.
	var (
		lastEx *execCtx
		cached []Row
	)
	// The rows are this session's view (its privileges, its processes):
	// the plan is not shared with other sessions.
	s.planPrivate = true
	return st.Def, func(ex *execCtx) ([]Row, error) {
		if ex == lastEx {
			return cached, nil
		}
		src := &sysSource{s: s, ctx: ex.Context()}
		rows, err := st.Rows(src)
		src.close()
		if err != nil {
			return nil, err
		}
		lastEx, cached = ex, rows
		return rows, nil
	}, nil
}

// schemaNames lists the schemas the session sees in information_schema
// and SHOW DATABASES.
func (s *Session) schemaNames() []string {
	return vtable.SchemaNames(&sysSource{s: s, ctx: context.Background()})
}

// sysSource is the vtable.Source of one read of a system table: the
// session that reads it and the context of the statement execution.
type sysSource struct {
	s   *Session
	ctx context.Context
	// tx reads auto-increment counters; begun at the first one, rolled
	// back by close.
	tx *txn.Txn
}

var _ vtable.Source = (*sysSource)(nil)

// close ends the transaction NextAutoIncrement began, if any.
func (x *sysSource) close() {
	if x.tx != nil {
		x.tx.Rollback()
		x.tx = nil
	}
}

func (x *sysSource) Catalog() *catalog.Catalog { return x.s.eng.Cat }

func (x *sysSource) Parser() *sqlparser.Parser { return x.s.eng.Parser }

func (x *sysSource) CanSeeDB(db string) bool { return x.s.canSeeDB(db) }

func (x *sysSource) CanSeeTable(db, table string) bool { return x.s.canSeeTable(db, table) }

func (x *sysSource) Conn() vtable.Conn {
	return vtable.Conn{ID: x.s.ConnID, User: x.s.User, Host: x.s.Host, DB: x.s.DB}
}

func (x *sysSource) Threads() []vtable.Thread { return x.s.threads() }

func (x *sysSource) Subject() *privilege.Subject { return x.s.subject() }

func (x *sysSource) AccountHost() string { return x.s.accountHost() }

func (x *sysSource) SysVarNames() []string { return x.s.eng.Globals.Names() }

func (x *sysSource) SysVar(name string, global bool) sqltypes.Value {
	if name == "gtid_executed" || name == "gtid_purged" {
		return x.s.gtidVar(name) // live (binlog.go)
	}
	if global {
		v, _ := x.s.eng.Globals.Get(name)
		return v
	}
	return x.s.sessionSysVar(name)
}

func (x *sysSource) StatusVars(global bool) [][]string { return x.s.statusVars(global) }

func (x *sysSource) TableRows(t *catalog.Table) uint64 { return x.s.tableRows(t) }

func (x *sysSource) NextAutoIncrement(t *catalog.Table) (uint64, bool) {
	if x.tx == nil {
		x.tx = x.s.eng.DB.Begin(x.ctx, x.s.iso, x.s.lockTimeout)
	}
	v, err := x.s.eng.Store.Open(t).PeekAutoInc(x.tx)
	return v, err == nil
}

func (x *sysSource) StartTime() time.Time { return x.s.eng.StartTime }

func (x *sysSource) Storage() vtable.Storage { return x.s.eng.DB.KV() }

func (x *sysSource) Transactions() []vtable.Trx { return x.s.transactions() }

func (x *sysSource) LockWaits() []vtable.LockWait { return x.s.lockWaits() }

// TimeZone is the session's time zone (timezone.go).
func (x *sysSource) TimeZone() *time.Location { return x.s.zone().Location() }

// showFrom answers a SHOW form from a system table: the table's columns
// cols, renamed names, as text (textResult); with like, only rows whose
// first column matches it.
func (s *Session) showFrom(ctx context.Context, db, table string, cols, names []string, like string) (*sqltypes.Result, error) {
	st, err := vtable.Lookup(db, table)
	if err != nil {
		return nil, err
	}
	idx := make([]int, len(cols))
	for i, c := range cols {
		if idx[i] = st.Def.ColumnIndex(c); idx[i] < 0 {
			return nil, fmt.Errorf("sql: %s.%s has no column %s", db, table, c)
		}
	}
	src := &sysSource{s: s, ctx: ctx}
	rows, err := st.Rows(src)
	src.close()
	if err != nil {
		return nil, err
	}
	out := make([][]string, 0, len(rows))
	for _, r := range rows {
		text := make([]string, len(idx))
		for i, j := range idx {
			if r[j].IsNull() {
				text[i] = nullStr
			} else {
				text[i] = r[j].ToString()
			}
		}
		if like == "" || likeMatch(like, text[0]) {
			out = append(out, text)
		}
	}
	return textResult(names, out), nil
}

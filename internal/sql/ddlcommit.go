package sql

import (
	"context"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/binlog"
	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/txn"
)

// A DDL statement takes effect in one catalog change (catalog.DDL) — for
// a multi-step statement, the last: an online ALTER's change that
// publishes the new definition. Whatever must be durable exactly when the
// statement is goes into that change's batch through its commit hook
// (catalog.CommitHook): the statement's binary log event (GTID, QUERY),
// given its GTID and position and applied under the log's commit-order
// lock (binlog.Log.CommitStatement), and the writes of the caller's hook
// (SetDDLCommitHook: a replica's applied position). So after a kill -9
// the statement, its event and the position are all there or none is.
//
// The hook runs once per statement: the first change committed through
// it carries the event, later ones (none today) commit plainly. A
// statement that committed no change through it — CREATE TABLE IF NOT
// EXISTS of an existing table, DROP TABLE IF EXISTS of missing ones —
// commits the event and the caller's writes in a batch of their own, as
// MySQL logs those statements too. A statement that fails before its
// change commits logs nothing.

// ddlCommit is the running DDL statement's commit hook state.
type ddlCommit struct {
	// event is the statement's binary log event (nil: not logged).
	event *binlog.Statement
	// extra is the caller's hook (SetDDLCommitHook), nil when none.
	extra catalog.CommitHook
	// done: a change committed through the hook.
	done bool
}

// SetDDLCommitHook makes the next DDL statement (CREATE, ALTER, DROP,
// RENAME, TRUNCATE of tables, views and databases) the session runs apply
// its catalog change through h, once: h adds its writes to the batch
// that makes the statement take effect (a replica's applied position),
// or, when the statement changes nothing, to a batch of its own. A
// statement that fails before its change commits does not run h. Other
// statements ignore h; the next DDL statement clears it.
func (s *Session) SetDDLCommitHook(h catalog.CommitHook) { s.nextDDLHook = h }

// execDDLCommitted runs a DDL statement with its commit hook: its binary
// log event (unless binlogsDDL says it is not logged) and the caller's
// hook go into the batch of the change that makes it take effect.
func (s *Session) execDDLCommitted(ctx context.Context, stmt sqlparser.Statement, sql string) (*sqltypes.Result, error) {
	text := ""
	if s.binlogsDDL(stmt) {
		text = sql
		if text == "" {
			text = sqlparser.String(stmt)
		}
	}
	return s.execLogged(text, func() (*sqltypes.Result, error) { return s.execDDL(ctx, stmt, sql) })
}

// execLogged runs a DDL statement (run) with its commit hook: the binary
// log event of text (none when text is "") and the caller's hook
// (SetDDLCommitHook) go into the batch of the change that makes it take
// effect, or into a batch of their own when it changed nothing.
func (s *Session) execLogged(text string, run func() (*sqltypes.Result, error)) (*sqltypes.Result, error) {
	extra := s.nextDDLHook
	s.nextDDLHook = nil
	var ev *binlog.Statement
	if text != "" {
		ev = s.ddlEvent(s.DB, text)
	}
	if ev == nil && extra == nil {
		return run()
	}
	s.ddl = ddlCommit{event: ev, extra: extra}
	defer func() { s.ddl = ddlCommit{} }()
	res, err := run()
	if err == nil && !s.ddl.done {
		// Nothing changed: the event and the caller's writes alone.
		b := s.eng.DB.NewBatch()
		err = s.commitDDL(b, s.eng.DB.ApplyBatch)
		_ = b.Close()
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// ddlHook is the commit hook of the running DDL statement's change (nil
// when the statement is neither logged nor hooked): schemachange.Apply's
// and Env.Commit's argument.
func (s *Session) ddlHook() catalog.CommitHook {
	if s.ddl.event == nil && s.ddl.extra == nil {
		return nil
	}
	return s.commitDDL
}

// commitDDL is the catalog.CommitHook of the running DDL statement: the
// first time, the caller's hook adds its writes to b (before the binary
// log's commit-order lock is taken: its failure leaves the log as it was)
// and the binary log its event, and b is applied under that lock; later,
// b is applied as it is.
func (s *Session) commitDDL(b *txn.Batch, apply func(*txn.Batch) error) error {
	c := &s.ddl
	if c.done {
		return apply(b)
	}
	var err error
	if c.extra != nil {
		err = c.extra(b, func(b *txn.Batch) error { return s.logDDL(b, apply) })
	} else {
		err = s.logDDL(b, apply)
	}
	if err != nil {
		return err
	}
	c.done = true
	return nil
}

// logDDL adds the running statement's event (if it is logged) to b and
// applies b with apply in binary log order.
func (s *Session) logDDL(b *txn.Batch, apply func(*txn.Batch) error) error {
	if s.ddl.event == nil {
		return apply(b)
	}
	var applyErr error
	err := s.eng.Binlog.CommitStatement(b, s.ddl.event, func(b *txn.Batch) error {
		applyErr = apply(b)
		return applyErr
	})
	if err != nil && applyErr == nil {
		return sqlerr.New(sqlerr.BinlogLogging, sqlerror.SSUnknownSQLState, "Binary logging not possible. Message: %v", err)
	}
	return err
}

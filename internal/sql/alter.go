package sql

import (
	"context"

	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/schemachange"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/txn"
)

// alterTable runs ALTER TABLE; checkCols names the column of each
// column-level CHECK constraint it adds (see columnChecks), viaConstraint
// the constraints named in ALTER CONSTRAINT (not ALTER CHECK) clauses.
func (s *Session) alterTable(ctx context.Context, st *sqlparser.AlterTable, checkCols, viaConstraint []string) (*sqltypes.Result, error) {
	db, err := s.dbOrCurrent(st.Table.Qualifier)
	if err != nil {
		return nil, err
	}
	old := s.tableDef(db, st.Table.Name.String())
	if old == nil {
		if s.eng.Cat.View(db, st.Table.Name.String()) != nil {
			return nil, sqlerr.New(sqlerr.WrongObject, "HY000", "'%s.%s' is not BASE TABLE", db, st.Table.Name.String())
		}
		return nil, sqlerr.NoTable(db, st.Table.Name.String())
	}
	if st.PartitionSpec != nil || st.PartitionOption != nil {
		return nil, sqlerr.Unsupported("partitioning")
	}
	temp := s.isTemporary(old)
	var lk *schemachange.TableLock
	if !temp {
		lk, err = schemachange.LockTable(ctx, s.eng.Cat, s.mdlTimeout, schemachange.TableName{DB: old.DB, Name: old.Name})
		if err != nil {
			return nil, err
		}
		defer lk.Release()
		old = s.eng.Cat.Table(db, st.Table.Name.String())
		if old == nil {
			return nil, sqlerr.NoTable(db, st.Table.Name.String())
		}
	}
	a := schemachange.NewAlterDef(old, alterSession{s})
	a.Checks.Cols = checkCols
	a.Checks.ViaConstraint = viaConstraint
	for _, opt := range st.AlterOptions {
		if err := a.Apply(opt); err != nil {
			return nil, err
		}
	}
	if err := a.Finish(); err != nil {
		return nil, err
	}
	if err := s.alterTimestampDefaults(old, a.Table, a.Mapping); err != nil {
		return nil, err
	}
	if err := s.alterGenerated(old, a); err != nil {
		return nil, err
	}
	if err := s.fkCheckNew(a.Table, old); err != nil {
		return nil, err
	}
	if err := s.fkValidateNew(ctx, old, a.Table); err != nil {
		return nil, err
	}
	nt := a.Table
	newDB, newName := old.DB, old.Name
	if a.RenameTo != nil {
		if q := a.RenameTo.Qualifier.String(); q != "" {
			newDB = q
		}
		newName = a.RenameTo.Name.String()
	}
	if err := s.finishAlterChecks(&a.Checks, old, nt, newDB, newName); err != nil {
		return nil, err
	}
	// A rebuilt table and a table given a new or newly enforced constraint
	// have their rows checked against every enforced constraint.
	var checks *checkSet
	if a.Rebuild || a.Checks.Validate {
		var err error
		if checks, err = s.compileChecks(nt); err != nil {
			return nil, err
		}
	}
	plan := &schemachange.AlterPlan{Old: old, New: nt, Rebuild: a.Rebuild, NewIndexes: a.NewIndexes, DropIndexes: a.DropIndexes}
	if a.Rebuild {
		// The conversion's expressions (defaults, constraints) read no
		// table: their transaction only carries the evaluation context.
		tx := s.eng.DB.Begin(ctx, txn.ReadCommitted, s.lockTimeout)
		defer tx.Rollback()
		plan.Convert = s.rebuildInZone(old, nt, a.Mapping, s.rebuildConverter(s.newExecCtx(ctx, tx, nil), nt, a.Mapping, checks))
	} else if a.Checks.Validate {
		plan.Validate = func(ctx context.Context) error { return s.validateRows(ctx, old, checks) }
	}
	if a.RenameTo != nil {
		tdb := a.RenameTo.Qualifier.String()
		if tdb == "" {
			tdb = old.DB
		}
		plan.RenameTo = &schemachange.TableName{DB: tdb, Name: a.RenameTo.Name.String()}
		if len(old.Triggers) > 0 && tdb != old.DB {
			return nil, sqlerr.New(sqlerr.TrgInWrongSchema, "HY000", "Trigger in wrong schema")
		}
	}
	if temp {
		if len(nt.ForeignKeys) > len(old.ForeignKeys) {
			return nil, sqlerr.Unsupported("FOREIGN KEY on a TEMPORARY table")
		}
		if err := s.alterTemporary(ctx, plan); err != nil {
			return nil, err
		}
		return &sqltypes.Result{}, nil
	}
	if plan.Online() {
		// Only secondary indexes added: built while DML goes on.
		defer s.stage.Store(nil)
		if _, err := s.schemaEnv().AlterOnline(ctx, plan, lk); err != nil {
			return nil, err
		}
		return &sqltypes.Result{}, nil
	}
	if _, err := s.schemaEnv().Alter(ctx, plan); err != nil {
		return nil, err
	}
	return &sqltypes.Result{}, nil
}

// alterSession is the session as ALTER TABLE's definition changes see it.
type alterSession struct{ s *Session }

func (as alterSession) ColumnMode() coltype.Mode { return as.s.coltypeMode() }

func (as alterSession) Literal(e sqlparser.Expr) (sqltypes.Value, bool) { return literalValue(e, nil) }

func (as alterSession) DropConstraint(old *catalog.Table, name string) (*sqlparser.DropKey, bool, error) {
	return as.s.dropConstraint(old, name)
}

func (as alterSession) ResetAutoInc(db, table string) {
	as.s.eng.Store.Open(as.s.tableDef(db, table)).ResetAutoInc()
}

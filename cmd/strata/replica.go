package main

import (
	"context"
	"log/slog"

	"github.com/strata-db/strata/internal/replica"
	"github.com/strata-db/strata/internal/sql"
)

// openReplica attaches the replica side to the engine (CHANGE
// REPLICATION SOURCE TO, START REPLICA, ...) and resumes replication if
// it was running when the server stopped, unless skipStart.
func openReplica(eng *sql.Engine, logger *slog.Logger, skipStart bool) (*replica.Replica, error) {
	rep, err := replica.New(context.Background(), eng, logger)
	if err != nil {
		return nil, err
	}
	eng.Replica = rep
	eng.BinlogStatements = replica.NewStatementApplier(eng)
	if !skipStart {
		rep.Resume(context.Background())
	}
	return rep, nil
}

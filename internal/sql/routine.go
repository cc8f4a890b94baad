package sql

import (
	"context"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// erEventDoesNotExist is ER_EVENT_DOES_NOT_EXIST.
const erEventDoesNotExist = 1539

// execRoutine answers a statement on a stored function, procedure, trigger
// or event. Triggers are trigger_ddl.go's, procedures and functions
// routine_ddl.go's; strata has no events: CREATE and ALTER EVENT are not
// supported (1235), DROP EVENT finds nothing to drop — the error MySQL
// gives for a missing object, or a note with IF EXISTS — so scripts that
// clean up before creating keep working.
func (s *Session) execRoutine(ctx context.Context, sql string, r parse.Routine) (*sqltypes.Result, error) {
	if r.Kind == "TRIGGER" && r.Verb == "CREATE" {
		return s.execCreateTrigger(ctx, sql)
	}
	if r.Kind == "TRIGGER" && r.Verb == "DROP" {
		return s.execDropTrigger(ctx, r)
	}
	if r.Kind == "PROCEDURE" || r.Kind == "FUNCTION" {
		switch r.Verb {
		case "CREATE":
			return s.execCreateRoutine(ctx, sql)
		case "ALTER":
			return s.execAlterRoutine(ctx, sql)
		default:
			return s.execDropRoutine(ctx, r)
		}
	}
	if r.Verb == "CREATE" || r.Verb == "ALTER" {
		return nil, sqlerr.Unsupported("%s EVENT (strata has no event scheduler)", r.Verb)
	}
	db, err := s.schemaOrCurrent(r.Schema)
	if err != nil {
		return nil, err
	}
	var code uint16
	var state, msg, note string
	switch r.Kind {
	case "EVENT":
		code, state, msg = erEventDoesNotExist, sqlerror.SSUnknownSQLState, "Unknown event '"+r.Name+"'"
		note = "Event " + r.Name + " does not exist"
	default:
		code, state, msg = uint16(sqlerror.ERSPDoesNotExist), sqlerror.SSClientError, r.Kind+" "+db+"."+r.Name+" does not exist"
		note = msg
	}
	if !r.IfExists {
		return nil, sqlerr.New(sqlerror.ErrorCode(code), state, "%s", msg)
	}
	if r.Kind == "EVENT" {
		code = uint16(sqlerror.ERSPDoesNotExist)
	}
	s.warn("Note", code, note)
	return &sqltypes.Result{}, nil
}

package sql

import (
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// SIGNAL SQLSTATE 'xxxxx' [SET MESSAGE_TEXT = '...', MYSQL_ERRNO = n], as
// a statement of its own and in trigger bodies. Named conditions are not
// supported (there is no DECLARE ... CONDITION).

// signal raises the condition of a SIGNAL statement: a warning for
// SQLSTATE class 01, else an error (1643 for class 02, 1644 otherwise,
// or MYSQL_ERRNO), with MESSAGE_TEXT or MySQL's default message.
func (s *Session) signal(sig parse.Signal) error {
	st := sig.State
	if len(st) != 5 || strings.HasPrefix(st, "00") {
		return sqlerr.New(sqlerr.BadSQLState, sqlerror.SSUnknownSQLState, "Bad SQLSTATE: '%s'", st)
	}
	code, msg := sqlerr.SignalException, "Unhandled user-defined exception condition"
	switch st[:2] {
	case "01":
		code, msg = sqlerr.SignalWarn, "Unhandled user-defined warning condition"
	case "02":
		code, msg = sqlerr.SignalNotFound, "Unhandled user-defined not found condition"
	}
	if sig.Errno != 0 {
		code = sqlerror.ErrorCode(sig.Errno)
	}
	if sig.Message != "" {
		msg = sig.Message
	}
	if st[:2] == "01" {
		s.warn("Warning", uint16(code), msg)
		return nil
	}
	return sqlerror.NewSQLError(code, st, msg)
}

// isSignal reports whether sql is a SIGNAL statement.
func isSignal(sql string) bool {
	_, ok, _ := parse.ParseSignal(sql)
	return ok
}

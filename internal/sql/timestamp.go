package sql

import (
	"strconv"
	"time"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// The session variable timestamp, as MySQL's: SET timestamp = N (seconds
// since the epoch, with up to microseconds) fixes the time that NOW(),
// CURRENT_TIMESTAMP, CURDATE(), CURTIME(), UTC_*(), UNIX_TIMESTAMP() and
// the DEFAULT / ON UPDATE CURRENT_TIMESTAMP of columns read, for every
// statement of the session until SET timestamp = 0 or DEFAULT; SYSDATE()
// keeps reading the clock. @@timestamp is a DOUBLE: the fixed time, or
// the clock's with microseconds. Values outside 1 ..
// 32536771199.999999 are refused with 1231, NULL and non-numbers with
// 1232; it is a session-only variable (1228 with GLOBAL, 1238 reading
// @@global.timestamp).

// maxTimestamp is MySQL 8.0's TIMESTAMP_MAX_VALUE for SET timestamp
// (3001-01-18 23:59:59 UTC on 64-bit platforms).
const maxTimestamp = 32536771199.999999

// setTimestamp runs SET [SESSION] timestamp = v.
func (s *Session) setTimestamp(se *sqlparser.SetExpr, v sqltypes.Value, isDefault bool) error {
	switch se.Var.Scope {
	case sqlparser.GlobalScope, sqlparser.PersistSysScope, sqlparser.PersistOnlySysScope:
		return sqlerr.New(sqlerror.ERLocalVariable, sqlerror.SSUnknownSQLState, "Variable 'timestamp' is a SESSION variable and can't be used with SET GLOBAL")
	}
	if isDefault {
		s.fixedTime = time.Time{}
		return nil
	}
	if v.IsNull() || !(v.IsIntegral() || v.IsFloat() || v.IsDecimal()) {
		return sqlerr.New(sqlerror.ERWrongTypeForVar, sqlerror.SSClientError, "Incorrect argument type to variable 'timestamp'")
	}
	f, err := strconv.ParseFloat(v.ToString(), 64)
	if err != nil {
		return sqlerr.New(sqlerror.ERWrongTypeForVar, sqlerror.SSClientError, "Incorrect argument type to variable 'timestamp'")
	}
	if f == 0 {
		s.fixedTime = time.Time{}
		return nil
	}
	if f < 1 || f > maxTimestamp {
		return sqlerr.New(sqlerror.ERWrongValueForVar, sqlerror.SSClientError, "Variable 'timestamp' can't be set to the value of '%s'", v.ToString())
	}
	sec := int64(f)
	// Microseconds from the decimal text, not the float (1.000001).
	usec := int64((f-float64(sec))*1e6 + 0.5)
	if usec >= 1e6 {
		sec, usec = sec+1, usec-1e6
	}
	s.fixedTime = time.Unix(sec, usec*1000)
	return nil
}

// timestampValue is @@timestamp.
func (s *Session) timestampValue() sqltypes.Value {
	t := s.fixedTime
	if t.IsZero() {
		t = time.Now().Truncate(time.Microsecond)
	}
	f := float64(t.Unix()) + float64(t.Nanosecond()/1000)/1e6
	return sqltypes.MakeTrusted(sqltypes.Float64, strconv.AppendFloat(nil, f, 'f', 6, 64))
}

// sessionSysVar is the session value of a system variable as SHOW
// VARIABLES and performance_schema.session_variables list it (timestamp
// is the session's time).
func (s *Session) sessionSysVar(name string) sqltypes.Value {
	if name == "timestamp" {
		return s.timestampValue()
	}
	v, _ := s.sysVar(name)
	return v
}

package sql

import (
	"context"
	"strconv"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// SQL-level prepared statements: PREPARE name FROM 'text' | @var, EXECUTE
// name [USING @a, ...], {DEALLOCATE | DROP} PREPARE name.
//
// A statement prepared this way is the statement text and its parameter
// count, kept per session under its name (case-insensitive, as MySQL).
// It is prepared and executed through the same code as the binary
// protocol's prepared statements (prepareText, runPrepared), so it shares
// the engine-wide plan cache: the plan belongs to the cache, the session
// keeps only the text. Parameters are bound from the user variables named
// in USING with their types (an integer variable binds an integer, a
// string a string, an unset variable NULL), as MySQL does. At most
// max_prepared_stmt_count of them exist at once across all sessions
// (1461); the binary protocol's statements are not counted against it.

// sqlPrepared is one SQL-level prepared statement.
type sqlPrepared struct {
	text   string
	params int
}

// execPrepareSQL runs PREPARE.
func (s *Session) execPrepareSQL(ctx context.Context, st *sqlparser.PrepareStmt) (*sqltypes.Result, error) {
	name := st.Name.Lowered()
	// MySQL drops a statement of the same name first, even when the new
	// text then fails to prepare.
	s.deallocate(name)
	text, err := s.prepareSource(st.Statement)
	if err != nil {
		return nil, err
	}
	limit := int64(16382)
	if v, ok := s.sysVar("max_prepared_stmt_count"); ok {
		if n, err := v.ToInt64(); err == nil {
			limit = n
		}
	}
	if s.eng.sqlPrepared.Load() >= limit {
		return nil, sqlerr.New(sqlerr.MaxPreparedStmts, "42000",
			"Can't create more than max_prepared_stmt_count statements (current value: %d)", limit)
	}
	if err := s.checkPreparable(text); err != nil {
		return nil, err
	}
	n, _, err := s.prepareText(ctx, text)
	if err != nil {
		return nil, err
	}
	if s.sqlStmts == nil {
		s.sqlStmts = map[string]*sqlPrepared{}
	}
	s.sqlStmts[name] = &sqlPrepared{text: text, params: int(n)}
	s.eng.sqlPrepared.Add(1)
	return &sqltypes.Result{Info: "Statement prepared"}, nil
}

// prepareSource returns the statement text of PREPARE's FROM: a string
// literal or a user variable (whose value is read as a string; NULL or an
// unset variable is a syntax error near 'NULL', as MySQL reports it).
func (s *Session) prepareSource(e sqlparser.Expr) (string, error) {
	switch x := e.(type) {
	case *sqlparser.Literal:
		return x.Val, nil
	case *sqlparser.Variable:
		v, ok := s.userVars[strings.ToLower(x.Name.String())]
		if !ok || v.IsNull() {
			return "", syntaxNear("NULL")
		}
		return v.ToString(), nil
	}
	return "", syntaxNear(sqlparser.String(e))
}

// checkPreparable refuses a text of several statements, as MySQL does: a
// syntax error near the second. (Statements that cannot be prepared are
// refused by prepareText.)
func (s *Session) checkPreparable(text string) error {
	pieces, err := s.eng.Parser.SplitStatementToPieces(text)
	if err == nil && len(pieces) > 1 {
		return syntaxNear(strings.TrimSpace(pieces[1]))
	}
	return nil
}

// notPreparable is MySQL's 1295 for PREPARE, EXECUTE and DEALLOCATE
// PREPARE given to PREPARE or to the binary protocol.
func notPreparable(stmt sqlparser.Statement) error {
	switch stmt.(type) {
	case *sqlparser.PrepareStmt, *sqlparser.ExecuteStmt, *sqlparser.DeallocateStmt, *sqlparser.Load:
		return sqlerr.New(sqlerror.ERUnsupportedPS, sqlerror.SSUnknownSQLState, "This command is not supported in the prepared statement protocol yet")
	}
	return nil
}

// execExecuteSQL runs EXECUTE: the statement's text with the USING
// variables bound to its parameters.
func (s *Session) execExecuteSQL(ctx context.Context, st *sqlparser.ExecuteStmt) (*sqltypes.Result, error) {
	ps := s.sqlStmts[st.Name.Lowered()]
	if ps == nil {
		return nil, unknownHandler(st.Name.String(), "EXECUTE")
	}
	if len(st.Arguments) != ps.params {
		return nil, sqlerr.New(sqlerror.ERWrongArguments, sqlerror.SSUnknownSQLState, "Incorrect arguments to EXECUTE")
	}
	var bv map[string]*querypb.BindVariable
	if len(st.Arguments) > 0 {
		bv = make(map[string]*querypb.BindVariable, len(st.Arguments))
		for i, a := range st.Arguments {
			v, ok := s.userVars[strings.ToLower(a.Name.String())]
			if !ok {
				v = sqltypes.NULL
			}
			bv["v"+strconv.Itoa(i+1)] = sqltypes.ValueBindVariable(v)
		}
	}
	s.setStatementText(ps.text)
	return s.runPrepared(ctx, ps.text, bv)
}

// execDeallocateSQL runs DEALLOCATE PREPARE / DROP PREPARE.
func (s *Session) execDeallocateSQL(st *sqlparser.DeallocateStmt) (*sqltypes.Result, error) {
	name := st.Name.Lowered()
	if !s.deallocate(name) {
		return nil, unknownHandler(st.Name.String(), "DEALLOCATE PREPARE")
	}
	return &sqltypes.Result{}, nil
}

// deallocate drops the statement name, reporting whether there was one.
func (s *Session) deallocate(name string) bool {
	if s.sqlStmts[name] == nil {
		return false
	}
	delete(s.sqlStmts, name)
	s.eng.sqlPrepared.Add(-1)
	return true
}

// dropSQLPrepared drops all the session's statements (the session ends or
// is reset).
func (s *Session) dropSQLPrepared() {
	s.eng.sqlPrepared.Add(-int64(len(s.sqlStmts)))
	s.sqlStmts = nil
}

func unknownHandler(name, verb string) error {
	return sqlerr.New(sqlerror.ERUnknownStmtHandler, sqlerror.SSUnknownSQLState, "Unknown prepared statement handler (%s) given to %s", name, verb)
}

// syntaxNear is MySQL's 1064 near the given text.
func syntaxNear(near string) error {
	return sqlerr.Syntax("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '" + near + "' at line 1")
}

package sql

import (
	"context"

	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// COM_CHANGE_USER: the protocol layer authenticates the new account and
// hands the connection's session to it with ChangeUser.
//
// Other sessions read who a session acts as (SHOW PROCESSLIST, KILL's
// privilege check) from its published identity, never from its User and
// Host fields, which only the session's own goroutine reads and writes.

// identity is the account a session acts as, as other sessions see it.
type identity struct{ user, host string }

// shownIdentity returns the account s acts as; safe from any goroutine.
func (s *Session) shownIdentity() identity {
	if id := s.shownID.Load(); id != nil {
		return *id
	}
	return identity{}
}

// publishIdentity publishes s.User and s.Host for other sessions.
func (s *Session) publishIdentity() {
	s.shownID.Store(&identity{user: s.User, host: s.Host})
}

// ChangeUser resets the session as COM_RESET_CONNECTION does (the open
// transaction rolled back, user variables, session variables and
// warnings cleared) and makes it act as user@host with db as its current
// database ("" for none). The caller has authenticated the account. A
// database the account may not use, or that does not exist, fails with
// MySQL's error (1044, 1049) and leaves the session on no database.
func (s *Session) ChangeUser(ctx context.Context, user, host, db string) error {
	s.ResetConnection()
	s.User, s.Host = user, host
	s.subj = nil
	s.publishIdentity()
	s.setDB("")
	if db == "" {
		return nil
	}
	if s.eng.Cat.Database(db) == nil && !isSystemSchema(db) {
		return sqlerr.New(sqlerror.ERBadDb, sqlerror.SSClientError, "Unknown database '%s'", db)
	}
	if _, err := s.Query(ctx, "USE "+coltype.QuoteIdent(db)); err != nil {
		return err
	}
	return nil
}

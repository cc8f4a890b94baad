package sql

import (
	"strings"

	"github.com/strata-db/strata/internal/sql/privilege"
)

// Visibility: which databases, tables and threads an account sees in SHOW
// DATABASES, SHOW TABLES, SHOW PROCESSLIST and information_schema. As in
// MySQL, an object is listed only to accounts holding some privilege on it;
// information_schema is visible to all.

// canSeeDB reports whether SHOW DATABASES and information_schema.SCHEMATA
// list db: with SHOW DATABASES, or some privilege in db.
func (s *Session) canSeeDB(db string) bool {
	sub := s.subject()
	if sub == nil || strings.EqualFold(db, "information_schema") {
		return true
	}
	return sub.Grants.Global.Has(privilege.ShowDatabases) || sub.Grants.AnyInDB(db)
}

// canSeeTable reports whether SHOW TABLES and information_schema list
// db.table: some privilege on the table.
func (s *Session) canSeeTable(db, table string) bool {
	sub := s.subject()
	if sub == nil || strings.EqualFold(db, "information_schema") {
		return true
	}
	return sub.Grants.SeesTable(db, table)
}

// canSeeThread reports whether SHOW PROCESSLIST lists o: the user's own
// threads, all of them with PROCESS.
func (s *Session) canSeeThread(o *Session) bool {
	sub := s.subject()
	return sub == nil || o.shownIdentity().user == s.User || sub.Grants.Global.Has(privilege.Process)
}

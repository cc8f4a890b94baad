package privilege

import (
	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Need is one privilege requirement: privileges at a level on one object.
// Rule.Need builds a statement's main Need; Read, OnTable and OnColumn
// build the further ones (tables read, rename targets).
type Need struct {
	Level   Level
	Privs   Priv
	Any     bool
	OrMySQL Priv
	DB      string
	Table   string
	// Column, when set, is the column (as the statement spells it) that
	// needs Privs: held on the table or on the column itself (1143).
	Column string
	// Columns: privileges held on some column of the table satisfy this
	// table-level need, because the statement's columns are checked one by
	// one as well (MySQL's check_grant deferring to the column checks).
	Columns bool
	Deny    Denial
	Command string
	Names   string
}

// Read is the need to read db.table: SELECT.
func Read(db, table string) Need { return RuleFor(KindSelect).Need(db, table) }

// OnTable is the need for all of p on db.table, refused with 1142 naming
// the missing privileges.
func OnTable(p Priv, db, table string) Need {
	return Need{Level: Table, Privs: p, DB: db, Table: table, Deny: DenyTable}
}

// OnColumn is the need to read a column of db.table (SELECT, refused with
// 1143 naming the column).
func OnColumn(db, table, column string) Need { return OnColumns(Select, db, table, column) }

// Subject is who asks: the session's user and the grants of its account.
type Subject struct {
	// User is the account's user name.
	User string
	// Host is the client's host ("localhost" for loopback clients): MySQL's
	// host_or_ip, named by table-level refusals.
	Host string
	// AccountHost is the account's host pattern ('%'): MySQL's priv_host,
	// named by database-level and global refusals.
	AccountHost string
	// Password reports whether the client authenticated with a password
	// (the "using password" of 1045).
	Password bool
	Grants   Grants
}

// Allowed reports whether the subject satisfies n.
func (s *Subject) Allowed(n Need) bool {
	if n.OrMySQL != 0 && s.Grants.OnDB("mysql").Has(n.OrMySQL) {
		return true
	}
	var have Priv
	switch n.Level {
	case None:
		return true
	case Global, Owner:
		have = s.Grants.Global
	case Database:
		if n.Privs == 0 {
			return s.Grants.AnyInDB(n.DB)
		}
		have = s.Grants.OnDB(n.DB)
	case Table:
		have = s.Grants.On(n.DB, n.Table)
		if n.Column != "" {
			have |= s.Grants.Column[ColumnKey(n.DB, n.Table, n.Column)]
		} else if n.Columns {
			have |= s.Grants.ColumnPrivs(n.DB, n.Table)
		}
	default:
		return false
	}
	if n.Any {
		return have.HasAny(n.Privs)
	}
	return have.Has(n.Privs)
}

// Check returns nil when the subject satisfies n, else the MySQL error.
func (s *Subject) Check(n Need) error {
	if s.Allowed(n) {
		return nil
	}
	return s.Denied(n)
}

// Denied is the MySQL error refusing n.
func (s *Subject) Denied(n Need) error {
	switch n.Deny {
	case DenyTable:
		cmd := n.Command
		if cmd == "" {
			held := s.Grants.On(n.DB, n.Table)
			if n.Column != "" {
				held |= s.Grants.Column[ColumnKey(n.DB, n.Table, n.Column)]
			}
			missing := n.Privs &^ held
			if missing == 0 {
				missing = n.Privs
			}
			cmd = missing.Describe()
		}
		if n.Column != "" {
			return sqlerr.New(erColumnAccessDenied, sqlerror.SSClientError, "%s command denied to user '%s'@'%s' for column '%s' in table '%s'", cmd, s.User, s.Host, n.Column, n.Table)
		}
		return sqlerr.New(sqlerror.ERTableAccessDenied, sqlerror.SSClientError, "%s command denied to user '%s'@'%s' for table '%s'", cmd, s.User, s.Host, n.Table)
	case DenyDB:
		return DBDenied(s.User, s.AccountHost, n.DB)
	case DenyDBClientHost:
		return DBDenied(s.User, s.Host, n.DB)
	case DenySpecific:
		return SpecificDenied(n.Names)
	case DenyAccess:
		pw := "NO"
		if s.Password {
			pw = "YES"
		}
		return sqlerr.New(sqlerror.ERAccessDeniedError, sqlerror.SSAccessDeniedError, "Access denied for user '%s'@'%s' (using password: %s)", s.User, s.AccountHost, pw)
	}
	return SpecificDenied("SUPER")
}

// CheckKill checks KILL of thread id owned by targetUser: allowed on the
// user's own threads; otherwise it needs CONNECTION_ADMIN or SUPER, and
// SYSTEM_USER as well when the target holds SYSTEM_USER.
func (s *Subject) CheckKill(id uint64, targetUser string, targetSystemUser bool) error {
	if targetUser == s.User {
		return nil
	}
	if !s.Allowed(RuleFor(KindKill).Need("", "")) || targetSystemUser && !s.Grants.Global.Has(SystemUser) {
		return KillDenied(id)
	}
	return nil
}

// DBDenied is 1044.
func DBDenied(user, host, db string) error {
	return sqlerr.New(sqlerror.ERDBAccessDenied, sqlerror.SSClientError, "Access denied for user '%s'@'%s' to database '%s'", user, host, db)
}

// SpecificDenied is 1227 naming what the operation needs.
func SpecificDenied(names string) error {
	return sqlerr.New(sqlerror.ERSpecifiedAccessDenied, sqlerror.SSClientError, "Access denied; you need (at least one of) the %s privilege(s) for this operation", names)
}

// KillDenied is 1095.
func KillDenied(id uint64) error {
	return sqlerr.New(sqlerror.ERKillDenied, sqlerror.SSUnknownSQLState, "You are not owner of thread %d", id)
}

// erColumnAccessDenied is ER_COLUMNACCESS_DENIED_ERROR (sqlerror has no
// name for it).
const erColumnAccessDenied sqlerror.ErrorCode = 1143

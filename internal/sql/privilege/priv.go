package privilege

import (
	"math/bits"
	"strings"
)

// Priv is a set of privileges. The static privileges use MySQL's bit
// numbers (sql/auth/auth_acls.h), the dynamic ones follow.
type Priv uint64

// Static privileges, in MySQL's order.
const (
	Select Priv = 1 << iota
	Insert
	Update
	Delete
	Create
	Drop
	Reload
	Shutdown
	Process
	File
	GrantOption
	References
	Index
	Alter
	ShowDatabases
	Super
	CreateTemporaryTables
	LockTables
	Execute
	ReplicationSlave
	ReplicationClient
	CreateView
	ShowView
	CreateRoutine
	AlterRoutine
	CreateUser
	Event
	Trigger
	CreateTablespace
	CreateRole
	DropRole
)

// Dynamic privileges (MySQL 8.0 grants them at global level only).
const (
	ConnectionAdmin Priv = DropRole << (iota + 1)
	SystemVariablesAdmin
	SessionVariablesAdmin
	PersistROVariablesAdmin
	SystemUser
	BinlogAdmin
	RoleAdmin
	BackupAdmin
	ReplicationSlaveAdmin
)

// Level masks: what can be granted at each level.
const (
	// TableLevel is MySQL's TABLE_ACLS: the privileges a table grant may
	// hold. Holding any of them on a table makes the table visible.
	TableLevel = Select | Insert | Update | Delete | Create | Drop | GrantOption |
		References | Index | Alter | CreateView | ShowView | Trigger
	// DBLevel is MySQL's DB_ACLS.
	DBLevel = TableLevel | CreateTemporaryTables | LockTables | Execute |
		CreateRoutine | AlterRoutine | Event
	// StaticAll is every static privilege.
	StaticAll = DropRole<<1 - 1
	// Dynamic is every dynamic privilege strata knows.
	Dynamic = (ReplicationSlaveAdmin<<1 - 1) &^ StaticAll
	// GlobalLevel is everything a global grant may hold.
	GlobalLevel = StaticAll | Dynamic
)

// names are the privileges as GRANT spells them, by bit number.
var names = [...]string{
	"SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "RELOAD", "SHUTDOWN",
	"PROCESS", "FILE", "GRANT OPTION", "REFERENCES", "INDEX", "ALTER", "SHOW DATABASES",
	"SUPER", "CREATE TEMPORARY TABLES", "LOCK TABLES", "EXECUTE", "REPLICATION SLAVE",
	"REPLICATION CLIENT", "CREATE VIEW", "SHOW VIEW", "CREATE ROUTINE", "ALTER ROUTINE",
	"CREATE USER", "EVENT", "TRIGGER", "CREATE TABLESPACE", "CREATE ROLE", "DROP ROLE",
	// dynamic
	"CONNECTION_ADMIN", "SYSTEM_VARIABLES_ADMIN", "SESSION_VARIABLES_ADMIN",
	"PERSIST_RO_VARIABLES_ADMIN", "SYSTEM_USER", "BINLOG_ADMIN", "ROLE_ADMIN",
	"BACKUP_ADMIN", "REPLICATION_SLAVE_ADMIN",
}

// commands are the privileges as MySQL's error messages name them
// (command_array in sql/auth/sql_authorization.cc): as names, except GRANT.
func command(bit int) string {
	if Priv(1)<<bit == GrantOption {
		return "GRANT"
	}
	return names[bit]
}

var byName = func() map[string]Priv {
	m := make(map[string]Priv, len(names)+2)
	for i, n := range names {
		m[n] = 1 << i
	}
	return m
}()

// Parse returns the privilege named by name (upper case, single spaces:
// "SELECT", "LOCK TABLES", "CONNECTION_ADMIN"). USAGE is the empty set.
func Parse(name string) (Priv, bool) {
	if name == "USAGE" {
		return 0, true
	}
	p, ok := byName[name]
	return p, ok
}

// Names lists the privileges of p as GRANT spells them, in MySQL's order.
func (p Priv) Names() []string {
	var out []string
	for p != 0 {
		b := bits.TrailingZeros64(uint64(p))
		out = append(out, names[b])
		p &^= 1 << b
	}
	return out
}

// Describe names the privileges of p as MySQL's "%s command denied" errors
// do: "SELECT, INSERT".
func (p Priv) Describe() string {
	var sb strings.Builder
	for p != 0 {
		b := bits.TrailingZeros64(uint64(p))
		if sb.Len() > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(command(b))
		p &^= 1 << b
	}
	return sb.String()
}

// Has reports whether p holds every privilege of q.
func (p Priv) Has(q Priv) bool { return p&q == q }

// HasAny reports whether p holds at least one privilege of q.
func (p Priv) HasAny(q Priv) bool { return p&q != 0 }

// All is what GRANT ALL [PRIVILEGES] means at a level: every privilege the
// level allows except GRANT OPTION.
func All(level Level) Priv {
	switch level {
	case Global:
		return GlobalLevel &^ GrantOption
	case Database:
		return DBLevel &^ GrantOption
	}
	return TableLevel &^ GrantOption
}

// Level is where a privilege is granted or checked.
type Level uint8

const (
	// None: the statement needs no privilege.
	None Level = iota
	// Global: *.*.
	Global
	// Database: db.*.
	Database
	// Table: db.table.
	Table
	// Owner: the statement acts on a session; allowed on the user's own
	// sessions, otherwise it needs the rule's privileges (KILL).
	Owner
)

func (l Level) String() string {
	switch l {
	case None:
		return "none"
	case Global:
		return "global"
	case Database:
		return "database"
	case Table:
		return "table"
	case Owner:
		return "owner"
	}
	return "?"
}

// Grantable reports which privileges of p may not be granted at level:
// MySQL refuses global-only privileges on db.* (1221) and non-table
// privileges on a table (1144).
func Grantable(p Priv, level Level) (bad Priv) {
	switch level {
	case Database:
		return p &^ DBLevel
	case Table:
		return p &^ TableLevel
	}
	return p &^ GlobalLevel
}

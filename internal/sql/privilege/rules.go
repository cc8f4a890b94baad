package privilege

// Kind is a statement kind: every statement strata executes is classified
// into exactly one, and each has a Rule.
type Kind uint8

// Statement kinds. KindUnknown is what the SQL layer answers for a
// statement it does not classify; its rule denies it to all but
// administrators.
const (
	KindUnknown Kind = iota

	// Queries and data changes.
	KindSelect
	KindSelectForUpdate
	KindSelectIntoFile
	KindInsert
	KindReplace
	KindUpdate
	KindDelete
	KindDo
	KindSet
	KindSetGlobal
	KindSetPersistOnly
	KindTransaction
	KindUse
	KindLockTables
	KindUnlockTables
	KindExplain
	KindPrepareSQL

	// SHOW and DESCRIBE.
	KindShowPublic
	KindShowProcesslist
	KindShowDatabases
	KindShowTables
	KindShowTableStatus
	KindShowTriggers
	KindShowEvents
	KindShowColumns
	KindShowIndex
	KindShowCreateTable
	KindShowCreateDatabase
	KindShowEngine
	KindShowReplicaStatus
	KindShowReplicas
	KindShowGrants

	// Data definition.
	KindCreateDatabase
	KindAlterDatabase
	KindDropDatabase
	KindCreateTable
	KindCreateTemporaryTable
	KindAlterTable
	KindCreateIndex
	KindDropIndex
	KindDropTable
	KindTruncateTable
	KindRenameTable
	KindCreateView
	KindAlterView
	KindDropView
	KindShowCreateView

	// Table maintenance and administration.
	KindAnalyzeTable
	KindOptimizeTable
	KindRepairTable
	KindCheckTable
	KindChecksumTable
	KindFlush
	KindKill

	// Accounts.
	KindCreateUser
	KindDropUser
	KindAlterUser
	KindSetPassword
	KindGrant
	KindRevoke

	// Loading data (after the others, so their numbers stay).
	KindLoadData

	// Backups (CLONE LOCAL DATA DIRECTORY).
	KindClone

	// Replication (CHANGE REPLICATION SOURCE TO, START/STOP/RESET REPLICA).
	KindReplicaAdmin

	// mysqlbinlog's output: BINLOG '…' and SET of the restricted session
	// variables (pseudo_thread_id, gtid_next, …).
	KindBinlog
	KindSetRestricted

	numKinds
)

// Denial says how a refusal is reported.
type Denial uint8

const (
	// DenyTable: 1142 "<command> command denied to user 'u'@'host' for
	// table 't'" (1143 "… for column 'c' in table 't'" for a column read).
	DenyTable Denial = iota
	// DenyDB: 1044 "Access denied for user 'u'@'account host' to database
	// 'd'".
	DenyDB
	// DenyDBClientHost: 1044 naming the client's host rather than the
	// account's (SHOW CREATE DATABASE, as MySQL does).
	DenyDBClientHost
	// DenySpecific: 1227 "Access denied; you need (at least one of) the
	// <Names> privilege(s) for this operation".
	DenySpecific
	// DenyAccess: 1045 "Access denied for user 'u'@'account host' (using
	// password: YES)" — MySQL's answer to a global-level check that fails
	// (GRANT … ON *.*, SELECT … INTO OUTFILE).
	DenyAccess
	// DenyKill: 1095 "You are not owner of thread N".
	DenyKill
)

// Rule is the privilege rule of a statement kind.
type Rule struct {
	// Name is the statement, as documentation and tests name it.
	Name string
	// Level is where Privs are checked: None needs nothing; Table and
	// Database name the object the statement acts on; Owner is KILL's.
	Level Level
	// Privs are the privileges needed on the object. At Database level an
	// empty Privs means "some privilege in the database" (a grant on one of
	// its tables counts).
	Privs Priv
	// Any: one privilege of Privs suffices; otherwise all are needed.
	Any bool
	// OrMySQL: these privileges on the mysql schema also satisfy the rule
	// (account statements).
	OrMySQL Priv
	// Deny says how a refusal is reported; Command is the command a 1142
	// names ("" names the missing privileges, as MySQL does for most
	// statements); Names is the text of a 1227.
	Deny    Denial
	Command string
	Names   string
	// Doc is MySQL 8.0's rule for the statement, including the parts the
	// SQL layer adds as further Needs (tables read, rename targets).
	Doc string
}

// rules is the rule table, indexed by Kind.
var rules = [numKinds]Rule{
	KindUnknown: {Name: "unclassified statement", Level: Global, Privs: Super, Deny: DenySpecific, Names: "SUPER",
		Doc: "A statement the SQL layer does not classify (CALL, SQL-level PREPARE/EXECUTE, Vitess-only statements): refused unless the account holds SUPER; strata then answers that it is not supported."},

	KindSelect: {Name: "SELECT", Level: Table, Privs: Select, Deny: DenyTable,
		Doc: "SELECT on every base table read: joins, subqueries, derived tables, CTE bodies, UNION arms (CTE references need nothing), and on every column referenced anywhere (SELECT * reads all; 1143) unless held on the table; SELECT on some column passes the table check (COUNT(*)). information_schema and the world-readable performance_schema tables need nothing."},
	KindSelectForUpdate: {Name: "SELECT ... FOR UPDATE", Level: Table, Privs: Update | Delete | LockTables, Any: true, Deny: DenyTable, Command: "SELECT with locking clause",
		Doc: "SELECT, and UPDATE, DELETE or LOCK TABLES, on every table of the locking query block (FOR SHARE and LOCK IN SHARE MODE need SELECT only, as since MySQL 8.0.22)."},
	KindSelectIntoFile: {Name: "SELECT ... INTO OUTFILE", Level: Global, Privs: File, Deny: DenyAccess,
		Doc: "FILE (global), plus SELECT on the tables read."},
	KindInsert: {Name: "INSERT", Level: Table, Privs: Insert, Deny: DenyTable,
		Doc: "INSERT on the target's columns listed (all without a list); SELECT on tables read (INSERT ... SELECT, subqueries); ON DUPLICATE KEY UPDATE adds UPDATE on the columns assigned and SELECT on the target columns its expressions read (1143 per column)."},
	KindClone: {Name: "CLONE", Level: Global, Privs: BackupAdmin, Deny: DenySpecific, Names: "BACKUP_ADMIN",
		Doc: "BACKUP_ADMIN (global)."},
	KindReplicaAdmin: {Name: "CHANGE REPLICATION SOURCE / START, STOP, RESET REPLICA", Level: Global, Privs: Super | ReplicationSlaveAdmin, Any: true, Deny: DenySpecific, Names: "SUPER or REPLICATION_SLAVE_ADMIN",
		Doc: "SUPER or REPLICATION_SLAVE_ADMIN (global)."},
	KindBinlog: {Name: "BINLOG", Level: Global, Privs: Super | BinlogAdmin, Any: true, Deny: DenySpecific, Names: "SUPER or BINLOG_ADMIN",
		Doc: "SUPER or BINLOG_ADMIN (global), as MySQL 8.0 asks of a format description event; strata then refuses the statement (1235)."},
	KindSetRestricted: {Name: "SET restricted session variable", Level: Global, Privs: Super | SystemVariablesAdmin | SessionVariablesAdmin, Any: true, Deny: DenySpecific, Names: "SUPER, SYSTEM_VARIABLES_ADMIN or SESSION_VARIABLES_ADMIN",
		Doc: "SUPER, SYSTEM_VARIABLES_ADMIN or SESSION_VARIABLES_ADMIN (global) to set pseudo_slave_mode, pseudo_thread_id, gtid_next, original_commit_timestamp, original_server_version, immediate_server_version and MariaDB's gtid_domain_id, gtid_seq_no, skip_parallel_replication for the session."},
	KindLoadData: {Name: "LOAD DATA", Level: Table, Privs: Insert, Deny: DenyTable,
		Doc: "FILE (global; not with LOCAL) first, refused with 1045; then INSERT on the table, and DELETE too with REPLACE (1142)."},
	KindReplace: {Name: "REPLACE", Level: Table, Privs: Insert | Delete, Deny: DenyTable,
		Doc: "INSERT and DELETE on the target; SELECT on tables read."},
	KindUpdate: {Name: "UPDATE", Level: Table, Privs: Update, Deny: DenyTable,
		Doc: "UPDATE on each column assigned; SELECT on the other tables of the statement and on the columns read in SET, WHERE, ORDER BY and join conditions (1143)."},
	KindDelete: {Name: "DELETE", Level: Table, Privs: Delete, Deny: DenyTable,
		Doc: "DELETE on each table deleted from; SELECT on the other tables and on the columns read (1143)."},
	KindDo: {Name: "DO", Level: None,
		Doc: "Nothing, plus SELECT on tables read by subqueries."},
	KindSet: {Name: "SET (session and user variables)", Level: None,
		Doc: "Nothing, plus SELECT on tables read by subqueries."},
	KindSetGlobal: {Name: "SET GLOBAL / SET PERSIST", Level: Global, Privs: Super | SystemVariablesAdmin, Any: true, Deny: DenySpecific, Names: "SUPER or SYSTEM_VARIABLES_ADMIN",
		Doc: "SUPER or SYSTEM_VARIABLES_ADMIN."},
	KindSetPersistOnly: {Name: "SET PERSIST_ONLY", Level: Global, Privs: SystemVariablesAdmin | PersistROVariablesAdmin, Deny: DenySpecific, Names: "SYSTEM_VARIABLES_ADMIN and PERSIST_RO_VARIABLES_ADMIN",
		Doc: "SYSTEM_VARIABLES_ADMIN and PERSIST_RO_VARIABLES_ADMIN."},
	KindTransaction: {Name: "BEGIN / COMMIT / ROLLBACK / SAVEPOINT / RELEASE", Level: None,
		Doc: "Nothing."},
	KindUse: {Name: "USE", Level: Database, Deny: DenyDB,
		Doc: "Some privilege in the database (a table grant counts); information_schema is open to all."},
	KindLockTables: {Name: "LOCK TABLES", Level: Table, Privs: Select | LockTables, Deny: DenyTable,
		Doc: "SELECT and LOCK TABLES on every table locked."},
	KindUnlockTables: {Name: "UNLOCK TABLES", Level: None,
		Doc: "Nothing."},
	KindPrepareSQL: {Name: "PREPARE / EXECUTE / DEALLOCATE PREPARE", Level: None,
		Doc: "Nothing: the prepared statement's own rule is checked when it is prepared and at every execution."},
	KindExplain: {Name: "EXPLAIN <statement>", Level: None,
		Doc: "The rule of the explained statement."},

	KindShowPublic: {Name: "SHOW VARIABLES / STATUS / WARNINGS / ERRORS / ENGINES / CHARSET / COLLATION / PLUGINS / PRIVILEGES / PROFILES / OPEN TABLES / PROCEDURE STATUS / FUNCTION STATUS", Level: None,
		Doc: "Nothing."},
	KindShowProcesslist: {Name: "SHOW PROCESSLIST", Level: None,
		Doc: "Nothing; without PROCESS only the user's own threads are listed."},
	KindShowDatabases: {Name: "SHOW DATABASES", Level: None,
		Doc: "Nothing; without SHOW DATABASES only databases the account holds some privilege in are listed."},
	KindShowTables: {Name: "SHOW TABLES", Level: Database, Deny: DenyDB,
		Doc: "Some privilege in the database; only tables the account holds some privilege on are listed."},
	KindShowTableStatus: {Name: "SHOW TABLE STATUS", Level: Database, Deny: DenyDB,
		Doc: "As SHOW TABLES."},
	KindShowTriggers: {Name: "SHOW TRIGGERS", Level: Database, Deny: DenyDB,
		Doc: "Some privilege in the database."},
	KindShowEvents: {Name: "SHOW EVENTS", Level: Database, Deny: DenyDB,
		Doc: "Some privilege in the database."},
	KindShowColumns: {Name: "SHOW COLUMNS / DESCRIBE", Level: Table, Privs: TableLevel, Any: true, Deny: DenyTable, Command: "SELECT",
		Doc: "Some privilege on the table; refused with \"SELECT command denied\"."},
	KindShowIndex: {Name: "SHOW INDEX", Level: Table, Privs: TableLevel, Any: true, Deny: DenyTable, Command: "SELECT",
		Doc: "Some privilege on the table; refused with \"SELECT command denied\"."},
	KindShowCreateTable: {Name: "SHOW CREATE TABLE", Level: Table, Privs: TableLevel, Any: true, Deny: DenyTable, Command: "SHOW",
		Doc: "Some privilege on the table; refused with \"SHOW command denied\"."},
	KindShowCreateDatabase: {Name: "SHOW CREATE DATABASE", Level: Database, Deny: DenyDBClientHost,
		Doc: "Some privilege in the database."},
	KindShowEngine: {Name: "SHOW ENGINE", Level: Global, Privs: Process, Deny: DenySpecific, Names: "PROCESS",
		Doc: "PROCESS."},
	KindShowReplicaStatus: {Name: "SHOW REPLICA STATUS / BINARY LOG STATUS / BINARY LOGS", Level: Global, Privs: Super | ReplicationClient, Any: true, Deny: DenySpecific, Names: "SUPER, REPLICATION CLIENT",
		Doc: "SUPER or REPLICATION CLIENT."},
	KindShowReplicas: {Name: "SHOW REPLICAS / BINLOG EVENTS", Level: Global, Privs: ReplicationSlave, Deny: DenySpecific, Names: "REPLICATION SLAVE",
		Doc: "REPLICATION SLAVE."},
	KindShowGrants: {Name: "SHOW GRANTS FOR another account", Level: Database, Privs: Select, Deny: DenyDB,
		Doc: "Nothing for the current account; SELECT on the mysql schema for another."},

	KindCreateDatabase: {Name: "CREATE DATABASE", Level: Database, Privs: Create, Deny: DenyDB,
		Doc: "CREATE on the database."},
	KindAlterDatabase: {Name: "ALTER DATABASE", Level: Database, Privs: Alter, Deny: DenyDB,
		Doc: "ALTER on the database."},
	KindDropDatabase: {Name: "DROP DATABASE", Level: Database, Privs: Drop, Deny: DenyDB,
		Doc: "DROP on the database."},
	KindCreateTable: {Name: "CREATE TABLE", Level: Table, Privs: Create, Deny: DenyTable,
		Doc: "CREATE on the table; ... LIKE adds SELECT on the source; ... SELECT adds INSERT on the table and SELECT on the tables read."},
	KindCreateTemporaryTable: {Name: "CREATE TEMPORARY TABLE", Level: Database, Privs: CreateTemporaryTables, Deny: DenyDB,
		Doc: "CREATE TEMPORARY TABLES on the database."},
	KindAlterTable: {Name: "ALTER TABLE", Level: Table, Privs: Alter, Deny: DenyTable,
		Doc: "ALTER on the table; RENAME TO adds DROP on it and CREATE and INSERT on the new name."},
	KindCreateIndex: {Name: "CREATE INDEX", Level: Table, Privs: Index, Deny: DenyTable,
		Doc: "INDEX on the table."},
	KindDropIndex: {Name: "DROP INDEX", Level: Table, Privs: Index, Deny: DenyTable,
		Doc: "INDEX on the table."},
	KindDropTable: {Name: "DROP TABLE", Level: Table, Privs: Drop, Deny: DenyTable,
		Doc: "DROP on every table."},
	KindTruncateTable: {Name: "TRUNCATE TABLE", Level: Table, Privs: Drop, Deny: DenyTable,
		Doc: "DROP on the table."},
	KindRenameTable: {Name: "RENAME TABLE", Level: Table, Privs: Alter | Drop, Deny: DenyTable,
		Doc: "ALTER and DROP on every old name; CREATE and INSERT on every new name."},
	KindCreateView: {Name: "CREATE VIEW", Level: Table, Privs: CreateView, Deny: DenyTable,
		Doc: "CREATE VIEW on the view (and DROP with OR REPLACE); SELECT on the tables read."},
	KindAlterView: {Name: "ALTER VIEW", Level: Table, Privs: CreateView | Drop, Deny: DenyTable,
		Doc: "CREATE VIEW and DROP on the view; SELECT on the tables read."},
	KindDropView: {Name: "DROP VIEW", Level: Table, Privs: Drop, Deny: DenyTable,
		Doc: "DROP on every view."},
	KindShowCreateView: {Name: "SHOW CREATE VIEW", Level: Table, Privs: ShowView | Select, Deny: DenyTable, Command: "SHOW VIEW",
		Doc: "SHOW VIEW and SELECT on the view."},

	KindAnalyzeTable: {Name: "ANALYZE TABLE", Level: Table, Privs: Select | Insert, Deny: DenyTable,
		Doc: "SELECT and INSERT on every table."},
	KindOptimizeTable: {Name: "OPTIMIZE TABLE", Level: Table, Privs: Select | Insert, Deny: DenyTable,
		Doc: "SELECT and INSERT on every table."},
	KindRepairTable: {Name: "REPAIR TABLE", Level: Table, Privs: Select | Insert, Deny: DenyTable,
		Doc: "SELECT and INSERT on every table."},
	KindCheckTable: {Name: "CHECK TABLE", Level: Table, Privs: TableLevel, Any: true, Deny: DenyTable, Command: "SELECT",
		Doc: "Some privilege on every table; refused with \"SELECT command denied\"."},
	KindChecksumTable: {Name: "CHECKSUM TABLE", Level: Table, Privs: Select, Deny: DenyTable,
		Doc: "SELECT on every table."},
	KindFlush: {Name: "FLUSH", Level: Global, Privs: Reload, Deny: DenySpecific, Names: "RELOAD",
		Doc: "RELOAD."},
	KindKill: {Name: "KILL [CONNECTION | QUERY]", Level: Owner, Privs: ConnectionAdmin | Super, Any: true, Deny: DenyKill,
		Doc: "Nothing for the user's own threads; CONNECTION_ADMIN or SUPER for another user's, and SYSTEM_USER too when the target holds SYSTEM_USER (root does)."},

	KindCreateUser: {Name: "CREATE USER", Level: Global, Privs: CreateUser, OrMySQL: Insert, Deny: DenySpecific, Names: "CREATE USER",
		Doc: "CREATE USER, or INSERT on the mysql schema."},
	KindDropUser: {Name: "DROP USER", Level: Global, Privs: CreateUser, OrMySQL: Delete, Deny: DenySpecific, Names: "CREATE USER",
		Doc: "CREATE USER, or DELETE on the mysql schema."},
	KindAlterUser: {Name: "ALTER USER", Level: Global, Privs: CreateUser, OrMySQL: Update, Deny: DenySpecific, Names: "CREATE USER",
		Doc: "Nothing to change the current account's password; otherwise CREATE USER, or UPDATE on the mysql schema."},
	KindSetPassword: {Name: "SET PASSWORD FOR another account", Level: Database, Privs: Update, Deny: DenyDB,
		Doc: "Nothing for the current account; otherwise UPDATE on the mysql schema (or CREATE USER)."},
	KindGrant: {Name: "GRANT", Level: Table, Privs: GrantOption, Deny: DenyTable,
		Doc: "GRANT OPTION and every privilege granted, at the grant's level or above; refused with 1045 for *.*, 1044 for db.*, 1142 for a table."},
	KindRevoke: {Name: "REVOKE", Level: Table, Privs: GrantOption, Deny: DenyTable,
		Doc: "As GRANT."},
}

// RuleFor returns the rule of kind k. A kind without a rule gets
// KindUnknown's: denial is the default.
func RuleFor(k Kind) *Rule {
	if k < numKinds && rules[k].Name != "" {
		return &rules[k]
	}
	return &rules[KindUnknown]
}

// Kinds lists every statement kind (for tests and documentation).
func Kinds() []Kind {
	out := make([]Kind, numKinds)
	for i := range out {
		out[i] = Kind(i)
	}
	return out
}

// String names the kind by its rule.
func (k Kind) String() string { return RuleFor(k).Name }

// Need applies the rule to one object (db and table as the level needs).
func (r *Rule) Need(db, table string) Need {
	return Need{Level: r.Level, Privs: r.Privs, Any: r.Any, OrMySQL: r.OrMySQL,
		DB: db, Table: table, Deny: r.Deny, Command: r.Command, Names: r.Names}
}

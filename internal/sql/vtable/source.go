package vtable

import (
	"time"

	"vitess.io/vitess/go/sqltypes"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/privilege"
)

// Source is what the generators read: the engine's and the asking
// session's state, as one statement execution sees it. The SQL layer
// implements it per execution; vtable never reaches further into the
// engine than these methods.
type Source interface {
	// Catalog is the schema catalog the rows describe.
	Catalog() *catalog.Catalog
	// Parser parses the definition texts the catalog keeps (FOREIGN KEY
	// clauses).
	Parser() *sqlparser.Parser

	// CanSeeDB reports whether the session may see database db (SHOW
	// DATABASES, SCHEMATA).
	CanSeeDB(db string) bool
	// CanSeeTable reports whether the session may see db.table: rows that
	// describe a table it cannot see are not listed.
	CanSeeTable(db, table string) bool

	// Conn describes the asking connection.
	Conn() Conn
	// Threads lists the connections the session may see (its own, or
	// every one with the PROCESS privilege), by id.
	Threads() []Thread
	// Subject is who the session acts as, with its grants; nil for root,
	// which holds every privilege.
	Subject() *privilege.Subject
	// AccountHost is the host pattern of the session's account ('%').
	AccountHost() string

	// SysVarNames lists the system variables in listing order.
	SysVarNames() []string
	// SysVar returns the global value of a system variable or, without
	// global, the session's.
	SysVar(name string, global bool) sqltypes.Value
	// StatusVars lists the status variables as name/value pairs: the
	// session's, or with global the server's.
	StatusVars(global bool) [][]string

	// View resolves a view for TABLES, COLUMNS and VIEWS.
	View(v *catalog.View) ViewInfo

	// TableRows estimates the rows of a user table (TABLES.TABLE_ROWS).
	TableRows(t *catalog.Table) uint64
	// NextAutoIncrement returns the value the next auto-increment insert
	// into t would take, ok false when it cannot be read.
	NextAutoIncrement(t *catalog.Table) (v uint64, ok bool)
	// StartTime is when the server started (the CREATE_TIME of the system
	// views).
	StartTime() time.Time
	// Storage is the storage engine, for the STRATA_* tables.
	Storage() Storage
	// Transactions lists the open transactions of the sessions the
	// session may see (its own, or every one with PROCESS), by id.
	Transactions() []Trx
	// LockWaits lists, for the waiting transactions the session may see,
	// one row per transaction each waits for.
	LockWaits() []LockWait

	// TimeZone is the session's time zone, which TIMESTAMP columns
	// (CREATE_TIME, a trigger's CREATED) are shown in.
	TimeZone() *time.Location
}

// Storage is the storage engine's state the STRATA_* tables show
// (*kv.DB implements it).
type Storage interface {
	// EngineStats returns the LSM tree's current figures.
	EngineStats() kv.EngineStats
	// TableFiles lists the table files of the current version.
	TableFiles() ([]kv.TableFile, error)
}

// Trx is an open transaction (INNODB_TRX).
type Trx struct {
	// ID is the transaction's id; Started when the statement that began it
	// started; ThreadID its connection.
	ID       uint64
	Started  time.Time
	ThreadID uint32
	// Query is the statement the connection runs now, "" for none.
	Query string
	// Waiting is true while it waits for a row lock: WaitMode ("S", "X")
	// on the key WaitKey since WaitStarted.
	Waiting     bool
	WaitStarted time.Time
	WaitMode    string
	WaitKey     []byte
}

// LockWait is one edge of the waits-for graph (STRATA_LOCK_WAITS).
type LockWait struct {
	// Requesting waits for Blocking; the threads are their connections
	// (0 when the transaction has no connection, such as a background one).
	Requesting, Blocking             uint64
	RequestingThread, BlockingThread uint32
	// Mode is the requested mode ("S", "X"), Key the row's key, Since
	// when the wait began.
	Mode  string
	Key   []byte
	Since time.Time
}

// Thread is a connection as PROCESSLIST shows it.
type Thread struct {
	Conn
	// Command is "Query" while a statement runs, else "Sleep".
	Command string
	// Time is the seconds the thread has been in its command.
	Time int64
	// Info is the running statement's text; "" for none.
	Info string
	// State is the running statement's state ("" shows "executing").
	State string
}

// Conn describes a client connection (PROCESSLIST, mysql.user).
type Conn struct {
	// ID is the connection id (CONNECTION_ID()).
	ID uint32
	// User and Host are the client's user name and host.
	User, Host string
	// DB is the current database, "" for none.
	DB string
}

package auth_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/testserver"
)

// privCase is one statement kind of the privilege matrix. The statement
// runs four times, each as a fresh account holding priv at one level:
// nothing, on one table (db.table), on the database (db.*), globally
// (*.*). want holds the expected MySQL error code per level (0: success).
type privCase struct {
	kind privilege.Kind
	name string
	// priv is what is granted; where it cannot be granted (global-only
	// privileges; LOCK TABLES and CREATE TEMPORARY TABLES on a table),
	// low replaces it at table and database level and tablePriv at table
	// level.
	priv, low, tablePriv string
	// withGrant adds WITH GRANT OPTION.
	withGrant bool
	// db and table name the object of the table and database grants
	// (default m and t).
	db, table string
	// setup runs as root before each attempt; stmt runs as the account.
	// In both, {n} is a number unique to the attempt and {user} the
	// account's name.
	setup []string
	stmt  string
	want  [4]uint16
}

const (
	none = iota
	tableLevel
	dbLevel
	globalLevel
)

var levelNames = [4]string{"none", "table", "db", "global"}

// privMatrix: every statement kind × {no grant, table grant, db grant,
// global grant}, with MySQL 8.0's outcome.
var privMatrix = []privCase{
	// Queries.
	{kind: privilege.KindSelect, name: "SELECT", priv: "SELECT", stmt: "SELECT v FROM m.t WHERE id = 1", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindSelect, name: "SELECT join needs both tables", priv: "SELECT", stmt: "SELECT t.v, t2.w FROM m.t JOIN m.t2 ON t.id = t2.id", want: [4]uint16{1142, 1142, 0, 0}},
	{kind: privilege.KindSelect, name: "SELECT scalar subquery", priv: "SELECT", table: "t2", stmt: "SELECT (SELECT MAX(w) FROM m.t2)", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindSelect, name: "SELECT IN subquery", priv: "SELECT", stmt: "SELECT 1 FROM m.t WHERE id IN (SELECT id FROM m.t2)", want: [4]uint16{1142, 1142, 0, 0}},
	{kind: privilege.KindSelect, name: "SELECT derived table", priv: "SELECT", table: "t2", stmt: "SELECT * FROM (SELECT w FROM m.t2) AS d", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindSelect, name: "SELECT CTE body", priv: "SELECT", table: "t2", stmt: "WITH c AS (SELECT w FROM m.t2) SELECT * FROM c", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindSelect, name: "SELECT CTE reference needs nothing", priv: "SELECT", stmt: "WITH c AS (SELECT 1 AS x) SELECT x FROM c", want: [4]uint16{0, 0, 0, 0}},
	{kind: privilege.KindSelect, name: "SELECT qualified name is not the CTE", priv: "SELECT", stmt: "WITH t2 AS (SELECT 1 AS w) SELECT w FROM m.t2", want: [4]uint16{1142, 1142, 0, 0}},
	{kind: privilege.KindSelect, name: "SELECT UNION", priv: "SELECT", stmt: "SELECT v FROM m.t UNION SELECT w FROM m.t2", want: [4]uint16{1142, 1142, 0, 0}},
	{kind: privilege.KindSelect, name: "SELECT EXCEPT", priv: "SELECT", stmt: "SELECT v FROM m.t EXCEPT SELECT w FROM m.t2", want: [4]uint16{1142, 1142, 0, 0}},
	{kind: privilege.KindSelectForUpdate, name: "SELECT FOR UPDATE", priv: "SELECT, UPDATE", stmt: "SELECT v FROM m.t WHERE id = 1 FOR UPDATE", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindSelectForUpdate, name: "SELECT FOR UPDATE needs more than SELECT", priv: "SELECT", stmt: "SELECT v FROM m.t WHERE id = 1 FOR UPDATE", want: [4]uint16{1142, 1142, 1142, 1142}},
	{kind: privilege.KindSelect, name: "SELECT FOR SHARE needs SELECT only", priv: "SELECT", stmt: "SELECT v FROM m.t WHERE id = 1 FOR SHARE", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindLoadData, name: "LOAD DATA", priv: "INSERT, FILE", low: "INSERT", stmt: "LOAD DATA INFILE '/nonexistent' INTO TABLE m.t", want: [4]uint16{1045, 1045, 1045, 1290}},
	{kind: privilege.KindLoadData, name: "LOAD DATA REPLACE needs DELETE", priv: "INSERT, FILE", low: "INSERT", stmt: "LOAD DATA INFILE '/nonexistent' REPLACE INTO TABLE m.t", want: [4]uint16{1045, 1045, 1045, 1142}},
	{kind: privilege.KindSelectIntoFile, name: "SELECT INTO OUTFILE", priv: "SELECT, FILE", low: "SELECT", stmt: "SELECT v FROM m.t INTO OUTFILE '/nonexistent/x'", want: [4]uint16{1045, 1045, 1045, 1290}},
	{kind: privilege.KindSelect, name: "SELECT INTO @variable", priv: "SELECT", stmt: "SELECT v FROM m.t WHERE id = 1 INTO @x", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindExplain, name: "EXPLAIN SELECT", priv: "SELECT", stmt: "EXPLAIN SELECT v FROM m.t", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindDo, name: "DO with subquery", priv: "SELECT", stmt: "DO (SELECT COUNT(*) FROM m.t)", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindSet, name: "SET user variable with subquery", priv: "SELECT", stmt: "SET @x = (SELECT MAX(v) FROM m.t)", want: [4]uint16{1142, 0, 0, 0}},

	// Data changes.
	{kind: privilege.KindInsert, name: "INSERT", priv: "INSERT", stmt: "INSERT INTO m.t VALUES ({n}, 0)", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindInsert, name: "INSERT SELECT", priv: "INSERT, SELECT", stmt: "INSERT INTO m.t SELECT id + {n}, w FROM m.t2", want: [4]uint16{1142, 1142, 0, 0}},
	{kind: privilege.KindReplace, name: "REPLACE", priv: "INSERT, DELETE", stmt: "REPLACE INTO m.t VALUES (2, 20)", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindReplace, name: "REPLACE needs DELETE", priv: "INSERT", stmt: "REPLACE INTO m.t VALUES (2, 20)", want: [4]uint16{1142, 1142, 1142, 1142}},
	{kind: privilege.KindInsert, name: "INSERT ON DUPLICATE KEY UPDATE", priv: "INSERT, UPDATE", stmt: "INSERT INTO m.t VALUES (2, 20) ON DUPLICATE KEY UPDATE v = VALUES(v)", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindInsert, name: "INSERT ON DUPLICATE KEY UPDATE needs UPDATE", priv: "INSERT", stmt: "INSERT INTO m.t VALUES (2, 20) ON DUPLICATE KEY UPDATE v = VALUES(v)", want: [4]uint16{1142, 1142, 1142, 1142}},
	{kind: privilege.KindInsert, name: "INSERT ON DUPLICATE KEY UPDATE reading a column", priv: "INSERT, UPDATE", stmt: "INSERT INTO m.t VALUES (2, 20) ON DUPLICATE KEY UPDATE v = v + 0", want: [4]uint16{1142, 1143, 1143, 1143}},
	{kind: privilege.KindUpdate, name: "UPDATE", priv: "UPDATE", stmt: "UPDATE m.t SET v = 20 WHERE 1 = 0", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindUpdate, name: "UPDATE reading a column needs SELECT", priv: "UPDATE", stmt: "UPDATE m.t SET v = 20 WHERE id = 2", want: [4]uint16{1142, 1143, 1143, 1143}},
	{kind: privilege.KindUpdate, name: "UPDATE with SELECT", priv: "SELECT, UPDATE", stmt: "UPDATE m.t SET v = v WHERE id = 2", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindUpdate, name: "UPDATE multi-table", priv: "SELECT, UPDATE", stmt: "UPDATE m.t JOIN m.t2 ON t.id = t2.id SET t.v = t2.w WHERE t2.w < 0", want: [4]uint16{1142, 1142, 0, 0}},
	{kind: privilege.KindUpdate, name: "UPDATE with subquery", priv: "SELECT, UPDATE", stmt: "UPDATE m.t SET v = (SELECT MAX(w) FROM m.t2) WHERE 1 = 0", want: [4]uint16{1142, 1142, 0, 0}},
	{kind: privilege.KindDelete, name: "DELETE", priv: "DELETE", stmt: "DELETE FROM m.t WHERE 1 = 0", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindDelete, name: "DELETE reading a column needs SELECT", priv: "DELETE", stmt: "DELETE FROM m.t WHERE id = {n}", want: [4]uint16{1142, 1143, 1143, 1143}},
	{kind: privilege.KindDelete, name: "DELETE with SELECT", priv: "SELECT, DELETE", stmt: "DELETE FROM m.t WHERE id = {n}", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindDelete, name: "DELETE multi-table", priv: "SELECT, DELETE", stmt: "DELETE t FROM m.t JOIN m.t2 ON t.id = t2.id WHERE t2.w < 0", want: [4]uint16{1142, 1142, 0, 0}},

	// Sessions and variables.
	{kind: privilege.KindTransaction, name: "BEGIN/COMMIT", priv: "SELECT", stmt: "BEGIN", want: [4]uint16{0, 0, 0, 0}},
	{kind: privilege.KindSet, name: "SET session variable", priv: "SELECT", stmt: "SET SESSION sql_mode = 'STRICT_TRANS_TABLES'", want: [4]uint16{0, 0, 0, 0}},
	{kind: privilege.KindSetGlobal, name: "SET GLOBAL (SYSTEM_VARIABLES_ADMIN)", priv: "SYSTEM_VARIABLES_ADMIN", low: "ALL", stmt: "SET GLOBAL wait_timeout = 28800", want: [4]uint16{1227, 1227, 1227, 0}},
	{kind: privilege.KindSetGlobal, name: "SET GLOBAL (SUPER)", priv: "SUPER", low: "ALL", stmt: "SET GLOBAL wait_timeout = 28800", want: [4]uint16{1227, 1227, 1227, 0}},
	{kind: privilege.KindUse, name: "USE", priv: "SELECT", stmt: "USE m", want: [4]uint16{1044, 0, 0, 0}},
	{kind: privilege.KindLockTables, name: "LOCK TABLES", priv: "SELECT, LOCK TABLES", tablePriv: "SELECT", stmt: "LOCK TABLES m.t READ", want: [4]uint16{1142, 1142, 0, 0}},
	{kind: privilege.KindUnlockTables, name: "UNLOCK TABLES", priv: "SELECT", stmt: "UNLOCK TABLES", want: [4]uint16{0, 0, 0, 0}},
	{kind: privilege.KindPrepareSQL, name: "PREPARE needs nothing itself", priv: "SELECT", stmt: "PREPARE p FROM 'SELECT 1'", want: [4]uint16{0, 0, 0, 0}},
	{kind: privilege.KindPrepareSQL, name: "PREPARE checks the statement prepared", priv: "SELECT", stmt: "PREPARE p FROM 'SELECT v FROM m.t WHERE id = ?'", want: [4]uint16{1142, 0, 0, 0}},

	// SHOW and DESCRIBE.
	{kind: privilege.KindShowDatabases, name: "SHOW DATABASES", priv: "SELECT", stmt: "SHOW DATABASES", want: [4]uint16{0, 0, 0, 0}},
	{kind: privilege.KindShowTables, name: "SHOW TABLES", priv: "SELECT", stmt: "SHOW TABLES FROM m", want: [4]uint16{1044, 0, 0, 0}},
	{kind: privilege.KindShowTableStatus, name: "SHOW TABLE STATUS", priv: "SELECT", stmt: "SHOW TABLE STATUS FROM m", want: [4]uint16{1044, 0, 0, 0}},
	{kind: privilege.KindShowColumns, name: "SHOW COLUMNS", priv: "INSERT", stmt: "SHOW COLUMNS FROM m.t", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindShowColumns, name: "DESCRIBE", priv: "UPDATE", stmt: "DESCRIBE m.t", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindShowIndex, name: "SHOW INDEX", priv: "INDEX", stmt: "SHOW INDEX FROM m.t", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindShowCreateTable, name: "SHOW CREATE TABLE", priv: "ALTER", stmt: "SHOW CREATE TABLE m.t", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindShowCreateDatabase, name: "SHOW CREATE DATABASE", priv: "SELECT", stmt: "SHOW CREATE DATABASE m", want: [4]uint16{1044, 0, 0, 0}},
	{kind: privilege.KindShowPublic, name: "SHOW VARIABLES", priv: "SELECT", stmt: "SHOW VARIABLES LIKE 'wait_timeout'", want: [4]uint16{0, 0, 0, 0}},
	{kind: privilege.KindShowPublic, name: "SHOW STATUS", priv: "SELECT", stmt: "SHOW STATUS LIKE 'Uptime'", want: [4]uint16{0, 0, 0, 0}},
	{kind: privilege.KindShowPublic, name: "SHOW WARNINGS", priv: "SELECT", stmt: "SHOW WARNINGS", want: [4]uint16{0, 0, 0, 0}},
	{kind: privilege.KindShowProcesslist, name: "SHOW PROCESSLIST", priv: "SELECT", stmt: "SHOW PROCESSLIST", want: [4]uint16{0, 0, 0, 0}},
	{kind: privilege.KindShowEngine, name: "SHOW ENGINE", priv: "PROCESS", low: "ALL", stmt: "SHOW ENGINE INNODB STATUS", want: [4]uint16{1227, 1227, 1227, 0}},
	{kind: privilege.KindShowReplicaStatus, name: "SHOW REPLICA STATUS", priv: "REPLICATION CLIENT", low: "ALL", stmt: "SHOW REPLICA STATUS", want: [4]uint16{1227, 1227, 1227, 0}},
	{kind: privilege.KindShowReplicaStatus, name: "SHOW BINARY LOGS", priv: "REPLICATION CLIENT", low: "ALL", stmt: "SHOW BINARY LOGS", want: [4]uint16{1227, 1227, 1227, 1381}}, // the test server runs without --log-bin: 1381, as MySQL
	{kind: privilege.KindShowTriggers, name: "SHOW TRIGGERS", priv: "SELECT", stmt: "SHOW TRIGGERS FROM m", want: [4]uint16{1044, 0, 0, 0}},
	{kind: privilege.KindShowEvents, name: "SHOW EVENTS", priv: "SELECT", stmt: "SHOW EVENTS FROM m", want: [4]uint16{1044, 0, 0, 0}},
	{kind: privilege.KindShowReplicas, name: "SHOW REPLICAS", priv: "REPLICATION SLAVE", low: "ALL", stmt: "SHOW REPLICAS", want: [4]uint16{1227, 1227, 1227, 0}},
	{kind: privilege.KindShowReplicas, name: "SHOW BINLOG EVENTS", priv: "REPLICATION SLAVE", low: "ALL", stmt: "SHOW BINLOG EVENTS", want: [4]uint16{1227, 1227, 1227, 0}},
	{kind: privilege.KindShowGrants, name: "SHOW GRANTS (own)", priv: "SELECT", stmt: "SHOW GRANTS", want: [4]uint16{0, 0, 0, 0}},
	{kind: privilege.KindShowGrants, name: "SHOW GRANTS FOR another", priv: "SELECT", db: "mysql", table: "user", stmt: "SHOW GRANTS FOR 'root'@'localhost'", want: [4]uint16{1044, 1044, 0, 0}},

	// Data definition.
	{kind: privilege.KindCreateDatabase, name: "CREATE DATABASE", priv: "CREATE", db: "d{n}", table: "x", stmt: "CREATE DATABASE d{n}", want: [4]uint16{1044, 1044, 0, 0}},
	{kind: privilege.KindAlterDatabase, name: "ALTER DATABASE", priv: "ALTER", db: "d{n}", table: "x", setup: []string{"CREATE DATABASE d{n}"}, stmt: "ALTER DATABASE d{n} CHARACTER SET utf8mb4", want: [4]uint16{1044, 1044, 0, 0}},
	{kind: privilege.KindDropDatabase, name: "DROP DATABASE", priv: "DROP", db: "d{n}", table: "x", setup: []string{"CREATE DATABASE d{n}"}, stmt: "DROP DATABASE d{n}", want: [4]uint16{1044, 1044, 0, 0}},
	{kind: privilege.KindCreateTable, name: "CREATE TABLE", priv: "CREATE", table: "c{n}", stmt: "CREATE TABLE m.c{n} (a INT)", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindCreateTable, name: "CREATE TABLE LIKE needs SELECT on the source", priv: "CREATE, SELECT", table: "c{n}", stmt: "CREATE TABLE m.c{n} LIKE m.t2", want: [4]uint16{1142, 1142, 0, 0}},
	{kind: privilege.KindCreateTemporaryTable, name: "CREATE TEMPORARY TABLE", priv: "CREATE TEMPORARY TABLES", tablePriv: "ALL", stmt: "CREATE TEMPORARY TABLE m.tmp{n} (a INT)", want: [4]uint16{1044, 1044, 0, 0}},
	{kind: privilege.KindAlterTable, name: "ALTER TABLE", priv: "ALTER", table: "a{n}", setup: []string{"CREATE TABLE m.a{n} (a INT)"}, stmt: "ALTER TABLE m.a{n} ADD COLUMN b INT", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindAlterTable, name: "ALTER TABLE ADD INDEX needs ALTER", priv: "INDEX", table: "a{n}", setup: []string{"CREATE TABLE m.a{n} (a INT)"}, stmt: "ALTER TABLE m.a{n} ADD INDEX ix (a)", want: [4]uint16{1142, 1142, 1142, 1142}},
	{kind: privilege.KindAlterTable, name: "ALTER TABLE RENAME", priv: "ALTER, DROP, CREATE, INSERT", table: "r{n}", setup: []string{"CREATE TABLE m.r{n} (a INT)"}, stmt: "ALTER TABLE m.r{n} RENAME TO m.s{n}", want: [4]uint16{1142, 1142, 0, 0}},
	{kind: privilege.KindCreateIndex, name: "CREATE INDEX", priv: "INDEX", table: "i{n}", setup: []string{"CREATE TABLE m.i{n} (a INT)"}, stmt: "CREATE INDEX ix ON m.i{n} (a)", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindCreateIndex, name: "CREATE INDEX needs INDEX", priv: "ALTER", table: "i{n}", setup: []string{"CREATE TABLE m.i{n} (a INT)"}, stmt: "CREATE INDEX ix ON m.i{n} (a)", want: [4]uint16{1142, 1142, 1142, 1142}},
	{kind: privilege.KindDropIndex, name: "DROP INDEX", priv: "INDEX", table: "j{n}", setup: []string{"CREATE TABLE m.j{n} (a INT, KEY ix (a))"}, stmt: "DROP INDEX ix ON m.j{n}", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindDropTable, name: "DROP TABLE", priv: "DROP", table: "d{n}", setup: []string{"CREATE TABLE m.d{n} (a INT)"}, stmt: "DROP TABLE m.d{n}", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindTruncateTable, name: "TRUNCATE TABLE", priv: "DROP", table: "tr{n}", setup: []string{"CREATE TABLE m.tr{n} (a INT)"}, stmt: "TRUNCATE TABLE m.tr{n}", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindRenameTable, name: "RENAME TABLE", priv: "ALTER, DROP, CREATE, INSERT", table: "o{n}", setup: []string{"CREATE TABLE m.o{n} (a INT)"}, stmt: "RENAME TABLE m.o{n} TO m.p{n}", want: [4]uint16{1142, 1142, 0, 0}},
	// A table grant on the view lacks SELECT on the table it reads.
	{kind: privilege.KindCreateView, name: "CREATE VIEW", priv: "CREATE VIEW, SELECT", table: "v{n}", stmt: "CREATE VIEW m.v{n} AS SELECT v FROM m.t", want: [4]uint16{1142, 1142, 0, 0}},
	{kind: privilege.KindAlterView, name: "ALTER VIEW", priv: "CREATE VIEW, DROP, SELECT", table: "v{n}", setup: []string{"CREATE VIEW m.v{n} AS SELECT 1 AS x"}, stmt: "ALTER VIEW m.v{n} AS SELECT v FROM m.t", want: [4]uint16{1142, 1142, 0, 0}},
	{kind: privilege.KindDropView, name: "DROP VIEW", priv: "DROP", table: "v{n}", setup: []string{"CREATE VIEW m.v{n} AS SELECT 1 AS x"}, stmt: "DROP VIEW m.v{n}", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindShowCreateView, name: "SHOW CREATE VIEW", priv: "SHOW VIEW, SELECT", table: "v{n}", setup: []string{"CREATE VIEW m.v{n} AS SELECT 1 AS x"}, stmt: "SHOW CREATE VIEW m.v{n}", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindShowCreateView, name: "SHOW CREATE VIEW needs SHOW VIEW", priv: "SELECT", table: "v{n}", setup: []string{"CREATE VIEW m.v{n} AS SELECT 1 AS x"}, stmt: "SHOW CREATE VIEW m.v{n}", want: [4]uint16{1142, 1142, 1142, 1142}},

	// Table maintenance and administration.
	{kind: privilege.KindAnalyzeTable, name: "ANALYZE TABLE", priv: "SELECT, INSERT", stmt: "ANALYZE TABLE m.t", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindAnalyzeTable, name: "ANALYZE TABLE needs INSERT", priv: "SELECT", stmt: "ANALYZE TABLE m.t", want: [4]uint16{1142, 1142, 1142, 1142}},
	{kind: privilege.KindOptimizeTable, name: "OPTIMIZE TABLE", priv: "SELECT, INSERT", stmt: "OPTIMIZE TABLE m.t", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindRepairTable, name: "REPAIR TABLE", priv: "SELECT, INSERT", stmt: "REPAIR TABLE m.t", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindCheckTable, name: "CHECK TABLE", priv: "UPDATE", stmt: "CHECK TABLE m.t", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindChecksumTable, name: "CHECKSUM TABLE", priv: "SELECT", stmt: "CHECKSUM TABLE m.t", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindChecksumTable, name: "CHECKSUM TABLE needs SELECT", priv: "UPDATE", stmt: "CHECKSUM TABLE m.t", want: [4]uint16{1142, 1142, 1142, 1142}},
	{kind: privilege.KindClone, name: "CLONE LOCAL needs BACKUP_ADMIN", priv: "BACKUP_ADMIN", low: "ALL", stmt: "CLONE LOCAL DATA DIRECTORY = '/nonexistent-parent/c{n}'", want: [4]uint16{1227, 1227, 1227, 1006}},
	{kind: privilege.KindReplicaAdmin, name: "STOP REPLICA needs REPLICATION_SLAVE_ADMIN", priv: "REPLICATION_SLAVE_ADMIN", low: "ALL", stmt: "STOP REPLICA", want: [4]uint16{1227, 1227, 1227, 0}},
	{kind: privilege.KindBinlog, name: "BINLOG", priv: "BINLOG_ADMIN", low: "ALL", stmt: "BINLOG 'SHwGaw8BAAAAegAAAH4AAAAAAAQAOC4wLjQwLXN0cmF0YQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABIfAZrEwANAAgAAAAABAAEAAAAYgAEGggAAAAICAgCAAAACgoKKioAEjQACigAAegK4l0='", want: [4]uint16{1227, 1227, 1227, 0}}, // a format description event (mysqlbinlog's first BINLOG statement)
	{kind: privilege.KindSetRestricted, name: "SET pseudo_thread_id", priv: "SESSION_VARIABLES_ADMIN", low: "ALL", stmt: "SET @@session.pseudo_thread_id = 5", want: [4]uint16{1227, 1227, 1227, 0}},
	{kind: privilege.KindSetRestricted, name: "SET gtid_next with SYSTEM_VARIABLES_ADMIN", priv: "SYSTEM_VARIABLES_ADMIN", low: "ALL", stmt: "SET @@SESSION.GTID_NEXT = 'AUTOMATIC'", want: [4]uint16{1227, 1227, 1227, 0}},
	{kind: privilege.KindReplicaAdmin, name: "START REPLICA with SUPER", priv: "SUPER", low: "ALL", stmt: "START REPLICA", want: [4]uint16{1227, 1227, 1227, 1200}},
	{kind: privilege.KindFlush, name: "FLUSH", priv: "RELOAD", low: "ALL", stmt: "FLUSH TABLES", want: [4]uint16{1227, 1227, 1227, 0}},

	// Accounts.
	{kind: privilege.KindCreateUser, name: "CREATE USER", priv: "CREATE USER", low: "ALL", stmt: "CREATE USER 'n{n}'@'%'", want: [4]uint16{1227, 1227, 1227, 0}},
	{kind: privilege.KindCreateUser, name: "CREATE USER with INSERT on mysql", priv: "INSERT", db: "mysql", table: "user", stmt: "CREATE USER 'n{n}'@'%'", want: [4]uint16{1227, 1227, 0, 0}},
	{kind: privilege.KindDropUser, name: "DROP USER", priv: "CREATE USER", low: "ALL", setup: []string{"CREATE USER 'q{n}'@'%'"}, stmt: "DROP USER 'q{n}'@'%'", want: [4]uint16{1227, 1227, 1227, 0}},
	{kind: privilege.KindAlterUser, name: "ALTER USER another", priv: "CREATE USER", low: "ALL", setup: []string{"CREATE USER 'r{n}'@'%'"}, stmt: "ALTER USER 'r{n}'@'%' IDENTIFIED BY 'pw'", want: [4]uint16{1227, 1227, 1227, 0}},
	{kind: privilege.KindAlterUser, name: "ALTER USER own", priv: "SELECT", stmt: "ALTER USER '{user}'@'%' IDENTIFIED BY ''", want: [4]uint16{0, 0, 0, 0}},
	{kind: privilege.KindSetPassword, name: "SET PASSWORD FOR another", priv: "UPDATE", db: "mysql", table: "user", setup: []string{"CREATE USER 's{n}'@'%'"}, stmt: "SET PASSWORD FOR 's{n}'@'%' = 'pw'", want: [4]uint16{1044, 1044, 0, 0}},
	{kind: privilege.KindSetPassword, name: "SET PASSWORD own", priv: "SELECT", stmt: "SET PASSWORD = ''", want: [4]uint16{0, 0, 0, 0}},
	{kind: privilege.KindGrant, name: "GRANT on a table", priv: "SELECT", withGrant: true, setup: []string{"CREATE USER 'g{n}'@'%'"}, stmt: "GRANT SELECT ON m.t TO 'g{n}'@'%'", want: [4]uint16{1142, 0, 0, 0}},
	{kind: privilege.KindGrant, name: "GRANT needs GRANT OPTION", priv: "SELECT", setup: []string{"CREATE USER 'g{n}'@'%'"}, stmt: "GRANT SELECT ON m.t TO 'g{n}'@'%'", want: [4]uint16{1142, 1142, 1142, 1142}},
	{kind: privilege.KindGrant, name: "GRANT on a database", priv: "SELECT", withGrant: true, setup: []string{"CREATE USER 'g{n}'@'%'"}, stmt: "GRANT SELECT ON m.* TO 'g{n}'@'%'", want: [4]uint16{1044, 1044, 0, 0}},
	{kind: privilege.KindGrant, name: "GRANT global", priv: "SELECT", withGrant: true, setup: []string{"CREATE USER 'g{n}'@'%'"}, stmt: "GRANT SELECT ON *.* TO 'g{n}'@'%'", want: [4]uint16{1045, 1045, 1045, 0}},
	{kind: privilege.KindGrant, name: "GRANT more than held", priv: "SELECT", withGrant: true, setup: []string{"CREATE USER 'g{n}'@'%'"}, stmt: "GRANT SELECT, DELETE ON m.t TO 'g{n}'@'%'", want: [4]uint16{1142, 1142, 1142, 1142}},
	{kind: privilege.KindRevoke, name: "REVOKE", priv: "SELECT", withGrant: true, setup: []string{"CREATE USER 'g{n}'@'%'", "GRANT SELECT ON m.t TO 'g{n}'@'%'"}, stmt: "REVOKE SELECT ON m.t FROM 'g{n}'@'%'", want: [4]uint16{1142, 0, 0, 0}},

	// Statements strata does not support: refused to all but SUPER, who
	// learns they are unsupported.
	{kind: privilege.KindUnknown, name: "VEXPLAIN (unclassified)", priv: "SUPER", low: "ALL", stmt: "VEXPLAIN SELECT 1", want: [4]uint16{1227, 1227, 1227, 1235}},
}

// notInMatrix are the statement kinds the matrix cannot run, and why.
var notInMatrix = map[privilege.Kind]string{
	privilege.KindKill:           "checked against a target thread: TestKillPrivileges",
	privilege.KindSetPersistOnly: "Vitess's parser does not accept SET PERSIST / PERSIST_ONLY",
}

// Every statement kind has a row in the matrix.
func TestPrivilegeMatrixCoversEveryKind(t *testing.T) {
	covered := map[privilege.Kind]bool{}
	for _, c := range privMatrix {
		covered[c.kind] = true
	}
	for _, k := range privilege.Kinds() {
		if !covered[k] && notInMatrix[k] == "" {
			t.Errorf("statement kind %q has no row in the privilege matrix", k)
		}
	}
}

func TestPrivilegeMatrix(t *testing.T) {
	start := time.Now()
	srv := testserver.Start(t, testserver.Options{})
	root := srv.DB(t, "")
	mustExec(t, root,
		"CREATE DATABASE m",
		"CREATE TABLE m.t (id INT PRIMARY KEY, v INT)",
		"INSERT INTO m.t VALUES (1, 10), (2, 20)",
		"CREATE TABLE m.t2 (id INT PRIMARY KEY, w INT)",
		"INSERT INTO m.t2 VALUES (1, 100)",
	)
	for ci, c := range privMatrix {
		for level := none; level <= globalLevel; level++ {
			n := fmt.Sprint(ci*10 + level + 100)
			user := fmt.Sprintf("p%d_%d", ci, level)
			sub := func(s string) string {
				return strings.NewReplacer("{n}", n, "{user}", user).Replace(s)
			}
			for _, q := range c.setup {
				mustExec(t, root, sub(q))
			}
			mustExec(t, root, fmt.Sprintf("CREATE USER '%s'@'%%'", user))
			if level != none {
				priv := c.priv
				if c.low != "" && level != globalLevel {
					priv = c.low
				}
				if c.tablePriv != "" && level == tableLevel {
					priv = c.tablePriv
				}
				db, table := c.db, c.table
				if db == "" {
					db = "m"
				}
				if table == "" {
					table = "t"
				}
				on := "*.*"
				switch level {
				case tableLevel:
					on = "`" + sub(db) + "`.`" + sub(table) + "`"
				case dbLevel:
					on = "`" + sub(db) + "`.*"
				}
				g := fmt.Sprintf("GRANT %s ON %s TO '%s'@'%%'", priv, on, user)
				if c.withGrant {
					g += " WITH GRANT OPTION"
				}
				mustExec(t, root, g)
			}
			conn := connectAs(t, srv, user, "", "")
			_, err := conn.Exec(sub(c.stmt))
			if got := errNo(err); got != c.want[level] || (err != nil && got == 0) {
				t.Errorf("%s, grant %s: %s: got %v, want error %d", c.name, levelNames[level], sub(c.stmt), err, c.want[level])
			}
			conn.Close()
		}
	}
	t.Logf("%d statements × 4 grant levels in %v", len(privMatrix), time.Since(start).Round(time.Millisecond))
}

// TestPrivilegeErrorMessages checks refusals word for word.
func TestPrivilegeErrorMessages(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{})
	root := srv.DB(t, "")
	mustExec(t, root,
		"CREATE DATABASE m",
		"CREATE TABLE m.t (id INT PRIMARY KEY, v INT)",
		"CREATE USER 'u'@'%'",
		"CREATE USER 'w'@'%'",
		"GRANT UPDATE, DELETE ON m.t TO 'w'@'%'",
	)
	u := connectAs(t, srv, "u", "", "")
	w := connectAs(t, srv, "w", "", "")
	for _, c := range []struct {
		db    *sql.DB
		stmt  string
		code  uint16
		state string
		msg   string
	}{
		{u, "SELECT * FROM m.t", 1142, "42000", "SELECT command denied to user 'u'@'localhost' for table 't'"},
		{u, "SHOW CREATE TABLE m.t", 1142, "42000", "SHOW command denied to user 'u'@'localhost' for table 't'"},
		{u, "SHOW COLUMNS FROM m.t", 1142, "42000", "SELECT command denied to user 'u'@'localhost' for table 't'"},
		{w, "SELECT v FROM m.t FOR UPDATE", 1142, "42000", "SELECT command denied to user 'w'@'localhost' for table 't'"},
		{u, "CHECK TABLE m.t", 1142, "42000", "SELECT command denied to user 'u'@'localhost' for table 't'"},
		{u, "ANALYZE TABLE m.t", 1142, "42000", "SELECT, INSERT command denied to user 'u'@'localhost' for table 't'"},
		{u, "LOCK TABLES m.t READ", 1142, "42000", "SELECT, LOCK TABLES command denied to user 'u'@'localhost' for table 't'"},
		{u, "GRANT SELECT ON m.t TO 'w'@'%'", 1142, "42000", "SELECT, GRANT command denied to user 'u'@'localhost' for table 't'"},
		{u, "USE m", 1044, "42000", "Access denied for user 'u'@'%' to database 'm'"},
		{u, "SET GLOBAL wait_timeout = 100", 1227, "42000", "Access denied; you need (at least one of) the SUPER or SYSTEM_VARIABLES_ADMIN privilege(s) for this operation"},
		{u, "CREATE USER 'x'@'%'", 1227, "42000", "Access denied; you need (at least one of) the CREATE USER privilege(s) for this operation"},
		{u, "GRANT SELECT ON *.* TO 'w'@'%'", 1045, "28000", "Access denied for user 'u'@'%' (using password: NO)"},
		{w, "UPDATE m.t SET v = 1 WHERE id = 1", 1143, "42000", "SELECT command denied to user 'w'@'localhost' for column 'id' in table 't'"},
		{w, "DELETE FROM m.t WHERE v > 3", 1143, "42000", "SELECT command denied to user 'w'@'localhost' for column 'v' in table 't'"},
		{w, "GRANT SELECT (v) ON m.t TO 'u'@'%'", 1142, "42000", "SELECT, GRANT command denied to user 'w'@'localhost' for table 't'"},
	} {
		_, err := c.db.Exec(c.stmt)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != c.code || string(me.SQLState[:]) != c.state || me.Message != c.msg {
			t.Errorf("%s: got %v, want %d (%s) %q", c.stmt, err, c.code, c.state, c.msg)
		}
	}
	// 1143 is only for reads: with SELECT too the statements run.
	mustExec(t, root, "GRANT SELECT ON m.t TO 'w'@'%'", "GRANT SELECT ON m.t TO 'u'@'%'")
	mustExec(t, w, "UPDATE m.t SET v = 1 WHERE id = 1", "DELETE FROM m.t WHERE v > 3", "SELECT v FROM m.t FOR UPDATE")
	// A locking read needs UPDATE, DELETE or LOCK TABLES besides SELECT.
	_, err := u.Exec("SELECT v FROM m.t FOR UPDATE")
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1142 || me.Message != "SELECT with locking clause command denied to user 'u'@'localhost' for table 't'" {
		t.Errorf("SELECT … FOR UPDATE with SELECT only: %v", err)
	}
}

// TestKillPrivileges: KILL of another user's thread needs CONNECTION_ADMIN
// or SUPER, and SYSTEM_USER as well when the target holds it (root does,
// as in MySQL 8.0); one's own threads can always be killed.
func TestKillPrivileges(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{})
	root := srv.DB(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	mustExec(t, root,
		"CREATE USER 'k_none'@'%'",
		"CREATE USER 'k_admin'@'%'", "GRANT CONNECTION_ADMIN ON *.* TO 'k_admin'@'%'",
		"CREATE USER 'k_super'@'%'", "GRANT SUPER ON *.* TO 'k_super'@'%'",
		"CREATE USER 'k_sys'@'%'", "GRANT CONNECTION_ADMIN, SYSTEM_USER ON *.* TO 'k_sys'@'%'",
		"CREATE USER 'k_victim'@'%'",
	)
	// conn opens one connection of user and returns it with its thread id.
	conn := func(db *sql.DB) (*sql.Conn, int64) {
		t.Helper()
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var id int64
		if err := c.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
			t.Fatal(err)
		}
		return c, id
	}
	open := func(user string) *sql.DB {
		db := connectAs(t, srv, user, "", "")
		db.SetMaxOpenConns(4)
		return db
	}
	alive := func(c *sql.Conn) bool { return c.PingContext(ctx) == nil }

	rootConn, rootID := conn(root)
	none, admin, super, sys := open("k_none"), open("k_admin"), open("k_super"), open("k_sys")

	// No privilege: another user's thread is not ours (1095), KILL QUERY
	// too; an unknown thread is 1094.
	for _, q := range []string{"KILL %d", "KILL QUERY %d", "KILL CONNECTION %d"} {
		_, err := none.ExecContext(ctx, fmt.Sprintf(q, rootID))
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != 1095 || string(me.SQLState[:]) != "HY000" || me.Message != fmt.Sprintf("You are not owner of thread %d", rootID) {
			t.Errorf("k_none: "+q+": %v, want 1095", rootID, err)
		}
	}
	if _, err := none.ExecContext(ctx, "KILL 999999"); errNo(err) != 1094 {
		t.Errorf("KILL of an unknown thread: %v, want 1094", err)
	}
	// Own threads: always allowed.
	ownVictim, ownID := conn(none)
	if _, err := none.ExecContext(ctx, fmt.Sprintf("KILL %d", ownID)); err != nil {
		t.Errorf("k_none kills its own thread: %v", err)
	}
	if alive(ownVictim) {
		t.Error("k_none's own thread survived KILL")
	}
	// CONNECTION_ADMIN / SUPER: another regular user's threads.
	for _, killer := range []*sql.DB{admin, super} {
		victimDB := open("k_victim")
		v, vid := conn(victimDB)
		if _, err := killer.ExecContext(ctx, fmt.Sprintf("KILL %d", vid)); err != nil {
			t.Errorf("KILL of k_victim with CONNECTION_ADMIN/SUPER: %v", err)
		}
		if alive(v) {
			t.Error("k_victim survived KILL")
		}
		// root holds SYSTEM_USER: without it, 1095.
		if _, err := killer.ExecContext(ctx, fmt.Sprintf("KILL QUERY %d", rootID)); errNo(err) != 1095 {
			t.Errorf("KILL QUERY of root without SYSTEM_USER: %v, want 1095", err)
		}
	}
	if !alive(rootConn) {
		t.Fatal("root's connection died")
	}
	// CONNECTION_ADMIN with SYSTEM_USER kills root's connection.
	if _, err := sys.ExecContext(ctx, fmt.Sprintf("KILL QUERY %d", rootID)); err != nil {
		t.Errorf("KILL QUERY of root with CONNECTION_ADMIN, SYSTEM_USER: %v", err)
	}
	if _, err := sys.ExecContext(ctx, fmt.Sprintf("KILL %d", rootID)); err != nil {
		t.Errorf("KILL of root with CONNECTION_ADMIN, SYSTEM_USER: %v", err)
	}
	if alive(rootConn) {
		t.Error("root's connection survived KILL")
	}
	rootConn.Close()
	ownVictim.Close()
}

// TestPrivilegeListings: SHOW DATABASES, SHOW TABLES, SHOW PROCESSLIST and
// information_schema list only what the account holds some privilege on.
func TestPrivilegeListings(t *testing.T) {
	srv := testserver.Start(t, testserver.Options{})
	root := srv.DB(t, "")
	mustExec(t, root,
		"CREATE DATABASE m", "CREATE TABLE m.t (id INT PRIMARY KEY)", "CREATE TABLE m.hidden (id INT PRIMARY KEY)",
		"CREATE DATABASE other", "CREATE TABLE other.x (id INT PRIMARY KEY)",
		"CREATE USER 'l'@'%'", "GRANT SELECT ON m.t TO 'l'@'%'",
		"CREATE USER 'lp'@'%'", "GRANT PROCESS ON *.* TO 'lp'@'%'",
	)
	l := connectAs(t, srv, "l", "", "")
	list := func(db *sql.DB, q string) string {
		t.Helper()
		rows, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		var out []string
		for rows.Next() {
			vals := make([]sql.RawBytes, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out = append(out, string(vals[0]))
		}
		return strings.Join(out, ",")
	}
	for _, c := range []struct{ q, want string }{
		{"SHOW DATABASES", "information_schema,m"},
		{"SHOW TABLES FROM m", "t"},
		{"SELECT schema_name FROM information_schema.schemata ORDER BY 1", "information_schema,m"},
		{"SELECT table_name FROM information_schema.tables WHERE table_schema <> 'information_schema' ORDER BY 1", "t"},
		{"SELECT DISTINCT table_name FROM information_schema.columns WHERE table_schema <> 'information_schema'", "t"},
		{"SELECT DISTINCT table_name FROM information_schema.statistics", "t"},
	} {
		if got := list(l, c.q); got != c.want {
			t.Errorf("%s: %q, want %q", c.q, got, c.want)
		}
	}
	if _, err := l.Exec("SHOW TABLES FROM other"); errNo(err) != 1044 {
		t.Errorf("SHOW TABLES FROM other: %v, want 1044", err)
	}
	// SHOW PROCESSLIST: own threads only, all of them with PROCESS (root's
	// pooled connections are open).
	users := func(db *sql.DB) map[string]bool {
		rows, err := db.Query("SHOW PROCESSLIST")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		seen := map[string]bool{}
		for rows.Next() {
			var id, user, host, cmd, tm, state string
			var dbName, info sql.NullString
			if err := rows.Scan(&id, &user, &host, &dbName, &cmd, &tm, &state, &info); err != nil {
				t.Fatal(err)
			}
			seen[user] = true
		}
		return seen
	}
	if got := users(l); len(got) != 1 || !got["l"] {
		t.Errorf("SHOW PROCESSLIST without PROCESS lists %v", got)
	}
	if got := users(connectAs(t, srv, "lp", "", "")); !got["root"] || !got["lp"] {
		t.Errorf("SHOW PROCESSLIST with PROCESS lists %v", got)
	}
}

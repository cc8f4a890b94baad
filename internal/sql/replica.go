package sql

import (
	"context"
	"errors"
	"strings"

	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Replication statements (CHANGE REPLICATION SOURCE TO, START/STOP/RESET
// REPLICA, SHOW REPLICA STATUS, and their MASTER/SLAVE spellings) are
// parsed by parse.ParseReplica and answered by the engine's
// ReplicaControl (internal/replica); read_only and super_read_only are
// enforced here for every session but the replica's applier.

// ReplicaControl is the replica side of replication, as the SQL layer
// drives it.
type ReplicaControl interface {
	// Change applies CHANGE REPLICATION SOURCE TO's options.
	Change(ctx context.Context, opts []parse.ReplicaOption) error
	// Start starts replication; a note (a *sqlerror.SQLError) says it was
	// already running.
	Start(ctx context.Context) (note, err error)
	// Stop stops replication; a note says it was not running.
	Stop(ctx context.Context) (note, err error)
	// Reset forgets the position (and with all the source too).
	Reset(ctx context.Context, all bool) error
	// Status is SHOW REPLICA STATUS's row, nil when no source is set.
	Status() []ReplicaStatusColumn
}

// ReplicaStatusColumn is one column of SHOW REPLICA STATUS, named as
// MySQL 8.0.22 and later name it.
type ReplicaStatusColumn struct {
	Name  string
	Value sqltypes.Value
}

// SetReplicaApplier marks the session as the replica's applier: it
// writes under read_only and super_read_only.
func (s *Session) SetReplicaApplier() { s.replicaApplier = true }

// WriteInTransaction writes key = value in the session's open explicit
// transaction (the replica's applied position, committed with its rows).
func (s *Session) WriteInTransaction(key, value []byte) error {
	if s.tx == nil || !s.explicit {
		return errors.New("no open transaction")
	}
	return s.tx.Set(key, value)
}

// execReplica runs a replication statement; handled is false for any
// other statement.
func (s *Session) execReplica(ctx context.Context, sql string) (*sqltypes.Result, bool, error) {
	if !maybeReplicaStatement(sql) {
		return nil, false, nil
	}
	st, ok, perr := parse.ParseReplica(sql)
	if !ok {
		return nil, false, nil
	}
	s.beginStatementWarnings(nil)
	if perr != nil {
		near := firstWords(sql, 3)
		var sn *parse.SyntaxNear
		if errors.As(perr, &sn) {
			near = sn.Near
		}
		return nil, true, sqlerr.Syntax("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '" + near + "' at line 1")
	}
	kind := privilege.KindReplicaAdmin
	if st.Verb == parse.ReplicaShowStatus {
		kind = privilege.KindShowReplicaStatus
	}
	if err := s.authorizeNeeds(privilege.RuleFor(kind).Need("", "")); err != nil {
		return nil, true, err
	}
	if st.Rest != "" {
		return nil, true, sqlerr.Unsupported("%s with '%s'", firstWords(sql, 3), st.Rest)
	}
	rc := s.eng.Replica
	if rc == nil {
		return nil, true, sqlerr.Unsupported("replication on this server")
	}
	if st.Verb != parse.ReplicaShowStatus && s.tx != nil && s.explicit {
		// MySQL: CHANGE/START/STOP/RESET REPLICA commit implicitly.
		if err := s.commit(); err != nil {
			return nil, true, err
		}
	}
	var note, err error
	switch st.Verb {
	case parse.ReplicaChange:
		err = rc.Change(ctx, st.Options)
	case parse.ReplicaStart:
		note, err = rc.Start(ctx)
	case parse.ReplicaStop:
		note, err = rc.Stop(ctx)
	case parse.ReplicaReset:
		err = rc.Reset(ctx, st.All)
	case parse.ReplicaShowStatus:
		return replicaStatusResult(rc.Status(), st.Legacy), true, nil
	}
	var se *sqlerror.SQLError
	if errors.As(note, &se) {
		s.warn("Note", uint16(se.Num), se.Message)
	}
	if err != nil {
		return nil, true, err
	}
	return &sqltypes.Result{}, true, nil
}

// maybeReplicaStatement is a cheap test, without allocating, that sql
// starts with CHANGE, START, STOP or RESET followed by REPLICATION,
// MASTER, REPLICA or SLAVE, or with SHOW REPLICA or SHOW SLAVE: every text
// statement passes here.
func maybeReplicaStatement(sql string) bool {
	i := skipSpace(sql, 0)
	j := wordEnd(sql, i)
	switch w := sql[i:j]; {
	case strings.EqualFold(w, "change"), strings.EqualFold(w, "start"), strings.EqualFold(w, "stop"),
		strings.EqualFold(w, "reset"), strings.EqualFold(w, "show"):
	default:
		return false
	}
	k := skipSpace(sql, j)
	w := sql[k:wordEnd(sql, k)]
	return strings.EqualFold(w, "replica") || strings.EqualFold(w, "slave") || strings.EqualFold(w, "master") || strings.EqualFold(w, "replication")
}

func wordEnd(sql string, i int) int {
	for i < len(sql) && (sql[i]|0x20 >= 'a' && sql[i]|0x20 <= 'z') {
		i++
	}
	return i
}

// replicaStatusResult is SHOW REPLICA STATUS (legacy: SHOW SLAVE STATUS,
// whose columns say Master and Slave).
func replicaStatusResult(cols []ReplicaStatusColumn, legacy bool) *sqltypes.Result {
	names := replicaStatusNames
	res := &sqltypes.Result{Fields: make([]*querypb.Field, len(names))}
	for i, n := range names {
		if legacy {
			n = legacyReplicaName(n)
		}
		typ, length := sqltypes.VarChar, uint32(1024)
		if replicaStatusInts[names[i]] {
			typ, length = sqltypes.Uint64, 21
		}
		res.Fields[i] = &querypb.Field{Name: n, Type: typ, ColumnLength: length, Charset: 255}
		if typ == sqltypes.Uint64 {
			res.Fields[i].Charset = 63
		}
	}
	if cols == nil {
		return res
	}
	byName := make(map[string]sqltypes.Value, len(cols))
	for _, c := range cols {
		byName[c.Name] = c.Value
	}
	row := make([]sqltypes.Value, len(names))
	for i, n := range names {
		v, ok := byName[n]
		switch {
		case ok:
			row[i] = v
		case replicaStatusInts[n]:
			row[i] = sqltypes.NewUint64(0)
		default:
			row[i] = sqltypes.NewVarChar("")
		}
	}
	res.Rows = []Row{row}
	return res
}

func legacyReplicaName(n string) string {
	r := strings.NewReplacer("Replica", "Slave", "Source", "Master", "source", "master")
	return r.Replace(n)
}

// replicaStatusNames are MySQL 8.0's SHOW REPLICA STATUS columns.
var replicaStatusNames = []string{
	"Replica_IO_State", "Source_Host", "Source_User", "Source_Port", "Connect_Retry",
	"Source_Log_File", "Read_Source_Log_Pos", "Relay_Log_File", "Relay_Log_Pos",
	"Relay_Source_Log_File", "Replica_IO_Running", "Replica_SQL_Running", "Replicate_Do_DB",
	"Replicate_Ignore_DB", "Replicate_Do_Table", "Replicate_Ignore_Table",
	"Replicate_Wild_Do_Table", "Replicate_Wild_Ignore_Table", "Last_Errno", "Last_Error",
	"Skip_Counter", "Exec_Source_Log_Pos", "Relay_Log_Space", "Until_Condition",
	"Until_Log_File", "Until_Log_Pos", "Source_SSL_Allowed", "Source_SSL_CA_File",
	"Source_SSL_CA_Path", "Source_SSL_Cert", "Source_SSL_Cipher", "Source_SSL_Key",
	"Seconds_Behind_Source", "Source_SSL_Verify_Server_Cert", "Last_IO_Errno",
	"Last_IO_Error", "Last_SQL_Errno", "Last_SQL_Error", "Replicate_Ignore_Server_Ids",
	"Source_Server_Id", "Source_UUID", "Source_Info_File", "SQL_Delay", "SQL_Remaining_Delay",
	"Replica_SQL_Running_State", "Source_Retry_Count", "Source_Bind",
	"Last_IO_Error_Timestamp", "Last_SQL_Error_Timestamp", "Source_SSL_Crl",
	"Source_SSL_Crlpath", "Retrieved_Gtid_Set", "Executed_Gtid_Set", "Auto_Position",
	"Replicate_Rewrite_DB", "Channel_Name", "Source_TLS_Version", "Source_public_key_path",
	"Get_Source_public_key", "Network_Namespace",
}

var replicaStatusInts = map[string]bool{
	"Source_Port": true, "Connect_Retry": true, "Read_Source_Log_Pos": true, "Relay_Log_Pos": true,
	"Last_Errno": true, "Skip_Counter": true, "Exec_Source_Log_Pos": true, "Relay_Log_Space": true,
	"Until_Log_Pos": true, "Seconds_Behind_Source": true, "Last_IO_Errno": true,
	"Last_SQL_Errno": true, "Source_Server_Id": true, "SQL_Delay": true, "SQL_Remaining_Delay": true,
	"Source_Retry_Count": true, "Auto_Position": true, "Get_Source_public_key": true,
}

// readOnlyDenied is the error of a write under read_only (for accounts
// without SUPER or CONNECTION_ADMIN) or super_read_only (for all), nil
// when the session may write. The replica's applier always may.
func (s *Session) readOnlyDenied(stmt sqlparser.Statement) error {
	if s.replicaApplier {
		return nil
	}
	ro, sro := s.readOnlyState()
	if !ro && !sro {
		return nil
	}
	if stmt != nil && s.writesOnlyTemporary(stmt) {
		return nil
	}
	if !sro {
		if sub := s.subject(); sub == nil || sub.Allowed(privilege.Need{Level: privilege.Global, Privs: privilege.Super | privilege.ConnectionAdmin, Any: true}) {
			return nil
		}
		return sqlerr.New(sqlerr.SecureFilePriv, sqlerror.SSUnknownSQLState, "The MySQL server is running with the --read-only option so it cannot execute this statement")
	}
	return sqlerr.New(sqlerr.SecureFilePriv, sqlerror.SSUnknownSQLState, "The MySQL server is running with the --super-read-only option so it cannot execute this statement")
}

// readOnlyState reads the global read_only and super_read_only, cached
// per session until the global values change (one atomic load).
func (s *Session) readOnlyState() (ro, sro bool) {
	g := s.eng.Globals
	if v := g.Version(); v != s.roVersion || !s.roLoaded {
		s.roVersion, s.roLoaded = v, true
		s.ro = globalBool(g.Get("read_only"))
		s.sro = globalBool(g.Get("super_read_only"))
	}
	return s.ro || s.sro, s.sro
}

func globalBool(v sqltypes.Value, ok bool) bool {
	if !ok || v.IsNull() {
		return false
	}
	n, err := v.ToInt64()
	return err == nil && n != 0
}

// isWriteStatement: the statements read_only refuses besides DML (which
// dmlOf checks): DDL.
func isWriteStatement(stmt sqlparser.Statement) bool {
	switch st := stmt.(type) {
	case *sqlparser.CreateTable:
		return !st.Temp
	case *sqlparser.DropTable:
		return !st.Temp
	case sqlparser.DDLStatement, sqlparser.DBDDLStatement:
		return true
	}
	return false
}

package sql

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"vitess.io/vitess/go/mysql/collations"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/sqlparser"

	"github.com/strata-db/strata/internal/backup"
	"github.com/strata-db/strata/internal/binlog"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/txn"
)

// UseBinlog attaches the binary log (strata serve --log-bin) and sets the
// system variables that describe it. Call it before sessions open.
func (e *Engine) UseBinlog(l *binlog.Log) {
	e.Binlog = l
	e.DB.SetBinlog(l.TxnHook())
	// Backups record the binlog position their checkpoint corresponds to.
	e.BackupOptions.BinlogPosition = func(checkpoint func() error) (*backup.BinlogPosition, error) {
		file, pos, gtids, err := l.Hold(checkpoint)
		if err != nil {
			return nil, err
		}
		return &backup.BinlogPosition{File: file, Position: pos, GTIDExecuted: gtids}, nil
	}
	e.Globals.Set("log_bin", sqltypes.NewInt64(1))
	e.Globals.Set("log_bin_basename", sqltypes.NewVarChar(strings.TrimSuffix(l.Dir(), "/")+"/"+l.Basename()))
	e.Globals.Set("log_bin_index", sqltypes.NewVarChar(strings.TrimSuffix(l.Dir(), "/")+"/"+l.Basename()+".index"))
	e.Globals.Set("gtid_mode", sqltypes.NewVarChar("ON"))
	e.Globals.Set("enforce_gtid_consistency", sqltypes.NewVarChar("ON"))
}

// SetServerIdentity sets @@server_id and @@server_uuid.
func (e *Engine) SetServerIdentity(id uint32, uuid string) {
	e.Globals.Set("server_id", sqltypes.NewInt64(int64(id)))
	e.Globals.Set("server_uuid", sqltypes.NewVarChar(uuid))
}

// gtidVar is @@gtid_executed / @@gtid_purged ("" without a binary log).
func (s *Session) gtidVar(name string) sqltypes.Value {
	l := s.eng.Binlog
	if l == nil {
		return sqltypes.NewVarChar("")
	}
	if name == "gtid_purged" {
		return sqltypes.NewVarChar(l.GTIDPurged())
	}
	return sqltypes.NewVarChar(l.GTIDExecuted())
}

// binlogsDDL reports whether a DDL statement is written to the binary
// log: not with the log off, and not when it touches only temporary
// tables (checked before it runs: ddlcommit.go).
func (s *Session) binlogsDDL(stmt sqlparser.Statement) bool {
	if tempTableDDL(stmt) || s.writesOnlyTemporary(stmt) {
		return false
	}
	return s.logsBin()
}

// logsBin reports whether the session's statements are written to the
// binary log: the log is on and sql_log_bin is not 0.
func (s *Session) logsBin() bool {
	if s.eng.Binlog == nil {
		return false
	}
	v, ok := s.sysVar("sql_log_bin")
	return !ok || v.ToString() != "0"
}

// ddlEvent is the binary log event of a DDL text to run in database db,
// with the session's sql_mode and character sets.
func (s *Session) ddlEvent(db, text string) *binlog.Statement {
	st := &binlog.Statement{DB: db, Query: text, ThreadID: s.ConnID}
	if v, ok := s.sysVar("sql_mode"); ok {
		st.SQLMode = binlog.SQLModeBits(v.ToString())
	}
	env := collations.MySQL8()
	if v, ok := s.sysVar("character_set_client"); ok {
		st.Charsets[0] = uint16(env.DefaultCollationForCharset(strings.ToLower(v.ToString())))
	}
	for i, name := range []string{"collation_connection", "collation_server"} {
		if v, ok := s.sysVar(name); ok {
			st.Charsets[i+1] = uint16(env.LookupByName(strings.ToLower(v.ToString())))
		}
	}
	// character_set_client is written as a collation id of the set, which
	// a replica reads only for its set: MySQL writes the set's default
	// (255 for utf8mb4), which MariaDB 10.x replicas do not know; the
	// connection's collation, when of the same set, says the same to MySQL
	// and can be read by MariaDB.
	if c := collations.ID(st.Charsets[1]); c != collations.Unknown && env.LookupCharsetName(c) == env.LookupCharsetName(collations.ID(st.Charsets[0])) {
		st.Charsets[0] = st.Charsets[1]
	}
	return st
}

// showBinaryLogs is SHOW BINARY LOGS.
func (s *Session) showBinaryLogs() (*sqltypes.Result, error) {
	l := s.eng.Binlog
	if l == nil {
		return nil, sqlerr.New(sqlerr.NoBinaryLogging, sqlerror.SSUnknownSQLState, "You are not using binary logging")
	}
	res := &sqltypes.Result{Fields: []*querypb.Field{
		{Name: "Log_name", Type: sqltypes.VarChar, Charset: 45},
		{Name: "File_size", Type: sqltypes.Uint64, Charset: 63},
		{Name: "Encrypted", Type: sqltypes.VarChar, Charset: 45},
	}}
	for _, f := range l.Files() {
		res.Rows = append(res.Rows, Row{sqltypes.NewVarChar(f.Name), sqltypes.NewUint64(uint64(f.Size)), sqltypes.NewVarChar("No")})
	}
	return res, nil
}

// showBinlogStatus is SHOW BINARY LOG STATUS / SHOW MASTER STATUS.
func (s *Session) showBinlogStatus() (*sqltypes.Result, error) {
	res := &sqltypes.Result{Fields: []*querypb.Field{
		{Name: "File", Type: sqltypes.VarChar, Charset: 45},
		{Name: "Position", Type: sqltypes.Uint64, Charset: 63},
		{Name: "Binlog_Do_DB", Type: sqltypes.VarChar, Charset: 45},
		{Name: "Binlog_Ignore_DB", Type: sqltypes.VarChar, Charset: 45},
		{Name: "Executed_Gtid_Set", Type: sqltypes.VarChar, Charset: 45},
	}}
	if l := s.eng.Binlog; l != nil {
		f, pos, gtids := l.Status()
		res.Rows = append(res.Rows, Row{sqltypes.NewVarChar(f), sqltypes.NewUint64(pos), sqltypes.NewVarChar(""), sqltypes.NewVarChar(""), sqltypes.NewVarChar(gtids)})
	}
	return res, nil
}

// showBinlogEvents is SHOW BINLOG EVENTS [IN 'file'] [FROM pos] [LIMIT [offset,] n].
func (s *Session) showBinlogEvents(ctx context.Context, sh *sqlparser.ShowBinlogEvents) (*sqltypes.Result, error) {
	if sh.IsRelaylog {
		return nil, sqlerr.Unsupported("SHOW RELAYLOG EVENTS")
	}
	res := &sqltypes.Result{Fields: []*querypb.Field{
		{Name: "Log_name", Type: sqltypes.VarChar, Charset: 45},
		{Name: "Pos", Type: sqltypes.Uint64, Charset: 63},
		{Name: "Event_type", Type: sqltypes.VarChar, Charset: 45},
		{Name: "Server_id", Type: sqltypes.Uint32, Charset: 63},
		{Name: "End_log_pos", Type: sqltypes.Uint64, Charset: 63},
		{Name: "Info", Type: sqltypes.VarChar, Charset: 45},
	}}
	l := s.eng.Binlog
	if l == nil {
		return res, nil
	}
	from, err := s.binlogNumber(ctx, sh.Position, 4)
	if err != nil {
		return nil, err
	}
	offset, limit := int64(0), int64(-1)
	if sh.Limit != nil {
		if limit, err = s.binlogNumber(ctx, sh.Limit.Rowcount, -1); err != nil {
			return nil, err
		}
		if offset, err = s.binlogNumber(ctx, sh.Limit.Offset, 0); err != nil {
			return nil, err
		}
	}
	rows, err := l.ShowEvents(sh.LogName, uint64(from), offset, limit)
	if err == binlog.ErrUnknownFile {
		return nil, sqlerr.New(sqlerr.ErrorWhenExecutingCm, sqlerror.SSUnknownSQLState, "Error when executing command SHOW BINLOG EVENTS: Could not find target log")
	}
	if errors.Is(err, binlog.ErrBadOffset) {
		return nil, sqlerr.New(sqlerr.ErrorWhenExecutingCm, sqlerror.SSUnknownSQLState, "Error when executing command SHOW BINLOG EVENTS: Wrong offset or I/O error")
	}
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		res.Rows = append(res.Rows, Row{sqltypes.NewVarChar(r.LogName), sqltypes.NewUint64(r.Pos), sqltypes.NewVarChar(r.EventType),
			sqltypes.NewUint32(r.ServerID), sqltypes.NewUint64(r.EndLogPos), sqltypes.NewVarChar(r.Info)})
	}
	return res, nil
}

// binlogNumber reads an integer literal of SHOW BINLOG EVENTS (def when absent).
func (s *Session) binlogNumber(_ context.Context, e sqlparser.Expr, def int64) (int64, error) {
	if e == nil {
		return def, nil
	}
	lit, ok := e.(*sqlparser.Literal)
	if !ok || lit.Type != sqlparser.IntVal {
		return 0, sqlerr.Syntax("You have an error in your SQL syntax; FROM and LIMIT of SHOW BINLOG EVENTS take integer literals")
	}
	n, err := strconv.ParseInt(lit.Val, 10, 64)
	if err != nil {
		return 0, sqlerr.Syntax("You have an error in your SQL syntax; bad number " + lit.Val)
	}
	return n, nil
}

// purgeBinaryLogs is PURGE BINARY LOGS TO 'file' | BEFORE datetime.
func (s *Session) purgeBinaryLogs(st *sqlparser.PurgeBinaryLogs) (*sqltypes.Result, error) {
	l := s.eng.Binlog
	if l == nil {
		return &sqltypes.Result{}, nil
	}
	if st.To != "" {
		if err := l.PurgeTo(st.To); err == binlog.ErrUnknownFile {
			return nil, sqlerr.New(sqlerr.UnknownTargetBinlog, sqlerror.SSUnknownSQLState, "Target log not found in binlog index")
		} else if err != nil {
			return nil, err
		}
		return &sqltypes.Result{}, nil
	}
	t, err := time.Parse("2006-01-02 15:04:05", normalizeBefore(st.Before))
	if err != nil {
		// MySQL takes UNIX_TIMESTAMP() of the value: 0 for a value that
		// is not a datetime, which purges nothing.
		return &sqltypes.Result{}, nil
	}
	unix, _ := s.zone().ToUnix(t.Unix())
	if err := l.PurgeBefore(unix); err != nil {
		return nil, err
	}
	return &sqltypes.Result{}, nil
}

// normalizeBefore pads a date-only PURGE ... BEFORE value to a datetime.
func normalizeBefore(v string) string {
	v = strings.TrimSpace(v)
	if len(v) == 10 {
		return v + " 00:00:00"
	}
	if i := strings.IndexByte(v, '.'); i > 0 {
		return v[:i]
	}
	return v
}

// binlogTxn keeps a new transaction out of the binary log when the
// session set sql_log_bin=0.
func (s *Session) binlogTxn(tx *txn.Txn) {
	if s.eng.Binlog == nil {
		return
	}
	if v, ok := s.sysVar("sql_log_bin"); ok && v.ToString() == "0" {
		tx.DisableBinlog()
	}
}

// BinlogForDump returns the binary log for a COM_BINLOG_DUMP of this
// session: the account needs REPLICATION SLAVE, and the log must be on
// (1236 otherwise, as MySQL).
func (s *Session) BinlogForDump() (*binlog.Log, error) {
	if sub := s.subject(); sub != nil {
		if err := sub.Check(privilege.RuleFor(privilege.KindShowReplicas).Need("", "")); err != nil {
			return nil, err
		}
	}
	if s.eng.Binlog == nil {
		return nil, sqlerr.New(sqlerr.MasterFatalReadingBinlog, sqlerror.SSUnknownSQLState, "Binary log is not open")
	}
	return s.eng.Binlog, nil
}

// UserVar returns the session's user variable name (lower case), as a
// replica sets @master_heartbeat_period before its dump.
func (s *Session) UserVar(name string) (sqltypes.Value, bool) {
	v, ok := s.userVars[name]
	return v, ok
}

package replica

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"log/slog"
	"strings"
	"sync"
	"time"

	"vitess.io/vitess/go/mysql"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql"
	"github.com/strata-db/strata/internal/sql/parse"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// MySQL's error numbers of the replication statements.
const (
	errBadReplica       sqlerror.ErrorCode = 1200 // ER_BAD_REPLICA
	errIOMustStop       sqlerror.ErrorCode = 3021 // ER_REPLICA_CHANNEL_IO_THREAD_MUST_STOP
	errChannelMustStop  sqlerror.ErrorCode = 3081 // ER_REPLICA_CHANNEL_MUST_STOP
	errWasRunning       sqlerror.ErrorCode = 3083 // ER_REPLICA_CHANNEL_WAS_RUNNING
	errWasNotRunning    sqlerror.ErrorCode = 3084 // ER_REPLICA_CHANNEL_WAS_NOT_RUNNING
	errWrongArguments   sqlerror.ErrorCode = 1210 // ER_WRONG_ARGUMENTS
	errIOFatal                             = 1593 // ER_SLAVE_FATAL_ERROR
	errSourceFatalRead                     = 1236 // ER_MASTER_FATAL_ERROR_READING_BINLOG
	errConnectingSource                    = 2003 // CR_CONN_HOST_ERROR
)

// Replica is strata's replica side: the settings, the running pipeline
// and what SHOW REPLICA STATUS reports. It implements sql.ReplicaControl.
type Replica struct {
	eng *sql.Engine
	log *slog.Logger

	mu struct {
		sync.Mutex
		configured bool
		src        Source
		pos        Position // applied (the applier's, once running)
		// run is the running pipeline (nil when stopped).
		run *run
		// what the threads last reported
		ioState, sqlState     string
		ioRunning, sqlRunning string // "Yes", "No", "Connecting"
		readFile              string
		readPos               uint64
		ioErrno, sqlErrno     int
		ioErr, sqlErr         string
		ioErrTime, sqlErrTime time.Time
		sourceServerID        uint32
		sourceUUID            string
		lastTS                uint32
		waiting               bool
	}
}

// run is one START REPLICA .. STOP REPLICA.
type run struct {
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	conn   *mysql.Conn
}

// New returns the replica side of eng, with the state stored in its
// store; it does not start replication (see Resume).
func New(ctx context.Context, eng *sql.Engine, log *slog.Logger) (*Replica, error) {
	r := &Replica{eng: eng, log: log}
	src, pos, ok, err := loadState(ctx, eng.DB)
	if err != nil {
		return nil, err
	}
	r.mu.configured, r.mu.src, r.mu.pos = ok, src, pos
	r.mu.ioRunning, r.mu.sqlRunning = "No", "No"
	return r, nil
}

// Resume starts replication if it was running when the server stopped.
func (r *Replica) Resume(ctx context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.mu.configured && r.mu.src.Running && r.mu.run == nil {
		r.startLocked()
	}
}

// Close stops replication without recording it as stopped (a restart
// resumes it).
func (r *Replica) Close() {
	r.mu.Lock()
	ru := r.mu.run
	r.mu.Unlock()
	if ru != nil {
		ru.stop()
	}
}

// Change implements sql.ReplicaControl.
func (r *Replica) Change(ctx context.Context, opts []parse.ReplicaOption) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	src, pos := r.mu.src, r.mu.pos
	if !r.mu.configured {
		src = Source{Port: 3306, ConnectRetry: 60, RetryCount: 86400}
		pos = Position{}
	}
	newPos := false
	connChanged := false
	for _, o := range opts {
		str := func() (string, error) {
			if !o.Quoted {
				return "", sqlerr.Syntax(fmt.Sprintf("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s' at line 1", o.Value))
			}
			return o.Value, nil
		}
		num := func() (uint64, error) {
			n, ok := o.Uint()
			if !ok {
				return 0, sqlerr.Syntax(fmt.Sprintf("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '%s' at line 1", o.Value))
			}
			return n, nil
		}
		var err error
		var n uint64
		switch o.Name {
		case "SOURCE_HOST":
			src.Host, err = str()
			connChanged = true
		case "SOURCE_USER":
			src.User, err = str()
		case "SOURCE_PASSWORD":
			src.Password, err = str()
		case "SOURCE_PORT":
			n, err = num()
			if err == nil && n > 65535 {
				err = sqlerr.New(errWrongArguments, sqlerror.SSUnknownSQLState, "Incorrect arguments to SOURCE_PORT")
			}
			src.Port = int(n)
			connChanged = true
		case "SOURCE_CONNECT_RETRY":
			n, err = num()
			src.ConnectRetry = int(min(n, 31536000))
		case "SOURCE_RETRY_COUNT":
			n, err = num()
			src.RetryCount = int(min(n, 31536000))
		case "SOURCE_LOG_FILE":
			pos.File, err = str()
			newPos = true
		case "SOURCE_LOG_POS":
			n, err = num()
			pos.Pos, newPos = n, true
		case "SOURCE_AUTO_POSITION", "SOURCE_USE_GTID":
			if v := strings.ToLower(o.Value); v == "0" || v == "no" {
				continue
			}
			return sqlerr.Unsupported("%s = %s (GTID auto-positioning); use SOURCE_LOG_FILE and SOURCE_LOG_POS", o.Name, o.Value)
		case "SOURCE_SSL":
			if o.Value == "0" {
				continue
			}
			return sqlerr.Unsupported("SOURCE_SSL = %s", o.Value)
		case "SOURCE_HEARTBEAT_PERIOD", "GET_SOURCE_PUBLIC_KEY":
			// Accepted; heartbeats are asked for at a fixed period.
			continue
		default:
			return sqlerr.Unsupported("CHANGE REPLICATION SOURCE TO option %s", o.Name)
		}
		if err != nil {
			return err
		}
	}
	if r.mu.run != nil {
		return sqlerr.New(errIOMustStop, sqlerror.SSUnknownSQLState, "This operation cannot be performed with a running replica io thread; run STOP REPLICA IO_THREAD FOR CHANNEL '' first.")
	}
	switch {
	case newPos:
		if pos.Pos == 0 || pos.Pos < 4 {
			pos.Pos = 4
		}
		// A position by file names a point in the source's log, not a
		// GTID set: the set applied so far is kept.
	case connChanged:
		// MySQL: a new source without a position starts at the beginning
		// of its binary logs.
		pos = Position{GTID: pos.GTID, Flavor: pos.Flavor}
	}
	if err := saveState(ctx, r.eng.DB, &src, &pos, false); err != nil {
		return sqlerr.New(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState, "%v", err)
	}
	r.mu.configured, r.mu.src, r.mu.pos = true, src, pos
	r.mu.readFile, r.mu.readPos = "", 0
	return nil
}

// Start implements sql.ReplicaControl.
func (r *Replica) Start(ctx context.Context) (note, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.mu.configured || r.mu.src.Host == "" {
		return nil, sqlerr.New(errBadReplica, sqlerror.SSUnknownSQLState, "The server is not configured as replica; fix in config file or with CHANGE REPLICATION SOURCE TO")
	}
	if r.mu.run != nil {
		return sqlerr.New(errWasRunning, sqlerror.SSUnknownSQLState, "Replication thread(s) for channel '' are already runnning."), nil
	}
	src := r.mu.src
	src.Running = true
	if err := saveState(ctx, r.eng.DB, &src, nil, false); err != nil {
		return nil, sqlerr.New(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState, "%v", err)
	}
	r.mu.src = src
	r.startLocked()
	return nil, nil
}

// Stop implements sql.ReplicaControl: it waits until the group being
// applied is committed or rolled back.
func (r *Replica) Stop(ctx context.Context) (note, err error) {
	r.mu.Lock()
	ru := r.mu.run
	r.mu.Unlock()
	if ru != nil {
		ru.stop()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.mu.configured && r.mu.src.Running {
		src := r.mu.src
		src.Running = false
		if err := saveState(ctx, r.eng.DB, &src, nil, false); err != nil {
			return nil, sqlerr.New(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState, "%v", err)
		}
		r.mu.src = src
	}
	if ru == nil {
		return sqlerr.New(errWasNotRunning, sqlerror.SSUnknownSQLState, "Replication thread(s) for channel '' are already stopped."), nil
	}
	return nil, nil
}

// Reset implements sql.ReplicaControl.
func (r *Replica) Reset(ctx context.Context, all bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.mu.run != nil {
		return sqlerr.New(errChannelMustStop, sqlerror.SSUnknownSQLState, "This operation cannot be performed with running replication threads; run STOP REPLICA FOR CHANNEL '' first")
	}
	if !r.mu.configured {
		return nil
	}
	var src *Source
	if !all {
		s := r.mu.src
		src = &s
	}
	if err := saveState(ctx, r.eng.DB, src, nil, true); err != nil {
		return sqlerr.New(sqlerror.ERUnknownError, sqlerror.SSUnknownSQLState, "%v", err)
	}
	r.mu.pos = Position{}
	r.mu.readFile, r.mu.readPos = "", 0
	r.mu.ioErrno, r.mu.ioErr, r.mu.sqlErrno, r.mu.sqlErr = 0, "", 0, ""
	r.mu.ioErrTime, r.mu.sqlErrTime = time.Time{}, time.Time{}
	if all {
		r.mu.configured, r.mu.src = false, Source{}
	}
	return nil
}

// Status implements sql.ReplicaControl.
func (r *Replica) Status() []sql.ReplicaStatusColumn {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.mu.configured {
		return nil
	}
	str := func(n, v string) sql.ReplicaStatusColumn {
		return sql.ReplicaStatusColumn{Name: n, Value: sqltypes.NewVarChar(v)}
	}
	num := func(n string, v uint64) sql.ReplicaStatusColumn {
		return sql.ReplicaStatusColumn{Name: n, Value: sqltypes.NewUint64(v)}
	}
	null := func(n string) sql.ReplicaStatusColumn {
		return sql.ReplicaStatusColumn{Name: n, Value: sqltypes.NULL}
	}
	ts := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.Format("060102 15:04:05")
	}
	behind := null("Seconds_Behind_Source")
	if r.mu.run != nil && r.mu.sqlRunning == "Yes" && r.mu.ioRunning == "Yes" {
		switch {
		case r.mu.waiting || r.mu.lastTS == 0:
			behind = num("Seconds_Behind_Source", 0)
		default:
			d := time.Now().Unix() - int64(r.mu.lastTS)
			behind = num("Seconds_Behind_Source", uint64(max(d, 0)))
		}
	}
	readFile, readPos := r.mu.readFile, r.mu.readPos
	if readFile == "" {
		readFile, readPos = r.mu.pos.File, r.mu.pos.Pos
	}
	lastErrno, lastErr := r.mu.sqlErrno, r.mu.sqlErr
	return []sql.ReplicaStatusColumn{
		str("Replica_IO_State", r.mu.ioState),
		str("Source_Host", r.mu.src.Host),
		str("Source_User", r.mu.src.User),
		num("Source_Port", uint64(r.mu.src.Port)),
		num("Connect_Retry", uint64(r.mu.src.ConnectRetry)),
		str("Source_Log_File", readFile),
		num("Read_Source_Log_Pos", readPos),
		str("Relay_Log_File", ""),
		num("Relay_Log_Pos", 0),
		str("Relay_Source_Log_File", r.mu.pos.File),
		str("Replica_IO_Running", r.mu.ioRunning),
		str("Replica_SQL_Running", r.mu.sqlRunning),
		num("Last_Errno", uint64(lastErrno)),
		str("Last_Error", lastErr),
		num("Exec_Source_Log_Pos", r.mu.pos.Pos),
		str("Until_Condition", "None"),
		str("Source_SSL_Allowed", "No"),
		behind,
		str("Source_SSL_Verify_Server_Cert", "No"),
		num("Last_IO_Errno", uint64(r.mu.ioErrno)),
		str("Last_IO_Error", r.mu.ioErr),
		num("Last_SQL_Errno", uint64(r.mu.sqlErrno)),
		str("Last_SQL_Error", r.mu.sqlErr),
		num("Source_Server_Id", uint64(r.mu.sourceServerID)),
		str("Source_UUID", r.mu.sourceUUID),
		str("Source_Info_File", "mysql.slave_master_info"),
		null("SQL_Remaining_Delay"),
		str("Replica_SQL_Running_State", r.mu.sqlState),
		num("Source_Retry_Count", uint64(r.mu.src.RetryCount)),
		str("Last_IO_Error_Timestamp", ts(r.mu.ioErrTime)),
		str("Last_SQL_Error_Timestamp", ts(r.mu.sqlErrTime)),
		str("Retrieved_Gtid_Set", ""),
		str("Executed_Gtid_Set", r.mu.pos.GTID),
		num("Get_Source_public_key", 0),
	}
}

// startLocked starts the pipeline.
func (r *Replica) startLocked() {
	ctx, cancel := context.WithCancel(context.Background())
	ru := &run{cancel: cancel, done: make(chan struct{})}
	r.mu.run = ru
	r.mu.ioRunning, r.mu.sqlRunning = "Connecting", "Yes"
	r.mu.ioState, r.mu.sqlState = "Connecting to source", "Replica has read all relay log; waiting for more updates"
	r.mu.ioErrno, r.mu.ioErr, r.mu.sqlErrno, r.mu.sqlErr = 0, "", 0, ""
	src, pos := r.mu.src, r.mu.pos
	go func() {
		defer close(ru.done)
		r.pipeline(ctx, ru, src, pos)
		r.mu.Lock()
		r.mu.run = nil
		r.mu.ioRunning, r.mu.sqlRunning = "No", "No"
		r.mu.ioState, r.mu.sqlState = "", ""
		r.mu.Unlock()
	}()
}

func (ru *run) stop() {
	ru.cancel()
	ru.mu.Lock()
	if ru.conn != nil {
		ru.conn.Close()
	}
	ru.mu.Unlock()
	<-ru.done
}

func (ru *run) setConn(c *mysql.Conn) {
	ru.mu.Lock()
	ru.conn = c
	ru.mu.Unlock()
}

// pipeline is the IO and SQL thread: connect, read, apply, reconnect
// after network errors, stop on an applier error or a fatal error of the
// source.
func (r *Replica) pipeline(ctx context.Context, ru *run, src Source, pos Position) {
	a, err := newApplier(ctx, r.eng, pos)
	if err != nil {
		r.sqlError(&SQLError{Code: errFatalApplier, Msg: err.Error()})
		return
	}
	defer a.close()
	retries := 0
	for ctx.Err() == nil {
		err := r.stream(ctx, ru, src, a)
		a.abandon()
		if ctx.Err() != nil {
			return
		}
		var se *SQLError
		if errors.As(err, &se) {
			r.sqlError(se)
			return
		}
		var ie *ioError
		if errors.As(err, &ie) {
			r.ioError(ie.code, ie.msg)
			if ie.fatal {
				return
			}
		} else if err != nil {
			r.ioError(errConnectingSource, err.Error())
		}
		retries++
		if retries > src.RetryCount {
			return
		}
		r.setIO("Connecting", "Waiting to reconnect after a failed source event read")
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Duration(max(src.ConnectRetry, 1)) * time.Second):
		}
	}
}

const errFatalApplier = 1593

type ioError struct {
	code  int
	msg   string
	fatal bool
}

func (e *ioError) Error() string { return e.msg }

func (r *Replica) sqlError(e *SQLError) {
	r.log.Error("replica SQL thread stopped", "errno", e.Code, "err", e.Msg)
	r.mu.Lock()
	r.mu.sqlErrno, r.mu.sqlErr, r.mu.sqlErrTime = e.Code, e.Msg, time.Now()
	r.mu.Unlock()
}

func (r *Replica) ioError(code int, msg string) {
	r.log.Warn("replica IO thread error", "errno", code, "err", msg)
	r.mu.Lock()
	r.mu.ioErrno, r.mu.ioErr, r.mu.ioErrTime = code, msg, time.Now()
	r.mu.Unlock()
}

func (r *Replica) setIO(running, state string) {
	r.mu.Lock()
	r.mu.ioRunning, r.mu.ioState = running, state
	r.mu.Unlock()
}

// stream connects once and applies events until an error.
func (r *Replica) stream(ctx context.Context, ru *run, src Source, a *applier) error {
	r.setIO("Connecting", "Connecting to source")
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	conn, err := mysql.Connect(cctx, &mysql.ConnParams{Host: src.Host, Port: src.Port, Uname: src.User, Pass: src.Password})
	cancel()
	if err != nil {
		var se *sqlerror.SQLError
		if errors.As(err, &se) && se.Num < 2000 {
			// Access denied and the like: MySQL keeps retrying too.
			return &ioError{code: int(se.Num), msg: fmt.Sprintf("error connecting to source '%s@%s:%d' - retry-time: %d retries: 1 message: %s", src.User, src.Host, src.Port, src.ConnectRetry, se.Message)}
		}
		return &ioError{code: errConnectingSource, msg: fmt.Sprintf("error connecting to source '%s@%s:%d' - retry-time: %d retries: 1 message: %v", src.User, src.Host, src.Port, src.ConnectRetry, err)}
	}
	ru.setConn(conn)
	defer func() {
		ru.setConn(nil)
		conn.Close()
	}()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	// The source's identity; a replica must not share its server id.
	qr, err := conn.ExecuteFetch("SELECT @@server_id", 1, false)
	if err != nil || len(qr.Rows) != 1 {
		return &ioError{code: errIOFatal, msg: fmt.Sprintf("Fatal error: the replica cannot read the source's server id: %v", err)}
	}
	srcID, _ := qr.Rows[0][0].ToUint64()
	myID := uint64(1)
	if v, ok := r.eng.Globals.Get("server_id"); ok {
		myID, _ = v.ToUint64()
	}
	if srcID == myID {
		return &ioError{code: errIOFatal, fatal: true, msg: "Fatal error: The replica I/O thread stops because source and replica have equal MySQL server ids; these ids must be different for replication to work (or the --replicate-same-server-id option must be used on replica but this does not always make sense; please check the manual before using it)."}
	}
	uuid := ""
	if qr, err := conn.ExecuteFetch("SELECT @@server_uuid", 1, false); err == nil && len(qr.Rows) == 1 {
		uuid = qr.Rows[0][0].ToString()
	}
	// Checksums as the source writes them (stripped below); MariaDB's
	// GTID events; heartbeats every second while idle.
	_, _ = conn.ExecuteFetch("SET @master_binlog_checksum = @@global.binlog_checksum, @source_binlog_checksum = @@global.binlog_checksum", 0, false)
	_, _ = conn.ExecuteFetch("SET @mariadb_slave_capability = 4", 0, false)
	_, _ = conn.ExecuteFetch("SET @master_heartbeat_period = 1000000000", 0, false)
	if err := conn.SendBinlogDumpCommand(uint32(myID), a.pos.File, uint32(max(a.pos.Pos, 4))); err != nil {
		return &ioError{code: errSourceFatalRead, msg: fmt.Sprintf("Got fatal error from source when requesting the binary log: %v", err)}
	}
	r.mu.Lock()
	r.mu.ioRunning, r.mu.ioState = "Yes", "Waiting for source to send event"
	r.mu.sourceServerID, r.mu.sourceUUID = uint32(srcID), uuid
	r.mu.ioErrno, r.mu.ioErr = 0, ""
	r.mu.Unlock()
	a.format = mysql.BinlogFormat{}
	for {
		r.mu.Lock()
		r.mu.waiting = true
		r.mu.Unlock()
		ev, err := conn.ReadBinlogEvent()
		r.mu.Lock()
		r.mu.waiting = false
		r.mu.Unlock()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			var se *sqlerror.SQLError
			if errors.As(err, &se) && se.Num < 2000 {
				return &ioError{code: errSourceFatalRead, fatal: true, msg: fmt.Sprintf("Got fatal error %d from source when reading data from binary log: '%s'", se.Num, se.Message)}
			}
			return &ioError{code: 2013, msg: fmt.Sprintf("error reconnecting to source '%s@%s:%d' - retry-time: %d: %v", src.User, src.Host, src.Port, src.ConnectRetry, err)}
		}
		if !ev.IsValid() {
			return &SQLError{Code: errRelayLogRead, Msg: "Relay log read failure: an invalid event"}
		}
		if ev.IsFormatDescription() {
			f, err := ev.Format()
			if err != nil {
				return &SQLError{Code: errRelayLogRead, Msg: fmt.Sprintf("Relay log read failure: format description: %v", err)}
			}
			a.format = f
			a.passed(ev)
			continue
		}
		if a.format.IsZero() {
			// Before the format description only the source's fake
			// rotate comes (header layout common to all versions).
			if ev.IsRotate() {
				// The source's fake rotate carries a checksum when
				// checksums were negotiated: strip it when it is one.
				f := mysql.NewMySQL56BinlogFormat()
				f.ChecksumAlgorithm = mysql.BinlogChecksumAlgOff
				if b := ev.Bytes(); len(b) > 19+8+4 && checksumOK(b) {
					f.ChecksumAlgorithm = mysql.BinlogChecksumAlgCRC32
					if ev, _, err = ev.StripChecksum(f); err != nil {
						return &SQLError{Code: errRelayLogRead, Msg: fmt.Sprintf("Relay log read failure: checksum: %v", err)}
					}
				}
				file, _, err := parseRotate(ev.Bytes(), f.HeaderLength)
				if err == nil && file != "" {
					a.file = file
				}
				r.noteRead(a.file, ev.NextPosition())
				continue
			}
			return &SQLError{Code: errRelayLogRead, Msg: "Relay log read failure: an event before the format description"}
		}
		if a.format.ChecksumAlgorithm == mysql.BinlogChecksumAlgCRC32 && !checksumOK(ev.Bytes()) {
			return &ioError{code: 1743, fatal: true, msg: fmt.Sprintf("Replication event checksum verification failed while reading from network (source log %s, event ending at %d)", a.file, ev.NextPosition())}
		}
		ev, _, err = ev.StripChecksum(a.format)
		if err != nil {
			return &SQLError{Code: errRelayLogRead, Msg: fmt.Sprintf("Relay log read failure: checksum: %v", err)}
		}
		if err := a.event(ev); err != nil {
			return err
		}
		a.passed(ev)
		r.noteRead(a.file, ev.NextPosition())
		r.mu.Lock()
		r.mu.pos = a.pos
		r.mu.lastTS = a.lastTS
		r.mu.Unlock()
	}
}

// checksumOK reports whether an event's last 4 bytes are the CRC32 of
// the bytes before them.
func checksumOK(b []byte) bool {
	if len(b) < 4 {
		return false
	}
	n := len(b) - 4
	return crc32.ChecksumIEEE(b[:n]) == binary.LittleEndian.Uint32(b[n:])
}

func (r *Replica) noteRead(file string, pos uint64) {
	r.mu.Lock()
	r.mu.readFile = file
	if pos != 0 {
		r.mu.readPos = pos
	}
	r.mu.Unlock()
}

var _ sql.ReplicaControl = (*Replica)(nil)

package replica

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"vitess.io/vitess/go/mysql"
	"vitess.io/vitess/go/mysql/binlog"
	"vitess.io/vitess/go/mysql/replication"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/coltype"
	"github.com/strata-db/strata/internal/sql"
	"github.com/strata-db/strata/internal/txn"
)

// Binary log event types the applier names (Vitess keeps its constants
// unexported).
const (
	evStop            = 3
	evIntVar          = 5
	evRand            = 13
	evUserVar         = 14
	evIncident        = 26
	evRowsQuery       = 29
	evAnonymousGTID   = 34
	evPreviousGTIDs   = 35
	evTransactionPay  = 40
	evMariaAnnotate   = 160
	evMariaCheckpoint = 161
	evMariaGTIDList   = 163
	evMariaStartEncr  = 164
)

// SQLError is an error of the applier: the SQL thread stops with it as
// Last_SQL_Errno / Last_SQL_Error.
type SQLError struct {
	Code int
	Msg  string
}

func (e *SQLError) Error() string { return e.Msg }

// ErrorCode is the error's MySQL number.
func (e *SQLError) ErrorCode() int { return e.Code }

func sqlErrorf(code int, format string, args ...any) *SQLError {
	return &SQLError{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// MySQL's errors of the SQL thread.
const (
	errKeyNotFound    = 1032 // ER_KEY_NOT_FOUND (HA_ERR_KEY_NOT_FOUND)
	errNoSuchTable    = 1146 // ER_NO_SUCH_TABLE
	errConversion     = 1677 // ER_SLAVE_CONVERSION_FAILED
	errIncident       = 1590 // ER_SLAVE_INCIDENT
	errRelayLogRead   = 1594 // ER_SLAVE_RELAY_LOG_READ_FAILURE
	errNotSupported   = 1235 // ER_NOT_SUPPORTED_YET
	errFatal          = 1593 // ER_SLAVE_FATAL_ERROR
	errRowsEventApply = 1105
)

// tableInfo is a table map resolved against the replica's catalog.
type tableInfo struct {
	tm     *mysql.TableMap
	t      *catalog.Table
	fields []*querypb.Field
	// key: the replica's primary key columns (nil: none, or the table has
	// a hidden one).
	key []int
}

// applier applies event groups through a session of the engine.
type applier struct {
	eng  *sql.Engine
	sess *sql.Session
	ctx  context.Context

	format mysql.BinlogFormat
	tables map[uint64]*tableInfo

	// file is the source file being read; pos is the position of the last
	// applied group (what is stored with it).
	file    string
	pos     Position
	gtids   replication.GTIDSet
	pending replication.GTID
	inGroup bool
	// groupRows: the open group applied rows already.
	groupRows bool
	// lastTS is the source timestamp of the event being applied.
	lastTS uint32

	// posKey is where each group's position is stored: positionKey, or a
	// replay's replayKey.
	posKey []byte

	buf   []byte
	vals  []sqltypes.Value
	bvals []sqltypes.Value

	// exec runs a generated statement (nil: on sess). A BINLOG statement's
	// applier runs them in the client's own session (binlog_stmt.go).
	exec func(stmt string) (*sqltypes.Result, error)
}

func newApplier(ctx context.Context, eng *sql.Engine, pos Position) (*applier, error) {
	a := &applier{eng: eng, ctx: ctx, pos: pos, file: pos.File, tables: map[uint64]*tableInfo{}, posKey: positionKey}
	if pos.GTID != "" {
		p, err := replication.ParsePosition(pos.Flavor, pos.GTID)
		if err != nil {
			return nil, fmt.Errorf("replica: stored GTID set %q: %w", pos.GTID, err)
		}
		a.gtids = p.GTIDSet
	}
	a.sess = eng.NewSession("root", "localhost")
	a.sess.SetReplicaApplier()
	a.sess.SetClientFoundRows(true)
	// Values arrive as the source stored them: strict store assignment
	// (an error rather than a changed value), a 0 in an AUTO_INCREMENT
	// column kept, TIMESTAMPs in UTC, foreign keys checked by the source.
	if _, err := a.sess.Query(ctx, "SET SESSION sql_mode='STRICT_ALL_TABLES,NO_AUTO_VALUE_ON_ZERO,NO_ENGINE_SUBSTITUTION', time_zone='+00:00', foreign_key_checks=0, autocommit=1"); err != nil {
		a.sess.Close()
		return nil, fmt.Errorf("replica: setting up the applier session: %w", err)
	}
	return a, nil
}

func (a *applier) close() {
	if a.inGroup {
		_, _ = a.sess.Query(context.Background(), "ROLLBACK")
		a.inGroup = false
	}
	a.sess.Close()
}

// abandon rolls back a group that was not complete (the connection
// ended mid-group): it will be read again.
func (a *applier) abandon() {
	if a.inGroup {
		_, _ = a.sess.Query(context.Background(), "ROLLBACK")
		a.inGroup = false
	}
	a.pending = nil
}

// event applies one event (its checksum already stripped).
func (a *applier) event(ev mysql.BinlogEvent) error {
	typ := ev.Bytes()[4]
	a.lastTS = ev.Timestamp()
	f := a.format
	switch {
	case ev.IsRotate():
		file, pos, err := parseRotate(ev.Bytes(), f.HeaderLength)
		if err != nil {
			return sqlErrorf(errRelayLogRead, "Relay log read failure: could not parse a rotate event: %v", err)
		}
		a.file = file
		if !a.inGroup {
			a.pos.File, a.pos.Pos = file, pos
		}
		return nil
	case ev.IsHeartbeat():
		return nil
	case ev.IsGTID():
		gtid, hasBegin, _, _, err := ev.GTID(f)
		if err != nil {
			return sqlErrorf(errRelayLogRead, "Relay log read failure: could not parse a GTID event: %v", err)
		}
		a.pending = gtid
		if hasBegin {
			return a.begin()
		}
		return nil
	case ev.IsXID():
		return a.commit(ev)
	case ev.IsQuery():
		q, err := ev.Query(f)
		if err != nil {
			return sqlErrorf(errRelayLogRead, "Relay log read failure: could not parse a query event: %v", err)
		}
		return a.query(ev, q)
	case ev.IsTableMap():
		tm, err := ev.TableMap(f)
		if err != nil {
			return sqlErrorf(errRelayLogRead, "Relay log read failure: could not parse a table map event: %v", err)
		}
		ti, err := a.resolve(tm)
		if err != nil {
			return err
		}
		a.tables[ev.TableID(f)] = ti
		return nil
	case ev.IsPartialUpdateRows():
		return sqlErrorf(errNotSupported, "partial JSON updates (binlog_row_value_options=PARTIAL_JSON) are not supported by this replica")
	case ev.IsWriteRows(), ev.IsUpdateRows(), ev.IsDeleteRows():
		return a.rows(ev)
	}
	switch typ {
	case evStop, evPreviousGTIDs, evAnonymousGTID, evRowsQuery, evMariaAnnotate, evMariaCheckpoint, evMariaGTIDList:
		return nil
	case evIntVar, evRand, evUserVar:
		// Only statement-based DML carries them; its QUERY event stops
		// the applier.
		return nil
	case evIncident:
		return sqlErrorf(errIncident, "The incident LOST_EVENTS occurred on the source. Message: an incident event")
	case evTransactionPay:
		return sqlErrorf(errNotSupported, "compressed transaction payloads (binlog_transaction_compression) are not supported by this replica")
	case evMariaStartEncr:
		return sqlErrorf(errNotSupported, "encrypted binary logs are not supported by this replica")
	}
	return sqlErrorf(errNotSupported, "binary log event type %d is not supported by this replica", typ)
}

// passed moves the applied position past an event applied outside a
// group (format descriptions, GTID lists, checkpoints...), in memory:
// the next group's commit stores it, and a restart before that reads
// those events again, which changes nothing. Rotates set it themselves;
// heartbeats only report the source's position.
func (a *applier) passed(ev mysql.BinlogEvent) {
	if a.inGroup || ev.IsRotate() || ev.IsHeartbeat() || ev.IsGTID() || ev.Bytes()[4] == evAnonymousGTID {
		// A GTID event starts a group even when no BEGIN follows (DDL).
		return
	}
	if next := ev.NextPosition(); next != 0 && a.file != "" {
		a.pos.File, a.pos.Pos = a.file, next
	}
}

func (a *applier) begin() error {
	if a.inGroup {
		return sqlErrorf(errRelayLogRead, "Relay log read failure: a transaction began inside another")
	}
	if _, err := a.sess.Query(a.ctx, "BEGIN"); err != nil {
		return a.fromSQL(err, "BEGIN")
	}
	a.inGroup, a.groupRows = true, false
	return nil
}

// commit ends the open group at event ev: the position after ev (and the
// group's GTID) is written in the group's own transaction.
func (a *applier) commit(ev mysql.BinlogEvent) error {
	if !a.inGroup {
		if err := a.begin(); err != nil {
			return err
		}
	}
	next := a.nextPosition(ev)
	if err := a.sess.WriteInTransaction(a.posKey, next.encode()); err != nil {
		return sqlErrorf(errFatal, "Fatal error: cannot record the applied position: %v", err)
	}
	if _, err := a.sess.Query(a.ctx, "COMMIT"); err != nil {
		a.inGroup = false
		return a.fromSQL(err, "COMMIT")
	}
	a.inGroup = false
	a.advance(next)
	return nil
}

// nextPosition is the applied position once the group ending at ev is
// committed.
func (a *applier) nextPosition(ev mysql.BinlogEvent) Position {
	p := Position{File: a.file, Pos: ev.NextPosition(), GTID: a.pos.GTID, Flavor: a.pos.Flavor}
	if p.Pos == 0 {
		p.Pos = a.pos.Pos
	}
	if a.pending != nil {
		set := a.gtids
		if set == nil {
			set = a.pending.GTIDSet()
		} else {
			set = set.AddGTID(a.pending)
		}
		p.GTID, p.Flavor = set.String(), set.Flavor()
	}
	return p
}

func (a *applier) advance(p Position) {
	if a.pending != nil {
		if a.gtids == nil {
			a.gtids = a.pending.GTIDSet()
		} else {
			a.gtids = a.gtids.AddGTID(a.pending)
		}
		a.pending = nil
	}
	a.pos = p
}

// query applies a QUERY event: BEGIN, COMMIT, ROLLBACK or a DDL
// statement; statement-based DML is refused.
func (a *applier) query(ev mysql.BinlogEvent, q mysql.Query) error {
	word := strings.ToUpper(firstWord(q.SQL))
	switch word {
	case "BEGIN":
		if a.inGroup {
			// MariaDB: the GTID event began the group.
			return nil
		}
		return a.begin()
	case "COMMIT":
		return a.commit(ev)
	case "XA", "SAVEPOINT":
		return sqlErrorf(errNotSupported, "Error executing a query event: '%s' is not supported by this replica", truncate(q.SQL))
	case "ROLLBACK":
		if strings.Contains(strings.ToUpper(q.SQL), " TO ") {
			return sqlErrorf(errNotSupported, "Error executing a query event: '%s' is not supported by this replica", truncate(q.SQL))
		}
		// A group the source rolled back (non-transactional tables):
		// nothing of it stays, the position moves past it.
		a.abandon()
		return a.commit(ev)
	case "CREATE", "ALTER", "DROP", "RENAME", "TRUNCATE", "GRANT", "REVOKE", "ANALYZE", "OPTIMIZE", "FLUSH":
		if a.inGroup && word == "CREATE" && !a.groupRows {
			// CREATE TABLE … SELECT: the CREATE opens the group, its rows
			// follow, the group's commit ends it.
			return a.ddl(q, nil)
		}
		if a.inGroup {
			return sqlErrorf(errNotSupported, "Error executing a query event: DDL inside a transaction: '%s'", truncate(q.SQL))
		}
		if word == "FLUSH" || word == "ANALYZE" || word == "OPTIMIZE" {
			// Maintenance with no effect on data.
			return a.commit(ev)
		}
		// The position after the event commits with the statement's
		// change (or, for a statement that changes nothing, on its own):
		// after a crash the DDL is neither run again nor skipped.
		next := a.nextPosition(ev)
		committed := false
		hook := func(b *txn.Batch, apply func(*txn.Batch) error) error {
			if err := b.Set(a.posKey, next.encode()); err != nil {
				return err
			}
			if err := apply(b); err != nil {
				return err
			}
			committed = true
			return nil
		}
		err := a.ddl(q, hook)
		if committed {
			// The store has the position: so does the applier, even if
			// the statement failed after its change committed.
			a.advance(next)
		}
		if err != nil || committed {
			return err
		}
		// A statement that takes no commit hook (GRANT, REVOKE): its
		// position commits after it.
		return a.commit(ev)
	}
	return sqlErrorf(errNotSupported, "Error executing a query event: statement-based replication of '%s' is not supported by this replica (use binlog_format=ROW on the source)", truncate(q.SQL))
}

// ddl runs a DDL statement in the event's database, in a session of its
// own (the database may not be the applier's), its change committed
// through hook when not nil (sql.Session.SetDDLCommitHook).
func (a *applier) ddl(q mysql.Query, hook catalog.CommitHook) error {
	s := a.eng.NewSession("root", "localhost")
	defer s.Close()
	s.SetReplicaApplier()
	if q.Database != "" {
		// The source names the database the statement ran in, which may
		// not exist (CREATE DATABASE names the new one): then none, as
		// MySQL's applier sets it unchecked.
		if _, err := s.Query(a.ctx, "USE `"+strings.ReplaceAll(q.Database, "`", "``")+"`"); err != nil {
			var se *sqlerror.SQLError
			if !errors.As(err, &se) || se.Num != sqlerror.ERBadDb {
				return a.fromSQL(err, q.SQL)
			}
		}
	}
	s.SetDDLCommitHook(hook)
	if _, err := s.Query(a.ctx, q.SQL); err != nil {
		return a.fromSQL(err, q.SQL)
	}
	return nil
}

// fromSQL turns an error of a statement the applier ran into the SQL
// thread's error, with MySQL's code.
func (a *applier) fromSQL(err error, stmt string) error {
	var se *sqlerror.SQLError
	if errors.As(err, &se) {
		return sqlErrorf(int(se.Num), "Error '%s' on query. Default database: ''. Query: '%s'", se.Message, truncate(stmt))
	}
	if ctxErr := a.ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	return sqlErrorf(errRowsEventApply, "Error on query '%s': %v", truncate(stmt), err)
}

// resolve matches a table map with the replica's table: every column the
// source logs must exist on the replica with the same type family.
func (a *applier) resolve(tm *mysql.TableMap) (*tableInfo, error) {
	t := a.eng.Cat.Table(tm.Database, tm.Name)
	if t == nil {
		return nil, sqlErrorf(errNoSuchTable, "Error executing row event: 'Table '%s.%s' doesn't exist'", tm.Database, tm.Name)
	}
	if len(tm.Types) > len(t.Columns) {
		return nil, sqlErrorf(errConversion, "Table definition on the source and the replica does not match: the source's '%s.%s' has %d columns, the replica's %d", tm.Database, tm.Name, len(tm.Types), len(t.Columns))
	}
	ti := &tableInfo{tm: tm, t: t, fields: make([]*querypb.Field, len(tm.Types))}
	for i := range tm.Types {
		if err := checkColumn(tm.Types[i], tm.Metadata[i], &t.Columns[i]); err != nil {
			return nil, sqlErrorf(errConversion, "Column %d of table '%s.%s' %v", i, tm.Database, tm.Name, err)
		}
		ti.fields[i] = coltype.Field(t, i, "")
	}
	if !t.HiddenPK && len(t.Indexes) > 0 {
		for _, c := range t.Indexes[0].Columns {
			if c.Col >= len(tm.Types) || c.Prefix != 0 {
				ti.key = nil
				break
			}
			ti.key = append(ti.key, c.Col)
		}
	}
	return ti, nil
}

// rows applies a WRITE, UPDATE or DELETE rows event, one statement per
// row image, checking that each before image found its row.
func (a *applier) rows(ev mysql.BinlogEvent) error {
	ti := a.tables[ev.TableID(a.format)]
	if ti == nil {
		return sqlErrorf(errRelayLogRead, "Relay log read failure: a rows event for an unknown table id %d", ev.TableID(a.format))
	}
	if ti.t.Replaced() {
		t2 := a.eng.Cat.Table(ti.t.DB, ti.t.Name)
		if t2 == nil {
			return sqlErrorf(errNoSuchTable, "Error executing row event: 'Table '%s.%s' doesn't exist'", ti.tm.Database, ti.tm.Name)
		}
		nti, err := a.resolve(ti.tm)
		if err != nil {
			return err
		}
		ti = nti
		a.tables[ev.TableID(a.format)] = ti
	}
	rs, err := ev.Rows(a.format, ti.tm)
	if err != nil {
		return sqlErrorf(errRelayLogRead, "Relay log read failure: could not parse a rows event: %v", err)
	}
	if !a.inGroup {
		if err := a.begin(); err != nil {
			return err
		}
	}
	a.groupRows = true
	verb := "Write_rows"
	switch {
	case ev.IsUpdateRows():
		verb = "Update_rows"
	case ev.IsDeleteRows():
		verb = "Delete_rows"
	}
	for i := range rs.Rows {
		r := &rs.Rows[i]
		var stmt []byte
		switch verb {
		case "Write_rows":
			if a.vals, err = a.decode(ti, rs.DataColumns, r.NullColumns, r.Data, a.vals); err != nil {
				return err
			}
			stmt = a.insertStmt(ti, rs.DataColumns, a.vals)
		case "Update_rows":
			if a.bvals, err = a.decode(ti, rs.IdentifyColumns, r.NullIdentifyColumns, r.Identify, a.bvals); err != nil {
				return err
			}
			if a.vals, err = a.decode(ti, rs.DataColumns, r.NullColumns, r.Data, a.vals); err != nil {
				return err
			}
			stmt = a.updateStmt(ti, rs.IdentifyColumns, a.bvals, rs.DataColumns, a.vals)
		default:
			if a.bvals, err = a.decode(ti, rs.IdentifyColumns, r.NullIdentifyColumns, r.Identify, a.bvals); err != nil {
				return err
			}
			stmt = a.deleteStmt(ti, rs.IdentifyColumns, a.bvals)
		}
		if stmt == nil {
			continue
		}
		res, err := a.run(string(stmt))
		if err != nil {
			var se *sqlerror.SQLError
			if errors.As(err, &se) {
				return sqlErrorf(int(se.Num), "Could not execute %s event on table %s.%s; %s, Error_code: %d; the event's source log %s, end_log_pos %d", verb, ti.tm.Database, ti.tm.Name, se.Message, se.Num, a.file, ev.NextPosition())
			}
			return a.fromSQL(err, string(stmt))
		}
		if verb != "Write_rows" && res.RowsAffected != 1 {
			return sqlErrorf(errKeyNotFound, "Could not execute %s event on table %s.%s; Can't find record in '%s', Error_code: 1032; handler error HA_ERR_KEY_NOT_FOUND; the event's source log %s, end_log_pos %d", verb, ti.tm.Database, ti.tm.Name, ti.tm.Name, a.file, ev.NextPosition())
		}
	}
	return nil
}

// run executes a generated statement.
func (a *applier) run(stmt string) (*sqltypes.Result, error) {
	if a.exec != nil {
		return a.exec(stmt)
	}
	return a.sess.Query(a.ctx, stmt)
}

// decode reads the values of one row image: vals[c] for every column c
// present in cols (others are left NULL).
func (a *applier) decode(ti *tableInfo, cols mysql.Bitmap, nulls mysql.Bitmap, data []byte, vals []sqltypes.Value) (out []sqltypes.Value, err error) {
	n := len(ti.tm.Types)
	vals = append(vals[:0], make([]sqltypes.Value, n)...)
	defer func() {
		// The JSON decoder panics on malformed data.
		if r := recover(); r != nil {
			out, err = nil, sqlErrorf(errRelayLogRead, "Relay log read failure: could not decode a row of %s.%s: %v", ti.tm.Database, ti.tm.Name, r)
		}
	}()
	pos, idx := 0, 0
	for c := 0; c < n; c++ {
		if !cols.Bit(c) {
			continue
		}
		if nulls.Bit(idx) {
			idx++
			vals[c] = sqltypes.NULL
			continue
		}
		idx++
		v, l, err := binlog.CellValue(data, pos, ti.tm.Types[c], ti.tm.Metadata[c], ti.fields[c], false)
		if err != nil {
			return nil, sqlErrorf(errRelayLogRead, "Relay log read failure: could not decode column %d of %s.%s: %v", c, ti.tm.Database, ti.tm.Name, err)
		}
		if v.IsNull() {
			v = sqltypes.MakeTrusted(sqltypes.VarBinary, []byte{})
		}
		vals[c] = v
		pos += l
	}
	return vals, nil
}

func (a *applier) appendName(b []byte, ti *tableInfo) []byte {
	b = appendIdent(b, ti.t.DB)
	b = append(b, '.')
	return appendIdent(b, ti.t.Name)
}

func appendIdent(b []byte, name string) []byte {
	b = append(b, '`')
	b = append(b, strings.ReplaceAll(name, "`", "``")...)
	return append(b, '`')
}

func (a *applier) insertStmt(ti *tableInfo, cols mysql.Bitmap, vals []sqltypes.Value) []byte {
	b := append(a.buf[:0], "INSERT INTO "...)
	b = a.appendName(b, ti)
	b = append(b, " ("...)
	first := true
	for c := range vals {
		if !cols.Bit(c) || ti.t.Columns[c].Generated != "" {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendIdent(b, ti.t.Columns[c].Name)
	}
	b = append(b, ") VALUES ("...)
	first = true
	for c := range vals {
		if !cols.Bit(c) || ti.t.Columns[c].Generated != "" {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendLiteral(b, vals[c], &ti.t.Columns[c])
	}
	b = append(b, ')')
	a.buf = b
	return b
}

func (a *applier) updateStmt(ti *tableInfo, bcols mysql.Bitmap, bvals []sqltypes.Value, cols mysql.Bitmap, vals []sqltypes.Value) []byte {
	b := append(a.buf[:0], "UPDATE "...)
	b = a.appendName(b, ti)
	b = append(b, " SET "...)
	first := true
	for c := range vals {
		if !cols.Bit(c) || ti.t.Columns[c].Generated != "" {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendIdent(b, ti.t.Columns[c].Name)
		b = append(b, '=')
		b = appendLiteral(b, vals[c], &ti.t.Columns[c])
	}
	if first {
		return nil
	}
	b = a.appendWhere(b, ti, bcols, bvals)
	a.buf = b
	return b
}

func (a *applier) deleteStmt(ti *tableInfo, bcols mysql.Bitmap, bvals []sqltypes.Value) []byte {
	b := append(a.buf[:0], "DELETE FROM "...)
	b = a.appendName(b, ti)
	b = a.appendWhere(b, ti, bcols, bvals)
	a.buf = b
	return b
}

// appendWhere finds the row of a before image: by the replica's primary
// key when the image holds it, else by every comparable column present
// (NULL-safe), one row.
func (a *applier) appendWhere(b []byte, ti *tableInfo, cols mysql.Bitmap, vals []sqltypes.Value) []byte {
	b = append(b, " WHERE "...)
	byKey := len(ti.key) > 0
	for _, c := range ti.key {
		if !cols.Bit(c) || vals[c].IsNull() {
			byKey = false
		}
	}
	if byKey {
		for i, c := range ti.key {
			if i > 0 {
				b = append(b, " AND "...)
			}
			b = appendIdent(b, ti.t.Columns[c].Name)
			b = append(b, '=')
			b = appendLiteral(b, vals[c], &ti.t.Columns[c])
		}
		return b
	}
	first := true
	for c := range vals {
		col := &ti.t.Columns[c]
		if !cols.Bit(c) || col.Generated != "" || col.Type == sqltypes.Float32 || col.Type == sqltypes.TypeJSON {
			continue
		}
		if !first {
			b = append(b, " AND "...)
		}
		first = false
		b = appendIdent(b, col.Name)
		b = append(b, " <=> "...)
		b = appendLiteral(b, vals[c], col)
	}
	if first {
		b = append(b, "1"...)
	}
	return append(b, " LIMIT 1"...)
}

// parseRotate reads a ROTATE event whose checksum, if any, is already
// stripped (Vitess's NextLogFile always drops 4 bytes, a checksum or
// not).
func parseRotate(b []byte, headerLen byte) (file string, pos uint64, err error) {
	if len(b) < int(headerLen)+8 {
		return "", 0, errors.New("rotate event too short")
	}
	d := b[headerLen:]
	return string(d[8:]), binary.LittleEndian.Uint64(d[:8]), nil
}

func firstWord(s string) string {
	s = strings.TrimLeft(s, " \t\r\n(")
	for strings.HasPrefix(s, "/*") {
		end := strings.Index(s, "*/")
		if end < 0 {
			return ""
		}
		s = strings.TrimLeft(s[end+2:], " \t\r\n")
	}
	i := strings.IndexAny(s, " \t\r\n;(")
	if i < 0 {
		return s
	}
	return s[:i]
}

func truncate(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

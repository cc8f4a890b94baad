package server

import (
	"vitess.io/vitess/go/mysql"
	"vitess.io/vitess/go/mysql/sqlerror"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"

	"github.com/strata-db/strata/internal/sql"
)

// conn is the protocol state of one client connection (its
// mysql.Conn.ClientData): the session, and the result being sent.
//
// The session sends a statement's result in batches (sql.QueryStream): the
// first carries the fields, later ones the rows that followed. Each batch
// goes to the Vitess callback of the command being served, which writes its
// packets before returning, so the session may reuse the batch's memory
// afterwards.
type conn struct {
	c *mysql.Conn
	s *sql.Session
	// sendFn is send as a func value, made once (a method value passed per
	// statement would be allocated per statement).
	sendFn func(*sqltypes.Result) error

	// The callback of the command being served: multi (COM_QUERY) or single
	// (COM_STMT_EXECUTE, and the USE Vitess runs for COM_INIT_DB).
	multi  func(qr sqltypes.QueryResponse, more bool, firstPacket bool) error
	single func(*sqltypes.Result) error
	// more: more statements of the COM_QUERY follow this one.
	more bool
	// first: the statement's current result has sent nothing yet; sent:
	// the statement has sent something (a CALL sends several results).
	first, sent bool
	// resultSet: the statement's result has columns.
	resultSet bool
	// fields are the columns as sent with the statement's first batch.
	fields []*querypb.Field
	// pendingWarnings, when >= 0, answers the next WarningCount, which
	// then sets c.StatusFlags to pendingFlags: the warning count and
	// status of the previous statement's result set (see ComQueryMulti).
	pendingWarnings int
	pendingFlags    uint16
}

func newConn(c *mysql.Conn, s *sql.Session) *conn {
	cs := &conn{c: c, s: s, pendingWarnings: -1}
	cs.sendFn = cs.send
	return cs
}

// start prepares for the result of a statement.
func (cs *conn) start(multi func(sqltypes.QueryResponse, bool, bool) error, single func(*sqltypes.Result) error, more bool) {
	cs.multi, cs.single, cs.more = multi, single, more
	cs.first, cs.resultSet, cs.fields, cs.sent = true, false, nil, false
	if multi == nil {
		cs.pendingWarnings = -1
	}
}

// send writes one batch of the statement's result. The first batch's
// values are conformed to its columns (conformResult, which may turn a
// column into text); later batches are sent under the same columns.
//
// Status flags: a result without columns is an OK packet, which carries
// the flags after the statement (it comes when the statement has ended).
// A result set's flags go with its end packet, which Vitess writes after
// the statement (ComQueryMulti and endOnly set them then).
func (cs *conn) send(res *sqltypes.Result) error {
	first := cs.first
	rc, coll := cs.s.ResultCharset()
	cs.sent = true
	if first {
		if len(res.Fields) == 0 {
			setStatus(cs.c, cs.s)
			if res.Info != "" {
				cs.sendInfo(res.Info)
			}
		}
		conformResult(res)
		if rc != nil && len(res.Fields) > 0 {
			res = convertRows(res, resultFields(res.Fields, coll), rc, coll)
		}
		cs.fields, cs.resultSet, cs.first = res.Fields, len(res.Fields) > 0, false
	} else {
		res.Fields = cs.fields
		if err := conformBatch(res); err != nil {
			return err
		}
		if rc != nil {
			res = convertRows(res, cs.fields, rc, coll)
		}
	}
	if cs.multi != nil {
		return cs.multi(sqltypes.QueryResponse{QueryResult: res}, cs.more, first)
	}
	return cs.single(res)
}

// endOnly finishes a command whose callback cannot report an error after
// rows (COM_STMT_EXECUTE): Vitess then drops the connection. The error
// packet is written first, so the client sees the error after the rows it
// got, as it would from MySQL, and the connection is closed with it, in
// the same TCP segment (cork): a client that checks a pooled connection
// before reusing it (go-sql-driver) then always finds it closed, instead
// of sending its next command into a connection about to close ("invalid
// connection").
func (cs *conn) endOnly(err error) error {
	setStatus(cs.c, cs.s)
	if err != nil && !cs.first {
		cork(cs.c.GetRawConn())
		if cs.c.WriteErrorPacketFromError(err) == nil && cs.c.FlushWriteBuffer() == nil {
			cs.c.Close()
		}
	}
	return err
}

// errResultSets answers a CALL whose procedure produces result sets
// through COM_STMT_EXECUTE, whose Vitess handler sends one result only.
var errResultSets = sqlerror.NewSQLError(sqlerror.ERNotSupportedYet, "42000",
	"This version of strata doesn't yet support 'result sets of a procedure called through a prepared statement (COM_STMT_EXECUTE); call it through the text protocol'")

// nextResult is the session's OnNextResult hook: after each result set
// of a CALL, the next batch (another result set, an error, the CALL's OK)
// starts a new result (Vitess then ends the previous one with
// SERVER_MORE_RESULTS_EXISTS). With probe it only reports whether the
// command can carry several results.
func (cs *conn) nextResult(probe bool) error {
	if cs.multi == nil {
		return errResultSets
	}
	if !probe && !cs.first {
		cs.first, cs.resultSet, cs.fields = true, false, nil
	}
	return nil
}

package sql

import (
	"context"

	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
)

// Result streaming. A statement's result reaches the client through one
// path, resultSink: QueryStream and ExecutePreparedStream (the protocol
// layer) pass a send function that is called once per batch, the first
// call carrying the fields; Query and ExecutePrepared (internal callers and
// tests) run the same code with no send function and get the whole result
// back in one piece.
//
// A top-level SELECT whose rows need no sort and take no row locks
// (selectPlan.runTo) sends them as they are produced, in batches of
// batchRows rows or batchBytes bytes, whichever comes first, so a scan
// of any size runs in bounded memory and LIMIT stops it early. The rows of a batch live in the row sink's buffers
// (rowSink.arena), which are reused for the next batch once send has
// returned: send must not keep the rows (the protocol layer writes them to
// the connection inside the call). A top-level UNION ALL chain of such
// SELECTs with static column types (unionPlan.runTo, union_stream.go) runs
// its parts one after the other into the same batches, its merged fields
// computed before the first row and its rows converted as they come. Every
// other result — a sort (which spills and streams past the sort buffer,
// sort.go), a UNION DISTINCT / EXCEPT / INTERSECT or a UNION with ORDER BY,
// a locking read (FOR UPDATE / FOR SHARE: no row is sent before the
// statement holds every lock), any other statement — is built whole and
// sent as one batch after the statement ends, as are the last rows of a
// streamed SELECT. DISTINCT, LIMIT and OFFSET are operators of the
// SELECT's tree (select_ops.go) and keep their state across batches.
//
// The fields of a streamed result are those of its first batch: later
// batches carry the same slice. A result whose column metadata depends on
// its values (a column with no static type, or first rows whose values do
// not fit the static type) is not streamed, since later rows could change
// it. An error after the first batch reaches send's caller, which has
// already written rows: the protocol layer ends the result with an error
// packet.
const (
	batchRows  = 256
	batchBytes = 256 << 10
)

// resultSink receives the result of the statement being executed (one per
// session, reused).
type resultSink struct {
	// send is the client's callback; nil collects the result whole.
	send func(*sqltypes.Result) error
	// fields are the result's columns as sent with the first batch (nil
	// until a batch was sent).
	fields []*querypb.Field
	// rows counts the rows sent in batches so far.
	rows  uint64
	batch sqltypes.Result
}

// begin prepares the sink for a statement.
func (k *resultSink) begin(send func(*sqltypes.Result) error) {
	k.send, k.fields, k.rows = send, nil, 0
}

// streaming reports whether rows may be sent before the statement ends.
func (k *resultSink) streaming() bool { return k != nil && k.send != nil }

// sendRows sends one batch of rows with the result's fields.
func (k *resultSink) sendRows(rows []Row) error {
	k.batch.Fields, k.batch.Rows = k.fields, rows
	err := k.send(&k.batch)
	k.batch = sqltypes.Result{}
	k.rows += uint64(len(rows))
	return err
}

// end finishes a statement: what its execution returned (the whole result,
// or the rows of a streamed SELECT not yet sent) is sent as the last batch.
func (k *resultSink) end(res *sqltypes.Result, err error) error {
	send := k.send
	k.send = nil
	if err != nil {
		return err
	}
	if res == nil {
		res = &sqltypes.Result{}
	}
	return send(res)
}

// QueryStream executes one statement received over the text protocol and
// passes its result to send, in one or more batches (see resultSink). An
// error returned after send was called ends a result whose first rows the
// client already has.
func (s *Session) QueryStream(ctx context.Context, sql string, send func(*sqltypes.Result) error) error {
	s.out.begin(send)
	res, err := s.query(ctx, sql)
	return s.out.end(res, err)
}

// Query executes one statement received over the text protocol and
// returns its whole result.
func (s *Session) Query(ctx context.Context, sql string) (*sqltypes.Result, error) {
	s.out.begin(nil)
	return s.query(ctx, sql)
}

// ExecutePreparedStream runs a prepared statement with bound parameters,
// passing its result to send as QueryStream does.
func (s *Session) ExecutePreparedStream(ctx context.Context, sql string, bv map[string]*querypb.BindVariable, send func(*sqltypes.Result) error) error {
	s.out.begin(send)
	res, err := s.executePrepared(ctx, sql, bv)
	return s.out.end(res, err)
}

// ExecutePrepared runs a prepared statement with bound parameters and
// returns its whole result.
func (s *Session) ExecutePrepared(ctx context.Context, sql string, bv map[string]*querypb.BindVariable) (*sqltypes.Result, error) {
	s.out.begin(nil)
	return s.executePrepared(ctx, sql, bv)
}

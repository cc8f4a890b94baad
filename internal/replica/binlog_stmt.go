package replica

import (
	"context"
	"encoding/binary"
	"fmt"

	"vitess.io/vitess/go/mysql"
	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/sql"
)

// MySQL's errors for BINLOG statements.
const (
	errNoFormatDescription = 1609 // ER_NO_FORMAT_DESCRIPTION_EVENT_BEFORE_BINLOG_STATEMENT
	errOnlyFDAndRows       = 1730 // ER_ONLY_FD_AND_RBR_EVENTS_ALLOWED_IN_BINLOG_STATEMENT
)

// StatementApplier executes the events of BINLOG statements, the form in
// which mysqlbinlog prints row events (sql.BinlogStatementApplier): a
// FORMAT_DESCRIPTION event sets the session's format, TABLE_MAP events map
// table ids, and rows events become the same statements the replica
// applier runs, executed in the client's own session and transaction.
type StatementApplier struct{ eng *sql.Engine }

// NewStatementApplier returns the BINLOG statement applier of eng.
func NewStatementApplier(eng *sql.Engine) *StatementApplier { return &StatementApplier{eng: eng} }

// Apply implements sql.BinlogStatementApplier.
func (sa *StatementApplier) Apply(ctx context.Context, state *any, events []byte, exec func(string) (*sqltypes.Result, error)) error {
	a, _ := (*state).(*applier)
	if a == nil {
		// inGroup: the client's session holds the transaction; the
		// applier never begins or commits one.
		a = &applier{eng: sa.eng, tables: map[uint64]*tableInfo{}, inGroup: true}
		*state = a
	}
	a.ctx, a.exec = ctx, exec
	defer func() { a.exec = nil }()
	for len(events) > 0 {
		if len(events) < 19 {
			return sqlErrorf(errRelayLogRead, "Relay log read failure: a BINLOG statement ends inside an event header")
		}
		size := binary.LittleEndian.Uint32(events[9:])
		if size < 19 || uint64(size) > uint64(len(events)) {
			return sqlErrorf(errRelayLogRead, "Relay log read failure: a BINLOG statement event of length %d (%d bytes left)", size, len(events))
		}
		ev := mysql.NewMysql56BinlogEvent(events[:size:size])
		events = events[size:]
		if ev.IsFormatDescription() {
			f, err := ev.Format()
			if err != nil {
				return sqlErrorf(errRelayLogRead, "Relay log read failure: could not parse a format description event: %v", err)
			}
			a.format = f
			continue
		}
		if a.format.IsZero() {
			return sqlErrorf(errNoFormatDescription, "The BINLOG statement of type `%s` was not preceded by a format description BINLOG statement.", eventName(ev))
		}
		if a.format.ChecksumAlgorithm == mysql.BinlogChecksumAlgCRC32 && !checksumOK(ev.Bytes()) {
			return sqlErrorf(errRelayLogRead, "Relay log read failure: checksum mismatch in a BINLOG statement's %s event", eventName(ev))
		}
		ev, _, err := ev.StripChecksum(a.format)
		if err != nil {
			return sqlErrorf(errRelayLogRead, "Relay log read failure: %v", err)
		}
		switch {
		case ev.IsTableMap(), ev.IsWriteRows(), ev.IsUpdateRows(), ev.IsDeleteRows(), ev.IsPartialUpdateRows():
			if err := a.event(ev); err != nil {
				return err
			}
		default:
			return sqlErrorf(errOnlyFDAndRows, "Only Format_description_log_event and row events are allowed in BINLOG statements (but %s was provided)", eventName(ev))
		}
	}
	return nil
}

// eventName names an event's type for a message.
func eventName(ev mysql.BinlogEvent) string {
	switch {
	case ev.IsTableMap():
		return "Table_map"
	case ev.IsWriteRows():
		return "Write_rows"
	case ev.IsUpdateRows():
		return "Update_rows"
	case ev.IsDeleteRows():
		return "Delete_rows"
	case ev.IsQuery():
		return "Query"
	case ev.IsXID():
		return "Xid"
	case ev.IsGTID():
		return "Gtid"
	case ev.IsRotate():
		return "Rotate"
	}
	return fmt.Sprintf("event type %d", ev.Bytes()[4])
}

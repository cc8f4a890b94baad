package server

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"vitess.io/vitess/go/mysql"
	"vitess.io/vitess/go/mysql/replication"
	"vitess.io/vitess/go/mysql/sqlerror"

	"github.com/strata-db/strata/internal/binlog"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// The binary log's primary side: COM_REGISTER_SLAVE, COM_BINLOG_DUMP
// (file/position: MariaDB and MySQL replicas, mysqlbinlog
// --read-from-remote-server) and COM_BINLOG_DUMP_GTID (MySQL replicas with
// auto-positioning, Vitess). A dump runs on the connection's goroutine
// until the client goes away, the log ends (BINLOG_DUMP_NON_BLOCK) or the
// server closes.

// comBinlogDump is the command byte cmdConn watches for the dump's flags,
// which Vitess's parser drops.
const comBinlogDump = 0x12

// binlogDumpNonBlock is BINLOG_DUMP_NON_BLOCK: end at the end of the log.
const binlogDumpNonBlock = 1

func dumpError(err error) error {
	var se *sqlerror.SQLError
	if errors.As(err, &se) {
		return se
	}
	msg := err.Error()
	switch {
	case errors.Is(err, binlog.ErrFirstFile):
		msg = "Could not find first log file name in binary log index file"
	case errors.Is(err, binlog.ErrReplicaAhead):
		msg = "Slave has more GTIDs than the master has, using the master's SERVER_UUID."
	case errors.Is(err, binlog.ErrPurged):
		msg = "Cannot replicate because the master purged required binary logs."
	}
	return sqlerror.NewSQLError(sqlerr.MasterFatalReadingBinlog, sqlerror.SSUnknownSQLState, "Got fatal error 1236 from source when reading data from binary log: '"+msg+"'")
}

// ComRegisterReplica accepts a replica's registration (SHOW REPLICAS is
// not kept yet).
func (h *handler) ComRegisterReplica(c *mysql.Conn, replicaHost string, replicaPort uint16, replicaUser string, replicaPassword string) error {
	if _, err := h.session(c).BinlogForDump(); err != nil {
		return err
	}
	return nil
}

// ComBinlogDump streams the log from a file and position.
func (h *handler) ComBinlogDump(c *mysql.Conn, logFile string, binlogPos uint32) error {
	var flags uint16
	if cc, ok := c.GetRawConn().(*cmdConn); ok {
		flags = uint16(cc.dumpFlags.Load())
	}
	return h.dump(c, logFile, uint64(binlogPos), flags)
}

// ComBinlogDumpGTID streams the log from the first transaction the
// replica's GTID set lacks (or from the file and position it names when
// the set is empty).
func (h *handler) ComBinlogDumpGTID(c *mysql.Conn, logFile string, logPos uint64, gtidSet replication.GTIDSet, flags uint16) error {
	l, err := h.session(c).BinlogForDump()
	if err != nil {
		return err
	}
	if set, ok := gtidSet.(replication.Mysql56GTIDSet); ok && len(set) > 0 {
		k, err := ownPrefix(set, l.UUIDBytes())
		if err != nil {
			return dumpError(err)
		}
		if logFile, logPos, err = l.StartAfter(k); err != nil {
			return dumpError(err)
		}
	}
	return h.dump(c, logFile, logPos, flags)
}

// ownPrefix returns k when set holds this server's transactions 1..k (0:
// none); a set with gaps in them cannot be served.
func ownPrefix(set replication.Mysql56GTIDSet, uuid [16]byte) (uint64, error) {
	own := replication.SID(uuid).String()
	for _, part := range strings.Split(set.String(), ",") {
		sid, ivs, ok := strings.Cut(strings.TrimSpace(part), ":")
		if !ok || !strings.EqualFold(sid, own) {
			continue
		}
		from, to, ranged := strings.Cut(ivs, "-")
		if !ranged {
			to = from
		}
		end, err := strconv.ParseUint(to, 10, 64)
		if strings.Contains(ivs, ":") || from != "1" || err != nil {
			return 0, fmt.Errorf("the replica's GTID set has gaps in this server's transactions: %s", part)
		}
		return end, nil
	}
	return 0, nil
}

func (h *handler) dump(c *mysql.Conn, logFile string, pos uint64, flags uint16) error {
	s := h.session(c)
	l, err := s.BinlogForDump()
	if err != nil {
		return err
	}
	opts := binlog.DumpOptions{NonBlock: flags&binlogDumpNonBlock != 0}
	for _, name := range []string{"master_heartbeat_period", "source_heartbeat_period"} {
		if v, ok := s.UserVar(name); ok {
			// Nanoseconds, as replicas send it.
			if ns, err := strconv.ParseInt(v.ToString(), 10, 64); err == nil && ns > 0 {
				opts.Heartbeat = time.Duration(ns)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	key := h.trackDump(cancel)
	defer h.dumps.Delete(key)
	err = l.Dump(ctx, logFile, pos, opts, func(ev []byte) error {
		if err := c.WriteBinlogEvent(mysql.NewMysql56BinlogEvent(ev), false); err != nil {
			return err
		}
		return c.FlushWriteBuffer()
	})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return dumpError(err)
	}
	// The end of a non-blocking dump: an EOF packet.
	if err := c.WritePacketPayload([]byte{0xfe, 0, 0, 0, 0}); err != nil {
		return err
	}
	return c.FlushWriteBuffer()
}

// trackDump registers a running dump's cancel function, so that the
// server's Close ends it; the key removes it.
func (h *handler) trackDump(cancel context.CancelFunc) any {
	key := new(byte)
	h.dumps.Store(key, cancel)
	return key
}

// cancelDumps ends every running dump.
func (h *handler) cancelDumps() {
	h.dumps.Range(func(k, v any) bool {
		v.(context.CancelFunc)()
		return true
	})
}

package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/binlog"
	"github.com/strata-db/strata/internal/sql"
	"github.com/strata-db/strata/internal/sql/sysvar"
	"github.com/strata-db/strata/internal/txn"
)

// logBinFlag is --log-bin[=basename]: off by default; on alone it names
// the files binlog.NNNNNN in the data directory, as MySQL 8.0.
type logBinFlag struct {
	on   bool
	base string
}

func (f *logBinFlag) String() string {
	if f == nil || !f.on {
		return ""
	}
	return f.base
}

func (f *logBinFlag) Set(v string) error {
	switch strings.ToLower(v) {
	case "true", "1", "on":
		f.on, f.base = true, "binlog"
	case "false", "0", "off":
		f.on = false
	default:
		if strings.ContainsAny(v, "/\\") && filepath.Base(v) == "" {
			return fmt.Errorf("bad --log-bin basename %q", v)
		}
		f.on, f.base = true, v
	}
	return nil
}

// IsBoolFlag lets --log-bin stand alone.
func (f *logBinFlag) IsBoolFlag() bool { return true }

// binlogFlags are the binary log's command-line options.
type binlogFlags struct {
	logBin   logBinFlag
	serverID *uint
	maxSize  *int64
	expire   *int64
}

func addBinlogFlags(fs *flag.FlagSet) *binlogFlags {
	b := &binlogFlags{}
	fs.Var(&b.logBin, "log-bin", "write the binary log (off by default); --log-bin=NAME names its files NAME.NNNNNN")
	b.serverID = fs.Uint("server-id", 1, "@@server_id, written in binary log events")
	b.maxSize = fs.Int64("max-binlog-size", 1<<30, "rotate a binary log file once it reaches this size")
	b.expire = fs.Int64("binlog-expire-logs-seconds", 2592000, "purge binary log files older than this (0: never)")
	return b
}

// openBinlog sets the server identity and, with --log-bin, opens the
// binary log over the store (replaying records a crash left unwritten)
// and attaches it to the engine. It returns nil when the log is off.
func (b *binlogFlags) open(datadir string, tdb *txn.DB, eng *sql.Engine) (*binlog.Log, error) {
	uuid, err := binlog.LoadServerUUID(datadir)
	if err != nil {
		return nil, err
	}
	if *b.serverID > 1<<32-1 {
		return nil, fmt.Errorf("--server-id %d out of range", *b.serverID)
	}
	if *b.serverID == 0 && b.logBin.on {
		// Replicas refuse a source with server id 0 (MySQL's rule).
		return nil, fmt.Errorf("--server-id must be 1 or more with --log-bin")
	}
	eng.SetServerIdentity(uint32(*b.serverID), uuid)
	if !b.logBin.on {
		return nil, nil
	}
	dir, base := datadir, b.logBin.base
	if filepath.IsAbs(base) || strings.ContainsRune(base, filepath.Separator) {
		dir, base = filepath.Dir(base), filepath.Base(base)
	}
	l, err := binlog.Open(tdb.KV(), binlog.Options{
		Dir: dir, Basename: base, ServerUUID: uuid, ServerID: uint32(*b.serverID),
		MaxSize: *b.maxSize, ExpireSeconds: *b.expire, Version: sysvar.ServerVersion,
	})
	if err != nil {
		return nil, err
	}
	eng.UseBinlog(l)
	eng.Globals.Set("max_binlog_size", sqltypes.NewInt64(*b.maxSize))
	eng.Globals.Set("binlog_expire_logs_seconds", sqltypes.NewInt64(*b.expire))
	return l, nil
}

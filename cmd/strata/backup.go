package main

import (
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
	"vitess.io/vitess/go/mysql/replication"

	"github.com/strata-db/strata/internal/backup"
)

// backupUsage is printed by strata backup --help.
const backupUsage = `Usage: strata backup --to DIR [flags]

Takes an online, consistent backup of a running strata server into a new
directory DIR/<UTC time>. The server writes it (CLONE LOCAL DATA DIRECTORY),
so DIR must be on the server's machine, and the account needs BACKUP_ADMIN.
Table files of the newest earlier backup in DIR that are still live are
hard-linked (or copied) from it instead of being read again from the server:
every backup after the first is incremental, and each is complete on its
own. Writes go on meanwhile. Restore with strata restore.

Flags:
  --to DIR                 directory of backups (created if missing)
  --host HOST              server address (default 127.0.0.1)
  --port N                 server port (default 3306)
  --socket PATH            connect through this Unix socket instead
  --user USER              account (default root)
  --password PW            password (or STRATA_ROOT_PASSWORD, MYSQL_PWD)
`

func backupCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	to := fs.String("to", "", "directory of backups")
	host := fs.String("host", "127.0.0.1", "server address")
	port := fs.Int("port", 3306, "server port")
	socket := fs.String("socket", "", "Unix socket")
	user := fs.String("user", "root", "account")
	password := fs.String("password", "", "password")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, backupUsage)
			return 0
		}
		fmt.Fprintf(stderr, "\n%s", backupUsage)
		return 2
	}
	if *to == "" || fs.NArg() > 0 {
		fmt.Fprintf(stderr, "strata backup: --to DIR is required and nothing else\n\n%s", backupUsage)
		return 2
	}
	dir, err := filepath.Abs(*to)
	if err == nil {
		err = os.MkdirAll(dir, 0o750)
	}
	if err != nil {
		fmt.Fprintf(stderr, "strata backup: %v\n", err)
		return 1
	}
	pw := *password
	for _, env := range []string{"STRATA_ROOT_PASSWORD", "MYSQL_PWD"} {
		if pw == "" {
			pw = os.Getenv(env)
		}
	}
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd = *user, pw
	cfg.Net, cfg.Addr = "tcp", fmt.Sprintf("%s:%d", *host, *port)
	if *socket != "" {
		cfg.Net, cfg.Addr = "unix", *socket
	}
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		fmt.Fprintf(stderr, "strata backup: %v\n", err)
		return 1
	}
	defer db.Close()
	target := filepath.Join(dir, time.Now().UTC().Format("20060102T150405.000Z"))
	if _, err := db.Exec("CLONE LOCAL DATA DIRECTORY = '" + strings.ReplaceAll(strings.ReplaceAll(target, `\`, `\\`), "'", "''") + "'"); err != nil {
		fmt.Fprintf(stderr, "strata backup: %v\n", err)
		return 1
	}
	m, err := backup.ReadManifest(target)
	if err != nil {
		fmt.Fprintf(stderr, "strata backup: the server wrote %s, but: %v\n", target, err)
		return 1
	}
	fmt.Fprintf(stdout, "backup %s: %d files, %d bytes copied, %d bytes reused", target, len(m.Files), m.BytesCopied, m.BytesReused)
	if m.Base != "" {
		fmt.Fprintf(stdout, " from %s", m.Base)
	}
	fmt.Fprintf(stdout, "; consistent as of %s\n", m.Checkpoint.Format(time.RFC3339Nano))
	return 0
}

// restoreUsage is printed by strata restore --help.
const restoreUsage = `Usage: strata restore --from DIR --datadir DATADIR [point-in-time flags]

Restores a backup taken by strata backup into DATADIR, which must be missing
or empty; start a server on it with strata serve --datadir DATADIR. DIR is
one backup, or a directory of backups, of which the newest is restored.
Every file is checked against the backup's manifest (size and SHA-256); on
a mismatch nothing is left in DATADIR.

Point-in-time recovery: with --binlog-from, the binary log files of the
server the backup was taken from (a backup of a server run with --log-bin
records the binlog position it corresponds to) are replayed into DATADIR
from that position, each transaction committed with the position after it.
Interrupted (a crash, a missing file), run the same command again: it
resumes after the last transaction replayed.

Flags:
  --from DIR               the backup, or the directory of backups
  --datadir DATADIR        the data directory to create
  --binlog-from DIR        replay the binary log files (NAME.NNNNNN) in DIR
  --stop-gtid UUID:N       stop after the transaction with this GTID
  --stop-datetime T        stop before the first transaction logged at or
                           after T ('YYYY-MM-DD HH:MM:SS[.frac]' local time,
                           or RFC 3339); without a stop, replay everything
`

func restoreCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	from := fs.String("from", "", "backup directory")
	datadir := fs.String("datadir", "", "data directory to create")
	binlogFrom := fs.String("binlog-from", "", "directory of binary log files to replay")
	stopGTID := fs.String("stop-gtid", "", "stop after this GTID")
	stopDatetime := fs.String("stop-datetime", "", "stop before this time")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, restoreUsage)
			return 0
		}
		fmt.Fprintf(stderr, "\n%s", restoreUsage)
		return 2
	}
	if *from == "" || *datadir == "" || fs.NArg() > 0 {
		fmt.Fprintf(stderr, "strata restore: --from and --datadir are required and nothing else\n\n%s", restoreUsage)
		return 2
	}
	var pitr *pitrOptions
	if *binlogFrom != "" || *stopGTID != "" || *stopDatetime != "" {
		var err error
		if pitr, err = parsePITR(*binlogFrom, *stopGTID, *stopDatetime); err != nil {
			fmt.Fprintf(stderr, "strata restore: %v\n\n%s", err, restoreUsage)
			return 2
		}
		if resumed, code := resumePITR(*datadir, pitr, stdout, stderr); resumed {
			return code
		}
		_, m, err := backup.Resolve(*from)
		if err != nil {
			fmt.Fprintf(stderr, "strata restore: %v\n", err)
			return 1
		}
		if m.Binlog == nil {
			fmt.Fprintf(stderr, "strata restore: the backup records no binary log position (the server ran without --log-bin): it cannot be rolled forward\n")
			return 1
		}
		if pitr.stop.GTID != nil && m.Binlog.GTIDExecuted != "" {
			if set, err := replication.ParseMysql56GTIDSet(m.Binlog.GTIDExecuted); err == nil && set.ContainsGTID(pitr.stop.GTID) {
				fmt.Fprintf(stderr, "strata restore: GTID %s is already in the backup (%s): restore an earlier backup\n", pitr.stop.GTID, m.Binlog.GTIDExecuted)
				return 1
			}
		}
	}
	dir, m, err := backup.Restore(*from, *datadir)
	if err != nil {
		fmt.Fprintf(stderr, "strata restore: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "restored %s into %s: %d files checked; data as of %s\n", dir, *datadir, len(m.Files), m.Checkpoint.Format(time.RFC3339Nano))
	if pitr == nil {
		return 0
	}
	return startPITR(*datadir, m, pitr, stdout, stderr)
}

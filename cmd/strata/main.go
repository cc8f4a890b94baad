// Command strata is a MySQL-compatible SQL database server whose storage
// engine is a write- and space-optimised LSM tree (Pebble).
//
// Usage:
//
//	strata serve [--datadir DIR] [--port N] [--bind ADDR] [--root-password PW]
//	strata backup --to DIR [flags]
//	strata restore --from DIR --datadir DIR
//	strata stress [flags]
//	strata bench WORKLOAD [flags]
//	strata version
//	strata --help
//
// Every command prints its own flags with --help (or -h) and exits 0.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	_ "net/http/pprof" // profiling endpoints, served only with --pprof
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"vitess.io/vitess/go/sqltypes"

	"github.com/strata-db/strata/internal/backup"
	"github.com/strata-db/strata/internal/bench"
	"github.com/strata-db/strata/internal/catalog"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/server"
	"github.com/strata-db/strata/internal/sql"
	"github.com/strata-db/strata/internal/stress"
	"github.com/strata-db/strata/internal/txn"
	"github.com/strata-db/strata/internal/tz"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

const usage = `strata — a MySQL-compatible SQL server on a write- and space-optimised LSM engine

Usage:
  strata serve [flags]     start the server (strata serve --help)
  strata backup --to DIR  online backup of a running server (strata backup --help)
  strata restore --from DIR --datadir D
                           restore a backup into a new data directory
  strata stress [flags]    crash-loop test: kill -9 a server repeatedly and verify (strata stress --help)
  strata bench WORKLOAD    compare strata with MariaDB InnoDB and MyRocks
                           (workloads: sysbench, seed, tpch, tpcc; see strata bench --help)
  strata version           print the version
  strata --help            show this help

Flags of serve:
` + serveFlags

// serveUsage is printed by strata serve --help.
const serveUsage = `Usage: strata serve [flags]

Starts the server: opens (creating if needed) the data directory and accepts
MySQL clients until SIGINT or SIGTERM.

Flags:
` + serveFlags

const serveFlags = `  --datadir DIR            data directory (default ./strata-data)
  --port N                 TCP port (default 3306)
  --bind ADDR              address to listen on (default 127.0.0.1)
  --socket PATH            Unix socket to listen on as well (default
                           DATADIR/mysql.sock; "" for none); root may log in
                           on it without a password from a process running
                           as the OS's root or as strata's own user
  --root-password PW       password of user root (or STRATA_ROOT_PASSWORD);
                           required when --bind is not a loopback address
  --memory BYTES           memory budget for caches (default: cgroup limit or RAM)
  --pprof ADDR             serve Go profiling endpoints on ADDR (default off)
  --admin-addr ADDR        serve /metrics (Prometheus) and /healthz on ADDR,
                           e.g. 127.0.0.1:9104 (default off: the endpoints
                           have no authentication)
  --tls-cert FILE          PEM certificate: clients may connect with TLS
  --tls-key FILE           PEM private key of --tls-cert
  --secure-file-priv DIR   the only directory SELECT ... INTO OUTFILE may
                           write to (default DATADIR/secure-files, created
                           at start); "" allows any directory, NULL none
  --default-time-zone TZ   the global time_zone sessions start with (default
                           SYSTEM): a zone name or an offset such as +00:00
  --skip-replica-start     do not resume replication at start (by default a
                           replica that was running when the server stopped
                           starts again)
  --slow-query-log         write statements slower than --long-query-time
                           to the slow query log (default off; also SET
                           GLOBAL slow_query_log = ON)
  --slow-query-log-file F  the slow query log (default DATADIR/HOST-slow.log)
  --long-query-time SECS   the global long_query_time (default 10)
  --warmup=false           do not warm the block cache after start (by
                           default it loads, in the background, the reads
                           recorded before the last shutdown)
  --warmup-record=false    do not record a sample of reads (by default
                           saved to DATADIR/warmup every 5 minutes and at
                           shutdown)
  --warmup-time DURATION   stop the warmup after this long (default 1m)
  --log-bin[=NAME]         write the binary log (default off): row-based,
                           GTIDs, files DATADIR/NAME.NNNNNN (default binlog)
  --server-id N            @@server_id (default 1)
  --max-binlog-size BYTES  rotate binary log files at this size (default 1 GiB)
  --binlog-expire-logs-seconds N
                           purge binary log files older than this (default
                           2592000, 30 days; 0 never)
`

// versionUsage is printed by strata version --help.
const versionUsage = `Usage: strata version

Prints strata's version and the MySQL version it is compatible with.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "-h", "--help", "-help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "version", "--version", "-version":
		if len(args) > 1 {
			if isHelp(args[1]) {
				fmt.Fprint(stdout, versionUsage)
				return 0
			}
			fmt.Fprintf(stderr, "strata version: unexpected argument %q\n\n%s", args[1], versionUsage)
			return 2
		}
		fmt.Fprintf(stdout, "strata %s (MySQL %s compatible)\n", version, sql.ServerVersion)
		return 0
	case "serve":
		return serve(args[1:], stdout, stderr)
	case "bench":
		return bench.Main(args[1:], stdout, stderr)
	case "stress":
		return stress.Main(args[1:], stdout, stderr)
	case "backup":
		return backupCmd(args[1:], stdout, stderr)
	case "restore":
		return restoreCmd(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "strata: unknown command %q\n\n%s", args[0], usage)
	return 2
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "--help", "-help", "help":
		return true
	}
	return false
}

func serve(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // printed below: to stdout for --help, stderr on errors
	datadir := fs.String("datadir", "./strata-data", "data directory")
	port := fs.Int("port", 3306, "TCP port")
	bind := fs.String("bind", "127.0.0.1", "listen address")
	socket := fs.String("socket", "", "Unix socket path")
	rootPW := fs.String("root-password", "", "root password")
	memory := fs.Int64("memory", 0, "memory budget in bytes")
	pprofAddr := fs.String("pprof", "", "serve Go profiling endpoints on this loopback address (off by default)")
	adminAddr := fs.String("admin-addr", "", "serve /metrics and /healthz on this address (off by default)")
	slowLog := fs.Bool("slow-query-log", false, "write slow statements to the slow query log")
	slowLogFile := fs.String("slow-query-log-file", "", "slow query log file")
	longQueryTime := fs.Float64("long-query-time", 10, "seconds after which a statement is slow")
	tlsCert := fs.String("tls-cert", "", "PEM certificate file; enables TLS")
	tlsKey := fs.String("tls-key", "", "PEM private key file for --tls-cert")
	securePriv := fs.String("secure-file-priv", "", "directory for SELECT ... INTO OUTFILE")
	defaultTZ := fs.String("default-time-zone", "SYSTEM", "global time_zone")
	warmup := fs.Bool("warmup", true, "warm the block cache at start from the recorded reads")
	warmupRecord := fs.Bool("warmup-record", true, "record a sample of reads for the next start's warmup")
	warmupTime := fs.Duration("warmup-time", time.Minute, "time budget of the warmup")
	blFlags := addBinlogFlags(fs)
	skipReplicaStart := fs.Bool("skip-replica-start", false, "do not resume replication at start")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, serveUsage)
			return 0
		}
		fmt.Fprintf(stderr, "\n%s", serveUsage)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "strata serve: unexpected argument %q\n\n%s", fs.Arg(0), serveUsage)
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	slog.SetDefault(logger)
	zone, err := tz.Resolve(*defaultTZ)
	if err != nil {
		logger.Error("unknown or incorrect time zone", "default-time-zone", *defaultTZ)
		return 2
	}

	pw := *rootPW
	if pw == "" {
		pw = os.Getenv("STRATA_ROOT_PASSWORD")
	}
	if !isLoopback(*bind) && pw == "" {
		logger.Error("refusing to listen on a non-loopback address without a root password; set --root-password or STRATA_ROOT_PASSWORD", "bind", *bind)
		return 2
	}

	tuneGC(*memory)
	kv.FatalHook = func(msg string) {
		logger.Error("fatal storage error: stopping the server so no unsaved change is ever served; restart to recover from the write-ahead log", "err", msg)
		os.Exit(70)
	}
	db, err := kv.Open(kv.Options{Dir: *datadir, MemoryBudget: *memory, Logger: kv.NewSlogLogger(logger), RecordReads: *warmupRecord})
	if err != nil {
		var locked *kv.LockedError
		if errors.As(err, &locked) {
			logger.Error("another strata process holds the data directory; stop it or choose another --datadir",
				"datadir", locked.Dir, "lockfile", locked.LockFile, "pid", locked.PID)
			return 1
		}
		logger.Error("cannot open data directory", "datadir", *datadir, "err", err)
		return 1
	}
	tdb := txn.New(db, txn.Options{})
	cat, err := catalog.Load(tdb)
	if err != nil {
		logger.Error("cannot load data dictionary", "err", err)
		_ = db.Close()
		return 1
	}
	eng, err := sql.NewEngine(tdb, cat)
	if err != nil {
		logger.Error("cannot start SQL engine", "err", err)
		_ = db.Close()
		return 1
	}
	// Sorts that outgrow sort_buffer_size spill to <datadir>/tmp; the data
	// directory's lock is held, so leftovers of a crash can go.
	if err := eng.UseTmpDir(filepath.Join(*datadir, "tmp")); err != nil {
		logger.Error("cannot prepare the temporary directory", "err", err)
		_ = db.Close()
		return 1
	}
	eng.BackupOptions.StrataVersion = version
	eng.BulkLoadMemory = bulkMemory(*memory)
	if err := backup.ClearStaging(*datadir); err != nil {
		logger.Warn("cannot remove an interrupted backup's staging directory", "err", err)
	}
	if err := configureSlowLog(eng, *datadir, *slowLog, *slowLogFile, *longQueryTime); err != nil {
		logger.Error("bad slow query log settings", "err", err)
		_ = db.Close()
		return 2
	}
	blog, err := blFlags.open(*datadir, tdb, eng)
	if err != nil {
		logger.Error("cannot open the binary log", "err", err)
		_ = db.Close()
		return 1
	}
	eng.Globals.Set("port", sqltypes.NewInt64(int64(*port)))
	eng.Globals.Set("time_zone", sqltypes.NewVarChar(zone.Name()))
	eng.Globals.Set("tmpdir", sqltypes.NewVarChar(eng.TmpDir))
	eng.Globals.Set("datadir", sqltypes.NewVarChar(*datadir))
	priv, err := secureFilePriv(*datadir, *securePriv, flagSet(fs, "secure-file-priv"))
	if err != nil {
		logger.Error("cannot prepare the secure_file_priv directory", "err", err)
		_ = db.Close()
		return 1
	}
	eng.Globals.Set("secure_file_priv", priv)
	eng.Globals.Set("innodb_buffer_pool_load_at_startup", boolValue(*warmup))
	eng.Globals.Set("innodb_buffer_pool_dump_at_shutdown", boolValue(*warmupRecord))
	addr := net.JoinHostPort(*bind, strconv.Itoa(*port))
	cfg := server.Config{Addr: addr, RootPassword: pw, TLSCert: *tlsCert, TLSKey: *tlsKey, Socket: *socket}
	defaultSocket := !flagSet(fs, "socket")
	if defaultSocket {
		cfg.Socket = filepath.Join(*datadir, "mysql.sock")
	}
	srv, err := server.New(eng, cfg)
	if err != nil && defaultSocket {
		// The default socket is a convenience: a data directory whose
		// path is too long for a socket (108 bytes) still serves TCP.
		logger.Warn("no Unix socket", "socket", cfg.Socket, "err", err)
		cfg.Socket = ""
		srv, err = server.New(eng, cfg)
	}
	if err != nil {
		logger.Error("cannot listen", "addr", addr, "socket", cfg.Socket, "err", err)
		_ = db.Close()
		return 1
	}
	eng.Globals.Set("socket", sqltypes.NewVarChar(cfg.Socket))
	if *pprofAddr != "" {
		go func() {
			if err := http.ListenAndServe(*pprofAddr, nil); err != nil {
				logger.Error("pprof listener", "err", err)
			}
		}()
	}
	var admin *http.Server
	if *adminAddr != "" {
		if admin, err = serveAdmin(*adminAddr, eng, logger); err != nil {
			logger.Error("cannot listen", "admin-addr", *adminAddr, "err", err)
			srv.Close()
			_ = db.Close()
			return 1
		}
	}
	rep, err := openReplica(eng, logger, *skipReplicaStart)
	if err != nil {
		logger.Error("cannot read the replication state", "err", err)
		srv.Close()
		_ = db.Close()
		return 1
	}
	go srv.Serve()
	eng.StartBackground()
	if *warmup {
		// In the background: clients are served meanwhile; Close stops it.
		go func() {
			if _, err := db.Warmup(context.Background(), kv.WarmupOptions{MaxTime: *warmupTime}); err != nil {
				logger.Warn("warmup stopped", "err", err)
			}
		}()
	}
	logger.Info("strata ready for connections", "version", version, "addr", srv.Addr().String(), "socket", cfg.Socket, "datadir", *datadir)

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	s := <-sig
	logger.Info("shutting down", "signal", s.String())
	srv.Close()
	if admin != nil {
		_ = admin.Close()
	}
	rep.Close()
	eng.Close()
	if blog != nil {
		if err := blog.Close(); err != nil {
			logger.Error("closing the binary log", "err", err)
		}
	}
	if err := db.Close(); err != nil {
		logger.Error("closing the store", "err", err)
		return 1
	}
	logger.Info("shutdown complete")
	return 0
}

// flagSet reports whether the command line set flag name.
// secureFilePriv returns the value of secure_file_priv, as MySQL's
// --secure-file-priv: a directory (with a trailing separator) that must
// exist, "" for no restriction, NULL (the word) to disable file export.
// Without the flag it is DATADIR/secure-files, created if missing.
func secureFilePriv(datadir, value string, given bool) (sqltypes.Value, error) {
	switch {
	case given && value == "":
		return sqltypes.NewVarChar(""), nil
	case given && strings.EqualFold(value, "NULL"):
		return sqltypes.NULL, nil
	}
	dir := value
	if !given {
		dir = filepath.Join(datadir, "secure-files")
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return sqltypes.NULL, fmt.Errorf("create %s: %w", dir, err)
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return sqltypes.NULL, fmt.Errorf("secure_file_priv %q: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return sqltypes.NULL, fmt.Errorf("secure_file_priv %q is not a directory", abs)
	}
	return sqltypes.NewVarChar(abs + string(filepath.Separator)), nil
}

// boolValue is a boolean system variable's value.
func boolValue(b bool) sqltypes.Value {
	if b {
		return sqltypes.NewInt64(1)
	}
	return sqltypes.NewInt64(0)
}

func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func isLoopback(addr string) bool {
	if addr == "localhost" {
		return true
	}
	ip := net.ParseIP(addr)
	return ip != nil && ip.IsLoopback()
}

// bulkMemory is the sort memory of bulk loads and index builds: an eighth
// of the memory budget (the Go heap's soft limit is half of it, tuneGC),
// between 16 and 128 MiB.
func bulkMemory(budget int64) int {
	if budget <= 0 {
		budget = kv.MemoryLimit()
	}
	return int(min(max(budget/8, 16<<20), 128<<20))
}

// tuneGC sets the Go garbage collector for a database server: the Go heap
// holds only per-statement garbage (Pebble's block cache lives outside
// it), so collecting at 4x growth instead of 2x cuts GC CPU by about a
// third on the point-select benchmark (BenchmarkPointSelect: 1.46 s → 0.89 s
// of CPU for 60k queries), while a soft limit of half the memory budget
// keeps the heap bounded. GOGC and GOMEMLIMIT in the environment win.
func tuneGC(budget int64) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		if budget <= 0 {
			budget = kv.MemoryLimit()
		}
		if limit := budget / 2; limit > 256<<20 {
			debug.SetMemoryLimit(limit)
		} else {
			debug.SetMemoryLimit(256 << 20)
		}
	}
}

package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/strata-db/strata/internal/proc"
)

// EngineConfig is what every engine is configured from, so that they are
// configured alike.
type EngineConfig struct {
	// CacheBytes is the cache budget of each engine: strata's block cache
	// (strata gets --memory 4×CacheBytes, of which the block cache is a
	// quarter), innodb_buffer_pool_size, rocksdb_block_cache_size.
	CacheBytes int64
	// StrataBin is the strata binary to run (default: this executable).
	StrataBin string
	// Isolation is the transaction isolation level, "REPEATABLE-READ".
	Isolation string
	// MaxConnections is the max_connections every engine gets (MariaDB's
	// command line, strata's SET GLOBAL after start); 0 keeps the
	// defaults (MariaDB: the bench's 1000, strata: its own).
	MaxConnections int
	// Reuse starts the engine on the data directory of an earlier run of
	// the same engine in the same directory (no mariadb-install-db).
	Reuse bool
	// SecureFilePriv, when set, is MariaDB's --secure-file-priv: the
	// directory LOAD DATA INFILE may read server files from (pageviews;
	// without it MariaDB reads none). strata reads from its own
	// DATADIR/secure-files by default.
	SecureFilePriv string
	// Database is the database holding the benchmark's tables, for the
	// on-disk size of InnoDB's table files (default "sbtest").
	Database string
}

// mariadbMaxConnections is MariaDB's max_connections when
// EngineConfig.MaxConnections does not ask for more.
const mariadbMaxConnections = 1000

// mariadbMaxPreparedStmts is MariaDB's max_prepared_stmt_count: sysbench
// prepares about five statements per table per connection (oltp_read_only,
// 10 tables: 52), so 1024 connections need ~53k, over the default 16382.
const mariadbMaxPreparedStmts = 1 << 20

// strataMinBlockCache is the floor of strata's block cache: internal/kv
// sizes it max(--memory/4, 16 MiB), so a smaller cache budget still gets
// 16 MiB (memtables, an eighth of --memory each, come on top, as MyRocks'
// write buffers come on top of rocksdb_block_cache_size).
const strataMinBlockCache = 16 << 20

// StrataBlockCache is the block cache strata runs with for a cache budget.
func StrataBlockCache(cacheBytes int64) int64 { return max(cacheBytes, strataMinBlockCache) }

// startupTimeout bounds how long an engine may take to accept SELECT 1.
const startupTimeout = 90 * time.Second

// StartEngine creates dir (private to this engine) and starts engine in it.
func StartEngine(ctx context.Context, engine, dir string, cfg EngineConfig, in *installer) (*Server, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	port, err := proc.FreePort()
	if err != nil {
		return nil, err
	}
	s := &Server{Engine: engine, Port: port, Dir: dir, DataDir: filepath.Join(dir, "data")}
	switch engine {
	case EngineStrata:
		err = startStrata(s, cfg)
	case EngineInnoDB, EngineMyRocks:
		err = startMariaDB(ctx, s, cfg, in)
	default:
		err = fmt.Errorf("unknown engine %q (want strata, innodb or myrocks)", engine)
	}
	if err != nil {
		return nil, err
	}
	if err := s.waitReady(ctx, startupTimeout); err != nil {
		_ = s.Stop(10 * time.Second)
		return nil, err
	}
	// Record what the server reports, not only what was asked for.
	for _, v := range []struct{ name, q string }{
		{"isolation (reported)", "SELECT @@tx_isolation"},
		{"version (reported)", "SELECT VERSION()"},
	} {
		if got, err := s.Query(ctx, v.q); err == nil {
			s.Settings = append(s.Settings, Setting{v.name, got})
		}
	}
	switch engine {
	case EngineStrata:
		s.CacheBytes = StrataBlockCache(cfg.CacheBytes)
		if cfg.MaxConnections > 0 {
			q := fmt.Sprintf("SET GLOBAL max_connections = %d", cfg.MaxConnections)
			if err := s.Exec(ctx, q); err != nil {
				s.Settings = append(s.Settings, Setting{"max_connections", fmt.Sprintf("NOT set to %d: %v", cfg.MaxConnections, err)})
			} else {
				s.Settings = append(s.Settings, Setting{"max_connections", fmt.Sprintf("%d (SET GLOBAL after start)", cfg.MaxConnections)})
			}
		}
	case EngineInnoDB:
		s.CacheBytes = s.reportVars(ctx, "innodb_buffer_pool_size", cfg.CacheBytes,
			"innodb_flush_log_at_trx_commit", "innodb_log_file_size", "innodb_flush_method", "max_connections")
	case EngineMyRocks:
		s.CacheBytes = s.reportVars(ctx, "rocksdb_block_cache_size", cfg.CacheBytes,
			"rocksdb_flush_log_at_trx_commit", "default_storage_engine", "rocksdb_default_cf_options")
	}
	return s, nil
}

// reportVars records the global variables cacheVar and others in
// s.Settings as the server reports them, and returns cacheVar's value (the
// engine's cache in bytes), or def when it cannot be read.
func (s *Server) reportVars(ctx context.Context, cacheVar string, def int64, others ...string) int64 {
	cache := def
	for _, v := range append([]string{cacheVar}, others...) {
		got, err := s.Query(ctx, "SELECT @@"+v)
		if err != nil {
			continue
		}
		s.Settings = append(s.Settings, Setting{v + " (reported)", got})
		if n, err := strconv.ParseInt(strings.TrimSpace(got), 10, 64); v == cacheVar && err == nil && n > 0 {
			cache = n
		}
	}
	return cache
}

func startStrata(s *Server, cfg EngineConfig) error {
	bin := cfg.StrataBin
	if bin == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("locate the strata binary: %w", err)
		}
		bin = exe
	}
	s.Version = toolVersion(bin, "version")
	memory := 4 * cfg.CacheBytes
	s.Settings = []Setting{
		{"binary", bin},
		{"--memory (cache budget)", fmt.Sprintf("%d (%s)", memory, fmtBytes(float64(memory)))},
		{"block cache (¼ of --memory, at least 16 MiB; memtables ⅛ each on top)", fmtBytes(float64(StrataBlockCache(cfg.CacheBytes)))},
		{"commit durability", "fsync per commit (default; Pebble group commit)"},
		{"isolation", "REPEATABLE READ (default; InnoDB-style current reads for writes)"},
		{"binlog", "none"},
	}
	s.tableFiles = func(rel string) bool {
		return strings.HasSuffix(rel, ".sst") || strings.HasSuffix(rel, ".blob")
	}
	return s.spawn(bin, "serve", "--datadir", s.DataDir, "--port", strconv.Itoa(s.Port),
		"--bind", "127.0.0.1", "--memory", strconv.FormatInt(memory, 10))
}

// myrocksInnoDBPool is the InnoDB buffer pool of the MyRocks server: InnoDB
// holds no benchmark table there, only a few system tables.
const myrocksInnoDBPool = 16 << 20

func startMariaDB(ctx context.Context, s *Server, cfg EngineConfig, in *installer) error {
	if err := in.ensure("mariadb-server", "MariaDB (mariadbd)", func() bool {
		_, ok1 := lookPath("mariadbd")
		_, ok2 := lookPath("mariadb-install-db")
		return ok1 && ok2
	}); err != nil {
		return err
	}
	mariadbd, _ := lookPath("mariadbd")
	installDB, _ := lookPath("mariadb-install-db")
	var plugin string
	if s.Engine == EngineMyRocks {
		if err := in.ensure("mariadb-plugin-rocksdb", "MyRocks (ha_rocksdb.so)", func() bool {
			_, ok := rocksdbPlugin()
			return ok
		}); err != nil {
			return err
		}
		plugin, _ = rocksdbPlugin()
	}
	s.Version = toolVersion(mariadbd, "--version")

	if !cfg.Reuse {
		install := exec.CommandContext(ctx, installDB, "--no-defaults", "--datadir="+s.DataDir, "--user=root",
			"--auth-root-authentication-method=normal", "--skip-test-db")
		if out, err := install.CombinedOutput(); err != nil {
			return fmt.Errorf("mariadb-install-db: %w\n%s", err, out)
		}
	}
	maxConns := max(mariadbMaxConnections, cfg.MaxConnections)
	cache := strconv.FormatInt(cfg.CacheBytes, 10)
	args := []string{
		"--no-defaults",
		"--datadir=" + s.DataDir,
		"--socket=" + filepath.Join(s.Dir, "mysqld.sock"),
		"--pid-file=" + filepath.Join(s.Dir, "mysqld.pid"),
		"--port=" + strconv.Itoa(s.Port),
		"--bind-address=127.0.0.1",
		"--user=root",
		"--skip-grant-tables",
		"--skip-log-bin",
		"--max-connections=" + strconv.Itoa(maxConns),
		"--max-prepared-stmt-count=" + strconv.Itoa(mariadbMaxPreparedStmts),
		"--character-set-server=utf8mb4",
		"--collation-server=utf8mb4_general_ci",
		"--transaction-isolation=" + cfg.Isolation,
		"--innodb-flush-log-at-trx-commit=1",
	}
	s.Settings = []Setting{
		{"binary", mariadbd},
		{"binlog", "off (--skip-log-bin)"},
		{"transaction-isolation", cfg.Isolation},
		{"innodb_flush_log_at_trx_commit", "1"},
		{"character set", "utf8mb4 / utf8mb4_general_ci"},
		{"max_connections", strconv.Itoa(maxConns)},
		{"max_prepared_stmt_count", strconv.Itoa(mariadbMaxPreparedStmts) + " (sysbench prepares ~5 statements per table per connection)"},
	}
	if cfg.SecureFilePriv != "" {
		args = append(args, "--secure-file-priv="+cfg.SecureFilePriv)
		s.Settings = append(s.Settings, Setting{"secure_file_priv", cfg.SecureFilePriv + " (LOAD DATA INFILE of the generated files)"})
	}
	if s.Engine == EngineInnoDB {
		args = append(args, "--innodb-buffer-pool-size="+cache)
		s.Settings = append(s.Settings, Setting{"innodb_buffer_pool_size", fmtBytes(float64(cfg.CacheBytes))})
		db := cfg.Database
		if db == "" {
			db = "sbtest"
		}
		s.tableFiles = func(rel string) bool {
			return strings.HasPrefix(rel, db+string(filepath.Separator)) && strings.HasSuffix(rel, ".ibd")
		}
	} else {
		args = append(args,
			"--plugin-dir="+filepath.Dir(plugin),
			"--plugin-load-add="+filepath.Base(plugin),
			"--default-storage-engine=rocksdb",
			"--rocksdb-block-cache-size="+cache,
			"--rocksdb-flush-log-at-trx-commit=1",
			"--innodb-buffer-pool-size="+strconv.Itoa(myrocksInnoDBPool),
		)
		s.Settings = append(s.Settings,
			Setting{"plugin", plugin},
			Setting{"default-storage-engine", "rocksdb (sysbench --mysql-storage-engine=rocksdb)"},
			Setting{"rocksdb_block_cache_size", fmtBytes(float64(cfg.CacheBytes))},
			Setting{"rocksdb_flush_log_at_trx_commit", "1 (fsync the WAL per commit)"},
			Setting{"innodb_buffer_pool_size", fmtBytes(myrocksInnoDBPool) + " (system tables only)"},
			Setting{"isolation note", "MyRocks REPEATABLE READ is snapshot isolation: conflicting writes fail with 1213/1205 (sysbench counts them as ignored errors)"},
		)
		s.tableFiles = func(rel string) bool {
			return strings.HasPrefix(rel, "#rocksdb"+string(filepath.Separator)) && strings.HasSuffix(rel, ".sst")
		}
	}
	return s.spawn(mariadbd, args...)
}

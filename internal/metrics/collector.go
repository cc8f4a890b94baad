package metrics

import (
	"strconv"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql"
)

// namespace prefixes every metric of the server.
const namespace = "strata"

// collector reads the engine's counters at each scrape.
type collector struct {
	eng *sql.Engine
}

func desc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc(namespace+"_"+name, help, labels, nil)
}

var (
	commandsDesc     = desc("commands_total", "Statements executed, by command (MySQL's Com_* status variables).", "command")
	handlerReadsDesc = desc("handler_reads_total", "Rows read from tables and indexes, by kind of read (Handler_read_*).", "kind")

	// statusMetrics maps status variables to metrics.
	statusMetrics = map[string]struct {
		d    *prometheus.Desc
		kind prometheus.ValueType
	}{
		"Questions":                {desc("questions_total", "Statements sent by clients (Questions)."), prometheus.CounterValue},
		"Connections":              {desc("connections_total", "Connections opened since the start (Connections)."), prometheus.CounterValue},
		"Threads_connected":        {desc("threads_connected", "Open connections (Threads_connected)."), prometheus.GaugeValue},
		"Threads_running":          {desc("threads_running", "Connections executing a statement (Threads_running)."), prometheus.GaugeValue},
		"Max_used_connections":     {desc("max_used_connections", "Most connections open at once (Max_used_connections)."), prometheus.GaugeValue},
		"Sort_merge_passes":        {desc("sort_merge_passes_total", "Merge passes of sorts that spilled to disk (Sort_merge_passes)."), prometheus.CounterValue},
		"Strata_plan_cache_hits":   {desc("plan_cache_hits_total", "Statements that found their plan in the plan cache."), prometheus.CounterValue},
		"Strata_plan_cache_misses": {desc("plan_cache_misses_total", "Statements that had to be planned."), prometheus.CounterValue},
		"Strata_plan_cache_plans":  {desc("plan_cache_plans", "Idle plans held by the plan cache."), prometheus.GaugeValue},
		"Strata_bulk_loads":        {desc("bulk_loads_total", "LOAD DATA statements that took the bulk (ingest) path."), prometheus.CounterValue},
		"Strata_commits":           {desc("commits_total", "Transactions committed with writes, autocommit statements included (Strata_commits)."), prometheus.CounterValue},
		"Strata_bulk_load_rows":    {desc("bulk_load_rows_total", "Rows those bulk loads ingested."), prometheus.CounterValue},
		"Uptime":                   {desc("uptime_seconds", "Seconds since the server started (Uptime)."), prometheus.GaugeValue},
	}

	openTxnsDesc       = desc("transactions_open", "Sessions with an open transaction (INNODB_TRX's rows).")
	lockWaitsDesc      = desc("row_lock_waits_total", "Row lock requests that had to wait (Innodb_row_lock_waits).")
	lockCurrentDesc    = desc("row_lock_current_waits", "Transactions waiting for a row lock now (Innodb_row_lock_current_waits).")
	deadlocksDesc      = desc("deadlocks_total", "Deadlocks detected; each rolled back one transaction (Innodb_deadlocks).")
	lockTimeoutsDesc   = desc("row_lock_timeouts_total", "Row lock requests that failed with a lock wait timeout.")
	lockEntriesDesc    = desc("row_lock_entries", "Row locks held or waited for (one per transaction and key).")
	levelFilesDesc     = desc("lsm_level_files", "Table files in an LSM level.", "level")
	levelBytesDesc     = desc("lsm_level_bytes", "Bytes of the table files in an LSM level.", "level")
	levelScoreDesc     = desc("lsm_level_score", "Compaction score of an LSM level (above 1: due for compaction).", "level")
	levelInDesc        = desc("lsm_level_bytes_in_total", "Bytes added to an LSM level by flushes and compactions.", "level")
	levelWrittenDesc   = desc("lsm_level_bytes_written_total", "Bytes written into an LSM level by flushes and compactions.", "level")
	levelIngestedDesc  = desc("lsm_level_bytes_ingested_total", "Bytes ingested into an LSM level (bulk loads, index builds).", "level")
	compactionDebtDesc = desc("compaction_debt_bytes", "Estimated bytes compactions must still rewrite.")
	compactionsDesc    = desc("compactions_total", "Compactions completed.")
	compactingDesc     = desc("compactions_in_progress", "Compactions running now.")
	compactionSecsDesc = desc("compaction_seconds_total", "Time spent in compactions.")
	flushesDesc        = desc("flushes_total", "Memtable flushes completed.")
	writeAmpDesc       = desc("write_amplification", "Write amplification of the store: bytes written to the WAL and to table files per byte written to the WAL or ingested.")
	readAmpDesc        = desc("read_amplification", "Sublevels and levels a point read may have to visit.")
	cacheHitsDesc      = desc("block_cache_hits_total", "Block cache hits.")
	cacheMissesDesc    = desc("block_cache_misses_total", "Block cache misses.")
	cacheHitRatioDesc  = desc("block_cache_hit_ratio", "Block cache hits / (hits + misses) since the start; 0 before any lookup.")
	cacheBytesDesc     = desc("block_cache_bytes", "Bytes the block cache holds (memtables included).")
	memtableBytesDesc  = desc("memtable_bytes", "Bytes held by memtables.")
	diskUsageDesc      = desc("disk_usage_bytes", "Bytes the store occupies on disk.")
	walBytesDesc       = desc("wal_bytes_written_total", "Bytes written to the write-ahead log.")
	walSyncsDesc       = desc("wal_fsyncs_total", "Write-ahead-log fsyncs (one may make many commits durable).")
	walSyncSecondsDesc = desc("wal_fsync_seconds_total", "Time spent in write-ahead-log fsyncs.")
	snapshotsDesc      = desc("open_snapshots", "Open store snapshots (transactions' read views).")

	replicaIODesc     = desc("replica_io_running", "1 while the replica is connected to its source and reading its binary log (Replica_IO_Running: Yes), else 0.")
	replicaSQLDesc    = desc("replica_sql_running", "1 while the replica's applier runs (Replica_SQL_Running: Yes), else 0.")
	replicaBehindDesc = desc("replica_seconds_behind_source", "Replication lag: SHOW REPLICA STATUS's Seconds_Behind_Source; absent while it is NULL (replication not running).")
	replicaIOErrDesc  = desc("replica_last_io_errno", "Last_IO_Errno of SHOW REPLICA STATUS (0: none).")
	replicaSQLErrDesc = desc("replica_last_sql_errno", "Last_SQL_Errno of SHOW REPLICA STATUS (0: none).")
	// replicaDescs are described even when a scrape would not emit them
	// (no replica yet, or a NULL lag).
	replicaDescs = []*prometheus.Desc{replicaIODesc, replicaSQLDesc, replicaBehindDesc, replicaIOErrDesc, replicaSQLErrDesc}
)

// Describe sends the descriptors by collecting once (the variable sets of
// labels are fixed by the engine), and the replica's.
func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	descs := make(chan *prometheus.Desc)
	go func() {
		prometheus.DescribeByCollect(c, descs)
		close(descs)
	}()
	seen := map[*prometheus.Desc]bool{}
	for d := range descs {
		seen[d] = true
		ch <- d
	}
	for _, d := range replicaDescs {
		if !seen[d] {
			ch <- d
		}
	}
}

// Collect reads the engine's counters.
func (c *collector) Collect(ch chan<- prometheus.Metric) {
	for _, kv := range c.eng.GlobalStatus() {
		name, val := kv[0], kv[1]
		v, err := strconv.ParseFloat(val, 64)
		if err != nil {
			continue
		}
		switch {
		case strings.HasPrefix(name, "Com_"):
			ch <- prometheus.MustNewConstMetric(commandsDesc, prometheus.CounterValue, v, strings.TrimPrefix(name, "Com_"))
		case strings.HasPrefix(name, "Handler_read_"):
			ch <- prometheus.MustNewConstMetric(handlerReadsDesc, prometheus.CounterValue, v, strings.TrimPrefix(name, "Handler_read_"))
		default:
			if m, ok := statusMetrics[name]; ok {
				ch <- prometheus.MustNewConstMetric(m.d, m.kind, v)
			}
		}
	}
	gauge(ch, openTxnsDesc, float64(c.eng.OpenTransactions()))
	ls := c.eng.DB.Locks().Stats()
	counter(ch, lockWaitsDesc, float64(ls.Waits))
	gauge(ch, lockCurrentDesc, float64(ls.Waiters))
	counter(ch, deadlocksDesc, float64(ls.Deadlocks))
	counter(ch, lockTimeoutsDesc, float64(ls.Timeouts))
	gauge(ch, lockEntriesDesc, float64(ls.Entries))

	st := c.eng.DB.KV().EngineStats()
	for i := range st.Levels {
		l := &st.Levels[i]
		lvl := strconv.Itoa(l.Level)
		ch <- prometheus.MustNewConstMetric(levelFilesDesc, prometheus.GaugeValue, float64(l.Files), lvl)
		ch <- prometheus.MustNewConstMetric(levelBytesDesc, prometheus.GaugeValue, float64(l.Size), lvl)
		ch <- prometheus.MustNewConstMetric(levelScoreDesc, prometheus.GaugeValue, l.Score, lvl)
		ch <- prometheus.MustNewConstMetric(levelInDesc, prometheus.CounterValue, float64(l.BytesIn), lvl)
		ch <- prometheus.MustNewConstMetric(levelWrittenDesc, prometheus.CounterValue, float64(l.BytesFlushed+l.BytesCompacted), lvl)
		ch <- prometheus.MustNewConstMetric(levelIngestedDesc, prometheus.CounterValue, float64(l.BytesIngested), lvl)
	}
	gauge(ch, compactionDebtDesc, float64(st.CompactionDebt))
	counter(ch, compactionsDesc, float64(st.Compactions))
	gauge(ch, compactingDesc, float64(st.CompactionsInProgress))
	counter(ch, compactionSecsDesc, st.CompactionSeconds)
	counter(ch, flushesDesc, float64(st.Flushes))
	gauge(ch, writeAmpDesc, st.WriteAmp)
	gauge(ch, readAmpDesc, float64(st.ReadAmp))
	counter(ch, cacheHitsDesc, float64(st.BlockCacheHits))
	counter(ch, cacheMissesDesc, float64(st.BlockCacheMisses))
	gauge(ch, cacheHitRatioDesc, hitRatio(st.Stats))
	gauge(ch, cacheBytesDesc, float64(st.BlockCacheBytes))
	gauge(ch, memtableBytesDesc, float64(st.MemTableBytes))
	gauge(ch, diskUsageDesc, float64(st.DiskUsage))
	counter(ch, walBytesDesc, float64(st.WALBytesWritten))
	counter(ch, walSyncsDesc, float64(st.WALSyncs))
	counter(ch, walSyncSecondsDesc, st.WALSyncSeconds)
	gauge(ch, snapshotsDesc, float64(st.Snapshots))
	c.collectReplica(ch)
}

// collectReplica reports the replica side from SHOW REPLICA STATUS's
// columns: nothing when the server is not a replica (no source set).
func (c *collector) collectReplica(ch chan<- prometheus.Metric) {
	if c.eng.Replica == nil {
		return
	}
	cols := c.eng.Replica.Status()
	if cols == nil {
		return
	}
	running := func(d *prometheus.Desc, v string) {
		x := 0.0
		if v == "Yes" {
			x = 1
		}
		gauge(ch, d, x)
	}
	for _, col := range cols {
		switch col.Name {
		case "Replica_IO_Running":
			running(replicaIODesc, col.Value.ToString())
		case "Replica_SQL_Running":
			running(replicaSQLDesc, col.Value.ToString())
		case "Seconds_Behind_Source":
			if !col.Value.IsNull() {
				if v, err := col.Value.ToFloat64(); err == nil {
					gauge(ch, replicaBehindDesc, v)
				}
			}
		case "Last_IO_Errno":
			if v, err := col.Value.ToFloat64(); err == nil {
				gauge(ch, replicaIOErrDesc, v)
			}
		case "Last_SQL_Errno":
			if v, err := col.Value.ToFloat64(); err == nil {
				gauge(ch, replicaSQLErrDesc, v)
			}
		}
	}
}

// hitRatio is the block cache's hit ratio, 0 before any lookup.
func hitRatio(s kv.Stats) float64 {
	total := s.BlockCacheHits + s.BlockCacheMisses
	if total == 0 {
		return 0
	}
	return float64(s.BlockCacheHits) / float64(total)
}

func counter(ch chan<- prometheus.Metric, d *prometheus.Desc, v float64) {
	ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
}

func gauge(ch chan<- prometheus.Metric, d *prometheus.Desc, v float64) {
	ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v)
}

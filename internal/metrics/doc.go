// Package metrics exposes the server's counters to Prometheus and serves
// them, with a health check, on the admin listener (strata serve
// --admin-addr).
//
// # Basics
//
// NewRegistry returns a registry of its own (never Prometheus' global
// default, so nothing another package registers leaks in) holding one
// collector that reads the engine when scraped: the status variables of
// SHOW GLOBAL STATUS (Engine.GlobalStatus: statements by command, rows read
// by kind, connections, plan cache, bulk loads), the lock manager's waits,
// deadlocks and timeouts, and the store's figures (kv.DB.EngineStats: LSM
// levels, compaction debt, write and read amplification, block cache,
// memtables, WAL bytes and fsyncs), plus Go's runtime and process metrics.
// Nothing is counted for metrics' sake: the counters exist anyway, and a
// scrape costs one pass over them.
//
// NewHandler mounts /metrics and /healthz on one mux; cmd/strata serves it.
//
// # Caveats
//
//   - There is no replication yet, so no replication-lag metric.
//   - The admin listener has no authentication: bind it to loopback or a
//     private network.
package metrics

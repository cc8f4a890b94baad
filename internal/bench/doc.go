// Package bench implements `strata bench`: it starts strata, MariaDB with
// InnoDB and MariaDB with MyRocks in private data directories on loopback
// ports, loads the same data into each, drives the same load with sysbench
// or the bench's TPC-H and TPC-C clients (optionally under fio disk noise,
// a cgroup memory limit or an IOPS throttle), measures throughput, latency,
// server CPU and bytes written per transaction and on-disk size, and writes
// a report directory (results.json, CSVs, summary.md, SVG charts and a
// self-contained report.html).
//
// # Basics
//
// Main is the command entry point. Five workloads exist: "sysbench" (the
// eight oltp_* scripts at a list of thread counts), "seed" (the MyRocks
// seed study's grid of parallel clients × disk-noise levels running
// write-heavy scripts, then Redmine 5 on each engine driven through its
// REST API, with the database's share of each operation measured by a
// timing proxy), "tpch" (the 22 TPC-H queries over generated data,
// results compared between engines; package tpch) and "tpcc" (the TPC-C
// transaction mix with consistency checks; package tpcc) and "pageviews"
// (issue 13's bulk-load workflow over a generated page_views CSV: LOAD
// DATA, ADD INDEX, COUNT(*), a join cold and warm). Everything else —
// statistics, sysbench output parsing, noise levels, result comparison,
// report generation — is plain functions over recorded data and is
// unit-tested without servers.
//
// # Caveats
//
// The tool needs root to install missing Debian packages (mariadb-server,
// mariadb-plugin-rocksdb, sysbench, fio; redmine, ruby-mysql2, puma for
// the seed's Redmine load, which also runs Redmine as www-data) and to
// write cgroups. Latency
// figures come from sysbench's per-second reports; see docs/benchmarks.md for
// how each figure is derived.
package bench

#!/usr/bin/env bash
# Where strata's server CPU goes under a sysbench script.
#
# Usage: scripts/profile-sysbench.sh [-b BINARY] [-m MEMORY] [-n TABLES] [-s ROWS]
#                                    [-t THREADS] [-d SECONDS] SCRIPT...
#   defaults: ./strata, --memory 512 MiB (what `strata bench` gives strata for
#   its default 128 MiB cache budget), 2 tables × 100000 rows, 4 threads, 15 s.
#
# Starts BINARY with --pprof on loopback in a temporary data directory,
# prepares the sysbench tables, and for each SCRIPT runs sysbench while it
# takes a CPU profile of the server. Prints TPS, server CPU per transaction
# and the profile split into categories (each sample counted once, in the
# first category that matches its stack, in the order listed). Profiles are
# kept in the work directory it prints.
set -euo pipefail

BIN=./strata MEM=$((512 << 20)) TABLES=2 ROWS=100000 THREADS=4 SECS=15
while getopts "b:m:n:s:t:d:" o; do
	case $o in
	b) BIN=$OPTARG ;; m) MEM=$OPTARG ;; n) TABLES=$OPTARG ;; s) ROWS=$OPTARG ;;
	t) THREADS=$OPTARG ;; d) SECS=$OPTARG ;; *) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -gt 0 ]] || { echo "usage: $0 [flags] SCRIPT..." >&2; exit 2; }
for tool in sysbench mysql curl go; do
	command -v $tool >/dev/null || { echo "$tool not found" >&2; exit 2; }
done
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

WORK=$(mktemp -d -t strata-profile.XXXXXX)
port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])' 2>/dev/null || echo $((20000 + RANDOM % 20000)); }
PORT=$(port) PPROF=$(port)
"$BIN" serve --datadir "$WORK/data" --port "$PORT" --memory "$MEM" --pprof "127.0.0.1:$PPROF" >"$WORK/server.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null || true' EXIT
for _ in $(seq 100); do mysql -h127.0.0.1 -P"$PORT" -uroot -e "SELECT 1" >/dev/null 2>&1 && break; sleep 0.2; done
mysql -h127.0.0.1 -P"$PORT" -uroot -e "CREATE DATABASE sbtest"
SB=(--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$PORT" --mysql-user=root
	--tables="$TABLES" --table-size="$ROWS" --mysql-ignore-errors=all)
sysbench oltp_read_only "${SB[@]}" prepare >/dev/null
echo "work directory: $WORK"

cpu() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
for script in "$@"; do
	c0=$(cpu)
	sysbench "$script" "${SB[@]}" --threads="$THREADS" --time=$((SECS + 3)) run >"$WORK/$script.txt" &
	sb=$!
	sleep 2
	curl -s -o "$WORK/$script.prof" "http://127.0.0.1:$PPROF/debug/pprof/profile?seconds=$SECS"
	wait $sb
	c1=$(cpu)
	tx=$(awk '/transactions:/{print $2}' "$WORK/$script.txt")
	tps=$(awk '/transactions:/{gsub(/\(/,"",$3); print $3}' "$WORK/$script.txt")
	echo
	echo "== $script, $THREADS threads: $tps TPS, server CPU $(awk -v c=$((c1 - c0)) -v t="$tx" 'BEGIN{printf "%.0f", c*10000/t}') µs/txn"
	go tool pprof -traces "$BIN" "$WORK/$script.prof" 2>/dev/null | awk '
	function unit(v) {
		if (v ~ /ms$/) return substr(v, 1, length(v)-2) / 1000
		if (v ~ /us$|µs$/) return substr(v, 1, length(v)-2) / 1e6
		if (v ~ /ns$/) return substr(v, 1, length(v)-2) / 1e9
		if (v ~ /s$/) return substr(v, 1, length(v)-1)
		return v
	}
	function flush_trace(   c) {
		if (t == 0) return
		c = "d other"
		if (st ~ /Fdatasync|SyncData/) c = "1 WAL fsync (kernel)"
		else if (st ~ /record\.\(\*LogWriter\)/) c = "2 WAL write"
		else if (st ~ /compaction|\(\*DB\)\.flush|runCompaction|tableCacheShard|sstable\.\(\*RawWriter\)|sstable\.Writer/) c = "3 flush + compaction"
		else if (st ~ /bufio\.\(\*Writer\)\.Flush|\(\*conn\)\.Write|netFD\)\.Write|writeEphemeralPacket|writePacket/) c = "4 socket write"
		else if (st ~ /netFD\)\.Read|bufio\.\(\*Reader\)|readEphemeralPacket|readPacket/) c = "5 socket read"
		else if (st ~ /sqlparser\./) c = "6 SQL parse"
		else if (st ~ /commitPipeline|applyInternal|arenaskl\.\(\*Skiplist\)\.Add|commitWrite|\(\*Batch\)/) c = "7 commit: batch + memtable insert"
		else if (st ~ /txn\/lock\./) c = "8 row locks"
		else if (st ~ /cockroachdb\/pebble/) c = "9 storage reads (Pebble)"
		else if (st ~ /gcBgMarkWorker|gcDrain|bgsweep|scavenge/) c = "b Go GC (background)"
		else if (st ~ /strata-db\/strata\/internal|vitess\.io/) c = "a SQL execution (planner, evaluation, codecs, results)"
		else if (st ~ /runtime\.(schedule|findRunnable|park_m|netpoll|futex|mcall|notesleep|stopm)/) c = "c Go scheduler / idle"
		sum[c] += t; total += t; t = 0; st = ""
	}
	/^-+\+-+$/ { flush_trace(); next }
	/^ +[0-9.]+[mµun]?s +/ { t = unit($1); st = st " " $2; next }
	{ st = st " " $1 }
	END {
		flush_trace()
		n = asorti(sum, keys)
		for (i = 1; i <= n; i++) printf "  %-58s %5.1f %%\n", substr(keys[i], 3), 100 * sum[keys[i]] / total
	}'
done

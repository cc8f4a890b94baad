#!/usr/bin/env bash
# strata as a replica of a MariaDB primary under a sysbench write load
# (issue 15): a private MariaDB with a row-based binary log, a strata
# server replicating from it, sysbench oltp_write_only against the primary
# for a while (with a kill -9 of the replica in the middle and a restart:
# replication resumes on its own), then, after catch-up, every sbtest
# table's rows compared between the two (ordered by primary key; CHECKSUM
# TABLE differs between engines).
#
# Usage: scripts/replica/sysbench_maria.sh [STRATA_BINARY]
# Environment: SECONDS_LOAD (default 30), TABLES (4), TABLE_SIZE (10000),
# THREADS (4). Needs mariadbd, mariadb-install-db, mysql and sysbench.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$(pwd)
source "$ROOT/scripts/replica/lib.sh"
BIN=${1:-${STRATA_BINARY:-$ROOT/strata}}
[[ -x $BIN ]] || go build -o "$BIN" ./cmd/strata
LOAD=${SECONDS_LOAD:-30}
TABLES=${TABLES:-4}
SIZE=${TABLE_SIZE:-10000}
THREADS=${THREADS:-4}
for c in mariadbd mariadb-install-db mysql sysbench; do
	command -v "$c" >/dev/null || { echo "missing $c" >&2; exit 2; }
done

TMP=$(mktemp -d /tmp/strata-replica.XXXXXX)
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_ready() { # port
	for _ in $(seq 1 120); do
		mysql -h127.0.0.1 -P"$1" -uroot -e "SELECT 1" >/dev/null 2>&1 && return 0
		sleep 0.5
	done
	echo "server on port $1 did not become ready" >&2
	return 1
}

MP=$(free_port)
mariadb-install-db --no-defaults --datadir="$TMP/maria" --auth-root-authentication-method=normal >"$TMP/maria-install.log" 2>&1
mariadbd --no-defaults --datadir="$TMP/maria" --user=root --port="$MP" --bind-address=127.0.0.1 \
	--socket="$TMP/maria.sock" --log-bin=mysql-bin --binlog-format=ROW --server-id=100 \
	--character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci >"$TMP/maria.log" 2>&1 &
PIDS+=($!)
SP=$(free_port)
start_strata() {
	"$BIN" serve --datadir "$TMP/strata" --port "$SP" --bind 127.0.0.1 --socket "" >>"$TMP/strata.log" 2>&1 &
	STRATA_PID=$!
	PIDS+=("$STRATA_PID")
	wait_ready "$SP"
}
start_strata
wait_ready "$MP"
M=(mysql -h127.0.0.1 -P"$MP" -uroot)
S=(mysql -h127.0.0.1 -P"$SP" -uroot)

"${S[@]}" -e "CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT=$MP, SOURCE_USER='root', SOURCE_PASSWORD='', SOURCE_CONNECT_RETRY=1; START REPLICA"
"${M[@]}" -e "CREATE DATABASE sbtest"
SB=(sysbench oltp_write_only --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$MP" --mysql-user=root
	--mysql-db=sbtest --tables="$TABLES" --table-size="$SIZE" --threads="$THREADS")
echo "preparing $TABLES tables of $SIZE rows on the primary"
"${SB[@]}" prepare >"$TMP/prepare.log"
echo "write load for ${LOAD}s, kill -9 of the replica half way"
"${SB[@]}" --time="$LOAD" --report-interval=10 run >"$TMP/run.log" &
SBPID=$!
sleep $((LOAD / 2))
"${S[@]}" -e "SHOW REPLICA STATUS\G" | grep -E "Seconds_Behind_Source|Exec_Source_Log_Pos" || true
kill -9 "$STRATA_PID"
sleep 1
start_strata
wait "$SBPID"
grep -E "transactions:|queries:" "$TMP/run.log" || true

catch_up M S
compare_tables M S "$TABLES"

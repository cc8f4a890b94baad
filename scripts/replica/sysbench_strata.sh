#!/usr/bin/env bash
# A MariaDB replica following a strata primary under a sysbench write load
# (issue 15): a strata server with the binary log on (--log-bin), a private
# MariaDB replicating from it (file and position), sysbench
# oltp_write_only against strata, with a kill -9 of the strata primary in
# the middle and a restart on the same port (the replica's IO thread
# reconnects on its own); after catch-up every sbtest table's rows are
# compared between the two (ordered by primary key; CHECKSUM TABLE differs
# between engines): nothing lost, nothing applied twice.
#
# Usage: scripts/replica/sysbench_strata.sh [STRATA_BINARY]
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

TMP=$(mktemp -d /tmp/strata-primary.XXXXXX)
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

SP=$(free_port)
start_strata() {
	"$BIN" serve --datadir "$TMP/strata" --port "$SP" --bind 127.0.0.1 --socket "" \
		--log-bin --server-id 1 --max-binlog-size $((4 << 20)) >>"$TMP/strata.log" 2>&1 &
	STRATA_PID=$!
	PIDS+=("$STRATA_PID")
	wait_ready "$SP"
}
start_strata
RP=$(free_port)
mariadb-install-db --no-defaults --datadir="$TMP/maria" --auth-root-authentication-method=normal >"$TMP/maria-install.log" 2>&1
mariadbd --no-defaults --datadir="$TMP/maria" --user=root --port="$RP" --bind-address=127.0.0.1 \
	--socket="$TMP/maria.sock" --server-id=100 \
	--character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci >"$TMP/maria.log" 2>&1 &
PIDS+=($!)
wait_ready "$RP"
P=(mysql -h127.0.0.1 -P"$SP" -uroot)
R=(mysql -h127.0.0.1 -P"$RP" -uroot)

"${R[@]}" -e "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=$SP, MASTER_USER='root', MASTER_PASSWORD='',
	MASTER_LOG_FILE='binlog.000001', MASTER_LOG_POS=4, MASTER_USE_GTID=no, MASTER_CONNECT_RETRY=1; START SLAVE"
"${P[@]}" -e "CREATE DATABASE sbtest"
SB=(sysbench oltp_write_only --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$SP" --mysql-user=root
	--mysql-db=sbtest --tables="$TABLES" --table-size="$SIZE" --threads="$THREADS")
echo "preparing $TABLES tables of $SIZE rows on the strata primary"
"${SB[@]}" prepare >"$TMP/prepare.log"
echo "write load for ${LOAD}s, kill -9 of the primary half way (the first run dies with it)"
"${SB[@]}" --time="$LOAD" run >"$TMP/run1.log" 2>&1 &
SBPID=$!
sleep $((LOAD / 2))
"${R[@]}" -e "SHOW SLAVE STATUS\G" | grep -E "Seconds_Behind_Master|Exec_Master_Log_Pos" || true
kill -9 "$STRATA_PID"
wait "$SBPID" || true
grep -E "transactions:" "$TMP/run1.log" || echo "first run: $(grep -m1 -iE "error|lost" "$TMP/run1.log" || true)"
start_strata
echo "primary restarted; load for another $((LOAD - LOAD / 2))s"
"${SB[@]}" --time=$((LOAD - LOAD / 2)) run >"$TMP/run2.log"
grep -E "transactions:|queries:" "$TMP/run2.log" || true

catch_up P R
compare_tables P R "$TABLES"

#!/usr/bin/env bash
# sysbench acceptance check for strata.
#
# Usage: scripts/sysbench-acceptance.sh [BINARY]   (default: ./strata)
#
# Starts BINARY on a free loopback port with a temporary data directory,
# creates the database sbtest, then for each OLTP script runs sysbench
# prepare / run (4 threads, 8 s) / cleanup against it and checks:
#   - every sysbench command exits 0 and prints no "FATAL";
#   - "reconnects: 0" and "ignored errors" below 1 % of transactions;
#   - after prepare and after run, COUNT(*) through the secondary index k_N
#     equals COUNT(*) without it, for every sbtestN (the mysql client).
# Prints a QPS/TPS table and exits non-zero if any check failed. The server
# is stopped with SIGTERM at the end (also on interrupt or error).
set -euo pipefail

BIN=${1:-./strata}
SCRIPTS=(oltp_point_select oltp_read_only oltp_read_write oltp_write_only
	oltp_update_index oltp_update_non_index oltp_insert oltp_delete)
TABLES=2
TABLE_SIZE=5000
THREADS=4
RUN_SECONDS=8
READY_TIMEOUT=60   # seconds for the server to accept SELECT 1
STOP_TIMEOUT=30    # seconds for the server to exit after SIGTERM
CMD_TIMEOUT=300    # seconds for any single prepare/cleanup command

for tool in sysbench mysql timeout; do
	if ! command -v "$tool" >/dev/null; then
		echo "sysbench-acceptance: $tool not found (apt-get install -y sysbench mariadb-client)" >&2
		exit 2
	fi
done
if [[ ! -x $BIN ]]; then
	echo "sysbench-acceptance: $BIN is not an executable (build it: go build -o strata ./cmd/strata)" >&2
	exit 2
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

WORK=$(mktemp -d -t strata-sysbench.XXXXXX)
DATADIR=$WORK/data
LOG=$WORK/strata.log
PID=
FAILURES=0

fail() {
	echo "FAIL: $*" >&2
	FAILURES=$((FAILURES + 1))
}

stop_server() {
	[[ -n $PID ]] || return 0
	if kill -0 "$PID" 2>/dev/null; then
		kill -TERM "$PID" 2>/dev/null || true
		local waited=0
		while kill -0 "$PID" 2>/dev/null && ((waited < STOP_TIMEOUT * 10)); do
			sleep 0.1
			waited=$((waited + 1))
		done
		if kill -0 "$PID" 2>/dev/null; then
			echo "FAIL: strata did not exit within ${STOP_TIMEOUT}s of SIGTERM; killing it" >&2
			kill -KILL "$PID" 2>/dev/null || true
			wait "$PID" 2>/dev/null || true
			PID=
			return 1
		fi
	fi
	local rc=0
	wait "$PID" 2>/dev/null || rc=$?
	PID=
	if ((rc != 0)); then
		echo "FAIL: strata exited with status $rc after SIGTERM" >&2
		return 1
	fi
	return 0
}

on_exit() {
	local rc=$?
	stop_server || rc=1
	if ((rc != 0)); then
		echo "--- tail of $LOG:" >&2
		tail -n 40 "$LOG" >&2 || true
		echo "--- sysbench logs kept in $WORK" >&2
	else
		rm -rf "$WORK"
	fi
	exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT TERM

# A random free loopback port: nothing answers a connect on it.
pick_port() {
	local p _
	for _ in $(seq 1 50); do
		p=$((20000 + RANDOM % 40000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	echo "sysbench-acceptance: no free port found" >&2
	return 1
}
PORT=$(pick_port)

MYSQL=(mysql --no-defaults -h 127.0.0.1 -P "$PORT" -u root --batch --skip-column-names --connect-timeout=10)
SB_COMMON=(--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$PORT" --mysql-user=root
	--mysql-db=sbtest --tables="$TABLES" --table-size="$TABLE_SIZE")

echo "sysbench-acceptance: starting $BIN on 127.0.0.1:$PORT (datadir $DATADIR)"
"$BIN" serve --datadir "$DATADIR" --port "$PORT" --bind 127.0.0.1 >"$LOG" 2>&1 &
PID=$!

deadline=$((SECONDS + READY_TIMEOUT))
until timeout 10 "${MYSQL[@]}" -e 'SELECT 1' >/dev/null 2>&1; do
	if ! kill -0 "$PID" 2>/dev/null; then
		echo "sysbench-acceptance: strata exited before it was ready" >&2
		exit 1
	fi
	if ((SECONDS >= deadline)); then
		echo "sysbench-acceptance: strata not ready within ${READY_TIMEOUT}s" >&2
		exit 1
	fi
	sleep 0.2
done

timeout 30 "${MYSQL[@]}" -e 'CREATE DATABASE sbtest'

# check_counts WHEN: COUNT(*) via k_1 must equal COUNT(*) via the primary key.
check_counts() {
	local when=$1 t by_index by_pk
	for t in $(seq 1 "$TABLES"); do
		# sysbench names the secondary index of sbtestN k_N.
		by_index=$(timeout 60 "${MYSQL[@]}" sbtest -e "SELECT COUNT(*) FROM sbtest$t FORCE INDEX(k_$t)" 2>&1) ||
			{ fail "$when: COUNT(*) FORCE INDEX(k_$t) on sbtest$t: $by_index"; continue; }
		by_pk=$(timeout 60 "${MYSQL[@]}" sbtest -e "SELECT COUNT(*) FROM sbtest$t IGNORE INDEX(k_$t)" 2>&1) ||
			{ fail "$when: COUNT(*) IGNORE INDEX(k_$t) on sbtest$t: $by_pk"; continue; }
		if [[ $by_index != "$by_pk" ]]; then
			fail "$when: sbtest$t has $by_pk rows but index k_$t has $by_index entries"
		fi
	done
}

# sb SCRIPT COMMAND LOGFILE [ARGS...]: run sysbench, check exit status and FATAL.
sb() {
	local script=$1 cmd=$2 logfile=$3 limit=$CMD_TIMEOUT
	shift 3
	[[ $cmd == run ]] && limit=$((RUN_SECONDS + 60))
	local rc=0
	timeout "$limit" sysbench "$script" "${SB_COMMON[@]}" "$@" "$cmd" >"$logfile" 2>&1 || rc=$?
	if ((rc != 0)); then
		fail "$script $cmd exited with status $rc (log: $logfile)"
		tail -n 15 "$logfile" >&2
		return 1
	fi
	if grep -q FATAL "$logfile"; then
		fail "$script $cmd printed FATAL (log: $logfile)"
		grep -m 5 FATAL "$logfile" >&2
		return 1
	fi
	return 0
}

# field LOGFILE LABEL: first number after "LABEL:" in sysbench's summary.
field() {
	awk -v label="$2:" '{ line = $0; sub(/^[ \t]+/, "", line) }
		index(line, label) == 1 { sub(label, "", line); split(line, f, " "); print f[1]; exit }' "$1"
}

# rate LOGFILE LABEL: the "(N per sec.)" figure of a summary line.
rate() {
	awk -v label="$2:" '{ line = $0; sub(/^[ \t]+/, "", line) }
		index(line, label) == 1 && match(line, /\([0-9.]+ per sec/) {
			print substr(line, RSTART + 1, RLENGTH - 9); exit }' "$1"
}

declare -A TPS QPS IGN RESULT
for script in "${SCRIPTS[@]}"; do
	echo "=== $script"
	before=$FAILURES
	TPS[$script]=- QPS[$script]=- IGN[$script]=-
	if sb "$script" prepare "$WORK/$script.prepare.log"; then
		check_counts "$script after prepare"
		runlog=$WORK/$script.run.log
		if sb "$script" run "$runlog" --threads="$THREADS" --time="$RUN_SECONDS" --report-interval=0; then
			tx=$(field "$runlog" transactions)
			ign=$(field "$runlog" "ignored errors")
			rec=$(field "$runlog" reconnects)
			TPS[$script]=$(rate "$runlog" transactions)
			QPS[$script]=$(rate "$runlog" queries)
			IGN[$script]=${ign:--}
			if [[ -z $tx || -z $ign || -z $rec ]]; then
				fail "$script run: cannot parse transactions/ignored errors/reconnects (log: $runlog)"
			else
				[[ $rec == 0 ]] || fail "$script run: reconnects: $rec (want 0)"
				((tx > 0)) || fail "$script run: no transactions completed"
				((ign * 100 < tx)) || fail "$script run: $ign ignored errors for $tx transactions (limit 1 %)"
			fi
		fi
		check_counts "$script after run"
	fi
	sb "$script" cleanup "$WORK/$script.cleanup.log" || true
	if ! kill -0 "$PID" 2>/dev/null; then
		fail "strata is no longer running after $script"
		RESULT[$script]=FAIL
		break
	fi
	if ((FAILURES == before)); then RESULT[$script]=ok; else RESULT[$script]=FAIL; fi
done

echo
printf '%-24s %12s %12s %10s  %s\n' script TPS QPS ignored result
for script in "${SCRIPTS[@]}"; do
	printf '%-24s %12s %12s %10s  %s\n' "$script" "${TPS[$script]:--}" "${QPS[$script]:--}" \
		"${IGN[$script]:--}" "${RESULT[$script]:-not run}"
done
echo

stop_server || FAILURES=$((FAILURES + 1))
if ((FAILURES > 0)); then
	echo "sysbench-acceptance: $FAILURES check(s) failed"
	exit 1
fi
echo "sysbench-acceptance: all checks passed"

#!/usr/bin/env bash
# strata as the MySQL under Vitess tablets, on one machine (loopback only).
#
# Builds vtgate, vttablet, vtctld and vtctldclient from vitess.io/vitess at the
# version strata's go.mod uses (scripts/vitess/tools is a separate module, so
# strata's own go.mod does not grow Vitess's server dependencies), then starts
#
#   etcd (Debian's etcd-server)  topology, global and cell "zone1"
#   vtctld                       topology admin (gRPC for vtctldclient)
#   2 × strata serve --log-bin   one MySQL server per shard
#   2 × vttablet --unmanaged     keyspace "sbtest", shards -80 and 80-,
#                                each pointing at its own strata (--db-host/--db-port)
#   vtgate                       the MySQL endpoint applications use
#
# applies a VSchema with a hash vindex, runs sysbench (prepare, oltp_write_only,
# oltp_read_write) and a TPC-C-style order mix through vtgate, then connects to
# each strata directly and checks that every row is on the shard its hash
# vindex names and that counts through vtgate equal the sum of the shards.
# Exits non-zero on any failure; stops every process it started.
#
# Usage: scripts/vitess/two_shards.sh
# Environment:
#   VT_WORK=DIR        working directory (default /tmp/strata-vitess; wiped)
#   VT_BIN=DIR         where the Vitess binaries are built/cached
#                      (default ~/.cache/strata-vitess/<version>)
#   VT_PORT_BASE=N     first port of the range used (default 25000)
#   VT_TIME=S          seconds per sysbench run (default 20)
#   VT_TABLE_SIZE=N    sysbench rows per table (default 10000)
#   VT_KEEP=1          leave the processes running at the end, also after a
#                      failure (for poking at it with mysql -h127.0.0.1
#                      -P$((VT_PORT_BASE+306)); stop them with kill PID…)
# See docs/vitess.md.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TOOLS=$ROOT/scripts/vitess/tools
VERSION=$(awk '$1 == "vitess.io/vitess" {print $2}' "$ROOT/go.mod")
WORK=${VT_WORK:-/tmp/strata-vitess}
# Vitess's servers refuse to run as root (servenv.Init exits). Run by root,
# the script starts them as VT_USER (default nobody) with setpriv, so the
# binaries must be readable by that user: not under /root.
if [[ $EUID == 0 ]]; then
	VT_USER=${VT_USER:-nobody}
	AS_VT=(setpriv --reuid="$VT_USER" --regid="$(id -g "$VT_USER")" --clear-groups)
	BIN=${VT_BIN:-/var/cache/strata-vitess/$VERSION}
else
	AS_VT=()
	BIN=${VT_BIN:-$HOME/.cache/strata-vitess/$VERSION}
fi
BASE=${VT_PORT_BASE:-25000}
TIME=${VT_TIME:-20}
TABLE_SIZE=${VT_TABLE_SIZE:-10000}
TABLES=2
PASSWORD=vtpass
KEYSPACE=sbtest
DBNAME=vt_$KEYSPACE
CELL=zone1
SHARDS=(-80 80-)

ETCD_PORT=$((BASE + 79))
ETCD_PEER=$((BASE + 80))
VTCTLD_HTTP=$((BASE + 0))
VTCTLD_GRPC=$((BASE + 999))
VTGATE_HTTP=$((BASE + 1))
VTGATE_GRPC=$((BASE + 991))
VTGATE_MYSQL=$((BASE + 306))
strata_port() { echo $((BASE + 101 + $1)); }
tablet_http() { echo $((BASE + 200 + $1)); }
tablet_grpc() { echo $((BASE + 300 + $1)); }
tablet_uid() { echo $((100 * ($1 + 1))); }

TOPO=(--topo-implementation etcd2 --topo-global-server-address "127.0.0.1:$ETCD_PORT" --topo-global-root /vitess/global)
PIDS=()

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
die() {
	log "FAIL: $*"
	exit 1
}

cleanup() {
	local rc=$?
	if [[ ${VT_KEEP:-} == 1 ]]; then
		log "VT_KEEP=1: leaving processes running (pids ${PIDS[*]})"
		return
	fi
	for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
		kill "${PIDS[i]}" 2>/dev/null || true
	done
	for pid in "${PIDS[@]}"; do
		for _ in $(seq 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.2
		done
		kill -9 "$pid" 2>/dev/null || true
	done
	if [[ $rc != 0 ]]; then
		log "logs are in $WORK/*.log"
	fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start NAME CMD... — runs CMD in the background with its output in $WORK/NAME.log.
start() {
	local name=$1
	shift
	"$@" >"$WORK/$name.log" 2>&1 &
	PIDS+=($!)
	log "started $name (pid $!)"
}

# wait_for WHAT SECONDS CMD... — retries CMD until it succeeds.
wait_for() {
	local what=$1 secs=$2
	shift 2
	for _ in $(seq $((secs * 5))); do
		if "$@" >/dev/null 2>&1; then
			return 0
		fi
		sleep 0.2
	done
	die "$what not ready after ${secs}s"
}

vtgate_sql() { mysql -h127.0.0.1 -P"$VTGATE_MYSQL" -uroot --batch --skip-column-names "$@"; }
strata_sql() {
	local i=$1
	shift
	mysql -h127.0.0.1 -P"$(strata_port "$i")" -uroot -p"$PASSWORD" --batch --skip-column-names "$@"
}
vtctl() { "$BIN/vtctldclient" --server "127.0.0.1:$VTCTLD_GRPC" "$@"; }

for cmd in etcd mysql sysbench curl go; do
	command -v $cmd >/dev/null || die "$cmd not found (apt-get install etcd-server mariadb-client sysbench curl)"
done

# A server still running from an earlier run on these ports would join this
# run's topology (an old vttablet writes its shutdown into the new etcd).
ports=($ETCD_PORT $ETCD_PEER $VTCTLD_HTTP $VTCTLD_GRPC $VTGATE_HTTP $VTGATE_GRPC $VTGATE_MYSQL)
for i in 0 1 2 3 4; do ports+=("$(strata_port $i)" "$(tablet_http $i)" "$(tablet_grpc $i)"); done
for p in "${ports[@]}"; do
	if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
		die "port $p is in use (an earlier run still stopping? set VT_PORT_BASE)"
	fi
done

# ---------------------------------------------------------------- build
mkdir -p "$BIN"
if [[ ! -x $BIN/vttablet || ! -x $BIN/shardcheck ]]; then
	log "building Vitess $VERSION binaries into $BIN (first run: several minutes)"
	(cd "$TOOLS" && GOFLAGS=-mod=mod go build -o "$BIN/" \
		vitess.io/vitess/go/cmd/vtctld vitess.io/vitess/go/cmd/vtctldclient \
		vitess.io/vitess/go/cmd/vtgate vitess.io/vitess/go/cmd/vttablet ./shardcheck)
fi
log "building strata"
(cd "$ROOT" && go build -o "$BIN/strata" ./cmd/strata && go build -o "$BIN/tpccmix" ./scripts/vitess/tpccmix)

rm -rf "$WORK"
mkdir -p "$WORK/vtdataroot"
chmod 755 "$BIN"
if [[ $EUID == 0 ]]; then
	chown "$VT_USER" "$WORK/vtdataroot"
fi
export VTDATAROOT=$WORK/vtdataroot

# ---------------------------------------------------------------- etcd + vtctld
start etcd etcd --name vt --data-dir "$WORK/etcd" \
	--listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
	--listen-peer-urls "http://127.0.0.1:$ETCD_PEER" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER" \
	--initial-cluster "vt=http://127.0.0.1:$ETCD_PEER"
wait_for etcd 30 curl -sf "http://127.0.0.1:$ETCD_PORT/health"
"$BIN/vtctldclient" --server internal "${TOPO[@]}" AddCellInfo \
	--root "/vitess/$CELL" --server-address "127.0.0.1:$ETCD_PORT" "$CELL" >"$WORK/addcell.log" 2>&1 ||
	die "AddCellInfo: $(cat "$WORK/addcell.log")"

start vtctld "${AS_VT[@]}" "$BIN/vtctld" "${TOPO[@]}" --cell "$CELL" --service-map 'grpc-vtctl,grpc-vtctld' \
	--port "$VTCTLD_HTTP" --grpc-port "$VTCTLD_GRPC" --log-format text --config-file-not-found-handling ignore
wait_for vtctld 60 curl -sf "http://127.0.0.1:$VTCTLD_HTTP/debug/status"

# ---------------------------------------------------------------- strata + vttablet per shard
DB_FLAGS=(--db-host 127.0.0.1 --db-charset utf8mb4)
for u in app appdebug allprivs dba filtered repl erepl; do
	DB_FLAGS+=("--db-$u-user" root "--db-$u-password" "$PASSWORD" "--db-$u-use-ssl=false")
done

# start_strata I DB — strata number I (its own port, datadir, server id,
# binary log) with database DB.
start_strata() {
	local i=$1 db=$2
	mkdir -p "$WORK/strata$i"
	start "strata$i" "$BIN/strata" serve --datadir "$WORK/strata$i" --port "$(strata_port "$i")" \
		--socket "" --root-password "$PASSWORD" --log-bin --server-id $((i + 1)) --memory $((256 << 20))
	wait_for "strata$i" 60 strata_sql "$i" -e 'SELECT 1'
	strata_sql "$i" -e "CREATE DATABASE IF NOT EXISTS $db"
}

# start_tablet I KEYSPACE SHARD DB — an unmanaged vttablet (uid 100*(I+1))
# for strata I, made the shard's PRIMARY with TabletExternallyReparented.
start_tablet() {
	local i=$1 ks=$2 shard=$3 db=$4 uid
	uid=$(tablet_uid "$i")
	start "vttablet$i" "${AS_VT[@]}" "$BIN/vttablet" "${TOPO[@]}" --unmanaged \
		--tablet-path "$CELL-$uid" --tablet-hostname 127.0.0.1 \
		--init-keyspace "$ks" --init-shard "$shard" --init-tablet-type replica \
		--init-db-name-override "$db" \
		"${DB_FLAGS[@]}" --db-port "$(strata_port "$i")" \
		--port "$(tablet_http "$i")" --grpc-port "$(tablet_grpc "$i")" \
		--service-map 'grpc-queryservice,grpc-tabletmanager,grpc-updatestream' \
		--health-check-interval 2s --log-format text --config-file-not-found-handling ignore
}
tablet_registered() { vtctl GetTablet "$1" | grep -q '"hostname": "127.0.0.1"'; }
promote() {
	local i=$1 uid
	uid=$(tablet_uid "$i")
	wait_for "vttablet$i" 120 curl -sf "http://127.0.0.1:$(tablet_http "$i")/debug/status"
	wait_for "tablet record of $CELL-$uid" 60 tablet_registered "$CELL-$uid"
	vtctl TabletExternallyReparented "$CELL-$uid" >"$WORK/ter$i.log" 2>&1 ||
		die "TabletExternallyReparented $CELL-$uid: $(cat "$WORK/ter$i.log")"
}

for i in 0 1; do start_strata $i "$DBNAME"; done
for i in 0 1; do start_tablet $i "$KEYSPACE" "${SHARDS[i]}" "$DBNAME"; done
for i in 0 1; do promote $i; done

# ---------------------------------------------------------------- vschema + vtgate
cat >"$WORK/vschema.json" <<EOF
{
  "sharded": true,
  "vindexes": { "hash": { "type": "hash" } },
  "tables": {
$(for t in $(seq $TABLES); do printf '    "sbtest%d": { "column_vindexes": [ { "column": "id", "name": "hash" } ] },\n' "$t"; done)
    "warehouse": { "column_vindexes": [ { "column": "w_id", "name": "hash" } ] },
    "district": { "column_vindexes": [ { "column": "d_w_id", "name": "hash" } ] },
    "customer": { "column_vindexes": [ { "column": "c_w_id", "name": "hash" } ] },
    "history": { "column_vindexes": [ { "column": "h_c_w_id", "name": "hash" } ] },
    "new_orders": { "column_vindexes": [ { "column": "no_w_id", "name": "hash" } ] },
    "orders": { "column_vindexes": [ { "column": "o_w_id", "name": "hash" } ] },
    "order_line": { "column_vindexes": [ { "column": "ol_w_id", "name": "hash" } ] },
    "item": { "column_vindexes": [ { "column": "i_id", "name": "hash" } ] },
    "stock": { "column_vindexes": [ { "column": "s_w_id", "name": "hash" } ] },
    "customer_ext": { "column_vindexes": [ { "column": "id", "name": "hash" } ] }
  }
}
EOF
vtctl ApplyVSchema --vschema-file "$WORK/vschema.json" "$KEYSPACE" >"$WORK/applyvschema.log" 2>&1 ||
	die "ApplyVSchema: $(cat "$WORK/applyvschema.log")"

start vtgate "${AS_VT[@]}" "$BIN/vtgate" "${TOPO[@]}" --cell "$CELL" --cells-to-watch "$CELL" \
	--tablet-types-to-wait PRIMARY --tablet-refresh-interval 5s --service-map 'grpc-vtgateservice' \
	--port "$VTGATE_HTTP" --grpc-port "$VTGATE_GRPC" \
	--mysql-server-port "$VTGATE_MYSQL" --mysql-server-bind-address 127.0.0.1 \
	--mysql-auth-server-impl none --log-format text --config-file-not-found-handling ignore
wait_for vtgate 120 vtgate_sql -e 'SELECT 1'
log "vtgate is up on 127.0.0.1:$VTGATE_MYSQL"
vtgate_sql -e 'SHOW VITESS_TABLETS' | tee "$WORK/tablets.txt"
[[ $(grep -c PRIMARY "$WORK/tablets.txt") == 2 ]] || die "expected 2 PRIMARY tablets"

# ---------------------------------------------------------------- sysbench
SB=(--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$VTGATE_MYSQL" --mysql-user=root
	--mysql-db="$KEYSPACE" --tables=$TABLES --table-size="$TABLE_SIZE" --auto_inc=off
	--mysql-ignore-errors=1213,1205)
log "sysbench prepare through vtgate ($TABLES tables × $TABLE_SIZE rows)"
sysbench oltp_write_only "${SB[@]}" prepare >"$WORK/sb-prepare.log" 2>&1 ||
	die "sysbench prepare: $(tail -5 "$WORK/sb-prepare.log")"
for script in oltp_write_only oltp_read_write; do
	log "sysbench $script through vtgate, ${TIME}s, 4 threads"
	sysbench "$script" "${SB[@]}" --threads=4 --time="$TIME" --report-interval=0 run >"$WORK/sb-$script.log" 2>&1 ||
		die "sysbench $script: $(tail -20 "$WORK/sb-$script.log")"
	tps=$(awk '/transactions:/ {gsub(/\(/, "", $3); print $3}' "$WORK/sb-$script.log")
	errs=$(awk '/ignored errors:/ {print $3}' "$WORK/sb-$script.log")
	log "sysbench $script: $tps TPS, $errs ignored errors"
	echo "$script $tps" >>"$WORK/summary.txt"
done

# ---------------------------------------------------------------- order mix
# Every TPC-C table is sharded by its warehouse column (history by the
# customer's), item by i_id; warehouses 1-3 hash into -80, 4 into 80-.
log "TPC-C mix through vtgate (strata's internal/bench/tpcc client, 4 warehouses, ${TIME}s)"
MIX=(-vtgate -dsn "root@tcp(127.0.0.1:$VTGATE_MYSQL)/$KEYSPACE" -warehouses 4 -terminals 4 -time "${TIME}s")
for i in 0 1; do MIX+=(-check "root:$PASSWORD@tcp(127.0.0.1:$(strata_port $i))/$DBNAME"); done
"$BIN/tpccmix" "${MIX[@]}" | tee "$WORK/tpccmix.txt" || die "TPC-C mix"
grep -o 'tpmC [0-9]*' "$WORK/tpccmix.txt" | sed 's/^/tpcc /' >>"$WORK/summary.txt"

# ---------------------------------------------------------------- checks
log "checking row placement on each strata"
CHECK=(-db "$DBNAME" -user root -password "$PASSWORD")
for i in 0 1; do CHECK+=(-shard "${SHARDS[i]}=127.0.0.1:$(strata_port $i)"); done
for t in $(seq $TABLES); do CHECK+=(-table "sbtest$t:id"); done
CHECK+=(-table warehouse:w_id -table district:d_w_id -table customer:c_w_id -table history:h_c_w_id
	-table new_orders:no_w_id -table orders:o_w_id -table order_line:ol_w_id -table item:i_id -table stock:s_w_id)
"$BIN/shardcheck" "${CHECK[@]}" | tee "$WORK/shardcheck.txt" || die "rows on the wrong shard"

for t in $(seq $TABLES); do
	through=$(vtgate_sql -e "SELECT COUNT(*) FROM sbtest$t")
	sum=0
	for i in 0 1; do
		n=$(strata_sql $i -D "$DBNAME" -e "SELECT COUNT(*) FROM sbtest$t")
		[[ $n -gt 0 ]] || die "shard ${SHARDS[i]} has no rows of sbtest$t"
		sum=$((sum + n))
	done
	[[ $through == "$sum" ]] || die "sbtest$t: $through rows through vtgate, $sum on the shards"
	log "sbtest$t: $through rows through vtgate = sum of the shards"
done

# ---------------------------------------------------------------- resharding
# VReplication reads each source strata's binary log (COM_BINLOG_DUMP_GTID,
# through the source vttablet's vstreamer) after copying the rows.
if [[ ${VT_RESHARD:-1} == 1 ]]; then
	# workflow_caught_up KIND WORKFLOW STREAMS — every stream has copied and
	# is replicating.
	workflow_caught_up() {
		[[ $(vtctl "$1" --workflow "$2" --target-keyspace "$KEYSPACE" status 2>/dev/null |
			grep -c 'Status: Running. VStream Lag') == "$3" ]]
	}
	# vre_open KEYSPACE… — every tablet's VReplication engine is open (it
	# opens a moment after the tablet becomes PRIMARY; a workflow created
	# before fails with "vreplication engine is closed").
	vre_open() {
		local ks
		for ks in "$@"; do vtctl Workflow --keyspace "$ks" list || return 1; done
	}

	log "MoveTables: customer_ext from the unsharded keyspace commerce (strata2) into $KEYSPACE"
	start_strata 2 vt_commerce
	values=$(seq 1000 | awk '{printf "%s(%d,\047c%d\047,%d.50)", (NR > 1 ? "," : ""), $1, $1, $1}')
	strata_sql 2 -D vt_commerce -e "CREATE TABLE customer_ext (id BIGINT PRIMARY KEY, name VARCHAR(40), balance DECIMAL(10,2)); INSERT INTO customer_ext VALUES $values"
	start_tablet 2 commerce 0 vt_commerce
	promote 2
	wait_for "vreplication engines" 60 vre_open commerce "$KEYSPACE"
	vtctl MoveTables --workflow m1 --target-keyspace "$KEYSPACE" create --source-keyspace commerce \
		--tables customer_ext >"$WORK/movetables.log" 2>&1 || die "MoveTables create: $(tail -3 "$WORK/movetables.log")"
	wait_for "MoveTables copy" 120 workflow_caught_up MoveTables m1 2
	# Changes after the copy reach the target through the binary log.
	strata_sql 2 -D vt_commerce -e "INSERT INTO customer_ext VALUES (1001,'new',1.00); UPDATE customer_ext SET name='upd' WHERE id=1; DELETE FROM customer_ext WHERE id=2"
	vtctl VDiff --target-keyspace "$KEYSPACE" --workflow m1 create --wait >"$WORK/vdiff-m1.log" 2>&1 || die "VDiff m1: $(tail -5 "$WORK/vdiff-m1.log")"
	grep -q 'HasMismatch:  false' "$WORK/vdiff-m1.log" || die "VDiff m1: $(cat "$WORK/vdiff-m1.log")"
	vtctl MoveTables --workflow m1 --target-keyspace "$KEYSPACE" switchtraffic >>"$WORK/movetables.log" 2>&1 ||
		die "MoveTables switchtraffic: $(tail -3 "$WORK/movetables.log")"
	vtctl MoveTables --workflow m1 --target-keyspace "$KEYSPACE" complete >>"$WORK/movetables.log" 2>&1 ||
		die "MoveTables complete: $(tail -3 "$WORK/movetables.log")"
	n=$(vtgate_sql -e "SELECT COUNT(*) FROM customer_ext WHERE id <> 1 OR name = 'upd'")
	[[ $n == 1000 ]] || die "customer_ext through vtgate after MoveTables: $n rows, want 1000"
	log "MoveTables done: 1000 rows of customer_ext now in $KEYSPACE (VDiff: no mismatch)"

	log "Reshard: $KEYSPACE/80- into 80-c0 (strata3) and c0- (strata4); sysbench writes after the copy, during the binary log phase"
	start_strata 3 "$DBNAME"
	start_strata 4 "$DBNAME"
	start_tablet 3 "$KEYSPACE" 80-c0 "$DBNAME"
	start_tablet 4 "$KEYSPACE" c0- "$DBNAME"
	promote 3
	promote 4
	wait_for "vreplication engines" 60 vre_open "$KEYSPACE"
	vtctl Reshard --workflow r1 --target-keyspace "$KEYSPACE" create --source-shards 80- \
		--target-shards 80-c0,c0- >"$WORK/reshard.log" 2>&1 || die "Reshard create: $(tail -3 "$WORK/reshard.log")"
	wait_for "Reshard copy" 300 workflow_caught_up Reshard r1 2
	sysbench oltp_write_only "${SB[@]}" --threads=2 --time=10 --report-interval=0 run >"$WORK/sb-reshard.log" 2>&1 ||
		die "sysbench during Reshard: $(tail -5 "$WORK/sb-reshard.log")"
	wait_for "Reshard catch-up" 60 workflow_caught_up Reshard r1 2
	vtctl VDiff --target-keyspace "$KEYSPACE" --workflow r1 create --wait >"$WORK/vdiff-r1.log" 2>&1 || die "VDiff r1: $(tail -5 "$WORK/vdiff-r1.log")"
	grep -q 'HasMismatch:  false' "$WORK/vdiff-r1.log" || die "VDiff r1: $(cat "$WORK/vdiff-r1.log")"
	vtctl Reshard --workflow r1 --target-keyspace "$KEYSPACE" switchtraffic >>"$WORK/reshard.log" 2>&1 ||
		die "Reshard switchtraffic: $(tail -3 "$WORK/reshard.log")"
	vtctl Reshard --workflow r1 --target-keyspace "$KEYSPACE" complete >>"$WORK/reshard.log" 2>&1 ||
		die "Reshard complete: $(tail -3 "$WORK/reshard.log")"
	vtgate_sql -e 'SHOW VITESS_SHARDS' | tee "$WORK/shards-after.txt"
	grep -q "$KEYSPACE/80-c0" "$WORK/shards-after.txt" || die "80-c0 is not serving"
	sysbench oltp_write_only "${SB[@]}" --threads=2 --time=5 --report-interval=0 run >"$WORK/sb-after.log" 2>&1 ||
		die "sysbench after Reshard: $(tail -5 "$WORK/sb-after.log")"

	log "checking row placement on the 3 shards after Reshard"
	CHECK=(-db "$DBNAME" -user root -password "$PASSWORD" -shard "-80=127.0.0.1:$(strata_port 0)"
		-shard "80-c0=127.0.0.1:$(strata_port 3)" -shard "c0-=127.0.0.1:$(strata_port 4)")
	for t in $(seq $TABLES); do CHECK+=(-table "sbtest$t:id"); done
	CHECK+=(-table order_line:ol_w_id -table stock:s_w_id -table customer_ext:id)
	"$BIN/shardcheck" "${CHECK[@]}" | tee "$WORK/shardcheck-after.txt" || die "rows on the wrong shard after Reshard"
	for t in $(seq $TABLES); do
		through=$(vtgate_sql -e "SELECT COUNT(*) FROM sbtest$t")
		sum=0
		for i in 0 3 4; do sum=$((sum + $(strata_sql $i -D "$DBNAME" -e "SELECT COUNT(*) FROM sbtest$t"))); done
		[[ $through == "$sum" ]] || die "sbtest$t after Reshard: $through rows through vtgate, $sum on the shards"
	done
	echo "reshard ok" >>"$WORK/summary.txt"
	log "Reshard done: VDiff no mismatch, rows on the right shards, counts match"
fi

log "PASS"
cat "$WORK/summary.txt"

# Shell helpers the application scripts (redmine.sh, wordpress.sh) share.
# Source it after setting SCRIPT_NAME and T0=$SECONDS; it uses the
# caller's TIMINGS array, and start_strata its ROOT, WORK and free_port.

log() { echo "[$SCRIPT_NAME +$((SECONDS - T0))s] $*"; }

die() {
	echo "FAIL: $*" >&2
	exit 1
}

# step NAME CMD...: run one step and record its duration.
step() {
	local name=$1 start=$SECONDS
	shift
	log "== $name"
	"$@" || die "step '$name' failed"
	TIMINGS+=("$(printf '%-28s %4ds' "$name" $((SECONDS - start)))")
}

# stop_pid PID: TERM, then KILL after 30 s.
stop_pid() {
	local pid=$1 i
	[[ -n $pid ]] || return 0
	kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null || true
	for ((i = 0; i < 150; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.2
	done
	kill -KILL "$pid" 2>/dev/null || true
}

# stop_group PID: stop_pid for a process started with setsid, and then
# every process left in its process group (the PHP built-in server's
# workers outlive their parent).
stop_group() {
	local pid=$1
	[[ -n $pid ]] || return 0
	stop_pid "$pid"
	kill -KILL -- "-$pid" 2>/dev/null || true
}

# start_strata: start $STRATA_BINARY (or one built from ROOT) on a free
# loopback port with the data directory WORK/data; sets DB_PORT and
# STRATA_PID and waits until it answers.
start_strata() {
	local bin=${STRATA_BINARY:-}
	if [[ -z $bin ]]; then
		(cd "$ROOT" && go build -o "$WORK/strata" ./cmd/strata) || return 1
		bin=$WORK/strata
	fi
	[[ -x $bin ]] || { echo "not executable: $bin" >&2; return 1; }
	DB_PORT=$(free_port)
	"$bin" serve --datadir "$WORK/data" --port "$DB_PORT" --bind 127.0.0.1 >"$WORK/strata.log" 2>&1 &
	STRATA_PID=$!
	local i
	for ((i = 0; i < 300; i++)); do
		if sql -e 'SELECT 1' >/dev/null 2>&1; then
			echo "strata (pid $STRATA_PID) on 127.0.0.1:$DB_PORT"
			return 0
		fi
		kill -0 "$STRATA_PID" 2>/dev/null || break
		sleep 0.2
	done
	echo "strata did not start:" >&2
	tail -20 "$WORK/strata.log" >&2
	return 1
}

# sql ARGS...: the mysql client on strata (DB_PORT), batch output.
sql() {
	timeout 60 mysql --protocol=tcp -h 127.0.0.1 -P "$DB_PORT" -u root --batch --skip-column-names "$@"
}

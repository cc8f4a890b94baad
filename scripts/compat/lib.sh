# Shell helpers the application scripts (redmine.sh, wordpress.sh) share.
# Source it after setting SCRIPT_NAME and T0=$SECONDS; it uses the
# caller's TIMINGS array.

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

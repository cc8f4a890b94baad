#!/usr/bin/env bash
# The project's test command (README "Quick start"; run by .ci/run).
#
# Runs, in order: dependency install (sysbench, mariadb-client,
# mariadb-server via apt-get when missing), gofmt, go vet, go build, go
# test, the sysbench acceptance check, replication under a sysbench load
# both ways, and the compatibility stages. Every stage runs even if an earlier one failed (stages
# that need the binary are counted as failed without it). Prints
# "N passed, N failed" last and exits non-zero if any stage failed.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
ROOT=$(pwd)

GO_TEST_TIMEOUT=${GO_TEST_TIMEOUT:-20m}
PASSED=0
FAILED=0
FAILED_STAGES=()

# stage NAME CMD...: run one stage, timing it and counting the result.
stage() {
	local name=$1 start=$SECONDS rc=0
	shift
	echo
	echo "=== stage: $name"
	"$@" || rc=$?
	if ((rc == 0)); then
		PASSED=$((PASSED + 1))
		echo "--- PASS: $name ($((SECONDS - start))s)"
	else
		FAILED=$((FAILED + 1))
		FAILED_STAGES+=("$name")
		echo "--- FAIL: $name ($((SECONDS - start))s, status $rc)"
	fi
	return 0
}

install_deps() {
	local missing=()
	command -v sysbench >/dev/null || missing+=(sysbench)
	command -v mysql >/dev/null || missing+=(mariadb-client)
	command -v mariadbd >/dev/null || missing+=(mariadb-server)
	if ((${#missing[@]} == 0)); then
		echo "sysbench, mysql client and mariadbd present"
		return 0
	fi
	local sudo=()
	if ((EUID != 0)); then
		command -v sudo >/dev/null || { echo "need root (or sudo) to install: ${missing[*]}" >&2; return 1; }
		sudo=(sudo)
	fi
	echo "installing: ${missing[*]}"
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive timeout 600 apt-get update -q &&
		"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -q "${missing[@]}"
}

check_gofmt() {
	local out
	out=$(gofmt -l .) || return 1
	if [[ -n $out ]]; then
		echo "gofmt: these files need formatting (run gofmt -w):"
		echo "$out"
		return 1
	fi
}

build() {
	rm -f strata
	go build -o strata ./cmd/strata
}

# Tests that start servers use the binary just built instead of rebuilding.
go_test() {
	if [[ -x $ROOT/strata ]]; then
		STRATA_BINARY=$ROOT/strata go test -timeout "$GO_TEST_TIMEOUT" ./...
	else
		go test -timeout "$GO_TEST_TIMEOUT" ./...
	fi
}

sysbench_acceptance() {
	if [[ ! -x $ROOT/strata ]]; then
		echo "no strata binary (the build stage failed)"
		return 1
	fi
	timeout 1200 "$ROOT/scripts/sysbench-acceptance.sh" "$ROOT/strata"
}

# Replication under a sysbench write load, both ways, short: a MariaDB
# replica of a strata primary killed -9 mid-stream, and a strata replica
# of a MariaDB primary killed -9 mid-stream; rows compared after catch-up.
replication_sysbench() {
	if [[ ! -x $ROOT/strata ]]; then
		echo "no strata binary (the build stage failed)"
		return 1
	fi
	local env=(SECONDS_LOAD=14 TABLES=2 TABLE_SIZE=2000 THREADS=4)
	echo "--- MariaDB replica of a strata primary (kill -9 of the primary)"
	env "${env[@]}" timeout 300 "$ROOT/scripts/replica/sysbench_strata.sh" "$ROOT/strata" || return 1
	echo "--- strata replica of a MariaDB primary (kill -9 of the replica)"
	env "${env[@]}" timeout 300 "$ROOT/scripts/replica/sysbench_maria.sh" "$ROOT/strata"
}

mysqldump_roundtrip() {
	if [[ ! -x $ROOT/strata ]]; then
		echo "no strata binary (the build stage failed)"
		return 1
	fi
	timeout 900 "$ROOT/scripts/compat/mysqldump.sh" "$ROOT/strata"
}

redmine_compat() {
	if [[ ! -x $ROOT/strata ]]; then
		echo "no strata binary (the build stage failed)"
		return 1
	fi
	local rc=0
	STRATA_BINARY=$ROOT/strata timeout 1500 "$ROOT/scripts/compat/redmine.sh" || rc=$?
	if ((rc == 77)); then
		echo "SKIPPED: Redmine's Debian packages could not be installed on this machine"
		return 0
	fi
	return $rc
}

wordpress_compat() {
	if [[ ! -x $ROOT/strata ]]; then
		echo "no strata binary (the build stage failed)"
		return 1
	fi
	local rc=0
	STRATA_BINARY=$ROOT/strata timeout 900 "$ROOT/scripts/compat/wordpress.sh" || rc=$?
	if ((rc == 77)); then
		echo "SKIPPED: WordPress's Debian packages could not be installed on this machine"
		return 0
	fi
	return $rc
}

drivers_compat() {
	if [[ ! -x $ROOT/strata ]]; then
		echo "no strata binary (the build stage failed)"
		return 1
	fi
	local rc=0
	timeout 900 "$ROOT/scripts/compat/drivers.sh" "$ROOT/strata" || rc=$?
	if ((rc == 77)); then
		echo "SKIPPED: the driver packages could not be installed on this machine"
		return 0
	fi
	return $rc
}

# Exploratory fuzzing is reported, not gating: every seed corpus (with each
# past crasher) is replayed as a regression test by `go test` above, which
# does gate; new findings of this short random run are printed loudly and
# written to testdata/fuzz/ for the next change to commit and fix.
fuzz_smoke() {
	if ! FUZZTIME=${FUZZTIME:-5s} timeout 900 "$ROOT/scripts/fuzz-smoke.sh"; then
		echo "FUZZ FINDINGS (reported, not gating): see the failures above; the failing inputs are in testdata/fuzz/"
		git -C "$ROOT" status --short -- '*testdata/fuzz*' || true
	fi
	return 0
}

stage "install dependencies" install_deps
stage "gofmt" check_gofmt
stage "go vet" go vet ./...
stage "go build" build
stage "go test" go_test
stage "sysbench acceptance" sysbench_acceptance
stage "replication under sysbench (MariaDB <-> strata, kill -9)" replication_sysbench
stage "mysqldump round trips" mysqldump_roundtrip
stage "Redmine 5 on strata" redmine_compat
stage "WordPress 6.1 on strata" wordpress_compat
stage "drivers (pymysql, MySQLdb, SQLAlchemy, PHP, Node, JDBC)" drivers_compat
stage "fuzz smoke" fuzz_smoke

echo
if ((FAILED > 0)); then
	echo "failed stages: ${FAILED_STAGES[*]}"
fi
echo "$PASSED passed, $FAILED failed"
((FAILED == 0))

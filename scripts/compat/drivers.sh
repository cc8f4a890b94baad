#!/usr/bin/env bash
# Client drivers and ORMs against strata (issue 5, item 2).
#
# Installs Debian's drivers on demand (python3-pymysql, python3-mysqldb,
# python3-sqlalchemy, php-cli, php-mysql; libmariadb-java when a JDK is
# present; Node's mysql2 through npm into a temporary directory when node and
# npm are present), starts one strata server on a free loopback port and runs
# every script in scripts/compat/drivers/ against it. Each script prints OK
# lines (XFAIL for known strata gaps, which do not fail the run) and exits
# non-zero on a mismatch.
#
# Usage: scripts/compat/drivers.sh [STRATA_BINARY]
# Exit status: 0 all passed, 1 a driver check failed, 77 the Debian packages
# could not be installed (environment problem). Java and Node are optional:
# they are reported as SKIP when their runtime or driver is unavailable.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$(pwd)
BIN=${1:-${STRATA_BINARY:-$ROOT/strata}}
DRV=$ROOT/scripts/compat/drivers
if [[ ! -x $BIN ]]; then
	go build -o "$BIN" ./cmd/strata || { echo "drivers: cannot build strata" >&2; exit 1; }
fi
PY=/usr/bin/python3 # Debian's python, which sees the python3-* packages

apt_install() { # packages...
	DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -q "$@" >/dev/null 2>&1 ||
		{ DEBIAN_FRONTEND=noninteractive timeout 600 apt-get update -q >/dev/null 2>&1 &&
			DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -q "$@" >/dev/null 2>&1; }
}

if ! "$PY" -c 'import pymysql, MySQLdb, sqlalchemy' 2>/dev/null || ! php -r 'exit(extension_loaded("mysqli") && extension_loaded("pdo_mysql") ? 0 : 1);' 2>/dev/null; then
	echo "drivers: installing python3-pymysql python3-mysqldb python3-sqlalchemy php-cli php-mysql"
	if ! apt_install python3-pymysql python3-mysqldb python3-sqlalchemy php-cli php-mysql; then
		echo "drivers: cannot install the Debian driver packages" >&2
		exit 77
	fi
fi

TMP=$(mktemp -d /tmp/strata-drivers.XXXXXX)
SPID=
cleanup() {
	if [[ -n $SPID ]]; then
		kill -TERM "$SPID" 2>/dev/null
		wait "$SPID" 2>/dev/null
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT

# Optional runtimes.
JDBC_JAR=
if command -v java >/dev/null && command -v javac >/dev/null; then
	[[ -f /usr/share/java/mariadb-java-client.jar ]] || apt_install libmariadb-java
	[[ -f /usr/share/java/mariadb-java-client.jar ]] && JDBC_JAR=/usr/share/java/mariadb-java-client.jar
fi
NODE_MODULES=
if command -v node >/dev/null && command -v npm >/dev/null; then
	if (cd "$TMP" && timeout 180 npm install --no-audit --no-fund --silent mysql2 >/dev/null 2>&1); then
		NODE_MODULES=$TMP/node_modules
	fi
fi

PORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
"$BIN" serve --datadir "$TMP/data" --port "$PORT" --bind 127.0.0.1 >"$TMP/strata.log" 2>&1 &
SPID=$!
ready=
for _ in $(seq 1 120); do
	if "$PY" -c "import pymysql; pymysql.connect(host='127.0.0.1', port=$PORT, user='root').cursor().execute('SELECT 1')" 2>/dev/null; then
		ready=1
		break
	fi
	kill -0 "$SPID" 2>/dev/null || break
	sleep 0.5
done
if [[ -z $ready ]]; then
	echo "drivers: strata did not become ready on port $PORT" >&2
	tail -20 "$TMP/strata.log" >&2
	exit 1
fi
export STRATA_HOST=127.0.0.1 STRATA_PORT=$PORT

declare -a NAMES RESULTS
FAILED=0
run() { # name command...
	local name=$1
	shift
	echo "=== $name"
	if "$@"; then
		RESULTS+=("PASS  $name")
	else
		RESULTS+=("FAIL  $name")
		FAILED=1
	fi
}
skip() { RESULTS+=("SKIP  $1 ($2)"); }

run "python pymysql" "$PY" "$DRV/dbapi_check.py" pymysql
run "python MySQLdb (mysqlclient)" "$PY" "$DRV/dbapi_check.py" MySQLdb
run "python SQLAlchemy ORM" "$PY" "$DRV/sqlalchemy_check.py"
run "php mysqli + PDO_MYSQL" php "$DRV/php_check.php"
if [[ -n $NODE_MODULES ]]; then
	run "node mysql2" env NODE_PATH="$NODE_MODULES" node "$DRV/node_check.js"
else
	skip "node mysql2" "node/npm or the mysql2 package unavailable"
fi
if [[ -n $JDBC_JAR ]]; then
	run "java JDBC (MariaDB Connector/J)" java -cp "$JDBC_JAR" "$DRV/JdbcCheck.java"
else
	skip "java JDBC" "JDK or libmariadb-java unavailable"
fi

if ! kill -0 "$SPID" 2>/dev/null; then
	echo "drivers: strata exited during the run" >&2
	tail -20 "$TMP/strata.log" >&2
	FAILED=1
fi
echo
echo "=== driver summary"
printf '%s\n' "${RESULTS[@]}"
exit $FAILED

#!/usr/bin/env bash
# Redmine 5 on strata: Debian's Redmine package, migrated and driven through
# its REST API against a strata server.
#
# Usage (as root on Debian 12):
#   scripts/compat/redmine.sh              # builds ./strata from the repo
#   STRATA_BINARY=/path/strata scripts/compat/redmine.sh
#
# Steps:
#   1. install redmine, ruby-mysql2, puma (apt; no database is configured by
#      the package: dbconfig-no-thanks + a debconf preseed);
#   2. start strata on a free loopback port with a temporary data directory;
#   3. create a private Redmine instance (REDMINE_INSTANCE, a symlink under
#      /var/lib/redmine to a temporary directory holding database.yml, logs,
#      tmp and files) so /etc/redmine/default is left alone;
#   4. rake db:create db:migrate, redmine:load_default_data (as www-data);
#   5. enable the REST API and fetch the admin's API key (rails runner);
#   6. start puma on a free loopback port;
#   7. redmine/api.rb: users, projects with subprojects, memberships, issues
#      with parents and comments, the create-issue and process-10-issues
#      operations, filtered and sorted listings; every response is checked;
#   8. nested-set consistency of issues and projects checked in SQL.
# Exits non-zero with a message on the first failure; prints a summary with
# counts and timings at the end. Everything listens on 127.0.0.1 only; all
# processes started here are stopped on exit.
#
# Environment:
#   STRATA_BINARY   use this strata binary instead of building one
#   REDMINE_KEEP=1  keep the temporary directory (logs) after success
#   API_THREADS     parallel REST clients (default 4)
#   REDMINE_SQL_LOG=1  log every SQL statement to production.log (debug level)
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$SCRIPT_DIR/../.." && pwd)
HELPERS=$SCRIPT_DIR/redmine
REDMINE_DIR=/usr/share/redmine
T0=$SECONDS
TIMINGS=()
STRATA_PID=
PUMA_PID=
WORK=
INSTANCE=
OK=0

SCRIPT_NAME=redmine.sh
# shellcheck source=lib.sh
source "$SCRIPT_DIR/lib.sh"

cleanup() {
	local rc=$?
	stop_pid "$PUMA_PID"
	stop_pid "$STRATA_PID"
	if [[ -n $INSTANCE && -L /var/lib/redmine/$INSTANCE ]]; then
		rm -f "/var/lib/redmine/$INSTANCE"
	fi
	if [[ -n $WORK && -d $WORK ]]; then
		if ((OK == 1)) && [[ -z ${REDMINE_KEEP:-} ]]; then
			rm -rf "$WORK"
		else
			echo "logs kept in $WORK (strata.log, instance/log/production.log, puma.log)" >&2
		fi
	fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

((EUID == 0)) || die "run as root (installs packages, runs Redmine as www-data)"

# ---------------------------------------------------------------- install

install_redmine() {
	local need=()
	for p in redmine ruby-mysql2 puma mariadb-client curl; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
	done
	if ((${#need[@]} == 0)); then
		echo "redmine, ruby-mysql2, puma, mariadb-client, curl already installed"
	else
		echo "installing: ${need[*]}"
		export DEBIAN_FRONTEND=noninteractive
		timeout 600 apt-get update -q
		echo "redmine redmine/instances/default/dbconfig-install boolean false" | debconf-set-selections
		timeout 900 apt-get install -y -q dbconfig-no-thanks ruby-bundler
		# Debian 12's ruby3.1 security update ships a default bundler (2.3.27)
		# that does not see Debian's gems under rubygems-integration, so the
		# redmine postinst's `bundle install --local` fails; Debian's own
		# ruby-bundler works. RubyGems honours BUNDLER_VERSION.
		export BUNDLER_VERSION
		BUNDLER_VERSION=$(debian_bundler_version)
		timeout 1200 apt-get install -y -q "${need[@]}" ||
			timeout 600 dpkg --configure -a
	fi
	dpkg-query -W -f='${Status}' redmine | grep -q 'install ok installed' ||
		{ echo "redmine is not configured" >&2; return 1; }
}

debian_bundler_version() {
	dpkg-query -W -f='${Version}' ruby-bundler | sed -e 's/^[0-9]*://' -e 's/-.*//'
}

free_port() {
	ruby -rsocket -e 's = TCPServer.new("127.0.0.1", 0); puts s.addr[1]; s.close'
}

# ---------------------------------------------------------------- redmine

# as_www CMD...: run CMD as www-data in Redmine's directory with the
# instance's environment.
as_www() {
	(as_www_exec "$@")
}

# as_www_exec CMD...: as as_www, replacing the current (sub)shell, so that
# `as_www_exec CMD &` leaves $! = the command's own pid.
as_www_exec() {
	cd "$REDMINE_DIR" || return 1
	exec setpriv --reuid=www-data --regid=www-data --init-groups \
		env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$WORK/home" LANG=C.UTF-8 \
		RAILS_ENV=production REDMINE_INSTANCE="$INSTANCE" \
		BUNDLE_GEMFILE="$WORK/Gemfile" BUNDLER_VERSION="$BUNDLER_VERSION" \
		SCHEMA="$WORK/schema.rb" REDMINE_LANG=en ${RUBYOPT_SQL_LOG:+RUBYOPT="$RUBYOPT_SQL_LOG"} "$@"
}

setup_instance() {
	INSTANCE=strata_compat_$$
	local dir=$WORK/instance
	mkdir -p "$dir"/{config,log,files,tmp,public/plugin_assets} "$WORK/home"
	cat >"$dir/config/database.yml" <<-EOF
		production:
		  adapter: mysql2
		  host: 127.0.0.1
		  port: $DB_PORT
		  username: root
		  password: ""
		  database: redmine
		  encoding: utf8mb4
		  connect_timeout: 10
		  read_timeout: 120
		  write_timeout: 120
		  pool: 8
		  variables:
		    # Redmine's recommended isolation for MySQL (config/database.yml.example)
		    transaction_isolation: "READ-COMMITTED"
	EOF
	ruby -rsecurerandom -e 'puts SecureRandom.hex(32)' >"$dir/config/secret_key.txt"
	# A Gemfile that adds the app server to Debian's (which has none).
	cat >"$WORK/Gemfile" <<-EOF
		eval_gemfile '$REDMINE_DIR/Gemfile'
		gem 'puma'
	EOF
	chown -R www-data:www-data "$WORK/instance" "$WORK/home" "$WORK/Gemfile"
	chmod 755 "$WORK"
	: >"$WORK/schema.rb"
	chown www-data:www-data "$WORK" "$WORK/schema.rb"
	ln -sfT "$dir" "/var/lib/redmine/$INSTANCE"
	BUNDLER_VERSION=$(debian_bundler_version)
	as_www timeout 300 bundle lock --local >"$WORK/bundle.log" 2>&1 ||
		{ cat "$WORK/bundle.log" >&2; return 1; }
}

rake_migrate() {
	as_www timeout 900 bundle exec rake db:create db:migrate >"$WORK/migrate.log" 2>&1 ||
		{ tail -40 "$WORK/migrate.log" >&2; return 1; }
	local n
	n=$(sql redmine -e 'SELECT COUNT(*) FROM schema_migrations')
	echo "schema_migrations: $n rows; tables: $(sql redmine -e 'SHOW TABLES' | wc -l)"
	((n > 300)) || { echo "expected > 300 migrations, got $n" >&2; return 1; }
}

rake_default_data() {
	as_www timeout 300 bundle exec rake redmine:load_default_data >"$WORK/default_data.log" 2>&1 ||
		{ tail -40 "$WORK/default_data.log" >&2; return 1; }
	local n
	n=$(sql redmine -e 'SELECT COUNT(*) FROM trackers')
	((n == 3)) || { echo "expected 3 trackers, got $n" >&2; return 1; }
	sql redmine -e 'SELECT COUNT(*) FROM issue_statuses' | grep -qx 6 ||
		{ echo "expected 6 issue statuses" >&2; return 1; }
}

enable_api() {
	cp "$HELPERS/setup.rb" "$WORK/setup.rb"
	chmod 644 "$WORK/setup.rb"
	as_www timeout 300 bundle exec rails runner "$WORK/setup.rb" >"$WORK/runner.log" 2>&1 ||
		{ tail -40 "$WORK/runner.log" >&2; return 1; }
	API_KEY=$(sed -n 's/^API_KEY=//p' "$WORK/runner.log")
	[[ ${#API_KEY} == 40 ]] || { echo "no API key in runner output:" >&2; cat "$WORK/runner.log" >&2; return 1; }
	sql redmine -e "SELECT value FROM settings WHERE name = 'rest_api_enabled'" | grep -qx 1 ||
		{ echo "rest_api_enabled is not 1" >&2; return 1; }
}

start_puma() {
	WEB_PORT=$(free_port)
	as_www_exec bundle exec puma --environment production --bind "tcp://127.0.0.1:$WEB_PORT" \
		--threads 4:4 --workers 0 "$REDMINE_DIR/config.ru" >"$WORK/puma.log" 2>&1 &
	PUMA_PID=$!
	local i
	for ((i = 0; i < 600; i++)); do
		if curl -fs -m 5 -o /dev/null "http://127.0.0.1:$WEB_PORT/issues.json?limit=1" -H "X-Redmine-API-Key: $API_KEY"; then
			echo "puma (pid $PUMA_PID) on 127.0.0.1:$WEB_PORT"
			return 0
		fi
		kill -0 "$PUMA_PID" 2>/dev/null || break
		sleep 0.5
	done
	echo "puma did not answer:" >&2
	tail -30 "$WORK/puma.log" >&2
	return 1
}

run_api() {
	REDMINE_URL="http://127.0.0.1:$WEB_PORT" REDMINE_API_KEY="$API_KEY" \
		API_THREADS="${API_THREADS:-4}" timeout 900 ruby "$HELPERS/api.rb" |
		tee "$WORK/api.log" | sed -u '/^SUMMARY/,$d'
	((PIPESTATUS[0] == 0))
}

check_nested_sets() {
	local out
	out=$(sql redmine <"$HELPERS/nested_sets.sql") || return 1
	echo "$out"
	if grep -v -E '	0$' <<<"$out" | grep -q .; then
		echo "nested set inconsistencies (expected 0 everywhere)" >&2
		return 1
	fi
}

WORK=$(mktemp -d -t strata-redmine.XXXXXX)
RUBYOPT_SQL_LOG=
if [[ -n ${REDMINE_SQL_LOG:-} ]]; then
	install -m 644 "$HELPERS/sql_log.rb" "$WORK/sql_log.rb"
	RUBYOPT_SQL_LOG="-r$WORK/sql_log.rb"
fi
# Exit status 77: the Debian packages could not be installed (no package
# mirror, broken archive) — an environment problem, not a strata failure.
install_redmine || { echo "redmine.sh: could not install Redmine's packages; skipping" >&2; exit 77; }
export BUNDLER_VERSION
BUNDLER_VERSION=$(debian_bundler_version)
step "start strata" start_strata
step "create redmine instance" setup_instance
step "rake db:create db:migrate" rake_migrate
step "rake load_default_data" rake_default_data
step "enable REST API" enable_api
step "start puma" start_puma
step "REST API workload" run_api
step "nested sets (SQL)" check_nested_sets

OK=1
echo
echo "==== Redmine on strata: summary"
sed -n '/^SUMMARY/,$p' "$WORK/api.log" | sed 1d
echo "timings:"
printf '  %s\n' "${TIMINGS[@]}"
echo "total: $((SECONDS - T0))s"
echo "PASS"

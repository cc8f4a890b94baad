#!/usr/bin/env bash
# WordPress 6.1 on strata: Debian's wordpress package, installed through its
# web installer and driven through its PHP API, its pages and its REST API
# against a strata server.
#
# Usage (as root on Debian 12):
#   scripts/compat/wordpress.sh              # builds ./strata from the repo
#   STRATA_BINARY=/path/strata scripts/compat/wordpress.sh
#
# Steps:
#   1. install php-cli, php-mysql, curl and the mysql client (apt), and fetch
#      Debian's wordpress and wordpress-theme-twentytwentythree packages with
#      `apt-get download` (unpacked into a private tree: the package's
#      apache2 dependency and its /etc/wordpress configuration are not
#      needed and not touched);
#   2. start strata on a free loopback port with a temporary data directory;
#   3. serve the tree with PHP's built-in web server on a free loopback port
#      (wp-config.php points at strata; outgoing HTTP is blocked);
#   4. run the installer (wp-admin/install.php step 2) over HTTP;
#   5. wordpress/content.php: users, nested categories, tags, posts with meta,
#      pages, threaded comments, searches, meta, tax and date queries,
#      updates, trash and delete, options and transients through WordPress's
#      own API, every result checked;
#   6. the front page, a single post with its comments, search, category,
#      tag, author and page views, the RSS feed, wp-login.php and the
#      dashboard over HTTP; the REST API (/wp/v2/posts with X-WP-Total,
#      search, pages, categories, tags, comments, users) read and written
#      (create, update, delete a post; add a comment) with an application
#      password;
#   7. the term and comment counts WordPress maintains checked in SQL, and no
#      "WordPress database error" in its debug log.
# Exits non-zero with a message on the first failure (77 when the packages
# cannot be installed); prints a summary with timings at the end. Everything
# listens on 127.0.0.1 only; all processes started here are stopped on exit.
#
# Environment:
#   STRATA_BINARY   use this strata binary instead of building one
#   WP_KEEP=1       keep the temporary directory (logs) after success
#   WP_POSTS        posts content.php creates (default 40)
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$SCRIPT_DIR/../.." && pwd)
HELPERS=$SCRIPT_DIR/wordpress
T0=$SECONDS
TIMINGS=()
STRATA_PID=
PHP_PID=
WORK=
OK=0

SCRIPT_NAME=wordpress.sh
# shellcheck source=lib.sh
source "$SCRIPT_DIR/lib.sh"

cleanup() {
	local rc=$?
	stop_group "$PHP_PID"
	stop_pid "$STRATA_PID"
	if [[ -n $WORK && -d $WORK ]]; then
		if ((OK == 1)) && [[ -z ${WP_KEEP:-} ]]; then
			rm -rf "$WORK"
		else
			echo "logs kept in $WORK (strata.log, php.log, debug.log)" >&2
		fi
	fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

((EUID == 0)) || die "run as root (installs packages)"

# ---------------------------------------------------------------- install

PKG_CACHE=${WP_PKG_CACHE:-/var/cache/strata-compat/wordpress}

install_packages() {
	local need=() p
	for p in php-cli php-mysql curl mariadb-client; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
	done
	export DEBIAN_FRONTEND=noninteractive
	local updated=0
	if ((${#need[@]} > 0)); then
		echo "installing: ${need[*]}"
		timeout 600 apt-get update -q && updated=1
		timeout 900 apt-get install -y -q --no-install-recommends "${need[@]}" || return 77
	fi
	mkdir -p "$PKG_CACHE"
	for p in wordpress wordpress-theme-twentytwentythree; do
		if ! ls "$PKG_CACHE/${p}_"*.deb >/dev/null 2>&1; then
			if ! (cd "$PKG_CACHE" && timeout 300 apt-get download -q "$p"); then
				((updated == 1)) || { timeout 600 apt-get update -q && updated=1; }
				(cd "$PKG_CACHE" && timeout 300 apt-get download -q "$p") || return 77
			fi
		fi
	done
	php -r 'exit(extension_loaded("mysqli") ? 0 : 1);' || { echo "php has no mysqli extension" >&2; return 77; }
}

unpack_tree() {
	local x=$WORK/pkg
	mkdir -p "$x"
	local deb
	for deb in "$PKG_CACHE"/wordpress_*.deb "$PKG_CACHE"/wordpress-theme-twentytwentythree_*.deb; do
		dpkg-deb -x "$deb" "$x"
	done
	TREE=$WORK/tree
	cp -r "$x/usr/share/wordpress" "$TREE"
	# Debian's wp-config.php reads /etc/wordpress/config-<host>.php; this
	# private tree gets its own. The theme package installs under
	# usr/share/wordpress/wp-content/themes too, so it is already in place.
	[[ -d $TREE/wp-content/themes/twentytwentythree ]] || { echo "theme missing from the packages" >&2; return 1; }
	mkdir -p "$TREE/wp-content/uploads"
}

free_port() {
	php -r '$s = stream_socket_server("tcp://127.0.0.1:0"); $n = stream_socket_get_name($s, false); echo substr($n, strrpos($n, ":") + 1), "\n";'
}

# ---------------------------------------------------------------- wordpress

configure() {
	sql -e 'CREATE DATABASE wordpress DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci' ||
		sql -e 'CREATE DATABASE wordpress DEFAULT CHARACTER SET utf8mb4' || return 1
	WEB_PORT=$(free_port)
	BASE=http://127.0.0.1:$WEB_PORT
	cat >"$TREE/wp-config.php" <<-EOF
		<?php
		define('DB_NAME', 'wordpress');
		define('DB_USER', 'root');
		define('DB_PASSWORD', '');
		define('DB_HOST', '127.0.0.1:$DB_PORT');
		define('DB_CHARSET', 'utf8mb4');
		define('DB_COLLATE', '');
		define('AUTH_KEY', 'strata-1'); define('SECURE_AUTH_KEY', 'strata-2');
		define('LOGGED_IN_KEY', 'strata-3'); define('NONCE_KEY', 'strata-4');
		define('AUTH_SALT', 'strata-5'); define('SECURE_AUTH_SALT', 'strata-6');
		define('LOGGED_IN_SALT', 'strata-7'); define('NONCE_SALT', 'strata-8');
		\$table_prefix = 'wp_';
		define('WP_DEBUG', true);
		define('WP_DEBUG_LOG', '$WORK/debug.log');
		define('WP_DEBUG_DISPLAY', false);
		define('WP_CONTENT_DIR', __DIR__ . '/wp-content');
		define('WP_HOME', '$BASE');
		define('WP_SITEURL', '$BASE');
		define('WP_ENVIRONMENT_TYPE', 'local');
		define('WP_HTTP_BLOCK_EXTERNAL', true);
		define('AUTOMATIC_UPDATER_DISABLED', true);
		define('DISABLE_WP_CRON', true);
		if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
		require_once ABSPATH . 'wp-settings.php';
	EOF
}

start_php() {
	# Several workers: WordPress requests its own pages (the installer's
	# permalink test), which one worker would wait on until its timeout.
	# In a process group of its own (setsid), so that cleanup stops the
	# workers too.
	(cd "$TREE" && PHP_CLI_SERVER_WORKERS=4 exec setsid php -d error_reporting='E_ALL & ~E_DEPRECATED' \
		-S "127.0.0.1:$WEB_PORT" -t "$TREE" "$HELPERS/router.php") >"$WORK/php.log" 2>&1 &
	PHP_PID=$!
	local i
	for ((i = 0; i < 100; i++)); do
		if curl -s -o /dev/null "$BASE/wp-admin/install.php"; then
			echo "php -S (pid $PHP_PID) on $BASE"
			return 0
		fi
		sleep 0.1
	done
	echo "php -S did not start" >&2
	cat "$WORK/php.log" >&2
	return 1
}

# get PATH [CURL ARGS...]: GET a page; the body lands in $WORK/body, the
# headers in $WORK/headers (redirects followed); the script fails unless
# the final status is 200.
get() {
	local path=$1 code
	shift
	code=$(curl -s -L -D "$WORK/headers" -o "$WORK/body" -w '%{http_code}' "$@" "$BASE$path") || die "GET $path: curl failed"
	[[ $code == 200 ]] || { head -c 600 "$WORK/body" >&2; echo >&2; die "GET $path: HTTP $code"; }
}

# expect TEXT WHAT: the last body contains TEXT (else the script fails).
expect() {
	grep -qF -- "$1" "$WORK/body" || { head -c 600 "$WORK/body" >&2; echo >&2; die "$2: '$1' not in the response"; }
	echo "ok $2"
}

# json EXPR: evaluate a PHP expression over the last body decoded as $j.
json() {
	php -r '$j = json_decode(file_get_contents($argv[1]), true); if ($j === null) { fwrite(STDERR, "not JSON\n"); exit(1); } echo '"$1"', "\n";' "$WORK/body"
}

run_installer() {
	local code
	code=$(curl -s -o "$WORK/body" -w '%{http_code}' -X POST "$BASE/wp-admin/install.php?step=2" \
		--data-urlencode 'weblog_title=Strata Blog' --data-urlencode 'user_name=admin' \
		--data-urlencode 'admin_password=Secret-Passw0rd!' --data-urlencode 'admin_password2=Secret-Passw0rd!' \
		--data-urlencode 'pw_weak=1' --data-urlencode 'admin_email=admin@example.com' \
		--data-urlencode 'blog_public=1' --data-urlencode 'language=')
	[[ $code == 200 ]] || { echo "install.php: HTTP $code" >&2; return 1; }
	expect 'WordPress has been installed' 'installer finished'
	[[ $(sql wordpress -e 'SELECT COUNT(*) FROM wp_users') == 1 ]] || { echo "no admin user after install" >&2; return 1; }
	echo "ok $(sql wordpress -e 'SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = "wordpress"') tables created"
}

run_content() {
	(cd "$TREE" && WP_TREE=$TREE WP_POSTS=${WP_POSTS:-40} timeout 300 php -d error_reporting='E_ALL & ~E_DEPRECATED' \
		-d display_errors=stderr "$HELPERS/content.php") >"$WORK/content.out" || { cat "$WORK/content.out"; return 1; }
	grep '^ok ' "$WORK/content.out"
	SUMMARY=$(tail -1 "$WORK/content.out")
	sv() { php -r '$s = json_decode($argv[1], true); echo $s[$argv[2]], "\n";' "$SUMMARY" "$1"; }
	FIRST=$(sv first)
	FIRST_LINK=$(sv first_link)
	STICKY=$(sv sticky)
	PUBLISHED=$(sv published)
	PAGE=$(sv page)
	CAT=$(sv cat_storage)
	SEARCH_EXPECT=$(sv search_expect)
	ALICE=$(sv alice)
	APP_PASSWORD=$(sv app_password)
}

browse() {
	get /
	expect 'Strata Blog' 'front page title'
	expect "$(sql wordpress -e "SELECT post_title FROM wp_posts WHERE ID = $STICKY")" 'sticky post on the front page'
	get "/?p=$FIRST"
	expect 'Great post on compaction.' 'single post shows its approved comment'
	expect 'Thanks!' 'single post shows the threaded reply'
	if grep -qF 'Buy now' "$WORK/body"; then
		echo "the pending comment is shown" >&2
		return 1
	fi
	get "$FIRST_LINK"
	expect 'Great post on compaction.' 'the same post by its pretty permalink'
	get '/?s=%22write+amplification%22'
	expect 'write amplification' 'search results page'
	get "/?cat=$CAT"
	expect 'Storage' 'category archive'
	get '/?tag=pebble'
	expect 'pebble' 'tag archive'
	get "/?author=$ALICE"
	expect 'Alice' 'author archive'
	get "/?page_id=$PAGE"
	expect 'About strata' 'page view'
	get '/?feed=rss2'
	expect '<rss' 'RSS feed'
	[[ $(grep -c '<item>' "$WORK/body") -ge 10 ]] || { echo "RSS feed has fewer than 10 items" >&2; return 1; }
	echo "ok RSS feed items"
}

login() {
	local jar=$WORK/cookies code
	curl -s -c "$jar" -o /dev/null "$BASE/wp-login.php"
	code=$(curl -s -b "$jar" -c "$jar" -o "$WORK/body" -w '%{http_code}' -X POST "$BASE/wp-login.php" \
		--data-urlencode 'log=admin' --data-urlencode 'pwd=Secret-Passw0rd!' \
		--data-urlencode 'wp-submit=Log In' --data-urlencode 'testcookie=1' \
		--data-urlencode "redirect_to=$BASE/wp-admin/")
	[[ $code == 302 ]] || { echo "wp-login.php: HTTP $code" >&2; return 1; }
	echo "ok login redirects"
	get /wp-admin/ -b "$jar"
	expect 'Dashboard' 'dashboard after login'
	get '/wp-admin/edit.php?post_type=post&s=Renamed' -b "$jar"
	expect 'Renamed post' 'admin post search'
	get '/wp-admin/edit-comments.php?comment_status=moderated' -b "$jar"
	expect 'Buy now' 'moderation queue'
}

rest_read() {
	get '/wp-json/wp/v2/posts?per_page=5'
	local total
	total=$(grep -i '^x-wp-total:' "$WORK/headers" | tr -dc '0-9')
	[[ $total == "$PUBLISHED" ]] || { echo "X-WP-Total $total, want $PUBLISHED" >&2; return 1; }
	[[ $(json 'count($j)') == 5 ]] || { echo "per_page=5 did not return 5 posts" >&2; return 1; }
	echo "ok /wp-json/wp/v2/posts: X-WP-Total $total, 5 per page"
	get '/?rest_route=/wp/v2/posts&search=%22write%20amplification%22&per_page=100'
	[[ $(json 'count($j)') == "$SEARCH_EXPECT" ]] || { echo "REST search: $(json 'count($j)') posts, want $SEARCH_EXPECT" >&2; return 1; }
	echo "ok /wp/v2/posts?search"
	get "/?rest_route=/wp/v2/posts/$FIRST"
	[[ $(json '$j["id"]') == "$FIRST" ]] || return 1
	echo "ok /wp/v2/posts/$FIRST"
	get "/wp-json/wp/v2/posts/$FIRST"
	[[ $(json '$j["id"]') == "$FIRST" ]] || return 1
	echo "ok /wp-json/wp/v2/posts/$FIRST"
	get "/?rest_route=/wp/v2/posts&categories=$CAT&per_page=100"
	[[ $(json 'count($j)') -gt 0 ]] || { echo "no posts in category $CAT" >&2; return 1; }
	echo "ok /wp/v2/posts?categories"
	get '/?rest_route=/wp/v2/pages'
	[[ $(json 'count($j)') -ge 3 ]] || { echo "fewer than 3 pages" >&2; return 1; }
	echo "ok /wp/v2/pages"
	get '/?rest_route=/wp/v2/categories&per_page=100'
	[[ $(json 'count($j)') == 4 ]] || { echo "categories: $(json 'count($j)')" >&2; return 1; }
	echo "ok /wp/v2/categories"
	get '/?rest_route=/wp/v2/tags&orderby=count&order=desc'
	[[ $(json 'count($j)') == 4 ]] || { echo "tags: $(json 'count($j)')" >&2; return 1; }
	echo "ok /wp/v2/tags"
	get "/?rest_route=/wp/v2/comments&post=$FIRST"
	[[ $(json 'count($j)') == 2 ]] || { echo "comments of $FIRST: $(json 'count($j)')" >&2; return 1; }
	echo "ok /wp/v2/comments?post"
	get '/?rest_route=/wp/v2/users'
	[[ $(json 'count($j)') -ge 3 ]] || { echo "users: $(json 'count($j)')" >&2; return 1; }
	echo "ok /wp/v2/users"
}

rest_write() {
	local auth=(-u "admin:$APP_PASSWORD" -H 'Content-Type: application/json') code id
	code=$(curl -s -o "$WORK/body" -w '%{http_code}' "${auth[@]}" -X POST "$BASE/?rest_route=/wp/v2/posts" \
		-d "{\"title\":\"Written over REST\",\"content\":\"Created through the REST API on strata.\",\"status\":\"publish\",\"categories\":[$CAT],\"tags\":[]}")
	[[ $code == 201 ]] || { echo "REST create: HTTP $code" >&2; head -c 600 "$WORK/body" >&2; return 1; }
	id=$(json '$j["id"]')
	echo "ok REST create post $id"
	code=$(curl -s -o "$WORK/body" -w '%{http_code}' "${auth[@]}" -X POST "$BASE/?rest_route=/wp/v2/posts/$id" -d '{"title":"Updated over REST"}')
	[[ $code == 200 && $(json '$j["title"]["raw"]') == 'Updated over REST' ]] || { echo "REST update: HTTP $code" >&2; return 1; }
	echo "ok REST update post"
	code=$(curl -s -o "$WORK/body" -w '%{http_code}' "${auth[@]}" -X POST "$BASE/?rest_route=/wp/v2/comments" \
		-d "{\"post\":$id,\"content\":\"A comment over REST.\"}")
	[[ $code == 201 ]] || { echo "REST comment: HTTP $code" >&2; head -c 600 "$WORK/body" >&2; return 1; }
	echo "ok REST create comment"
	get "/?rest_route=/wp/v2/posts&per_page=1"
	[[ $(json '$j[0]["id"]') == "$id" ]] || { echo "the new post is not the newest" >&2; return 1; }
	echo "ok new post listed first"
	code=$(curl -s -o "$WORK/body" -w '%{http_code}' "${auth[@]}" -X DELETE "$BASE/?rest_route=/wp/v2/posts/$id&force=true")
	[[ $code == 200 ]] || { echo "REST delete: HTTP $code" >&2; return 1; }
	[[ $(sql wordpress -e "SELECT COUNT(*) FROM wp_posts WHERE ID = $id") == 0 ]] || { echo "deleted post still in wp_posts" >&2; return 1; }
	[[ $(sql wordpress -e "SELECT COUNT(*) FROM wp_comments WHERE comment_post_ID = $id") == 0 ]] || { echo "deleted post's comments remain" >&2; return 1; }
	echo "ok REST delete post (and its comments)"
}

check_counts() {
	local bad
	bad=$(sql wordpress -e '
		SELECT COUNT(*) FROM wp_term_taxonomy tt
		WHERE tt.count <> (SELECT COUNT(*) FROM wp_term_relationships tr JOIN wp_posts p ON p.ID = tr.object_id
		                   WHERE tr.term_taxonomy_id = tt.term_taxonomy_id AND p.post_status = "publish" AND p.post_type = "post")')
	[[ $bad == 0 ]] || { echo "$bad term counts differ from the relationships" >&2; return 1; }
	echo "ok term counts match the relationships"
	bad=$(sql wordpress -e '
		SELECT COUNT(*) FROM wp_posts p
		WHERE p.comment_count <> (SELECT COUNT(*) FROM wp_comments c WHERE c.comment_post_ID = p.ID AND c.comment_approved = "1")')
	[[ $bad == 0 ]] || { echo "$bad comment counts differ" >&2; return 1; }
	echo "ok comment counts match"
	if [[ -f $WORK/debug.log ]] && grep -q 'WordPress database error' "$WORK/debug.log"; then
		grep 'WordPress database error' "$WORK/debug.log" | head -20 >&2
		return 1
	fi
	echo "ok no database errors in WordPress's debug log"
}

# ---------------------------------------------------------------- main

WORK=$(mktemp -d /tmp/strata-wordpress.XXXXXX)
chmod 755 "$WORK"

rc=0
install_packages || rc=$?
if ((rc == 77)); then
	echo "the WordPress packages could not be installed" >&2
	exit 77
fi
((rc == 0)) || die "install failed"
TIMINGS+=("$(printf '%-28s %4ds' install $((SECONDS - T0)))")
step "unpack wordpress" unpack_tree
step "start strata" start_strata
step "configure" configure
step "start php" start_php
step "installer" run_installer
step "content through the PHP API" run_content
step "pages over HTTP" browse
step "login and admin pages" login
step "REST API reads" rest_read
step "REST API writes" rest_write
step "counts and errors" check_counts

OK=1
echo
echo "WordPress on strata: all checks passed ($((SECONDS - T0))s)"
printf '  %s\n' "${TIMINGS[@]}"

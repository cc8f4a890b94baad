#!/usr/bin/env bash
# mysqldump round trips between strata and MariaDB (issue: real applications).
#
#   1. a strata database dumped with mysqldump loads into MariaDB;
#   2. a MariaDB database dumped with `mysqldump --single-transaction` loads
#      into strata;
# and in both directions row counts and per-table checksums (computed with
# the same portable query on both servers) match, and the CHECK constraints
# arrive and are enforced;
#   4. a strata dump loads into strata with SHOW CREATE TABLE unchanged
#      (CHECK constraints, NOT ENFORCED ones included).
#
# Usage: scripts/compat/mysqldump.sh [STRATA_BINARY]
# Installs mariadb-server and mariadb-client when missing (needs root).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$(pwd)
BIN=${1:-${STRATA_BINARY:-$ROOT/strata}}
[[ -x $BIN ]] || go build -o "$BIN" ./cmd/strata

if ! command -v mariadbd >/dev/null && [[ ! -x /usr/sbin/mariadbd ]]; then
	echo "installing mariadb-server"
	DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -q mariadb-server >/dev/null ||
		{ DEBIAN_FRONTEND=noninteractive timeout 600 apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -q mariadb-server >/dev/null; }
fi
MARIADBD=$(command -v mariadbd || echo /usr/sbin/mariadbd)

TMP=$(mktemp -d /tmp/strata-dump.XXXXXX)
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
"$BIN" serve --datadir "$TMP/strata" --port "$SP" --bind 127.0.0.1 >"$TMP/strata.log" 2>&1 &
PIDS+=($!)
MP=$(free_port)
mariadb-install-db --datadir="$TMP/maria" --user=root --auth-root-authentication-method=normal >"$TMP/maria-install.log" 2>&1
"$MARIADBD" --no-defaults --datadir="$TMP/maria" --user=root --port="$MP" --bind-address=127.0.0.1 \
	--socket="$TMP/maria.sock" --skip-grant-tables --skip-log-bin --pid-file="$TMP/maria.pid" >"$TMP/maria.log" 2>&1 &
PIDS+=($!)
wait_ready "$SP"
wait_ready "$MP"

S=(mysql -h127.0.0.1 -P"$SP" -uroot)
M=(mysql -h127.0.0.1 -P"$MP" -uroot)

# The fixture: types whose text form both servers print identically.
FIXTURE=$(cat <<'SQL'
CREATE TABLE customers (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(100) NOT NULL,
  email VARCHAR(255) DEFAULT NULL,
  balance DECIMAL(12,2) NOT NULL DEFAULT '0.00',
  born DATE DEFAULT NULL,
  created DATETIME NOT NULL,
  status ENUM('active','blocked') NOT NULL DEFAULT 'active',
  notes TEXT,
  flags TINYINT UNSIGNED NOT NULL DEFAULT 0 CHECK (flags < 250),
  UNIQUE KEY uk_email (email),
  KEY idx_name (name),
  CONSTRAINT chk_balance CHECK (balance > -100000 AND name <> '')
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE TABLE orders (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  customer_id INT NOT NULL,
  amount DECIMAL(10,2) NOT NULL,
  placed TIMESTAMP NULL DEFAULT NULL,
  payload VARBINARY(32) DEFAULT NULL,
  KEY idx_cust (customer_id, placed),
  CHECK (amount >= 0),
  CONSTRAINT fk_orders_customer FOREIGN KEY (customer_id) REFERENCES customers (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE TABLE tags (name VARCHAR(20), weight SMALLINT) ENGINE=InnoDB;
SQL
)
gen_rows() { # n
	python3 - "$1" <<'PY'
import sys, random
random.seed(42)
n = int(sys.argv[1])
out = []
for i in range(1, n + 1):
    name = random.choice(["Ann", "Bob", "Zoë", "O'Brien", "Back\\slash", "Ünïcödé", "tab\tname"]) + str(i)
    email = "NULL" if i % 7 == 0 else "'u%d@example.com'" % i
    notes = "NULL" if i % 5 == 0 else "'line1\\nline2 %d \\'q\\''" % i
    out.append("INSERT INTO customers (name,email,balance,born,created,status,notes,flags) VALUES ('%s',%s,%d.%02d,%s,'2024-%02d-%02d %02d:%02d:%02d','%s',%s,%d);" % (
        name.replace("\\", "\\\\").replace("'", "\\'").replace("\t", "\\t"), email, random.randint(-9999, 99999), random.randint(0, 99),
        "NULL" if i % 3 == 0 else "'19%02d-%02d-%02d'" % (random.randint(50, 99), random.randint(1, 12), random.randint(1, 28)),
        random.randint(1, 12), random.randint(1, 28), random.randint(0, 23), random.randint(0, 59), random.randint(0, 59),
        random.choice(["active", "blocked"]), notes, random.randint(0, 249)))
    for j in range(random.randint(0, 3)):
        out.append("INSERT INTO orders (customer_id, amount, placed, payload) VALUES (%d, %d.%02d, %s, %s);" % (
            i, random.randint(0, 9999), random.randint(0, 99),
            "NULL" if j == 2 else "'2024-03-%02d 10:%02d:00'" % (random.randint(1, 28), random.randint(0, 59)),
            "NULL" if j == 1 else "X'%s'" % "".join(random.choice("0123456789ABCDEF") for _ in range(8))))
out.append("INSERT INTO tags VALUES ('a',1),('b',NULL),(NULL,3),('a',1);")
print("\n".join(out))
PY
}

# checksum DB PORT: one line per table: name rows crc
checksum() {
	local db=$1
	shift
	local cli=("$@")
	"${cli[@]}" -N "$db" -e "
SELECT 'customers', COUNT(*), COALESCE(SUM(CRC32(CONCAT_WS('|', id, name, IFNULL(email,'~'), balance, IFNULL(born,'~'), created, status, IFNULL(notes,'~'), flags))), 0) FROM customers;
SELECT 'orders', COUNT(*), COALESCE(SUM(CRC32(CONCAT_WS('|', id, customer_id, amount, IFNULL(placed,'~'), IFNULL(HEX(payload),'~')))), 0) FROM orders;
SELECT 'tags', COUNT(*), COALESCE(SUM(CRC32(CONCAT_WS('|', IFNULL(name,'~'), IFNULL(weight,'~')))), 0) FROM tags;"
}

# checks DB CLI...: the number of CHECK constraints of DB, then whether a
# row violating one is refused (1) or not (0); the same for the foreign key.
checks() {
	local db=$1
	shift
	local cli=("$@")
	"${cli[@]}" -N -e "SELECT COUNT(*) FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = '$db'"
	if "${cli[@]}" "$db" -e "INSERT INTO orders (customer_id, amount) VALUES (1, -1)" 2>/dev/null; then echo 0; else echo 1; fi
	"${cli[@]}" -N -e "SELECT COUNT(*) FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = '$db'"
	if "${cli[@]}" "$db" -e "INSERT INTO orders (customer_id, amount) VALUES (999999, 1)" 2>/dev/null; then echo 0; else echo 1; fi
}

fail=0
compare() { # label a b
	if [[ "$2" != "$3" ]]; then
		echo "FAIL: $1 checksums differ"
		echo "--- first:"; echo "$2"; echo "--- second:"; echo "$3"
		fail=1
	else
		echo "ok: $1"
		echo "$2" | sed 's/^/    /'
	fi
}

ROWS=$(gen_rows 300)

# 1. strata -> MariaDB
"${S[@]}" -e "CREATE DATABASE src"
{ echo "$FIXTURE"; echo "$ROWS"; } | "${S[@]}" src
mysqldump -h127.0.0.1 -P"$SP" -uroot --single-transaction src >"$TMP/from-strata.sql"
"${M[@]}" -e "CREATE DATABASE dst"
"${M[@]}" dst <"$TMP/from-strata.sql"
compare "strata dump loads into MariaDB" "$(checksum src "${S[@]}")" "$(checksum dst "${M[@]}")"
compare "strata's CHECK constraints load into MariaDB" "$(checks src "${S[@]}")" "$(checks dst "${M[@]}")"

# 2. MariaDB -> strata
"${M[@]}" -e "CREATE DATABASE msrc"
{ echo "$FIXTURE"; echo "$ROWS"; } | "${M[@]}" msrc
mysqldump -h127.0.0.1 -P"$MP" -uroot --single-transaction msrc >"$TMP/from-maria.sql"
"${S[@]}" -e "CREATE DATABASE mdst"
"${S[@]}" mdst <"$TMP/from-maria.sql"
compare "MariaDB dump loads into strata" "$(checksum msrc "${M[@]}")" "$(checksum mdst "${S[@]}")"
compare "MariaDB's CHECK constraints load into strata" "$(checks msrc "${M[@]}")" "$(checks mdst "${S[@]}")"

# 3. The same data inserted on both servers is identical.
compare "same inserts, same data" "$(checksum src "${S[@]}")" "$(checksum msrc "${M[@]}")"

# 4. strata -> strata: table definitions unchanged, CHECK constraints (MySQL
# 8.0 forms MariaDB lacks: NOT ENFORCED, generated names) included.
"${S[@]}" -e "CREATE DATABASE ck; CREATE DATABASE ck2"
"${S[@]}" ck -e "CREATE TABLE t (a INT CHECK (a > 0), b VARCHAR(10) CONSTRAINT b_x CHECK (b LIKE 'x%') NOT ENFORCED, CHECK (a < 100 OR b IS NULL)); INSERT INTO t VALUES (1, 'y')"
mysqldump -h127.0.0.1 -P"$SP" -uroot --single-transaction ck >"$TMP/ck.sql"
"${S[@]}" ck2 <"$TMP/ck.sql"
compare "strata dump loads into strata" "$("${S[@]}" -N ck -e "SHOW CREATE TABLE t; SELECT * FROM t")" "$("${S[@]}" -N ck2 -e "SHOW CREATE TABLE t; SELECT * FROM t")"

# 5. strata -> strata with generated columns: the dump carries their
# values (MariaDB's mysqldump does), which the load ignores outside strict
# mode and computes again.
"${S[@]}" -e "CREATE DATABASE gc; CREATE DATABASE gc2"
"${S[@]}" gc -e "CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, s INT AS (a + b), c VARCHAR(20) AS (CONCAT('x', a)) STORED, KEY (s)); INSERT INTO t (id, a, b) VALUES (1, 1, 2), (2, 10, NULL)"
mysqldump -h127.0.0.1 -P"$SP" -uroot --single-transaction gc >"$TMP/gc.sql"
"${S[@]}" gc2 <"$TMP/gc.sql"
compare "generated columns: strata dump loads into strata" "$("${S[@]}" -N gc -e "SHOW CREATE TABLE t; SELECT * FROM t; SELECT id FROM t WHERE s = 3")" "$("${S[@]}" -N gc2 -e "SHOW CREATE TABLE t; SELECT * FROM t; SELECT id FROM t WHERE s = 3")"

# 6. strata -> strata with mysqldump's locking defaults: LOCK TABLES …
# READ LOCAL per database (views included), and --lock-all-tables
# (FLUSH TABLES WITH READ LOCK).
"${S[@]}" -e "CREATE DATABASE lk; CREATE DATABASE lk2; CREATE DATABASE lk3"
"${S[@]}" lk -e "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10)); INSERT INTO t VALUES (1, 'a'), (2, 'b'); CREATE VIEW v AS SELECT id FROM t"
mysqldump -h127.0.0.1 -P"$SP" -uroot lk >"$TMP/lk.sql"
"${S[@]}" lk2 <"$TMP/lk.sql"
mysqldump -h127.0.0.1 -P"$SP" -uroot --lock-all-tables lk >"$TMP/lk-all.sql"
"${S[@]}" lk3 <"$TMP/lk-all.sql"
lk=$("${S[@]}" -N lk -e "SELECT * FROM t; SELECT * FROM v")
compare "LOCK TABLES dump loads into strata" "$lk" "$("${S[@]}" -N lk2 -e "SELECT * FROM t; SELECT * FROM v")"
compare "--lock-all-tables dump loads into strata" "$lk" "$("${S[@]}" -N lk3 -e "SELECT * FROM t; SELECT * FROM v")"

if ((fail)); then
	echo "mysqldump round trips: FAILED"
	exit 1
fi
echo "mysqldump round trips: all checks passed"

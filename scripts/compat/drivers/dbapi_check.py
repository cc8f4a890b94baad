#!/usr/bin/python3
"""DB-API driver check against strata: pymysql or MySQLdb (mysqlclient).

Usage: dbapi_check.py pymysql|MySQLdb   (STRATA_HOST, STRATA_PORT from the environment)

Connects, runs DDL, parameterized and plain statements, a transaction that
rolls back and one that commits, NULLs, dates, decimals, unicode and the
duplicate-key (1062) and unknown-table (1146) errors. Prints one OK line per
check and exits non-zero on the first mismatch.
"""
import datetime
import decimal
import importlib
import os
import sys

modname = sys.argv[1]
drv = importlib.import_module(modname)
host = os.environ.get("STRATA_HOST", "127.0.0.1")
port = int(os.environ.get("STRATA_PORT", "3306"))
tag = modname


def check(name, got, want):
    if got != want:
        print(f"FAIL [{tag}] {name}: got {got!r}, want {want!r}")
        sys.exit(1)
    print(f"OK   [{tag}] {name}")


def error_code(fn):
    try:
        fn()
    except drv.MySQLError as e:  # both drivers export MySQLError
        return e.args[0]
    return None


kw = dict(host=host, port=port, user="root", charset="utf8mb4")
kw["password" if modname == "pymysql" else "passwd"] = ""
conn = drv.connect(**kw)
cur = conn.cursor()
cur.execute("SELECT VERSION()")
check("connect + SELECT VERSION()", cur.fetchone()[0].startswith("8.0"), True)

db = "drv_" + modname.lower()
cur.execute(f"DROP DATABASE IF EXISTS {db}")
cur.execute(f"CREATE DATABASE {db}")
conn.select_db(db)
cur.execute("""CREATE TABLE product (
    id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    name VARCHAR(50) NOT NULL,
    price DECIMAL(10,2),
    born DATE,
    updated DATETIME(6),
    note TEXT NULL,
    qty BIGINT,
    UNIQUE KEY uk_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4""")
print(f"OK   [{tag}] CREATE TABLE")

rows = [
    ("apple", decimal.Decimal("1.25"), datetime.date(2024, 2, 29), datetime.datetime(2024, 2, 29, 13, 45, 6, 123456), "red", 10),
    ("pear", decimal.Decimal("-0.50"), None, None, None, None),
    ("héllo ✓", decimal.Decimal("99999999.99"), datetime.date(1999, 12, 31), datetime.datetime(2000, 1, 1, 0, 0, 0), "ünïcode", -9223372036854775808),
]
cur.executemany("INSERT INTO product (name, price, born, updated, note, qty) VALUES (%s, %s, %s, %s, %s, %s)", rows)
check("executemany rowcount", cur.rowcount, 3)
conn.commit()

cur.execute("INSERT INTO product (name, price) VALUES (%s, %s)", ("plum", "3.5"))
check("lastrowid", cur.lastrowid, 4)
conn.commit()

cur.execute("SELECT name, price, born, updated, note, qty FROM product WHERE id = %s", (1,))
check("decimal/date/datetime(6) round trip", cur.fetchone(), rows[0])
cur.execute("SELECT name, price, born, updated, note, qty FROM product WHERE name = %s", ("pear",))
check("NULLs round trip", cur.fetchone(), rows[1])
cur.execute("SELECT name, price, born, updated, note, qty FROM product WHERE name = %s", ("héllo ✓",))
check("unicode, max decimal, min bigint", cur.fetchone(), rows[2])
cur.execute("SELECT price FROM product WHERE name = 'plum'")
check("plain statement, string to decimal", cur.fetchone()[0], decimal.Decimal("3.50"))
cur.execute("SELECT COUNT(*) FROM product WHERE note IS NULL")
check("IS NULL count", cur.fetchone()[0], 2)
cur.execute("SELECT name FROM product WHERE born BETWEEN %s AND %s ORDER BY born", (datetime.date(1999, 1, 1), datetime.date(2024, 12, 31)))
check("date range parameters", [r[0] for r in cur.fetchall()], ["héllo ✓", "apple"])
cur.execute("SELECT SUM(price), DATE_ADD(%s, INTERVAL 1 DAY), %s IS NULL FROM product", (datetime.date(2024, 2, 28), None))
s, d, n = cur.fetchone()
check("SUM(decimal), DATE_ADD, NULL parameter", (s, str(d), n), (decimal.Decimal("100000004.24"), "2024-02-29", 1))

cur.execute("UPDATE product SET qty = qty + 1 WHERE qty IS NOT NULL")
check("UPDATE rowcount", cur.rowcount, 2)
conn.commit()

# Transactions: rollback then commit.
conn.begin()
cur.execute("INSERT INTO product (name) VALUES ('rolled back')")
cur.execute("UPDATE product SET note = 'changed' WHERE id = 1")
conn.rollback()
cur.execute("SELECT COUNT(*) FROM product WHERE name = 'rolled back'")
check("rollback discards insert", cur.fetchone()[0], 0)
cur.execute("SELECT note FROM product WHERE id = 1")
check("rollback discards update", cur.fetchone()[0], "red")
conn.begin()
cur.execute("INSERT INTO product (name) VALUES ('committed')")
conn.commit()
other = drv.connect(db=db, **kw)
oc = other.cursor()
oc.execute("SELECT COUNT(*) FROM product WHERE name = 'committed'")
check("commit visible to another connection", oc.fetchone()[0], 1)
other.close()

check("duplicate key error code", error_code(lambda: cur.execute("INSERT INTO product (name) VALUES (%s)", ("apple",))), 1062)
conn.rollback()
try:
    cur.execute("INSERT INTO product (name) VALUES ('apple')")
except drv.IntegrityError:
    print(f"OK   [{tag}] duplicate key raises IntegrityError")
else:
    check("duplicate key raises IntegrityError", "no error", "IntegrityError")
check("unknown table error code", error_code(lambda: cur.execute("SELECT * FROM no_such_table")), 1146)
check("NOT NULL violation error code", error_code(lambda: cur.execute("INSERT INTO product (name) VALUES (NULL)")), 1048)
check("out of range error code", error_code(lambda: cur.execute("INSERT INTO product (name, price) VALUES ('big', 1e12)")), 1264)
conn.rollback()

cur.execute(f"DROP DATABASE {db}")
conn.close()
print(f"PASS [{tag}]")

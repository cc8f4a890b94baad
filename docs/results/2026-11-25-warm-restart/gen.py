# Generates the warm-restart measurement data: users(100k) and
# page_views(N rows) as multi-row INSERT statements, plus hot.sql.
import random, sys
N = int(sys.argv[1])
rnd = random.Random(42)
with open("load.sql", "w") as f:
    f.write("CREATE DATABASE IF NOT EXISTS w; USE w;\n")
    f.write("CREATE TABLE users (id INT PRIMARY KEY, name VARCHAR(64), country CHAR(2));\n")
    f.write("CREATE TABLE page_views (id BIGINT PRIMARY KEY, ts DATETIME NOT NULL, user_id INT NOT NULL, url VARCHAR(255), referrer VARCHAR(255), country CHAR(2), KEY ix_ts (ts));\n")
    rows = []
    for i in range(1, 100001):
        rows.append("(%d,'user-%d-%08x','%s')" % (i, i, rnd.getrandbits(32), rnd.choice(["US","DE","FR","IN","BR","JP"])))
        if len(rows) == 2000:
            f.write("INSERT INTO users VALUES " + ",".join(rows) + ";\n"); rows = []
    base = 1577836800  # 2020-01-01
    for i in range(1, N + 1):
        ts = base + i * 10 + rnd.randrange(10)
        u = rnd.randrange(1, 100001)
        url = "https://example.com/p/%d/%08x%08x" % (rnd.randrange(50000), rnd.getrandbits(32), rnd.getrandbits(32))
        ref = "https://ref%d.example.org/q?s=%08x" % (rnd.randrange(1000), rnd.getrandbits(32))
        rows.append("(%d,FROM_UNIXTIME(%d),%d,'%s','%s','%s')" % (i, ts, u, url, ref, rnd.choice(["US","DE","FR","IN","BR","JP"])))
        if len(rows) == 1000:
            f.write("INSERT INTO page_views VALUES " + ",".join(rows) + ";\n"); rows = []
    if rows:
        f.write("INSERT INTO page_views VALUES " + ",".join(rows) + ";\n")
hot = rnd.sample(range(1, N + 1), 20000)
with open("hot.sql", "w") as f:
    f.write("USE w;\n")
    for i in hot:
        f.write("SELECT url FROM page_views WHERE id = %d;\n" % i)
with open("join.sql", "w") as f:
    f.write("SELECT pv.id, pv.ts, u.name, pv.url FROM w.page_views pv JOIN w.users u ON u.id = pv.user_id ORDER BY pv.ts DESC LIMIT 10;\n")

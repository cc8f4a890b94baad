// Command shardcheck verifies that every row of a hash-sharded table sits on
// the shard Vitess's hash vindex assigns it to. It connects directly to each
// shard's MySQL server (strata), reads the sharding column of every row,
// computes the keyspace id with vindexes.Hash (the code vtgate routes with)
// and checks it lies in the shard's key range. It prints the rows per shard
// and table and exits 1 on any misplaced row.
//
//	shardcheck -db vt_sbtest -user root -password pw \
//	    -shard -80=127.0.0.1:25101 -shard 80-=127.0.0.1:25102 \
//	    -table sbtest1:id -table sbtest2:id
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"vitess.io/vitess/go/mysql"
	"vitess.io/vitess/go/vt/key"
	"vitess.io/vitess/go/vt/vtgate/vindexes"
)

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

func main() {
	var shards, tables multi
	db := flag.String("db", "", "database name on every shard")
	user := flag.String("user", "root", "user")
	password := flag.String("password", "", "password")
	flag.Var(&shards, "shard", "SHARD=HOST:PORT, e.g. -80=127.0.0.1:3306 (repeat)")
	flag.Var(&tables, "table", "TABLE:COLUMN sharded by a hash vindex on COLUMN (repeat)")
	flag.Parse()
	if *db == "" || len(shards) == 0 || len(tables) == 0 {
		flag.Usage()
		os.Exit(2)
	}
	vdx, err := vindexes.CreateVindex("hash", "hash", nil)
	if err != nil {
		fail("%v", err)
	}
	hash := vdx.(*vindexes.Hash)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	bad := 0
	for _, t := range tables {
		table, col, ok := strings.Cut(t, ":")
		if !ok {
			fail("-table %q: want TABLE:COLUMN", t)
		}
		total := 0
		var parts []string
		for _, s := range shards {
			name, addr, ok := strings.Cut(s, "=")
			if !ok {
				fail("-shard %q: want SHARD=HOST:PORT", s)
			}
			ranges, err := key.ParseShardingSpec(name)
			if err != nil || len(ranges) != 1 {
				fail("shard %q: not a key range (%v)", name, err)
			}
			host, port, err := net.SplitHostPort(addr)
			if err != nil {
				fail("shard %q: %v", s, err)
			}
			p, _ := strconv.Atoi(port)
			conn, err := mysql.Connect(ctx, &mysql.ConnParams{Host: host, Port: p, Uname: *user, Pass: *password, DbName: *db})
			if err != nil {
				fail("connect to shard %s at %s: %v", name, addr, err)
			}
			qr, err := conn.ExecuteFetch(fmt.Sprintf("SELECT `%s` FROM `%s`", col, table), 100_000_000, false)
			conn.Close()
			if err != nil {
				fail("shard %s: %v", name, err)
			}
			misplaced := 0
			for _, row := range qr.Rows {
				ksid, err := hash.Hash(row[0])
				if err != nil {
					fail("shard %s: hash of %v: %v", name, row[0], err)
				}
				if !key.KeyRangeContains(ranges[0], ksid) {
					if misplaced < 5 {
						fmt.Printf("MISPLACED %s.%s=%s on shard %s: keyspace id %x\n", table, col, row[0].ToString(), name, ksid)
					}
					misplaced++
				}
			}
			bad += misplaced
			total += len(qr.Rows)
			parts = append(parts, fmt.Sprintf("%s=%d", name, len(qr.Rows)))
			if misplaced > 0 {
				fmt.Printf("%s: %d of %d rows on shard %s belong elsewhere\n", table, misplaced, len(qr.Rows), name)
			}
		}
		fmt.Printf("%s: %d rows: %s\n", table, total, strings.Join(parts, " "))
	}
	if bad > 0 {
		fail("%d rows on the wrong shard", bad)
	}
	fmt.Println("shardcheck: every row is on the shard its hash vindex names")
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "shardcheck: "+format+"\n", args...)
	os.Exit(1)
}

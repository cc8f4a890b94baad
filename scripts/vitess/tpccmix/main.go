// Command tpccmix runs strata's TPC-C client (internal/bench/tpcc) against
// any MySQL endpoint — in scripts/vitess/two_shards.sh, vtgate in front of
// two strata shards. It creates the nine tables, loads a small database,
// runs the 45/43/4/4/4 transaction mix for -time and then runs TPC-C's
// consistency checks on every -check DSN (each shard directly: with every
// table sharded by its warehouse column a shard holds whole warehouses, so
// the checks hold per shard). It exits 1 if a transaction failed with
// anything but a retried deadlock or a check does not hold.
//
//	tpccmix -dsn 'root@tcp(127.0.0.1:25306)/sbtest' \
//	    -check 'root:pw@tcp(127.0.0.1:25101)/vt_sbtest' -check …
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	_ "github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/bench/tpcc"
)

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

func main() {
	var checks multi
	dsn := flag.String("dsn", "", "go-sql-driver DSN of the endpoint to load and run against")
	flag.Var(&checks, "check", "DSN to run the consistency checks on (repeat; default -dsn)")
	warehouses := flag.Int("warehouses", 4, "warehouses")
	terminals := flag.Int("terminals", 4, "terminals")
	d := flag.Duration("time", 20*time.Second, "how long to run the mix")
	vtgate := flag.Bool("vtgate", false, "-dsn is a vtgate: wait until its schema tracker knows the new tables' columns")
	flag.Parse()
	if *dsn == "" {
		flag.Usage()
		os.Exit(2)
	}
	if len(checks) == 0 {
		checks = multi{*dsn}
	}
	ctx, cancel := context.WithTimeout(context.Background(), *d+10*time.Minute)
	defer cancel()

	db := open(*dsn, *terminals+4)
	defer db.Close()
	// A small database: the transactions and their SQL are TPC-C's, the
	// cardinalities are not (a quick run on a shared 2-core machine).
	s := tpcc.Scale{Warehouses: *warehouses, Districts: 10, Customers: 300, Items: 2000, Names: 100}
	if err := tpcc.CreateSchema(ctx, db); err != nil {
		fail("create schema: %v", err)
	}
	if *vtgate {
		waitForColumns(ctx, db)
	}
	t0 := time.Now()
	if err := tpcc.Load(ctx, db, s, 1, 2); err != nil {
		fail("load: %v", err)
	}
	fmt.Printf("tpccmix: loaded %d warehouses in %.1fs\n", s.Warehouses, time.Since(t0).Seconds())

	st, elapsed, err := tpcc.Run(ctx, db, s, *terminals, *d, 1)
	if err != nil {
		fail("run: %v", err)
	}
	var parts []string
	for k, name := range tpcc.TxNames {
		parts = append(parts, fmt.Sprintf("%s %d (retries %d)", name, st.Committed[k], st.Retries[k]))
	}
	fmt.Printf("tpccmix: %d transactions in %.1fs (%.0f/s), tpmC %.0f: %s; %d new-orders rolled back as specified\n",
		st.Total(), elapsed.Seconds(), float64(st.Total())/elapsed.Seconds(), st.NewOrdersPerMinute(elapsed),
		strings.Join(parts, ", "), st.RolledBack)
	bad := false
	for i, e := range st.Errors {
		if i < 10 {
			fmt.Printf("tpccmix: error: %s\n", e)
		}
		bad = true
	}
	if st.Committed[0] == 0 {
		fmt.Println("tpccmix: no new-order committed")
		bad = true
	}
	for _, c := range checks {
		cdb := open(c, 2)
		res, err := tpcc.RunChecks(ctx, cdb, 2*time.Minute)
		cdb.Close()
		if err != nil {
			fail("checks on %s: %v", redact(c), err)
		}
		for _, r := range res {
			fmt.Printf("tpccmix: check on %s: %s: %s\n", redact(c), r.Name, r)
			if !r.Holds() {
				bad = true
			}
		}
	}
	if bad {
		os.Exit(1)
	}
}

// tables are the TPC-C tables tpcc.Schema creates.
var tables = []string{"warehouse", "district", "customer", "history", "new_orders", "orders", "order_line", "item", "stock"}

// waitForColumns waits until vtgate can plan an INSERT without a column
// list into every table (the loader's statements): vtgate learns a new
// table's columns from its tablets' schema change signal, a moment after
// the CREATE TABLE has returned (until then: VT09004).
func waitForColumns(ctx context.Context, db *sql.DB) {
	deadline := time.Now().Add(time.Minute)
	for _, t := range tables {
		rows, err := db.QueryContext(ctx, "SELECT * FROM "+t+" LIMIT 0")
		if err != nil {
			fail("%s: %v", t, err)
		}
		cols, err := rows.Columns()
		rows.Close()
		if err != nil {
			fail("%s: %v", t, err)
		}
		q := "VEXPLAIN PLAN INSERT INTO " + t + " VALUES (" + strings.TrimSuffix(strings.Repeat("NULL,", len(cols)), ",") + ")"
		for {
			_, err := db.ExecContext(ctx, q)
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				fail("vtgate does not know the columns of %s after a minute: %v", t, err)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
}

func open(dsn string, conns int) *sql.DB {
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		fail("%v", err)
	}
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	return db
}

// redact drops the password from a DSN for printing.
func redact(dsn string) string {
	if at := strings.LastIndex(dsn, "@"); at >= 0 {
		if user, _, ok := strings.Cut(dsn[:at], ":"); ok {
			return user + "@" + dsn[at+1:]
		}
	}
	return dsn
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "tpccmix: "+format+"\n", args...)
	os.Exit(1)
}

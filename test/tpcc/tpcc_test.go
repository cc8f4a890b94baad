package tpcc

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/bench/tpcc"
	"github.com/strata-db/strata/internal/testserver"
)

// scale is the scaled-down database: ten last names per district, three
// customers each, so lookups by name find several rows as in TPC-C.
var scale = tpcc.Scale{Warehouses: 2, Districts: 10, Customers: 30, Items: 1000, Names: 10}

func envInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive integer", name, v)
	}
	return n
}

func TestTPCC(t *testing.T) {
	if testing.Short() {
		t.Skip("TPC-C mix skipped under -short")
	}
	seconds := envInt(t, "STRATA_TPCC_SECONDS", 60)
	terminals := envInt(t, "STRATA_TPCC_TERMINALS", 4)
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(seconds+120)*time.Second)
	defer cancel()

	srv := testserver.Start(t, testserver.Options{})
	admin := srv.DB(t, "")
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE tpcc"); err != nil {
		t.Fatal(err)
	}
	db := srv.DB(t, "tpcc")
	db.SetMaxOpenConns(terminals + 2)
	db.SetMaxIdleConns(terminals + 2)
	if err := tpcc.CreateSchema(ctx, db); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := tpcc.Load(ctx, db, scale, 1, 2); err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded %+v in %v", scale, time.Since(start).Round(time.Millisecond))

	total, elapsed, err := tpcc.Run(ctx, db, scale, terminals, time.Duration(seconds)*time.Second, 1)
	if err != nil {
		t.Fatal(err)
	}
	for k, name := range tpcc.TxNames {
		t.Logf("%-12s committed %6d  retries %4d", name, total.Committed[k], total.Retries[k])
	}
	t.Logf("new-orders rolled back (invalid item): %d; orders delivered: %d (districts with none: %d)",
		total.RolledBack, total.Delivered, total.SkippedDist)
	t.Logf("%d terminals, %v: %d transactions, tpmC %.0f (new-orders/min), tpmTotal %.0f",
		terminals, elapsed.Round(time.Millisecond), total.Total(), total.NewOrdersPerMinute(elapsed), float64(total.Total())/elapsed.Minutes())
	for i, e := range total.Errors {
		if i == 10 {
			t.Errorf("… %d more errors", len(total.Errors)-10)
			break
		}
		t.Errorf("transaction error: %s", e)
	}
	if total.Committed[0] == 0 || total.Committed[1] == 0 {
		t.Errorf("no new-order or payment committed")
	}

	checks, err := tpcc.RunChecks(ctx, db, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range checks {
		if c.Holds() {
			t.Logf("consistency condition %s: holds (%.3f s)", c.Name, c.Outcome.Seconds)
		} else {
			t.Errorf("consistency condition %s: %s", c.Name, c)
		}
	}
	counts, err := tpcc.OrderLineCounts(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	missing := 0
	for _, o := range total.Orders {
		v, ok := counts[[3]int{o.W, o.D, o.O}]
		if !ok || v[0] != o.Lines || v[1] != o.Lines {
			if missing++; missing <= 5 {
				t.Errorf("committed new-order %d/%d/%d (%d lines): in db %v (o_ol_cnt, lines), present=%v", o.W, o.D, o.O, o.Lines, v, ok)
			}
		}
	}
	if missing == 0 {
		t.Logf("all %d committed new-orders are present with all their lines", len(total.Orders))
	} else {
		t.Errorf("%d committed new-orders missing or incomplete", missing)
	}
}

package tpcc

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/testserver"
)

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
	for _, q := range schema {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	start := time.Now()
	if err := load(ctx, db); err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded %d warehouses × %d districts × %d customers, %d items in %v",
		numWarehouses, districtsPerW, customersPerD, numItems, time.Since(start).Round(time.Millisecond))
	st, err := prepareAll(ctx, db)
	if err != nil {
		t.Fatal(err)
	}

	terms := make([]*terminal, terminals)
	deadline := time.Now().Add(time.Duration(seconds) * time.Second)
	var wg sync.WaitGroup
	for i := range terms {
		terms[i] = &terminal{db: db, st: st, r: rand.New(rand.NewPCG(uint64(i)+7, 99)), w: 1 + i%numWarehouses}
		wg.Add(1)
		go func(tm *terminal) {
			defer wg.Done()
			tm.run(ctx, deadline)
		}(terms[i])
	}
	wg.Wait()
	elapsed := time.Since(deadline.Add(-time.Duration(seconds) * time.Second))

	var total stats
	var orders []committedOrder
	for _, tm := range terms {
		total.add(&tm.stats)
		orders = append(orders, tm.orders...)
	}
	all := 0
	for k := range total.committed {
		all += total.committed[k]
		t.Logf("%-12s committed %6d  retries %4d", txNames[k], total.committed[k], total.retries[k])
	}
	minutes := elapsed.Minutes()
	t.Logf("new-orders rolled back (invalid item): %d; orders delivered: %d (districts with none: %d)",
		total.rolledBack, total.delivered, total.skippedDist)
	t.Logf("%d terminals, %v: %d transactions, tpmC %.0f (new-orders/min), tpmTotal %.0f",
		terminals, elapsed.Round(time.Millisecond), all, float64(total.committed[txNewOrder])/minutes, float64(all)/minutes)
	for i, e := range total.errs {
		if i == 10 {
			t.Errorf("… %d more errors", len(total.errs)-10)
			break
		}
		t.Errorf("transaction error: %s", e)
	}
	if total.committed[txNewOrder] == 0 || total.committed[txPayment] == 0 {
		t.Errorf("no new-order or payment committed")
	}

	for _, c := range consistencyQueries {
		bad, err := violations(ctx, db, c.q)
		switch {
		case err != nil:
			t.Errorf("consistency condition %s: %v", c.name, err)
		case len(bad) > 0:
			t.Errorf("consistency condition %s violated:\n%v", c.name, bad)
		default:
			t.Logf("consistency condition %s: holds", c.name)
		}
	}
	counts, err := orderLineCounts(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	missing := 0
	for _, o := range orders {
		v, ok := counts[[3]int{o.w, o.d, o.o}]
		if !ok || v[0] != o.olCnt || v[1] != o.olCnt {
			if missing++; missing <= 5 {
				t.Errorf("committed new-order %d/%d/%d (%d lines): in db %v (o_ol_cnt, lines), present=%v", o.w, o.d, o.o, o.olCnt, v, ok)
			}
		}
	}
	if missing == 0 {
		t.Logf("all %d committed new-orders are present with all their lines", len(orders))
	} else {
		t.Errorf("%d committed new-orders missing or incomplete", missing)
	}
}

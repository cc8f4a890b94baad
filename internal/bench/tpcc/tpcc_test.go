package tpcc

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestNURand(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	c := constantsFor(1)
	seen := map[int]int{}
	for range 100000 {
		v := nurand(r, 1023, c.custID, 1, 3000)
		if v < 1 || v > 3000 {
			t.Fatalf("NURand(1023, 1, 3000) = %d", v)
		}
		seen[v]++
	}
	if len(seen) < 2500 {
		t.Errorf("NURand hit only %d of 3000 values", len(seen))
	}
	if d := (c.nameRun - c.nameLoad + 256) % 256; d < 65 || d > 119 || d == 96 || d == 112 {
		t.Errorf("C_RUN - C_LOAD = %d", d)
	}
	if constantsFor(1) != c || constantsFor(2) == c {
		t.Error("constants are not a function of the seed")
	}
}

func TestNames(t *testing.T) {
	if lastName(0) != "BARBARBAR" || lastName(371) != "PRICALLYOUGHT" || lastName(999) != "EINGEINGEING" {
		t.Errorf("lastName: %s %s %s", lastName(0), lastName(371), lastName(999))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		if n := randomName(r, 10, 10); n < 0 || n >= 10 {
			t.Fatalf("randomName = %d", n)
		}
	}
	for range 1000 {
		s := data(r)
		if len(s) < 26 || len(s) > 50 {
			t.Fatalf("data %q", s)
		}
	}
}

func TestScale(t *testing.T) {
	full := Full(3)
	if full.Validate() != nil || full.Orders() != 3000 || full.NewOrders() != 900 || full.Items != 100000 {
		t.Errorf("Full(3) = %+v", full)
	}
	for _, bad := range []Scale{
		{Warehouses: 0, Districts: 10, Customers: 30, Items: 1000, Names: 10},
		{Warehouses: 1, Districts: 11, Customers: 30, Items: 1000, Names: 10},
		{Warehouses: 1, Districts: 10, Customers: 30, Items: 10, Names: 10},
		{Warehouses: 1, Districts: 10, Customers: 5, Items: 1000, Names: 10},
	} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestStats(t *testing.T) {
	var a, b Stats
	a.Committed[txNewOrder], a.RolledBack = 58, 2
	b.Committed[txPayment] = 40
	b.Latencies[txPayment] = []time.Duration{time.Millisecond}
	a.Add(&b)
	if a.Total() != 100 || a.NewOrdersPerMinute(30*time.Second) != 120 || len(a.Latencies[txPayment]) != 1 {
		t.Errorf("stats %+v", a)
	}
}

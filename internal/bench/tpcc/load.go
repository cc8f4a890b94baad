package tpcc

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/strata-db/strata/internal/bench/query"
)

// loadDate is the entry and delivery date of every initial order, the
// customers' C_SINCE and the initial history rows' H_DATE: a constant, so
// that a load is the same on every engine and every run.
const loadDate = "'2024-01-01 00:00:00'"

// Load fills the tables (created by CreateSchema) with the initial
// database of clause 4.3.3 at scale s: items, then per warehouse its
// stock, districts, customers with one history row each, and one order
// per customer (the last 30 % undelivered, in new_orders). Values are
// drawn from a generator seeded with seed, so a seed gives the same data
// on every engine. Multi-row INSERTs of up to 200 rows are sent over
// workers connections.
func Load(ctx context.Context, db *sql.DB, s Scale, seed uint64, workers int) error {
	if err := s.Validate(); err != nil {
		return err
	}
	l := query.NewLoader(ctx, db, workers)
	g := &generator{s: s, r: rand.New(rand.NewPCG(seed, 0x7cc)), c: constantsFor(seed), l: l}
	g.all()
	return l.Wait()
}

// generator produces the initial database as INSERT statements.
type generator struct {
	s Scale
	r *rand.Rand
	c constants
	l *query.Loader
}

// batchRows is the number of rows per INSERT.
const batchRows = 200

// batch accumulates rows of one table.
type batch struct{ *query.Batch }

func (g *generator) batch(prefix string) batch { return batch{g.l.Batch(prefix, batchRows)} }

func (b batch) add(format string, args ...any) { b.Add(fmt.Sprintf(format, args...)) }

// cents renders a random amount in [lo, hi] hundredths.
func (g *generator) cents(lo, hi int64) string { return formatCents(lo + g.r.Int64N(hi-lo+1)) }

// fraction renders a random DECIMAL(4,4) in [0, hi/10000].
func (g *generator) fraction(hi int) string { return fmt.Sprintf("0.%04d", g.r.IntN(hi+1)) }

// ok reports whether the loader still takes statements.
func (g *generator) ok() bool { return g.l.Err() == nil }

func (g *generator) all() {
	items := g.batch("INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data) VALUES ")
	for i := 1; i <= g.s.Items && g.ok(); i++ {
		items.add("(%d,%d,'%s',%s,'%s')", i, 1+g.r.IntN(10000), astring(g.r, 14, 24), g.cents(100, 10000), data(g.r))
	}
	items.Flush()
	for w := 1; w <= g.s.Warehouses && g.ok(); w++ {
		g.warehouse(w)
	}
}

func (g *generator) warehouse(w int) {
	ytd := formatCents(int64(g.s.Districts) * 3000000)
	g.l.Exec(fmt.Sprintf("INSERT INTO warehouse (w_id, w_name, w_street_1, w_city, w_state, w_zip, w_tax, w_ytd) VALUES (%d,'%s',%s,%s,%s)",
		w, astring(g.r, 6, 10), g.address(), g.fraction(2000), ytd))
	stock := g.batch("INSERT INTO stock VALUES ")
	for i := 1; i <= g.s.Items && g.ok(); i++ {
		var dists strings.Builder
		for range 10 {
			fmt.Fprintf(&dists, "'%s',", astring(g.r, 24, 24))
		}
		stock.add("(%d,%d,%d,%s0,0,0,'%s')", i, w, 10+g.r.IntN(91), dists.String(), data(g.r))
	}
	stock.Flush()
	for d := 1; d <= g.s.Districts && g.ok(); d++ {
		g.district(w, d)
	}
}

// address is a street, city, state and zip (the schema keeps one street
// line of TPC-C's two).
func (g *generator) address() string {
	return fmt.Sprintf("'%s','%s','%s','%s'", astring(g.r, 10, 20), astring(g.r, 10, 20), pick(g.r, alnum[:26], 2), zip(g.r))
}

func (g *generator) district(w, d int) {
	g.l.Exec(fmt.Sprintf("INSERT INTO district VALUES (%d,%d,'%s',%s,%s,30000.00,%d)",
		d, w, astring(g.r, 6, 10), g.address(), g.fraction(2000), g.s.Orders()+1))
	cust := g.batch("INSERT INTO customer VALUES ")
	hist := g.batch("INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES ")
	for c := 1; c <= g.s.Customers && g.ok(); c++ {
		name := c - 1
		if c > g.s.Names {
			name = randomName(g.r, g.c.nameLoad, g.s.Names)
		}
		credit := "GC"
		if g.r.IntN(10) == 0 {
			credit = "BC"
		}
		cust.add("(%d,%d,%d,'%s','OE','%s','%s',%s,'%s',50000.00,%s,-10.00,10.00,1,0,'%s')",
			c, d, w, astring(g.r, 8, 16), lastName(name), nstring(g.r, 16, 16), loadDate, credit, g.fraction(5000), astring(g.r, 300, 500))
		hist.add("(%d,%d,%d,%d,%d,%s,10.00,'%s')", c, d, w, d, w, loadDate, astring(g.r, 12, 24))
	}
	cust.Flush()
	hist.Flush()

	orders := g.batch("INSERT INTO orders VALUES ")
	lines := g.batch("INSERT INTO order_line VALUES ")
	newOrders := g.batch("INSERT INTO new_orders VALUES ")
	perm := g.r.Perm(g.s.Customers)
	firstNew := g.s.Orders() - g.s.NewOrders() + 1
	for o := 1; o <= g.s.Orders() && g.ok(); o++ {
		delivered := o < firstNew
		olCnt := 5 + g.r.IntN(11)
		carrier := "NULL"
		if delivered {
			carrier = fmt.Sprint(1 + g.r.IntN(10))
		}
		orders.add("(%d,%d,%d,%d,%s,%s,%d,1)", o, d, w, perm[o-1]+1, loadDate, carrier, olCnt)
		for n := 1; n <= olCnt; n++ {
			deliveryD, amount := loadDate, "0.00"
			if !delivered {
				deliveryD, amount = "NULL", g.cents(1, 999999)
			}
			lines.add("(%d,%d,%d,%d,%d,%d,%s,5,%s,'%s')", o, d, w, n, 1+g.r.IntN(g.s.Items), w, deliveryD, amount, astring(g.r, 24, 24))
		}
		if !delivered {
			newOrders.add("(%d,%d,%d)", o, d, w)
		}
	}
	for _, b := range []batch{orders, lines, newOrders} {
		b.Flush()
	}
}

package tpcc

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
)

// batchInserter accumulates VALUES tuples and sends them as multi-row
// INSERTs in the text protocol.
type batchInserter struct {
	ctx    context.Context
	db     *sql.DB
	prefix string
	rows   []string
	err    error
}

func (b *batchInserter) add(tuple string) {
	b.rows = append(b.rows, tuple)
	if len(b.rows) >= 200 {
		b.flush()
	}
}

func (b *batchInserter) flush() {
	if len(b.rows) == 0 || b.err != nil {
		b.rows = b.rows[:0]
		return
	}
	q := b.prefix + strings.Join(b.rows, ",")
	if _, err := b.db.ExecContext(b.ctx, q); err != nil {
		b.err = fmt.Errorf("load: %.80s…: %w", q, err)
	}
	b.rows = b.rows[:0]
}

func randString(r *rand.Rand, n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[r.IntN(len(letters))]
	}
	return string(b)
}

// load fills the tables at the package's scale. Initial YTD figures follow
// TPC-C (W_YTD 300000.00 = 10 × D_YTD 30000.00); each customer has one
// order, the last initialNewOrder of which are undelivered.
func load(ctx context.Context, db *sql.DB) error {
	r := rand.New(rand.NewPCG(1, 2))
	newBatch := func(prefix string) *batchInserter {
		return &batchInserter{ctx: ctx, db: db, prefix: prefix}
	}
	items := newBatch("INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data) VALUES ")
	for i := 1; i <= numItems; i++ {
		items.add(fmt.Sprintf("(%d,%d,'%s',%d.%02d,'%s')", i, 1+r.IntN(10000), randString(r, 14),
			1+r.IntN(99), r.IntN(100), randString(r, 30)))
	}
	items.flush()
	if items.err != nil {
		return items.err
	}
	for w := 1; w <= numWarehouses; w++ {
		if _, err := db.ExecContext(ctx, fmt.Sprintf(
			"INSERT INTO warehouse VALUES (%d,'W%d','street','city','ST','123451111',0.%04d,300000.00)",
			w, w, r.IntN(2000))); err != nil {
			return fmt.Errorf("load warehouse: %w", err)
		}
		stock := newBatch("INSERT INTO stock VALUES ")
		for i := 1; i <= numItems; i++ {
			var dists strings.Builder
			for d := 1; d <= districtsPerW; d++ {
				fmt.Fprintf(&dists, "'%s',", randString(r, 24))
			}
			stock.add(fmt.Sprintf("(%d,%d,%d,%s0,0,0,'%s')", i, w, 10+r.IntN(91), dists.String(), randString(r, 40)))
		}
		stock.flush()
		if stock.err != nil {
			return stock.err
		}
		for d := 1; d <= districtsPerW; d++ {
			if err := loadDistrict(ctx, db, r, w, d); err != nil {
				return err
			}
		}
	}
	return nil
}

func loadDistrict(ctx context.Context, db *sql.DB, r *rand.Rand, w, d int) error {
	if _, err := db.ExecContext(ctx, fmt.Sprintf(
		"INSERT INTO district VALUES (%d,%d,'D%d','street','city','ST','123451111',0.%04d,30000.00,%d)",
		d, w, d, r.IntN(2000), initialOrders+1)); err != nil {
		return fmt.Errorf("load district: %w", err)
	}
	cust := &batchInserter{ctx: ctx, db: db, prefix: "INSERT INTO customer VALUES "}
	hist := &batchInserter{ctx: ctx, db: db, prefix: "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES "}
	for c := 1; c <= customersPerD; c++ {
		credit := "GC"
		if r.IntN(10) == 0 {
			credit = "BC"
		}
		cust.add(fmt.Sprintf("(%d,%d,%d,'%s','OE','%s','0123456789012345','2024-01-01 00:00:00','%s',50000.00,0.%04d,-10.00,10.00,1,0,'%s')",
			c, d, w, randString(r, 10), customerLastName(c), credit, r.IntN(5000), randString(r, 300)))
		hist.add(fmt.Sprintf("(%d,%d,%d,%d,%d,'2024-01-01 00:00:00',10.00,'%s')", c, d, w, d, w, randString(r, 20)))
	}
	cust.flush()
	hist.flush()
	if cust.err != nil {
		return cust.err
	}
	if hist.err != nil {
		return hist.err
	}
	orders := &batchInserter{ctx: ctx, db: db, prefix: "INSERT INTO orders VALUES "}
	lines := &batchInserter{ctx: ctx, db: db, prefix: "INSERT INTO order_line VALUES "}
	newOrders := &batchInserter{ctx: ctx, db: db, prefix: "INSERT INTO new_orders VALUES "}
	perm := r.Perm(customersPerD)
	for o := 1; o <= initialOrders; o++ {
		delivered := o <= initialOrders-initialNewOrder
		olCnt := 5 + r.IntN(11)
		carrier := "NULL"
		if delivered {
			carrier = fmt.Sprint(1 + r.IntN(10))
		}
		orders.add(fmt.Sprintf("(%d,%d,%d,%d,'2024-01-01 00:00:00',%s,%d,1)", o, d, w, perm[o-1]+1, carrier, olCnt))
		for n := 1; n <= olCnt; n++ {
			deliveryD, amount := "'2024-01-01 00:00:00'", "0.00"
			if !delivered {
				deliveryD, amount = "NULL", fmt.Sprintf("%d.%02d", r.IntN(10000), r.IntN(100))
			}
			lines.add(fmt.Sprintf("(%d,%d,%d,%d,%d,%d,%s,5,%s,'%s')", o, d, w, n, 1+r.IntN(numItems), w, deliveryD, amount, randString(r, 24)))
		}
		if !delivered {
			newOrders.add(fmt.Sprintf("(%d,%d,%d)", o, d, w))
		}
	}
	for _, b := range []*batchInserter{orders, lines, newOrders} {
		b.flush()
		if b.err != nil {
			return b.err
		}
	}
	return nil
}

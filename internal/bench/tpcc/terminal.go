package tpcc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Transaction kinds, in mix order.
const (
	txNewOrder = iota
	txPayment
	txOrderStatus
	txDelivery
	txStockLevel
	numTxKinds
)

// TxNames are the transaction kinds' names, in mix order; the arrays of
// Stats are indexed alike.
var TxNames = [numTxKinds]string{"new-order", "payment", "order-status", "delivery", "stock-level"}

// pickKind draws a transaction kind in TPC-C's minimum mix: 45 % new-order,
// 43 % payment and 4 % each of the others.
func pickKind(r *rand.Rand) int {
	switch n := r.IntN(100); {
	case n < 45:
		return txNewOrder
	case n < 88:
		return txPayment
	case n < 92:
		return txOrderStatus
	case n < 96:
		return txDelivery
	default:
		return txStockLevel
	}
}

var (
	// errInvalidItem makes a new-order roll back (TPC-C 2.4.2.3).
	errInvalidItem = errors.New("invalid item")
	// errConflict marks a lost race that is retried like a deadlock.
	errConflict = errors.New("conflict")
)

// retryable reports whether err is a deadlock (1213), a lock wait timeout
// (1205) or errConflict.
func retryable(err error) bool {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number == 1213 || me.Number == 1205
	}
	return errors.Is(err, errConflict)
}

// Order is a new-order the server acknowledged: warehouse, district, order
// id and line count.
type Order struct{ W, D, O, Lines int }

// Stats count transactions (of one terminal or, added up, of a run).
type Stats struct {
	Committed [numTxKinds]int
	// Retries are attempts that ended in a deadlock or lock wait timeout
	// and were run again.
	Retries [numTxKinds]int
	// Latencies of every committed transaction (new-order: also those
	// rolled back on the invalid item), from the first attempt's BEGIN to
	// the COMMIT's answer, retries included.
	Latencies   [numTxKinds][]time.Duration
	RolledBack  int // new-orders rolled back on an invalid item (clause 2.4.2.3)
	Delivered   int // orders delivered by delivery transactions
	SkippedDist int // delivery districts with no new order
	Errors      []string
	Orders      []Order // committed new-orders
}

// Add adds o's counts to s.
func (s *Stats) Add(o *Stats) {
	for k := range s.Committed {
		s.Committed[k] += o.Committed[k]
		s.Retries[k] += o.Retries[k]
		s.Latencies[k] = append(s.Latencies[k], o.Latencies[k]...)
	}
	s.RolledBack += o.RolledBack
	s.Delivered += o.Delivered
	s.SkippedDist += o.SkippedDist
	s.Errors = append(s.Errors, o.Errors...)
	s.Orders = append(s.Orders, o.Orders...)
}

// terminal is one TPC-C terminal bound to a home warehouse.
type terminal struct {
	db    *sql.DB
	st    *stmts
	s     Scale
	c     constants
	r     *rand.Rand
	w     int
	stats Stats

	// Results of the last attempt, recorded only once it commits.
	pending                  Order
	deliveredNow, skippedNow int
}

// maxErrors stops a terminal that keeps failing, so a broken server does
// not flood the log.
const maxErrors = 20

// run executes transactions until ctx is done or the deadline passes.
func (t *terminal) run(ctx context.Context, deadline time.Time) {
	for time.Now().Before(deadline) && ctx.Err() == nil && len(t.stats.Errors) < maxErrors {
		kind := pickKind(t.r)
		if err := t.exec(ctx, kind); err != nil && ctx.Err() == nil {
			t.stats.Errors = append(t.stats.Errors, fmt.Sprintf("%s (w=%d): %v", TxNames[kind], t.w, err))
		}
	}
}

// customerID draws a customer id with NURand(1023, 1, customers).
func (t *terminal) customerID() int { return nurand(t.r, 1023, t.c.custID, 1, t.s.Customers) }

// itemID draws an item id with NURand(8191, 1, items).
func (t *terminal) itemID() int { return nurand(t.r, 8191, t.c.itemID, 1, t.s.Items) }

// lastName draws a customer last name to look up.
func (t *terminal) lastName() string { return lastName(randomName(t.r, t.c.nameRun, t.s.Names)) }

// exec runs one transaction of the given kind, retrying it on deadlocks
// and lock wait timeouts.
func (t *terminal) exec(ctx context.Context, kind int) error {
	var body func(*sql.Tx) error
	switch kind {
	case txNewOrder:
		body = t.newOrder()
	case txPayment:
		body = t.payment()
	case txOrderStatus:
		body = t.orderStatus()
	case txDelivery:
		body = t.delivery()
	default:
		body = t.stockLevel()
	}
	start := time.Now()
	for attempt := 0; ; attempt++ {
		err := t.inTx(ctx, body)
		switch {
		case err == nil:
			t.stats.Committed[kind]++
			t.stats.Latencies[kind] = append(t.stats.Latencies[kind], time.Since(start))
			switch kind {
			case txNewOrder:
				t.stats.Orders = append(t.stats.Orders, t.pending)
			case txDelivery:
				t.stats.Delivered += t.deliveredNow
				t.stats.SkippedDist += t.skippedNow
			}
			return nil
		case errors.Is(err, errInvalidItem):
			t.stats.RolledBack++
			t.stats.Latencies[kind] = append(t.stats.Latencies[kind], time.Since(start))
			return nil
		case retryable(err) && attempt < 50:
			t.stats.Retries[kind]++
			time.Sleep(time.Duration(1+t.r.IntN(5*(attempt+1))) * time.Millisecond)
		default:
			return err
		}
	}
}

// inTx runs body in a transaction, committing on success and rolling back
// on error.
func (t *terminal) inTx(ctx context.Context, body func(*sql.Tx) error) error {
	tx, err := t.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := body(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

func (t *terminal) otherWarehouse() int {
	w := 1 + t.r.IntN(t.s.Warehouses-1)
	if w >= t.w {
		w++
	}
	return w
}

// cents parses a DECIMAL's text form ("12.34", "-5.00") into hundredths.
func cents(s string) (int64, error) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	frac = (frac + "00")[:2]
	v, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("decimal %q: %w", s, err)
	}
	if neg {
		v = -v
	}
	return v, nil
}

func formatCents(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

type orderLine struct{ item, supplyW, qty int }

// newOrder (TPC-C 2.4): allocate the district's next order id under a
// locking read, insert the order, look the items up, lock their stock rows
// with a row-constructor IN list, update them and insert the lines in one
// multi-row INSERT. 1 % of orders carry an unused item id and roll back.
func (t *terminal) newOrder() func(*sql.Tx) error {
	w, d, c := t.w, 1+t.r.IntN(t.s.Districts), t.customerID()
	olCnt := 5 + t.r.IntN(11)
	lines := make([]orderLine, olCnt)
	seen := map[int]bool{}
	allLocal := 1
	for i := range lines {
		item := t.itemID()
		for seen[item] {
			item = t.itemID()
		}
		seen[item] = true
		sw := w
		if t.s.Warehouses > 1 && t.r.IntN(100) == 0 {
			sw, allLocal = t.otherWarehouse(), 0
		}
		lines[i] = orderLine{item: item, supplyW: sw, qty: 1 + t.r.IntN(10)}
	}
	if t.r.IntN(100) == 0 {
		lines[olCnt-1].item = t.s.Items + 1 + t.r.IntN(1000) // unused: forces the rollback
	}
	// Lock stock rows in key order to keep deadlocks rare.
	sort.Slice(lines, func(i, j int) bool {
		if lines[i].supplyW != lines[j].supplyW {
			return lines[i].supplyW < lines[j].supplyW
		}
		return lines[i].item < lines[j].item
	})
	return func(tx *sql.Tx) error {
		var wTax, dTax string
		if err := tx.Stmt(t.st.wTax).QueryRow(w).Scan(&wTax); err != nil {
			return fmt.Errorf("warehouse tax: %w", err)
		}
		var oID int
		if err := tx.Stmt(t.st.dLockNext).QueryRow(w, d).Scan(&dTax, &oID); err != nil {
			return fmt.Errorf("district for update: %w", err)
		}
		if _, err := tx.Stmt(t.st.dIncNext).Exec(w, d); err != nil {
			return fmt.Errorf("district next_o_id: %w", err)
		}
		var discount, last, credit string
		if err := tx.Stmt(t.st.custInfo).QueryRow(w, d, c).Scan(&discount, &last, &credit); err != nil {
			return fmt.Errorf("customer: %w", err)
		}
		if _, err := tx.Stmt(t.st.insOrder).Exec(oID, d, w, c, olCnt, allLocal); err != nil {
			return fmt.Errorf("insert orders: %w", err)
		}
		if _, err := tx.Stmt(t.st.insNewOrder).Exec(oID, d, w); err != nil {
			return fmt.Errorf("insert new_orders: %w", err)
		}
		prices, err := t.itemPrices(tx, lines)
		if err != nil {
			return err
		}
		if len(prices) != len(lines) {
			return errInvalidItem
		}
		stock, err := t.lockStock(tx, d, lines)
		if err != nil {
			return err
		}
		var ins strings.Builder
		ins.WriteString("INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES ")
		args := make([]any, 0, 9*len(lines))
		for n, l := range lines {
			s := stock[[2]int{l.supplyW, l.item}]
			q := s.qty - l.qty
			if q < 10 {
				q += 91
			}
			remote := 0
			if l.supplyW != w {
				remote = 1
			}
			if _, err := tx.Stmt(t.st.updStock).Exec(q, l.qty, remote, l.supplyW, l.item); err != nil {
				return fmt.Errorf("update stock: %w", err)
			}
			if n > 0 {
				ins.WriteString(", ")
			}
			ins.WriteString("(?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)")
			args = append(args, oID, d, w, n+1, l.item, l.supplyW, l.qty, formatCents(int64(l.qty)*prices[l.item]), s.dist)
		}
		if _, err := tx.Exec(ins.String(), args...); err != nil {
			return fmt.Errorf("insert order_line: %w", err)
		}
		t.pending = Order{W: w, D: d, O: oID, Lines: olCnt}
		return nil
	}
}

func (t *terminal) itemPrices(tx *sql.Tx, lines []orderLine) (map[int]int64, error) {
	q := "SELECT i_id, i_price, i_name, i_data FROM item WHERE i_id IN (?" + strings.Repeat(", ?", len(lines)-1) + ")"
	args := make([]any, len(lines))
	for i, l := range lines {
		args[i] = l.item
	}
	rows, err := tx.Query(q, args...)
	if err != nil {
		return nil, fmt.Errorf("items: %w", err)
	}
	defer rows.Close()
	prices := map[int]int64{}
	for rows.Next() {
		var id int
		var price, name, data string
		if err := rows.Scan(&id, &price, &name, &data); err != nil {
			return nil, fmt.Errorf("items: %w", err)
		}
		if prices[id], err = cents(price); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("items: %w", err)
	}
	return prices, nil
}

type stockRow struct {
	qty  int
	dist string
}

// lockStock reads and locks the order's stock rows with
// `(s_w_id, s_i_id) IN ((?, ?), …) FOR UPDATE`.
func (t *terminal) lockStock(tx *sql.Tx, d int, lines []orderLine) (map[[2]int]stockRow, error) {
	q := fmt.Sprintf("SELECT s_w_id, s_i_id, s_quantity, s_dist_%02d, s_data FROM stock WHERE (s_w_id, s_i_id) IN ((?, ?)%s) FOR UPDATE",
		d, strings.Repeat(", (?, ?)", len(lines)-1))
	args := make([]any, 0, 2*len(lines))
	for _, l := range lines {
		args = append(args, l.supplyW, l.item)
	}
	rows, err := tx.Query(q, args...)
	if err != nil {
		return nil, fmt.Errorf("stock for update: %w", err)
	}
	defer rows.Close()
	out := map[[2]int]stockRow{}
	for rows.Next() {
		var sw, item int
		var s stockRow
		var data string
		if err := rows.Scan(&sw, &item, &s.qty, &s.dist, &data); err != nil {
			return nil, fmt.Errorf("stock for update: %w", err)
		}
		out[[2]int{sw, item}] = s
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("stock for update: %w", err)
	}
	if len(out) != len(lines) {
		return nil, fmt.Errorf("stock for update: row-constructor IN returned %d rows, want %d (%s %v)", len(out), len(lines), q, args)
	}
	return out, nil
}

// customerByName returns the id of the customer in the middle (rounded up)
// of those with the last name, ordered by first name (TPC-C 2.5.2.2).
func customerByName(tx *sql.Tx, st *sql.Stmt, w, d int, last string) (int, error) {
	rows, err := tx.Stmt(st).Query(w, d, last)
	if err != nil {
		return 0, fmt.Errorf("customer by name: %w", err)
	}
	defer rows.Close()
	var ids []int
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			return 0, fmt.Errorf("customer by name: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("customer by name: %w", err)
	}
	if len(ids) == 0 {
		return 0, fmt.Errorf("customer by name %q (w=%d d=%d): no rows", last, w, d)
	}
	return ids[(len(ids)-1)/2], nil
}

// payment (TPC-C 2.5): lock and update the warehouse's and district's YTD,
// find the customer (60 % by last name), update its balance and insert a
// history row. 15 % of payments are for a customer of another warehouse.
func (t *terminal) payment() func(*sql.Tx) error {
	w, d := t.w, 1+t.r.IntN(t.s.Districts)
	cw, cd := w, d
	if t.s.Warehouses > 1 && t.r.IntN(100) < 15 {
		cw, cd = t.otherWarehouse(), 1+t.r.IntN(t.s.Districts)
	}
	byName := t.r.IntN(100) < 60
	cid, last := t.customerID(), t.lastName()
	amount := formatCents(100 + t.r.Int64N(500000))
	return func(tx *sql.Tx) error {
		var wName, wYTD, dName, dYTD string
		if err := tx.Stmt(t.st.wLock).QueryRow(w).Scan(&wName, &wYTD); err != nil {
			return fmt.Errorf("warehouse for update: %w", err)
		}
		if _, err := tx.Stmt(t.st.wAddYTD).Exec(amount, w); err != nil {
			return fmt.Errorf("warehouse ytd: %w", err)
		}
		if err := tx.Stmt(t.st.dLockYTD).QueryRow(w, d).Scan(&dName, &dYTD); err != nil {
			return fmt.Errorf("district for update: %w", err)
		}
		if _, err := tx.Stmt(t.st.dAddYTD).Exec(amount, w, d); err != nil {
			return fmt.Errorf("district ytd: %w", err)
		}
		c := cid
		if byName {
			var err error
			if c, err = customerByName(tx, t.st.custIDsByName, cw, cd, last); err != nil {
				return err
			}
		}
		var first, cLast, credit, balance string
		if err := tx.Stmt(t.st.custLock).QueryRow(cw, cd, c).Scan(&first, &cLast, &credit, &balance); err != nil {
			return fmt.Errorf("customer for update: %w", err)
		}
		if credit == "BC" {
			data := fmt.Sprintf("%d %d %d %d %d %s|", c, cd, cw, d, w, amount)
			if _, err := tx.Stmt(t.st.custPayBC).Exec(amount, amount, data, cw, cd, c); err != nil {
				return fmt.Errorf("customer payment (BC): %w", err)
			}
		} else if _, err := tx.Stmt(t.st.custPay).Exec(amount, amount, cw, cd, c); err != nil {
			return fmt.Errorf("customer payment: %w", err)
		}
		if _, err := tx.Stmt(t.st.insHistory).Exec(c, cd, cw, d, w, amount, wName+"    "+dName); err != nil {
			return fmt.Errorf("insert history: %w", err)
		}
		return nil
	}
}

// orderStatus (TPC-C 2.6): find the customer, its last order with
// ORDER BY o_id DESC LIMIT 1, and that order's lines.
func (t *terminal) orderStatus() func(*sql.Tx) error {
	w, d := t.w, 1+t.r.IntN(t.s.Districts)
	byName := t.r.IntN(100) < 60
	cid, last := t.customerID(), t.lastName()
	return func(tx *sql.Tx) error {
		var (
			c                      int
			balance, first, middle string
			cLast                  string
			rows                   *sql.Rows
			err                    error
		)
		if byName {
			rows, err = tx.Stmt(t.st.custByName).Query(w, d, last)
		} else {
			rows, err = tx.Stmt(t.st.custByID).Query(w, d, cid)
		}
		if err != nil {
			return fmt.Errorf("customer: %w", err)
		}
		var ids []int
		for rows.Next() {
			if err := rows.Scan(&c, &balance, &first, &middle, &cLast); err != nil {
				rows.Close()
				return fmt.Errorf("customer: %w", err)
			}
			ids = append(ids, c)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("customer: %w", err)
		}
		if len(ids) == 0 {
			return fmt.Errorf("order-status: customer not found (w=%d d=%d id=%d name=%v %q)", w, d, cid, byName, last)
		}
		c = ids[(len(ids)-1)/2]
		var oID, olCnt int
		var carrier sql.NullInt64
		var entry string
		err = tx.Stmt(t.st.lastOrder).QueryRow(w, d, c).Scan(&oID, &carrier, &entry, &olCnt)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("order-status: customer %d/%d/%d has no order (every customer has one from the load)", w, d, c)
		}
		if err != nil {
			return fmt.Errorf("last order: %w", err)
		}
		lr, err := tx.Stmt(t.st.orderLines).Query(w, d, oID)
		if err != nil {
			return fmt.Errorf("order lines: %w", err)
		}
		defer lr.Close()
		n := 0
		for lr.Next() {
			var item, sw, qty int
			var amount string
			var delivered sql.NullString
			if err := lr.Scan(&item, &sw, &qty, &amount, &delivered); err != nil {
				return fmt.Errorf("order lines: %w", err)
			}
			if carrier.Valid != delivered.Valid {
				return fmt.Errorf("order %d/%d/%d: carrier set=%v but line delivery date set=%v", w, d, oID, carrier.Valid, delivered.Valid)
			}
			n++
		}
		if err := lr.Err(); err != nil {
			return fmt.Errorf("order lines: %w", err)
		}
		if n != olCnt {
			return fmt.Errorf("order %d/%d/%d: %d lines, o_ol_cnt %d", w, d, oID, n, olCnt)
		}
		return nil
	}
}

// delivery (TPC-C 2.7): for each district of the warehouse deliver the
// oldest undelivered order.
func (t *terminal) delivery() func(*sql.Tx) error {
	w, carrier := t.w, 1+t.r.IntN(10)
	return func(tx *sql.Tx) error {
		delivered, skipped := 0, 0
		for d := 1; d <= t.s.Districts; d++ {
			var oID int
			err := tx.Stmt(t.st.oldestNewOrder).QueryRow(w, d).Scan(&oID)
			if errors.Is(err, sql.ErrNoRows) {
				skipped++
				continue
			}
			if err != nil {
				return fmt.Errorf("oldest new order: %w", err)
			}
			res, err := tx.Stmt(t.st.delNewOrder).Exec(w, d, oID)
			if err != nil {
				return fmt.Errorf("delete new order: %w", err)
			}
			if n, err := res.RowsAffected(); err != nil || n != 1 {
				// Another delivery took it after our locking read.
				return fmt.Errorf("delete new order %d/%d/%d affected %d rows (%v): %w", w, d, oID, n, err, errConflict)
			}
			var c int
			if err := tx.Stmt(t.st.orderCustomer).QueryRow(w, d, oID).Scan(&c); err != nil {
				return fmt.Errorf("order customer %d/%d/%d: %w", w, d, oID, err)
			}
			if _, err := tx.Stmt(t.st.setCarrier).Exec(carrier, w, d, oID); err != nil {
				return fmt.Errorf("set carrier: %w", err)
			}
			if _, err := tx.Stmt(t.st.deliverLines).Exec(w, d, oID); err != nil {
				return fmt.Errorf("deliver lines: %w", err)
			}
			var sum sql.NullString
			if err := tx.Stmt(t.st.sumLines).QueryRow(w, d, oID).Scan(&sum); err != nil {
				return fmt.Errorf("sum lines: %w", err)
			}
			if !sum.Valid {
				return fmt.Errorf("order %d/%d/%d has no lines", w, d, oID)
			}
			if _, err := tx.Stmt(t.st.custDeliver).Exec(sum.String, w, d, c); err != nil {
				return fmt.Errorf("customer delivery: %w", err)
			}
			delivered++
		}
		t.deliveredNow, t.skippedNow = delivered, skipped
		return nil
	}
}

// stockLevel (TPC-C 2.8): count distinct items of the district's last 20
// orders whose stock is below a threshold.
func (t *terminal) stockLevel() func(*sql.Tx) error {
	w, d, threshold := t.w, 1+t.r.IntN(t.s.Districts), 10+t.r.IntN(11)
	return func(tx *sql.Tx) error {
		var next, low int
		if err := tx.Stmt(t.st.dNext).QueryRow(w, d).Scan(&next); err != nil {
			return fmt.Errorf("district next: %w", err)
		}
		if err := tx.Stmt(t.st.lowStock).QueryRow(w, d, next-20, next, threshold).Scan(&low); err != nil {
			return fmt.Errorf("low stock: %w", err)
		}
		if low < 0 || low > 20*15 {
			return fmt.Errorf("stock-level: implausible count %d", low)
		}
		return nil
	}
}

package tpcc

import (
	"context"
	"database/sql"
	"fmt"
)

// stmts are the fixed-shape statements, prepared once on the pool and bound
// to each transaction with Tx.StmtContext (server-side prepared statements).
// Statements whose shape varies with the order (item and stock IN lists,
// the multi-row order_line INSERT) are sent with arguments directly, which
// go-sql-driver/mysql also prepares on the server because the DSN turns
// client-side interpolation off.
type stmts struct {
	// new-order
	wTax, dLockNext, dIncNext, custInfo, insOrder, insNewOrder, updStock *sql.Stmt
	// payment
	wLock, wAddYTD, dLockYTD, dAddYTD, custIDsByName, custLock, custPay, custPayBC, insHistory *sql.Stmt
	// order-status
	custByID, custByName, lastOrder, orderLines *sql.Stmt
	// delivery
	oldestNewOrder, delNewOrder, orderCustomer, setCarrier, deliverLines, sumLines, custDeliver *sql.Stmt
	// stock-level
	dNext, lowStock *sql.Stmt

	all []*sql.Stmt
}

func prepareAll(ctx context.Context, db *sql.DB) (*stmts, error) {
	s := &stmts{}
	for _, p := range []struct {
		dst **sql.Stmt
		q   string
	}{
		{&s.wTax, "SELECT w_tax FROM warehouse WHERE w_id = ?"},
		{&s.dLockNext, "SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ? FOR UPDATE"},
		{&s.dIncNext, "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?"},
		{&s.custInfo, "SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?"},
		{&s.insOrder, "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, NOW(), NULL, ?, ?)"},
		{&s.insNewOrder, "INSERT INTO new_orders (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)"},
		{&s.updStock, "UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ? WHERE s_w_id = ? AND s_i_id = ?"},

		{&s.wLock, "SELECT w_name, w_ytd FROM warehouse WHERE w_id = ? FOR UPDATE"},
		{&s.wAddYTD, "UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?"},
		{&s.dLockYTD, "SELECT d_name, d_ytd FROM district WHERE d_w_id = ? AND d_id = ? FOR UPDATE"},
		{&s.dAddYTD, "UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?"},
		{&s.custIDsByName, "SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first"},
		{&s.custLock, "SELECT c_first, c_last, c_credit, c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ? FOR UPDATE"},
		{&s.custPay, "UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?"},
		{&s.custPayBC, "UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1, c_data = SUBSTRING(CONCAT(?, c_data), 1, 500) WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?"},
		{&s.insHistory, "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, NOW(), ?, ?)"},

		{&s.custByID, "SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?"},
		{&s.custByName, "SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first"},
		{&s.lastOrder, "SELECT o_id, o_carrier_id, o_entry_d, o_ol_cnt FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1"},
		{&s.orderLines, "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?"},

		{&s.oldestNewOrder, "SELECT no_o_id FROM new_orders WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id LIMIT 1 FOR UPDATE"},
		{&s.delNewOrder, "DELETE FROM new_orders WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?"},
		{&s.orderCustomer, "SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ? FOR UPDATE"},
		{&s.setCarrier, "UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?"},
		{&s.deliverLines, "UPDATE order_line SET ol_delivery_d = NOW() WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?"},
		{&s.sumLines, "SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?"},
		{&s.custDeliver, "UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?"},

		{&s.dNext, "SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?"},
		{&s.lowStock, "SELECT COUNT(DISTINCT s.s_i_id) FROM order_line ol JOIN stock s ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id WHERE ol.ol_w_id = ? AND ol.ol_d_id = ? AND ol.ol_o_id >= ? AND ol.ol_o_id < ? AND s.s_quantity < ?"},
	} {
		st, err := db.PrepareContext(ctx, p.q)
		if err != nil {
			s.close()
			return nil, fmt.Errorf("prepare %q: %w", p.q, err)
		}
		*p.dst = st
		s.all = append(s.all, st)
	}
	return s, nil
}

// close closes the prepared statements.
func (s *stmts) close() {
	for _, st := range s.all {
		st.Close()
	}
}
